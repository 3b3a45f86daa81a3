#!/usr/bin/env python3
"""Protocol soak: feed plyd a long stream of hostile lines and check that it
survives them.

    soak.py [--plyd PATH] [--protocol P] [--game GAME]... [--lines N] [--seed S]
            [--save-dir DIR]

For each game (UCI's default: othello xiangqi amazons einstein; each other
dialect's: its own game) one daemon is started and sent N lines (default
1,000,000) in the dialect `--protocol` names (uci, ucci, ugi, nboard, gtp,
botzone; default uci), a random mix of:

* garbage: random words from the dialect's vocabulary, absurd numbers,
  random bytes (not always UTF-8), very long lines, blank lines;
* option lines (`setoption` in UCI, UCCI and UGI; `set` in NBoard;
  `time_left`, `time_settings`, `boardsize`, `komi` in GTP) with unknown
  names, out-of-range and malformed values, and valid Threads / Hash /
  MultiPV changes between searches where the dialect has them;
* position lines: the start, random (mostly illegal) move words, lists of
  thousands of moves, broken position texts (UCCI `banmoves`, NBoard `set
  game` and `move`, GTP `play`, `undo`, `clear_board`);
* searches: UCI and UGI `go` with depth, nodes, movetime, a clock,
  `infinite` or `ponder` (UCCI's `go` with its seconds, `draw`, `depth
  infinite`), and `stop` / `ponderhit` / a second `go` sent at random
  moments while it runs; NBoard `go` and `hint n`, cut short by `ping`;
  GTP `genmove` with other commands queued behind it; Botzone turns, legal
  and illegal, as one request line or a whole history (simple or JSON);
  now and then `quit` (Botzone: stdin closed) in the middle of a search,
  after which the daemon must exit within QUIT_PATIENCE and a new one is
  started.

Checked, and counted in the summary, per dialect:

* uci: every stdout line has a protocol form (`id`, `option`, `uciok`,
  `readyok`, `info ...`, `bestmove`); every `go` is either refused at once
  with an error line or answered by exactly one `bestmove`; `isready` is
  answered (after every `go` and every 1,000 lines).
* ucci: the same with `ucciok`, `bye`, `nobestmove`, `pophash` and UCCI's
  `info` (no `cp`) and `bestmove ... [draw|resign]`; a malformed `go` is an
  error line and `nobestmove`; every `probe` gets one `pophash`; `quit` is
  answered `bye`.
* ugi: UCI's checks with `ugiok` and `response ...`; every `query` with a
  known question gets one `response`, or one error line when the last
  position sent was refused.
* nboard: only NBoard's lines (`set myname`, `status`, `nodestats`,
  `=== move[/eval/time]`, `search`, `pong`, `learned`); every `go` gets one
  `===` and a closing `status`, every `hint` a closing `status`, in order,
  or is dropped: by a `ping`, or by the next `go` or `hint` when it came
  during the search (the last one sent is answered unless a `ping` cut
  it); after a refused `set game`, a `go` or `hint` gets that error line
  alone; `ping n` gets `pong n`; `set depth n` gets `set myname plydn`.
* gtp: every command gets exactly one answer, `=[id] ...` or `?[id] ...`
  and an empty line, in the order sent and with the command's id (blank
  and comment lines none); every `genmove` answer is a square or `pass`;
  `name` is the ping.
* botzone: only answer lines (`x y` or `{"response":...}`) and the
  keep-running line; the soak plays the game itself, so it knows that a
  legal turn gets exactly one answer (a legal move, checked) and a refused
  one (an illegal request, a broken history) none; a legal turn is the
  ping.

In every dialect the daemon must never exit unasked and must exit after
quit. Patience is generous (30 s for an answer, 10 s for a quit during a
search): no check depends on the speed of the machine. The exit status is
0 only when nothing failed. Progress (every 10,000 lines) and the summary
go to stderr; each failure saves the daemon's command line, the last 2,000
lines sent to it and the last lines read in --save-dir (default
soak-failures, or SOAK_SAVE_DIR); with SOAK_DEBUG=1 each failure also shows
the last lines sent and read. The lines sent depend on the seed only
(Botzone's requests also on the bot's answers, which depend on timing),
so `--seed S` with the same dialect and game sends them again.
"""

import argparse
import collections
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time

PROTOCOL_LINE = re.compile(
    r"^(id (name|author) .+|option name .+|uciok|readyok|info .*|bestmove \S+( ponder \S+)?)$"
)
REFUSED_GO = "a search is already running"
# How every dialect refuses a request about the position after the last
# position sent was refused (it leaves none).
NO_POSITION = "no position: the last one sent was refused"
# NBoard's answer to `go` or `hint` on a finished game, in place of one.
GAME_OVER = "the game is over: there is no move to play"
# Commands whose answers the soak counts, and plyd's commands that print
# more than protocol lines (the board, the evaluation, perft, bench):
# garbage lines never hold them.
COUNTED = {"go", "stop", "ponderhit", "isready", "quit", "uci", "d", "eval", "bench", "perft"}
PATIENCE = 30.0
# A quit during a search: the daemon gives a search 2 s to stop; the rest
# is room for a loaded machine.
QUIT_PATIENCE = 10.0
PROGRESS_EVERY = 10_000
TRANSCRIPT_LINES = 2_000
SYNC_EVERY = int(os.environ.get("SOAK_SYNC_EVERY", "1000"))

WORDS = [
    "go", "stop", "ponderhit", "isready", "position", "startpos", "fen", "moves",
    "setoption", "name", "value", "ucinewgame", "depth", "nodes", "movetime",
    "wtime", "btime", "winc", "binc", "movestogo", "infinite", "ponder", "mate",
    "searchmoves", "Hash", "Threads", "MultiPV", "Ponder", "debug", "on", "off",
    "register", "later", "uci", "Clear", "Move", "Overhead", "EvalParams",
    "UCI_Variant", "0000", "a1", "e2e4", "-1", "0", "1", "18446744073709551616",
    "99999999999999999999", "1e9", "NaN", "-0", "\t", "é", "象", "(none)",
]
NUMBERS = ["-1", "0", "1", "2", "7", "1000", "65536", "4294967296",
           "18446744073709551616", "1e30", "NaN", "0x10", "+5", "--3", ""]
OPTIONS = ["Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "NullMove",
           "LMR", "ChancePruning", "EvalParams", "Evaluator", "No Such Option",
           "UCI_Variant", "Clear Hash", "hash", "THREADS"]
MOVE_WORDS = ["a1", "d3", "f5", "e2e4", "h2e2", "b0c2", "d1d7g7", "d1-d7/g7",
              "s123456", "r3", "0000", "zz9", "a11", "j10j1", "1", "@@", ""]


class Daemon:
    def __init__(self, argv):
        self.argv = argv
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=1 << 16)
        self.lines = queue.Queue()
        self.recent = collections.deque(maxlen=40)
        self.received = collections.deque(maxlen=40)
        # The last lines sent, whole, for the transcript a failure saves.
        self.transcript = collections.deque(maxlen=TRANSCRIPT_LINES)
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.rstrip(b"\r\n").decode("utf-8", "replace"))
        self.lines.put(None)

    def send(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.recent.append(data[:100])
        self.transcript.append(data)
        try:
            self.proc.stdin.write(data + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            raise EOFError from None  # the daemon is gone


class Soak:
    """The UCI soak; the other dialects' soaks below change its lines and
    its checks."""

    PROTOCOL_LINE = PROTOCOL_LINE
    # Share of the lines that are searches (two lines each).
    SEARCH_SHARE = 0.01

    def __init__(self, args, game):
        self.args = args
        self.game = game
        self.rng = random.Random(f"{args.seed}:{game}")
        self.counts = dict(lines=0, gos=0, refused=0, bestmoves=0, errors=0,
                           quits=0, restarts=0, bad_stdout=0, failures=0)
        self.outstanding = 0  # go lines sent and not yet answered
        # Lists of 1,000 to 100,000 move words, made once.
        self.long_positions = [
            "position startpos moves " + " ".join(self.rng.choice(MOVE_WORDS) or "a1" for _ in range(n))
            for n in (1000, 10000, 100000, 1000, 10000, 100000)
        ]
        self.slowest_quit = 0.0
        self.daemon = None
        self.start()

    def fail(self, why):
        self.counts["failures"] += 1
        print(f"soak {self.game}: FAIL at line {self.counts['lines']}: {why}", file=sys.stderr)
        if os.environ.get("SOAK_DEBUG"):
            print(f"  last lines sent: {list(self.daemon.recent)}", file=sys.stderr)
            print(f"  last lines read: {list(self.daemon.received)}", file=sys.stderr)
        self.save_transcript(why)

    def save_transcript(self, why):
        """Write the daemon's command line and the last lines sent to it
        (whole) and read from it to a file in --save-dir: replaying the
        sent lines into the same command reproduces what the daemon saw."""
        os.makedirs(self.args.save_dir, exist_ok=True)
        name = (f"soak-{self.args.protocol}-{self.game}-seed{self.args.seed}"
                f"-line{self.counts['lines']}-{self.counts['failures']}")
        path = os.path.join(self.args.save_dir, name)
        with open(path + ".in", "wb") as sent:
            for line in self.daemon.transcript:
                sent.write(line + b"\n")
        with open(path + ".txt", "w", encoding="utf-8", errors="replace") as note:
            note.write(f"failure: {why}\n")
            note.write(f"command: {' '.join(self.daemon.argv)}\n")
            note.write(f"seed {self.args.seed}, protocol {self.args.protocol}, game {self.game}, "
                       f"after {self.counts['lines']} lines; {path}.in holds the last "
                       f"{len(self.daemon.transcript)} lines sent to this daemon\n")
            note.write("last lines read:\n")
            for line in self.daemon.received:
                note.write(f"  {line}\n")
        print(f"soak {self.game}: transcript saved in {path}.in and {path}.txt", file=sys.stderr)

    def argv(self):
        return [self.args.plyd, "--game", self.game]

    def start(self):
        self.outstanding = 0
        self.daemon = Daemon(self.argv())
        self.greet()

    def greet(self):
        self.daemon.send("uci")
        self.read_until(lambda l: l == "uciok")

    def read_line(self, timeout):
        try:
            line = self.daemon.lines.get(timeout=timeout)
        except queue.Empty:
            return ""
        if line is None:
            raise EOFError
        self.daemon.received.append(line[:100])
        if not self.PROTOCOL_LINE.match(line):
            self.counts["bad_stdout"] += 1
            self.fail(f"not a protocol line on stdout: {line[:120]!r}")
        self.account(line)
        return line

    def account(self, line):
        """Count what `line` answers."""
        if line.startswith("info string error"):
            self.counts["errors"] += 1
            if REFUSED_GO in line:
                self.counts["refused"] += 1
                self.outstanding -= 1
        if line.startswith("bestmove"):
            self.counts["bestmoves"] += 1
            self.outstanding -= 1
            if self.outstanding < 0:
                self.fail("a bestmove that no go asked for")
                self.outstanding = 0

    def read_until(self, done):
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            line = self.read_line(deadline - time.monotonic())
            if line and done(line):
                return
        raise TimeoutError

    def wait_answers(self):
        """Read until every go sent has its answer."""
        deadline = time.monotonic() + PATIENCE
        while self.outstanding > 0:
            if time.monotonic() > deadline:
                raise TimeoutError
            self.read_line(deadline - time.monotonic())

    def sync(self):
        """isready, and every line up to its readyok; the errors seen."""
        before = self.counts["errors"], self.counts["refused"]
        self.daemon.send("isready")
        self.read_until(lambda l: l == "readyok")
        return self.counts["errors"] - before[0], self.counts["refused"] - before[1]

    def finish_search(self):
        if self.outstanding > 0:
            self.daemon.send("stop")
            self.wait_answers()

    # --- the lines -------------------------------------------------------

    def noise(self, words, long_prefix=b""):
        """A line of noise: random bytes (5%), one word of 1,000 to 100,000
        letters after `long_prefix` (2%), an empty line (3%), else 1 to 11
        of `words`."""
        r = self.rng.random()
        if r < 0.05:
            return random_bytes_line(self.rng)
        if r < 0.07:
            return long_prefix + b"x" * self.rng.randrange(1000, 100000)
        if r < 0.1:
            return b""
        return " ".join(self.rng.choice(words) for _ in range(self.rng.randrange(1, 12))).encode()

    def garbage(self):
        line = self.noise(WORDS)
        # UCI skips unknown tokens and reads a command further on, so no
        # word of a line may be a command whose answer the other generators
        # count: those are replaced.
        # A line that is not UTF-8 is read with its bad bytes replaced, so
        # its words count too.
        line = line.replace(b"\n", b" ").replace(b"\r", b" ")
        parts = re.split(rb"(\s+)", line)
        line = b"".join(b"xyzzy" if p.decode("utf-8", "replace") in COUNTED else p for p in parts)
        if any(w in COUNTED for w in line.decode("utf-8", "replace").split()):
            return b"xyzzy"  # split by other whitespace than ASCII's
        return line

    def setoption(self):
        name = self.rng.choice(OPTIONS)
        if self.rng.random() < 0.5:
            value = self.rng.choice(NUMBERS)
        else:
            value = self.rng.choice(["true", "false", "Star1", "maybe", "/no/such/file.toml", "1"])
        if name == "UCI_Variant" and value not in ("", "NaN"):
            value = "no-such-game"
        if name in ("Hash",) and value in ("65536", "4294967296", "1000"):
            value = "70000"  # out of range: refused; the in-range sizes come from between_searches
        return f"setoption name {name} value {value}"

    def position(self):
        r = self.rng.random()
        if r < 0.3:
            return "position startpos"
        if r < 0.35:
            return self.rng.choice(self.long_positions)
        if r < 0.7:
            return "position startpos moves " + " ".join(self.rng.choice(MOVE_WORDS) or "a1" for _ in range(self.rng.randrange(1, 8)))
        junk = "".join(self.rng.choice("rnbakpcRNBAKPC/0123456789 qQ.wbrx-") for _ in range(self.rng.randrange(1, 90)))
        return "position fen " + junk

    def go_line(self):
        r = self.rng.random()
        # A search of the Amazons (over 2,000 moves at the root) to depth 2
        # or 3, or of thousands of nodes, takes seconds: its searches are
        # kept to depth 1 and a few hundred nodes, so that the run's time
        # goes to lines.
        slow = self.game.startswith("amazons")
        if r < 0.25:
            return f"go depth {1 if slow else self.rng.randrange(1, 4)}"
        if r < 0.5:
            return f"go nodes {self.rng.randrange(1, 300 if slow else 3000)}"
        if r < 0.7:
            return f"go movetime {self.rng.randrange(1, 8)}"
        if r < 0.8:
            t = self.rng.randrange(1, 200)
            return f"go wtime {t} btime {t} winc 0 binc 0"
        if r < 0.9:
            return "go infinite"
        return f"go ponder movetime {self.rng.randrange(1, 8)}"

    def send_go(self, line):
        self.outstanding += 1
        self.counts["gos"] += 1
        self.daemon.send(line)

    def search(self):
        """A go, maybe a second one, maybe stop / ponderhit, and the count:
        each go is refused at once (a search is running) or answered by one
        bestmove."""
        self.sync()
        line = self.go_line()
        self.send_go(line)
        _, refused = self.sync()
        if refused:
            self.fail(f"'{line}' with no search running was refused")
        endless = "infinite" in line or "ponder" in line
        if self.rng.random() < 0.3:
            second = self.go_line()
            self.send_go(second)
            _, refused = self.sync()
            if not refused:
                endless = endless or "infinite" in second or "ponder" in second
        time.sleep(self.rng.random() * 0.004)
        r = self.rng.random()
        if r < 0.4:
            self.daemon.send("stop")
        elif r < 0.6:
            self.daemon.send("ponderhit")
        if endless or self.rng.random() < 0.5:
            self.daemon.send("stop")
        self.wait_answers()

    def between_searches(self):
        r = self.rng.random()
        if r < 0.4:
            return f"setoption name Threads value {self.rng.choice([1, 2])}"
        if r < 0.8:
            return f"setoption name Hash value {self.rng.choice([1, 2, 16, 64, 256])}"
        return f"setoption name MultiPV value {self.rng.choice([1, 2, 3])}"

    def quit_race(self):
        # The lines before are handled first, so that the time measured
        # is the quit's, not that of a backlog of long lines.
        self.sync()
        self.send_go("go infinite")
        self.counts["gos"] -= 1  # its bestmove, if any, is not read
        time.sleep(self.rng.random() * 0.01)
        self.daemon.send("quit")
        asked = time.monotonic()
        try:
            self.daemon.proc.wait(timeout=QUIT_PATIENCE)
        except subprocess.TimeoutExpired:
            self.fail(f"quit during a search: still running after {QUIT_PATIENCE} s")
            self.daemon.proc.kill()
        self.slowest_quit = max(self.slowest_quit, time.monotonic() - asked)
        self.counts["quits"] += 1
        self.counts["restarts"] += 1
        self.start()

    def quit_and_wait(self, patience):
        """Ask the daemon to quit and wait for it to exit; the lines it
        still writes are read and checked."""
        asked = time.monotonic()
        try:
            self.send_quit()
            while True:
                self.read_line(max(0.01, asked + patience - time.monotonic()))
                if time.monotonic() > asked + patience:
                    raise TimeoutError
        except EOFError:
            pass
        except TimeoutError:
            self.fail(f"quit: still running after {patience} s")
            self.daemon.proc.kill()
        try:
            self.daemon.proc.wait(timeout=max(0.01, asked + patience - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.fail(f"quit: still running after {patience} s")
            self.daemon.proc.kill()
        self.slowest_quit = max(self.slowest_quit, time.monotonic() - asked)
        self.after_quit()

    def send_quit(self):
        self.daemon.send("quit")

    def after_quit(self):
        """Checks on what the daemon wrote after quit."""

    def step(self, r):
        """One action of the mix, `r` in [0, 1): lines sent."""
        if r < self.SEARCH_SHARE:
            self.search()
            return 2
        if r < self.SEARCH_SHARE + 0.002:
            self.finish_search()
            return self.send_line(self.between_searches())
        if r < self.SEARCH_SHARE + 0.00205:
            self.quit_race()
            return 2
        if r < 0.7:
            return self.send_line(self.garbage())
        if r < 0.85:
            return self.send_line(self.setoption())
        return self.send_line(self.position())

    def send_line(self, line):
        """Send one generated line; the number of lines sent."""
        self.daemon.send(line)
        return 1

    def progress(self, started):
        c = self.counts
        return (f"soak {self.args.protocol} {self.game}: {c['lines']} lines, "
                f"{time.monotonic() - started:.0f} s, {c['gos']} searches, {c['refused']} refused, "
                f"{c['bestmoves']} answers, {c['bad_stdout']} non-protocol, "
                f"{c['failures']} failures, slowest quit {self.slowest_quit:.2f} s")

    def summary(self, started):
        c = self.counts
        return (f"soak {self.game}: {c['lines']} lines in {time.monotonic() - started:.0f} s; "
                f"{c['gos']} go ({c['refused']} refused while searching, {c['bestmoves']} bestmove); "
                f"{c['errors']} error lines; {c['quits']} quit races; "
                f"{c['bad_stdout']} non-protocol stdout lines; {c['restarts'] - c['quits']} unplanned restarts; "
                f"slowest quit {self.slowest_quit:.2f} s; {c['failures']} failures")

    def final_check(self):
        c = self.counts
        if c["bestmoves"] + c["refused"] != c["gos"] and not c["failures"]:
            self.fail(f"{c['gos']} go gave {c['bestmoves']} bestmove and {c['refused']} refusals")

    def run(self):
        started = time.monotonic()
        total = self.args.lines
        next_report = PROGRESS_EVERY
        next_sync = SYNC_EVERY
        while self.counts["lines"] < total:
            r = self.rng.random()
            try:
                self.counts["lines"] += self.step(r)
                if self.counts["lines"] >= next_sync:
                    next_sync = self.counts["lines"] + SYNC_EVERY
                    self.sync()
                    if self.daemon.proc.poll() is not None:
                        raise EOFError
            except EOFError:
                try:
                    status = self.daemon.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    status = None
                self.fail(f"the daemon exited unasked (status {status})")
                self.counts["restarts"] += 1
                self.start()
            except TimeoutError:
                self.fail(f"no answer within {PATIENCE} s (hang)")
                self.daemon.proc.kill()
                self.counts["restarts"] += 1
                self.start()
            if self.counts["lines"] >= next_report:
                next_report += PROGRESS_EVERY
                print(self.progress(started), file=sys.stderr, flush=True)
        try:
            self.finish_search()
            self.sync()
        except (EOFError, TimeoutError) as e:
            self.fail(f"the last check: {type(e).__name__}")
        self.quit_and_wait(PATIENCE)
        print(self.summary(started), file=sys.stderr, flush=True)
        self.final_check()
        return self.counts["failures"]


# --- the other dialects --------------------------------------------------


def first_word_replaced(line, words, replacement=b"xyzzy"):
    """`line` with its first word replaced when it is one of `words`: for
    the dialects that read only a line's first word as its command."""
    text = line.decode("utf-8", "replace")
    parts = text.split(None, 1)
    if parts and parts[0] in words:
        return replacement + (b" " + parts[1].encode() if len(parts) > 1 else b"")
    return line


def random_bytes_line(rng):
    line = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
    return line.replace(b"\n", b" ").replace(b"\r", b" ")


UCCI_LINE = re.compile(
    r"^(id (name|author) .+|option \S+ .*|ucciok|readyok|bye|nobestmove"
    r"|info message .*"
    r"|info( depth \d+)?( score -?\d+)?( time \d+)?( nodes \d+)?( currmove \S+)?( pv( \S+)+)?"
    r"|bestmove \S+( ponder \S+)?( draw| resign)?"
    r"|pophash( bestmove \S+)?( lowerbound -?\d+ depth \d+)?( upperbound -?\d+ depth \d+)?)$"
)
UCCI_WORDS = [
    "go", "stop", "ponderhit", "draw", "isready", "position", "startpos", "fen",
    "moves", "setoption", "banmoves", "probe", "ucci", "usemillisec", "newgame",
    "hashsize", "threads", "ponder", "clearhash", "batch", "bookfiles", "idle",
    "time", "increment", "opptime", "oppincrement", "movestogo", "oppmovestogo",
    "depth", "nodes", "infinite", "h2e2", "b0c2", "a0a1", "i9i8", "on", "off",
    "true", "false", "-1", "0", "1", "18446744073709551616", "1e30", "NaN",
    "\t", "象", "帥", "(none)", "name", "value", "Hash",
]
# UCCI reads a line's first word as its command; these have answers the
# soak counts, or print more than protocol lines.
UCCI_COUNTED = {"go", "stop", "ponderhit", "isready", "probe", "quit", "ucci",
                "d", "eval", "bench"}
UCCI_REFUSED = "a search is already running"


class UcciSoak(Soak):
    """UCCI (xiangqi): `ucci`/`ucciok`, `isready`, `setoption <name>
    <value>`, `banmoves`, `go` with seconds or milliseconds, `probe`,
    `quit`/`bye`; every `go` is refused at once (a search is running)
    or answered by one `bestmove` or `nobestmove` (a malformed one, or one
    with no position, by an error line and `nobestmove`); every `probe` by
    one `pophash`."""

    PROTOCOL_LINE = UCCI_LINE

    def __init__(self, args, game):
        self.probes = 0
        self.bye = False
        super().__init__(args, game)

    def greet(self):
        self.probes = 0
        self.bye = False
        self.daemon.send("ucci")
        self.read_until(lambda l: l == "ucciok")

    def account(self, line):
        if line.startswith("info message error"):
            self.counts["errors"] += 1
            if UCCI_REFUSED in line:
                self.counts["refused"] += 1
                self.outstanding -= 1
        elif line.startswith("bestmove") or line == "nobestmove":
            self.counts["bestmoves"] += 1
            self.outstanding -= 1
            if self.outstanding < 0:
                self.fail(f"'{line}' that no go asked for")
                self.outstanding = 0
        elif line.startswith("pophash"):
            self.probes -= 1
            if self.probes < 0:
                self.fail("a pophash that no probe asked for")
                self.probes = 0
        elif line == "bye":
            self.bye = True

    def sync(self):
        result = super().sync()
        if self.probes:
            self.fail(f"{self.probes} probe unanswered at readyok")
            self.probes = 0
        return result

    def after_quit(self):
        if not self.bye:
            self.fail("quit was not answered 'bye'")

    def garbage(self):
        return first_word_replaced(self.noise(UCCI_WORDS), UCCI_COUNTED)

    def setoption(self):
        r = self.rng.random()
        if r < 0.1:
            self.probes += 1
            return "probe"  # counted: one pophash
        if r < 0.2:
            # A malformed go, sent with no search running: an error line
            # and `nobestmove` (UCCI GUIs wait for an answer to every go).
            self.outstanding += 1
            self.counts["gos"] += 1
            return self.rng.choice([
                "go sideways", "go depth -1", "go nodes 1e9", "go time x", "go depth",
                "go depth 18446744073709551616", "go movestogo -3", "go nodes 0x10",
                "go time 5 increment", "go depth 2 ponder nodes NaN",
            ])
        name = self.rng.choice(["usemillisec", "newgame", "hashsize", "threads", "ponder",
                                "clearhash", "moveoverhead", "batch", "debug", "bookfiles",
                                "idle", "randomness", "style", "promotion", "NoSuchOption",
                                "MultiPV", "NullMove", "Evaluator", "MoveRanks", "hashsize"])
        value = self.rng.choice(NUMBERS + ["true", "false", "on", "off", "maybe",
                                           "/no/such/file", "1-10", "0-9", ""])
        if name == "hashsize" and value not in NUMBERS[:5] + ["", "NaN", "1e30", "0x10", "+5", "--3"]:
            value = "70000"
        if name == "MoveRanks":
            value = "0-9" if self.rng.random() < 0.7 else "sideways"  # 1-10 would change the moves
        if self.rng.random() < 0.2:
            return f"setoption name {name} value {value}"
        return f"setoption {name} {value}".rstrip()

    def position(self):
        r = self.rng.random()
        if r < 0.15:
            moves = [m for m in ["h2e2", "b0c2", "h7e7", "b9c7", "a0a1", "i9i8", "c3c4"]
                     if self.rng.random() < 0.5]
            if self.rng.random() < 0.3:
                moves.append(self.rng.choice(MOVE_WORDS) or "zz")
            return "banmoves " + " ".join(moves)
        return super().position()

    def go_line(self):
        r = self.rng.random()
        draw = " draw" if self.rng.random() < 0.1 else ""
        if r < 0.25:
            return f"go{draw} depth {self.rng.randrange(1, 4)}"
        if r < 0.45:
            return f"go{draw} nodes {self.rng.randrange(1, 3000)}"
        if r < 0.7:
            t = self.rng.choice(["1", "2", "0.05", "3", "0", "-1", "NaN"])
            return (f"go{draw} time {t} increment {self.rng.choice(['0', '1', '0.5'])} "
                    f"opptime {self.rng.choice(['1', '2', '1e30'])} oppincrement 0 "
                    f"movestogo {self.rng.randrange(0, 40)} oppmovestogo 3")
        if r < 0.8:
            return "go depth infinite"
        if r < 0.9:
            return "go infinite"
        return f"go ponder time {self.rng.choice(['1', '2'])}"

    def search(self):
        self.sync()
        line = self.go_line()
        self.send_go(line)
        _, refused = self.sync()
        if refused:
            self.fail(f"'{line}' with no search running was refused")
        endless = any(w in line for w in ("infinite", "ponder", "time"))
        if self.rng.random() < 0.3:
            second = self.go_line()
            self.send_go(second)
            _, refused = self.sync()
            if not refused:
                endless = endless or any(w in second for w in ("infinite", "ponder", "time"))
        time.sleep(self.rng.random() * 0.004)
        r = self.rng.random()
        if r < 0.4:
            self.daemon.send("stop")
        elif r < 0.6:
            self.daemon.send(self.rng.choice(["ponderhit", "ponderhit draw"]))
        if endless or self.rng.random() < 0.5:
            self.daemon.send("stop")
        self.wait_answers()

    def between_searches(self):
        r = self.rng.random()
        if r < 0.35:
            return f"setoption threads {self.rng.choice([1, 2])}"
        if r < 0.7:
            return f"setoption hashsize {self.rng.choice([1, 2, 16, 64, 256])}"
        if r < 0.8:
            return f"setoption usemillisec {self.rng.choice(['true', 'false'])}"
        if r < 0.9:
            return "setoption newgame"
        return f"setoption name Threads value {self.rng.choice([1, 2])}"

    def quit_race(self):
        self.sync()
        self.send_go("go depth infinite")
        time.sleep(self.rng.random() * 0.01)
        self.quit_and_wait(QUIT_PATIENCE)
        # The search is answered before bye, or not at all.
        self.counts["gos"] -= 1
        if self.outstanding == 0:
            self.counts["bestmoves"] -= 1
        self.counts["quits"] += 1
        self.counts["restarts"] += 1
        self.start()

    def summary(self, started):
        return super().summary(started).replace("bestmove)", "bestmove or nobestmove)")


UGI_LINE = re.compile(
    r"^(id (name|author) .+|option name .+|ugiok|readyok|info .*|bestmove \S+( ponder \S+)?"
    r"|response (true|false|p1win|p2win|draw|none))$"
)


class UgiSoak(Soak):
    """UGI: UCI with `ugi`/`ugiok`, `uginewgame`, `go p1time p2time p1inc
    p2inc` and `query` (answered by one `response` line each)."""

    PROTOCOL_LINE = UGI_LINE

    def __init__(self, args, game):
        self.queries = 0
        super().__init__(args, game)

    def greet(self):
        self.queries = 0
        self.daemon.send("ugi")
        self.read_until(lambda l: l == "ugiok")

    def account(self, line):
        if line.startswith("response "):
            self.queries -= 1
            if self.queries < 0:
                self.fail("a response that no query asked for")
                self.queries = 0
        else:
            super().account(line)
            # After a refused position there is none to ask about: a query
            # is answered by that error line alone. (A go gets the same
            # error and its bestmove; queries and searches are never sent
            # together, so an outstanding query is the one answered.)
            if NO_POSITION in line and self.queries > 0:
                self.queries -= 1

    def sync(self):
        result = super().sync()
        if self.queries:
            self.fail(f"{self.queries} query unanswered at readyok")
            self.queries = 0
        return result

    def garbage(self):
        line = super().garbage()
        # UGI reads `ugi`, `query` and `uginewgame` as a line's first word.
        return first_word_replaced(line, {"ugi", "query", "uginewgame"})

    def setoption(self):
        r = self.rng.random()
        if r < 0.1:
            what = self.rng.choice(["p1turn", "gameover", "result"])
            self.queries += 1
            return f"query {what}"
        if r < 0.13:
            return self.rng.choice(["query", "query sideways", "query p3turn", "uginewgame"])
        return super().setoption()

    def go_line(self):
        if self.rng.random() < 0.25:
            t = self.rng.randrange(1, 200)
            return f"go p1time {t} p2time {t} p1inc 0 p2inc {self.rng.choice([0, 1])}"
        return super().go_line()


NBOARD_LINE = re.compile(
    r"^(set myname plyd\d+|status|status .+|nodestats \d+ \d+\.\d\d"
    r"|=== ([A-H][1-8]|PA)(/-?\d+\.\d\d/\d+\.\d\d)?"
    r"|search [A-H1-8PA-]+ -?\d+\.\d\d 0 \d+|pong [^\t\n\x0b\x0c\r ]+|learned)$"
)
NBOARD_WORDS = [
    "nboard", "set", "depth", "game", "contempt", "move", "hint", "go", "ping",
    "learn", "analyze", "quit", "F5", "D6", "C3", "PA", "pa", "F5/1.5/0.3",
    "J9", "A0", "(;GM[Othello]", "BO[8", "*", "O", "B[F5]", "W[D6]", ";)",
    "-1", "0", "1", "4294967296", "1e30", "NaN", "\t", "象",
]
# NBoard reads a line's first word as its command; these answer in ways
# the soak counts (or end the daemon).
NBOARD_COUNTED = {"go", "hint", "ping", "quit"}
NBOARD_GAMES = [
    "(;GM[Othello]PC[soak]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[C3]W[D3];)",
    "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//1.2]W[F6/0.5/3]B[E6]W[F4];)",
    "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)",
    "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[A1];)",
    "(;GM[Othello]BO[8 XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX- O]W[H8];)",
    "(;GM[Othello]BO[9 ---];)", "(;GM[Othello]", "(;GM[Chess]BO[8 *];)", "(;;;)", "",
    "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]"
    + "B[F5]" * 2000 + ";)",
]


class NBoardSoak(Soak):
    """NBoard (Othello): `nboard 2`, `set depth`, `set game`, `move`, `go`
    (answered `status plyd is thinking`, `nodestats`, one `=== move`,
    `status`), `hint n` (`search` lines, `status`), `ping n` (stops a
    search, whose answer is then dropped, and answers `pong n`). A `go` or
    `hint` that comes during a search drops that search too (the GUI has
    moved on), so of searches sent back to back the last is answered and
    each earlier one is answered or not, as it ended before the next came
    or not; a `go` or `hint` after a refused `set game` is answered by
    that refusal's error line alone. Settings (`set depth`, `set
    contempt`, `nboard`) are taken at once, a search running on; `learn`
    waits for a running search to end, and its `learned` answer is the
    soak's point where every search sent before it has been answered or
    dropped. (Random lines answer `learned` too, so the soak counts those
    answers from a `pong` on.)"""

    PROTOCOL_LINE = NBOARD_LINE

    def __init__(self, args, game):
        self.batch = []  # "go" or "hint": searches sent since the last check
        self.answers = []  # "go", "hint" or "refused", as read since then
        self.open_go = False  # a `===` read and its closing status not yet
        self.ping_id = 0
        self.dropped = 0
        # `learned` lines asked for and read since the last `pong`.
        self.learned_asked = self.learned_read = 0
        super().__init__(args, game)

    def greet(self):
        self.batch, self.answers, self.open_go = [], [], False
        self.learned_asked = self.learned_read = 0
        self.daemon.send("nboard 2")
        self.read_until(lambda l: l.startswith("set myname plyd"))

    def account(self, line):
        if line == "learned":
            self.learned_read += 1
        elif line.startswith("status error"):
            self.counts["errors"] += 1
            if (NO_POSITION in line or GAME_OVER in line) and self.batch:
                self.answers.append("refused")
        elif line.startswith("=== "):
            self.counts["bestmoves"] += 1
            if self.open_go or "go" not in self.batch:
                self.fail(f"'{line}' that no go asked for (sent: {self.batch})")
            self.open_go = True
        elif line == "status":
            self.answers.append("go" if self.open_go else "hint")
            self.open_go = False

    def check_answers(self, cut):
        """Match the answers read against the searches sent since the last
        check: in order, each search answered once or dropped, the last
        one answered unless a `ping` (`cut`) stopped it."""
        batch, answers = self.batch, self.answers
        self.batch, self.answers = [], []
        if self.open_go:
            self.fail(f"a '===' without its closing status (sent: {batch})")
            self.open_go = False
        # From the last: the answers must be the searches' in order, one
        # each at most, the last answer the last search's when no ping cut it.
        if batch and not cut and not answers:
            self.fail(f"the last of {batch} unanswered (no answer read)")
            return
        i = len(batch)
        for n, answer in enumerate(reversed(answers)):
            i -= 1
            while i >= 0 and answer not in (batch[i], "refused"):
                i -= 1
            if i < 0:
                self.fail(f"answers {answers} do not match the searches sent, {batch}")
                return
            if n == 0 and not cut and i != len(batch) - 1:
                self.fail(f"the last of {batch} unanswered (answers read: {answers})")
                return
        self.dropped += len(batch) - len(answers)

    def send_search(self, line):
        self.batch.append("go" if line == "go" else "hint")
        self.counts["gos"] += 1
        self.daemon.send(line)

    def set_depth(self):
        """`set depth n`, the next search's depth."""
        self.daemon.send(f"set depth {self.rng.randrange(1, 5)}")

    def settle(self):
        """`learn` (served after any running search; the soak's daemon
        has no book, so an error line and `learned`), and every line up
        to its answer; then the searches sent before it are checked. Only
        after a `ping` with no other line sent since but the search's."""
        self.learned_asked += 1
        self.daemon.send("learn")
        self.read_until(lambda l: self.learned_read >= self.learned_asked)
        self.check_answers(cut=False)

    def ping(self, cut):
        """`ping n`, and every line up to `pong n`; a search still running
        is stopped and its answer dropped when `cut`."""
        self.ping_id += 1
        self.daemon.send(f"ping {self.ping_id}")
        self.read_until(lambda l: l == f"pong {self.ping_id}")
        self.learned_asked = self.learned_read = 0
        self.check_answers(cut)

    def sync(self):
        self.ping(cut=False)
        return 0, 0

    def finish_search(self):
        self.ping(cut=False)

    def wait_answers(self):
        self.ping(cut=False)

    def garbage(self):
        return first_word_replaced(self.noise(NBOARD_WORDS, long_prefix=b"move "), NBOARD_COUNTED)

    def setoption(self):
        r = self.rng.random()
        if r < 0.4:
            return f"set depth {self.rng.choice(NUMBERS)}"
        if r < 0.6:
            return f"set {self.rng.choice(['contempt', 'hash', 'threads', 'unknown', ''])} {self.rng.choice(NUMBERS)}"
        if r < 0.7:
            return self.rng.choice(["learn", "analyze", "nboard 2", "nboard", "nboard 99999999999"])
        return "set game " + self.rng.choice(NBOARD_GAMES)

    def position(self):
        r = self.rng.random()
        if r < 0.6:
            return "move " + self.rng.choice(["F5", "D6", "C3", "D3", "C4", "E6", "F4", "PA", "pass",
                                               "F5/0.5/1.2", "A1", "J9", "", "f5", "E3", "C5"])
        return "set game " + self.rng.choice(NBOARD_GAMES[:4])

    def search(self):
        self.ping(cut=False)
        self.set_depth()
        self.send_search(self.rng.choice(["go", "go", "go", f"hint {self.rng.randrange(1, 5)}"]))
        if self.rng.random() < 0.3:
            self.send_search(self.rng.choice(["go", f"hint {self.rng.randrange(1, 3)}"]))
        time.sleep(self.rng.random() * 0.004)
        if self.rng.random() < 0.4:
            self.ping(cut=True)
        else:
            self.settle()

    def between_searches(self):
        return self.rng.choice(["set depth 3", "set contempt 0", "nboard 2", "learn",
                                "set game " + NBOARD_GAMES[2]])

    def quit_race(self):
        self.sync()
        self.daemon.send("set depth 30")
        self.send_search("go")
        time.sleep(self.rng.random() * 0.01)
        self.quit_and_wait(QUIT_PATIENCE)
        # The search may be answered before the daemon leaves, or not.
        self.counts["gos"] -= 1
        if self.answers:
            self.counts["bestmoves"] -= 1
        self.batch, self.answers, self.open_go = [], [], False
        self.counts["quits"] += 1
        self.counts["restarts"] += 1
        self.start()

    def summary(self, started):
        c = self.counts
        return (f"soak {self.game}: {c['lines']} lines in {time.monotonic() - started:.0f} s; "
                f"{c['gos']} go/hint ({c['bestmoves']} '===' answers, {self.dropped} dropped: "
                f"cut by ping or by the next search); "
                f"{c['errors']} status error lines; {c['quits']} quit races; "
                f"{c['bad_stdout']} non-protocol stdout lines; {c['restarts'] - c['quits']} unplanned restarts; "
                f"slowest quit {self.slowest_quit:.2f} s; {c['failures']} failures")

    def final_check(self):
        if self.batch:
            self.fail(f"{self.batch} unchecked at the end")


GTP_WORDS = [
    "protocol_version", "name", "version", "known_command", "list_commands",
    "boardsize", "clear_board", "komi", "play", "undo", "time_settings",
    "time_left", "showboard", "final_score", "reg_genmove", "loadsgf",
    "black", "white", "b", "w", "B", "W", "pass", "PASS", "d3", "C4", "f5", "e6",
    "a1", "h8", "i9", "z0", "8", "19", "0", "-1", "6.5", "1e30", "NaN",
    "4294967295", "4294967296", "+5", "#", "# comment", "\t", "\x0b", "象",
]
GTP_COUNTED = {"genmove", "quit"}


def gtp_words(text):
    """The words GTP reads in a line (after its comment), split at ASCII
    white space and control characters."""
    text = text.split("#", 1)[0]
    return [w for w in re.split(r"[\x00-\x20\x7f]+", text) if w]


def gtp_id(word):
    """A command id: an unsigned 32-bit number (a leading + is read)."""
    if re.fullmatch(r"\+?[0-9]+", word) and int(word) < 2 ** 32:
        return str(int(word))
    return None


class GtpSoak(Soak):
    """GTP (Othello): every command, whatever it is, gets one answer,
    `=[id] ...` or `?[id] ...` ended by an empty line, in the order the
    commands came, with the command's id; `genmove` is answered when its
    search ends and the commands after it wait."""

    # Not used: GTP's answers are checked by account(), which knows their
    # frames (a multi-line answer holds any text up to its empty line).
    PROTOCOL_LINE = None

    def __init__(self, args, game):
        self.expected = collections.deque()  # (id, kind) of commands not yet answered
        self.in_answer = False
        self.next_id = 1
        self.genmoves = 0
        super().__init__(args, game)

    def greet(self):
        self.expected.clear()
        self.in_answer = False
        self.send_command("protocol_version")
        self.wait_answers()

    def send_command(self, line, kind="other"):
        if isinstance(line, str):
            line = line.encode()
        words = gtp_words(line.decode("utf-8", "replace"))
        if words:
            ident = gtp_id(words[0])
            name = words[1] if ident is not None and len(words) > 1 else (words[0] if ident is None else "")
            self.expected.append((ident or "", kind if name else "empty"))
            if kind == "genmove":
                self.outstanding += 1
        self.daemon.send(line)

    def account(self, line):
        if self.in_answer:
            if line == "":
                self.in_answer = False
            return
        m = re.fullmatch(r"([=?])(\d*) (.*)", line, re.S)
        if not m:
            self.counts["bad_stdout"] += 1
            self.fail(f"not a GTP answer: {line[:120]!r} (waiting for {list(self.expected)[:3]})")
            return
        if not self.expected:
            self.fail(f"an answer no command asked for: {line[:120]!r}")
            return
        ident, kind = self.expected.popleft()
        if m.group(2) != ident:
            self.fail(f"answer {line[:60]!r} for the command with id '{ident}'")
        if m.group(1) == "?":
            self.counts["errors"] += 1
        if kind == "genmove":
            self.outstanding -= 1
            self.counts["bestmoves"] += 1
            if m.group(1) == "=":
                self.genmoves += 1
                if not re.fullmatch(r"[a-h][1-8]|pass", m.group(3)):
                    self.fail(f"genmove answered {line!r}")
        self.in_answer = True

    def read_line(self, timeout):
        try:
            line = self.daemon.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is None:
            raise EOFError
        self.daemon.received.append(line[:100])
        self.account(line)
        return line

    def read_until(self, done):
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            line = self.read_line(deadline - time.monotonic())
            if line is not None and done(line):
                return
        raise TimeoutError

    def wait_answers(self):
        deadline = time.monotonic() + PATIENCE
        while self.expected or self.in_answer:
            if time.monotonic() > deadline:
                raise TimeoutError
            self.read_line(deadline - time.monotonic())

    def sync(self):
        ident = self.next_id
        self.next_id += 1
        self.send_command(f"{ident} name")
        self.read_until(lambda l: l == f"={ident} plyd")
        self.wait_answers()
        return 0, 0

    def finish_search(self):
        self.wait_answers()

    def garbage(self):
        r = self.rng.random()
        if r < 0.05:
            line = random_bytes_line(self.rng)
        elif r < 0.07:
            line = b"play b " + b"x" * self.rng.randrange(1000, 100000)
        elif r < 0.1:
            line = self.rng.choice([b"", b"# only a comment", b"   ", b"7", b"7 # x"])
        else:
            words = [self.rng.choice(GTP_WORDS) for _ in range(self.rng.randrange(1, 8))]
            if self.rng.random() < 0.3:
                words.insert(0, self.rng.choice(["1", "42", "+5", "007", "4294967295", "4294967296", "-1"]))
            line = " ".join(words).encode()
        # genmove and quit would search or end the daemon: replaced.
        text = line.decode("utf-8", "replace")
        if any(w in GTP_COUNTED for w in gtp_words(text)):
            return b"xyzzy"
        return line

    def send_line(self, line):
        self.send_command(line)
        return 1

    def setoption(self):
        r = self.rng.random()
        if r < 0.3:
            return f"time_left {self.rng.choice(['b', 'w', 'x'])} {self.rng.choice(NUMBERS)} {self.rng.choice(NUMBERS)}"
        if r < 0.5:
            return f"time_settings {self.rng.choice(NUMBERS)} {self.rng.choice(NUMBERS)} {self.rng.choice(NUMBERS)}"
        if r < 0.6:
            return f"boardsize {self.rng.choice(NUMBERS)}"
        if r < 0.7:
            return f"komi {self.rng.choice(NUMBERS)}"
        if r < 0.8:
            return f"known_command {self.rng.choice(GTP_WORDS)}"
        return self.rng.choice(["list_commands", "showboard", "final_score", "undo", "version",
                                "protocol_version", "clear_board", "name"])

    def position(self):
        r = self.rng.random()
        if r < 0.1:
            return "clear_board"
        if r < 0.2:
            return "undo"
        colour = self.rng.choice(["b", "w", "black", "white", "B", "x"])
        square = self.rng.choice(["d3", "c4", "f5", "e6", "C3", "e3", "f4", "pass", "a1", "i9", "d33", ""])
        return f"play {colour} {square}"

    def search(self):
        self.wait_answers()
        for colour in ("b", "w"):
            self.send_command(f"time_left {colour} {self.rng.choice(['0.02', '0.05', '0.1', '0'])} "
                              f"{self.rng.choice(['0', '0', '1'])}")
        ident = self.rng.choice(["", f"{self.next_id} "])
        self.next_id += 1
        self.counts["gos"] += 1
        self.send_command(f"{ident}genmove {self.rng.choice(['b', 'w', 'black', 'white'])}", "genmove")
        if self.rng.random() < 0.3:
            # Commands during the search wait for its answer.
            self.send_command(self.rng.choice(["showboard", "name", "final_score", "undo"]))
        self.wait_answers()

    def between_searches(self):
        return self.rng.choice(["clear_board", "undo", "komi 0", "time_settings 0 0 0"])

    def quit_race(self):
        self.sync()
        self.send_command("time_left b 5 0")
        self.send_command("time_left w 5 0")
        self.counts["gos"] += 1
        self.send_command("genmove b", "genmove")
        time.sleep(self.rng.random() * 0.01)
        self.quit_and_wait(QUIT_PATIENCE)
        self.counts["quits"] += 1
        self.counts["restarts"] += 1
        self.start()

    def send_quit(self):
        self.send_command("quit")

    def after_quit(self):
        if self.expected or self.in_answer:
            self.fail(f"the daemon left with {list(self.expected)} unanswered")
        self.expected.clear()
        self.in_answer = False

    def summary(self, started):
        c = self.counts
        return (f"soak {self.game}: {c['lines']} lines in {time.monotonic() - started:.0f} s; "
                f"{c['gos']} genmove ({c['bestmoves']} answered: {self.genmoves} '=' moves); "
                f"{c['errors']} '?' answers; {c['quits']} quit races; "
                f"{c['bad_stdout']} non-protocol stdout lines; {c['restarts'] - c['quits']} unplanned restarts; "
                f"slowest quit {self.slowest_quit:.2f} s; {c['failures']} failures")

    def final_check(self):
        if self.counts["bestmoves"] != self.counts["gos"] and not self.counts["failures"]:
            self.fail(f"{self.counts['gos']} genmove, {self.counts['bestmoves']} answered")


class Othello:
    """Othello's rules, enough to know which Botzone requests are legal:
    squares are (x, y), x the column from the left and y the row from the
    top (plyd's a1 is (0, 0)); black (0) moves first; a side with no move
    passes; the game ends when neither side can move."""

    DIRECTIONS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]

    def __init__(self):
        self.board = {}
        self.board[(3, 3)] = self.board[(4, 4)] = 1
        self.board[(4, 3)] = self.board[(3, 4)] = 0
        self.side = 0
        self.moves = []  # (x, y) or None for a pass

    def flips(self, x, y, side):
        if (x, y) in self.board or not (0 <= x < 8 and 0 <= y < 8):
            return []
        flipped = []
        for dx, dy in self.DIRECTIONS:
            run = []
            cx, cy = x + dx, y + dy
            while self.board.get((cx, cy)) == 1 - side:
                run.append((cx, cy))
                cx, cy = cx + dx, cy + dy
            if run and self.board.get((cx, cy)) == side:
                flipped += run
        return flipped

    def legal(self, side=None):
        side = self.side if side is None else side
        return [(x, y) for y in range(8) for x in range(8) if self.flips(x, y, side)]

    def over(self):
        return not self.legal(0) and not self.legal(1)

    def play(self, move):
        """Play (x, y), or None for a pass; False when it is not legal."""
        if self.over():
            return False
        legal = self.legal()
        if move is None:
            if legal:
                return False
        else:
            flipped = self.flips(move[0], move[1], self.side)
            if not flipped:
                return False
            for square in flipped + [move]:
                self.board[square] = self.side
        self.moves.append(move)
        self.side = 1 - self.side
        return True


BOTZONE_ANSWER = re.compile(r"^(-?\d+ -?\d+|\{\"response\":\{\"x\":-?\d+,\"y\":-?\d+\}\})$")
BOTZONE_KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
BOTZONE_WORDS = ["x", "y", "requests", "responses", "{", "}", "[", "]", ":", ",",
                 "-1", "0", "3", "7", "8", "99999999999", "1e3", "NaN", "象", "\t", "null",
                 "data", "globaldata", ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"]


def botzone_line_is_inert(data):
    """Whether Botzone's reader refuses `data` by itself or skips it: not
    blank-free JSON (a line starting with `{`), not a lone number (a turn
    count), not 2 or 6 numbers (a request). A line with a letter or a
    character no number holds qualifies; lines are judged conservatively."""
    # Python's white space includes Rust's, so these words are never
    # fewer than the reader's.
    text = data.decode("utf-8", "replace").strip()
    if text.startswith("{"):
        return False
    words = text.split()
    if len(words) == 1:
        return not re.fullmatch(r"\+?\d+", words[0])
    if len(words) in (2, 6) and all(re.fullmatch(r"[+-]?\d+", w) for w in words):
        return False
    return True


class BotzoneSoak(Soak):
    """Botzone (Reversi, plyd's othello): no greeting; a turn is one line
    (`x y`, or JSON) for a kept-running bot, or a whole history (`n`, then
    `2n - 1` lines; or one JSON line). A turn whose moves are legal is
    answered by one move line and `>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`; a
    refused one (an illegal move, a malformed history) is answered by
    nothing (Botzone has no channel for errors: they go to stderr). The
    soak keeps the game itself to know which requests are legal and checks
    that each answer is a legal move. There is no ping: a legal turn is the
    liveness check, and closing stdin is quitting."""

    PROTOCOL_LINE = re.compile(
        r"^(-?\d+ -?\d+|\{\"response\":\{\"x\":-?\d+,\"y\":-?\d+\}\}|>>>BOTZONE_REQUEST_KEEP_RUNNING<<<)$")
    SEARCH_SHARE = 0.004

    def __init__(self, args, game):
        self.model = None
        self.bot_side = 0
        self.answers_due = 0
        self.keep_running_due = 0
        self.refused_turns = 0
        super().__init__(args, game)

    def argv(self):
        return [self.args.plyd, "--protocol", "botzone", "--game", self.game]

    def greet(self):
        self.model = None
        self.answers_due = 0
        self.keep_running_due = 0
        self.new_game()

    def account(self, line):
        if line == BOTZONE_KEEP_RUNNING:
            self.keep_running_due -= 1
            if self.keep_running_due < 0:
                self.fail("keep-running line without an answer before it")
                self.keep_running_due = 0
            return
        if not BOTZONE_ANSWER.match(line):
            return
        self.counts["bestmoves"] += 1
        self.answers_due -= 1
        self.keep_running_due += 1
        if self.answers_due < 0:
            self.fail(f"answer {line!r} to no turn")
            self.answers_due = 0
            return
        numbers = [int(n) for n in re.findall(r"-?\d+", line)]
        move = None if numbers == [-1, -1] else tuple(numbers)
        if self.model is None:
            return
        if self.model.over():
            if move is not None:
                self.fail(f"answer {line!r} after the end of the game")
            return
        if not self.model.play(move):
            self.fail(f"answer {line!r} is not a legal move (legal: {self.model.legal()})")
            self.model = None  # the soak no longer knows the game

    def read_until_answered(self):
        deadline = time.monotonic() + PATIENCE
        while self.answers_due > 0 or self.keep_running_due > 0:
            if time.monotonic() > deadline:
                raise TimeoutError
            self.read_line(deadline - time.monotonic())

    def wait_answers(self):
        self.read_until_answered()

    def finish_search(self):
        self.read_until_answered()

    @staticmethod
    def request_text(move, json):
        x, y = move if move is not None else (-1, -1)
        return f'{{"x":{x},"y":{y}}}' if json else f"{x} {y}"

    def turn(self, request_move, expect_answer, json=False):
        if expect_answer:
            self.counts["gos"] += 1
            self.answers_due += 1
        else:
            self.refused_turns += 1
        self.daemon.send(self.request_text(request_move, json))
        self.read_until_answered()

    def new_game(self):
        """A whole first-turn input: the bot plays black (first request
        `-1 -1`) or white (after a black move), simple or JSON."""
        self.read_until_answered()
        model = Othello()
        json = self.rng.random() < 0.3
        if self.rng.random() < 0.5:
            requests = [None]
            self.bot_side = 0
        else:
            first = self.rng.choice(model.legal())
            model.play(first)
            requests = [first]
            self.bot_side = 1
        self.model = model
        self.counts["gos"] += 1
        self.answers_due += 1
        if json:
            reqs = ",".join(self.request_text(m, True) for m in requests)
            self.daemon.send(f'{{"requests":[{reqs}],"responses":[]}}')
        else:
            self.daemon.send("1")
            self.daemon.send(self.request_text(requests[0], False))
        self.read_until_answered()

    def history_turn(self):
        """The whole game so far and the opponent's next move as one input,
        as a bot restarted mid-game gets it."""
        self.read_until_answered()
        model = self.model
        if model is None or model.over() or model.side == self.bot_side:
            return self.new_game()
        opponent = model.legal()
        move = self.rng.choice(opponent) if opponent else None
        requests, responses = [], []
        if self.bot_side == 0:
            requests.append(None)
        for i, m in enumerate(model.moves):
            (responses if (i % 2 == 0) == (self.bot_side == 0) else requests).append(m)
        requests.append(move)
        model.play(move)
        self.counts["gos"] += 1
        self.answers_due += 1
        if self.rng.random() < 0.5:
            reqs = ",".join(self.request_text(m, True) for m in requests)
            resps = ",".join(self.request_text(m, True) for m in responses)
            self.daemon.send(f'{{"requests":[{reqs}],"responses":[{resps}]}}')
        else:
            self.daemon.send(str(len(requests)))
            for i, req in enumerate(requests):
                self.daemon.send(self.request_text(req, False))
                if i < len(responses):
                    self.daemon.send(self.request_text(responses[i], False))
        self.read_until_answered()

    def search(self):
        """A legal turn (mostly), an illegal one now and then."""
        self.read_until_answered()
        model = self.model
        if model is None or model.over() or model.side == self.bot_side or self.rng.random() < 0.05:
            self.new_game()
            return
        if self.rng.random() < 0.1:
            self.history_turn()
            return
        json = self.rng.random() < 0.3
        legal = model.legal()
        if self.rng.random() < 0.15:
            # An illegal request: refused, nothing answered, nothing changed.
            occupied = list(model.board)
            bad = self.rng.choice([None, (8, 0), (-1, 3), self.rng.choice(occupied)]
                                  + [(x, y) for x in range(8) for y in range(8)
                                     if (x, y) not in legal and (x, y) not in model.board][:3])
            if bad is None and not legal:
                bad = (9, 9)  # a pass is legal here
            self.turn(bad, expect_answer=False, json=json)
            return
        move = self.rng.choice(legal) if legal else None
        model.play(move)
        self.turn(move, expect_answer=True, json=json)

    def sync(self):
        self.search()
        return 0, 0

    def garbage(self):
        r = self.rng.random()
        if r < 0.001:
            # JSON nested as deep as a long line allows.
            return b'{"x":' + b"[" * self.rng.randrange(1000, 100000)
        elif r < 0.05:
            line = random_bytes_line(self.rng)
        elif r < 0.07:
            line = b"x" * self.rng.randrange(1000, 100000)
        elif r < 0.1:
            line = b""
        elif r < 0.2:
            # Broken JSON, and JSON that is not an input.
            line = self.rng.choice([
                b"{", b"{}", b'{"requests":', b'{"requests":[]}', b'{"requests":[],"responses":[]}',
                b'{"requests":[{"x":1}]}', b'{"requests":{"x":1,"y":2}}', b'{"x":"a","y":1}',
                b'{"requests":[{"x":-1,"y":-1}],"responses":[{"x":2,"y":3}]}',
                b'{"requests":[{"x":-1,"y":-1},{"x":2}],"responses":[{"x":2,"y":3}]}',
                b'{"x":1,"y":' + b"[" * 10000, b'{"a":' * 500, b'{"x":1e999,"y":2}',
                b'{"requests":[' + b'{"x":-1,"y":-1},' * 3000 + b'{"x":-1,"y":-1}],"responses":[]}',
            ])
            return line
        elif r < 0.3:
            # A whole history that does not replay: refused.
            n = self.rng.randrange(1, 4)
            lines = [str(n).encode()] + [b"3 2"] * (2 * n - 2) + [b"nine nine"]
            self.refused_turns += 1
            return lines
        else:
            line = " ".join(self.rng.choice(BOTZONE_WORDS) for _ in range(self.rng.randrange(1, 8))).encode()
        if not botzone_line_is_inert(line):
            return b"xyzzy " + line
        return line

    def send_line(self, line):
        if isinstance(line, list):
            for part in line:
                self.daemon.send(part)
            return len(line)
        self.daemon.send(line)
        return 1

    def setoption(self):
        # Single numbers that are not a turn count the reader accepts.
        return self.rng.choice(["0", "-1", "99999999999999999999999", "+-3", "1.5", "0x10"])

    def position(self):
        return self.garbage()

    def between_searches(self):
        return ""

    def quit_race(self):
        """A legal turn, then stdin closed at once: the daemon ends (with
        or without answering)."""
        self.sync()
        self.read_until_answered()
        if self.model is not None and not self.model.over() and self.model.side != self.bot_side:
            legal = self.model.legal()
            move = self.rng.choice(legal) if legal else None
            self.model.play(move)
            self.answers_due += 1
            self.daemon.send(self.request_text(move, False))
        time.sleep(self.rng.random() * 0.01)
        answered = self.counts["bestmoves"]
        self.quit_and_wait(QUIT_PATIENCE)
        # The turn may be answered before the daemon leaves, or not; it is
        # not counted.
        self.counts["bestmoves"] = answered
        self.answers_due = 0
        self.keep_running_due = 0
        self.counts["quits"] += 1
        self.counts["restarts"] += 1
        self.start()

    def send_quit(self):
        try:
            self.daemon.proc.stdin.close()
        except BrokenPipeError:
            raise EOFError from None

    def summary(self, started):
        c = self.counts
        return (f"soak {self.game}: {c['lines']} lines in {time.monotonic() - started:.0f} s; "
                f"{c['gos']} legal turns ({c['bestmoves']} answered), {self.refused_turns} refused "
                f"turns (no answer due); {c['quits']} stdin-closed races; "
                f"{c['bad_stdout']} non-protocol stdout lines; {c['restarts'] - c['quits']} unplanned restarts; "
                f"slowest exit {self.slowest_quit:.2f} s; {c['failures']} failures")

    def final_check(self):
        c = self.counts
        if c["bestmoves"] != c["gos"] and not c["failures"]:
            self.fail(f"{c['gos']} legal turns, {c['bestmoves']} answered")


DIALECTS = {"uci": Soak, "ucci": UcciSoak, "ugi": UgiSoak, "nboard": NBoardSoak,
            "gtp": GtpSoak, "botzone": BotzoneSoak}
DEFAULT_GAMES = {"uci": ["othello", "xiangqi", "amazons", "einstein"], "ucci": ["xiangqi"],
                 "ugi": ["othello"], "nboard": ["othello"], "gtp": ["othello"],
                 "botzone": ["othello"]}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_plyd = os.path.join(here, "..", "..", "target", "release", "plyd")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plyd", default=default_plyd)
    parser.add_argument("--game", action="append")
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--protocol", choices=list(DIALECTS), default="uci",
                        help="the dialect spoken (default uci)")
    parser.add_argument("--save-dir", default=os.environ.get("SOAK_SAVE_DIR", "soak-failures"),
                        help="where a failure's transcript is written (default: soak-failures)")
    args = parser.parse_args()
    failures = 0
    for game in args.game or DEFAULT_GAMES[args.protocol]:
        failures += DIALECTS[args.protocol](args, game).run()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
