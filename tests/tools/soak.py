#!/usr/bin/env python3
"""Protocol soak: feed plyd a long stream of hostile lines and check that it
survives them.

    soak.py [--plyd PATH] [--game GAME]... [--lines N] [--seed S]

For each game (default: othello xiangqi amazons einstein) one daemon is
started and sent N lines (default 1,000,000), a random mix of:

* garbage: random words from the protocol's vocabulary, absurd numbers,
  random bytes (not always UTF-8), very long lines, blank lines;
* `setoption` with unknown names, out-of-range and malformed values, and
  valid Threads / Hash / MultiPV changes between searches;
* `position` lines: the start, random (mostly illegal) move words, lists of
  thousands of moves, broken position texts;
* searches: `go` with depth, nodes, movetime, a clock, `infinite` or
  `ponder`, and `stop` / `ponderhit` / a second `go` sent at random moments
  while it runs; now and then `quit` in the middle of a search, after
  which the daemon must exit within two seconds and a new one is started.

Checked, and counted in the summary: every line plyd writes to stdout has a
protocol form (`id`, `option`, `uciok`, `readyok`, `info ...`, `bestmove`);
every `go` is either refused at once with an error line or answered by
exactly one `bestmove`; `isready` is answered (after every `go` and every
1,000 lines) within the patience; the daemon never exits unasked. The exit
status is 0 only when nothing failed. Progress and the summary go to
stderr; with SOAK_DEBUG=1 each failure also shows the last lines sent and
read.
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
# Commands whose answers the soak counts, and plyd's commands that print
# more than protocol lines (the board, the evaluation, perft, bench):
# garbage lines never hold them.
COUNTED = {"go", "stop", "ponderhit", "isready", "quit", "uci", "d", "eval", "bench", "perft"}
PATIENCE = 30.0
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
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=1 << 16)
        self.lines = queue.Queue()
        self.recent = collections.deque(maxlen=40)
        self.received = collections.deque(maxlen=40)
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.rstrip(b"\r\n").decode("utf-8", "replace"))
        self.lines.put(None)

    def send(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.recent.append(data[:100])
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()


class Soak:
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
        print(f"soak {self.game}: FAIL: {why}", file=sys.stderr)
        if os.environ.get("SOAK_DEBUG"):
            print(f"  last lines sent: {list(self.daemon.recent)}", file=sys.stderr)
            print(f"  last lines read: {list(self.daemon.received)}", file=sys.stderr)

    def start(self):
        self.outstanding = 0
        argv = [self.args.plyd, "--game", self.game]
        self.daemon = Daemon(argv)
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
        if not PROTOCOL_LINE.match(line):
            self.counts["bad_stdout"] += 1
            self.fail(f"not a protocol line on stdout: {line[:120]!r}")
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
        return line

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

    def garbage(self):
        r = self.rng.random()
        if r < 0.05:
            line = bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(1, 80)))
        elif r < 0.07:
            line = b"x" * self.rng.randrange(1000, 100000)
        elif r < 0.1:
            line = b""
        else:
            line = " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randrange(1, 12))).encode()
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
        if r < 0.25:
            return f"go depth {self.rng.randrange(1, 4)}"
        if r < 0.5:
            return f"go nodes {self.rng.randrange(1, 3000)}"
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
        self.send_go("go infinite")
        self.counts["gos"] -= 1  # its bestmove, if any, is not read
        time.sleep(self.rng.random() * 0.01)
        self.daemon.send("quit")
        asked = time.monotonic()
        try:
            self.daemon.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.fail("quit during a search: still running after 5 s")
            self.daemon.proc.kill()
        self.slowest_quit = max(self.slowest_quit, time.monotonic() - asked)
        self.counts["quits"] += 1
        self.counts["restarts"] += 1
        self.start()

    def run(self):
        started = time.monotonic()
        total = self.args.lines
        next_report = 100_000
        while self.counts["lines"] < total:
            r = self.rng.random()
            try:
                if r < 0.01:
                    self.search()
                    self.counts["lines"] += 2
                elif r < 0.012:
                    self.finish_search()
                    self.daemon.send(self.between_searches())
                    self.counts["lines"] += 1
                elif r < 0.01205:
                    self.quit_race()
                    self.counts["lines"] += 2
                else:
                    if r < 0.7:
                        self.daemon.send(self.garbage())
                    elif r < 0.85:
                        self.daemon.send(self.setoption())
                    else:
                        self.daemon.send(self.position())
                    self.counts["lines"] += 1
                    if self.counts["lines"] % SYNC_EVERY == 0:
                        self.sync()
                        if self.daemon.proc.poll() is not None:
                            raise EOFError
            except EOFError:
                self.fail(f"the daemon exited unasked (status {self.daemon.proc.poll()})")
                self.counts["restarts"] += 1
                self.start()
            except TimeoutError:
                self.fail(f"no answer within {PATIENCE} s (hang)")
                self.daemon.proc.kill()
                self.counts["restarts"] += 1
                self.start()
            if self.counts["lines"] >= next_report:
                next_report += 100_000
                print(f"soak {self.game}: {self.counts['lines']} lines, {time.monotonic() - started:.0f} s", file=sys.stderr)
        self.finish_search()
        self.sync()
        self.daemon.send("quit")
        asked = time.monotonic()
        try:
            self.daemon.proc.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            self.fail(f"the last quit: still running after {PATIENCE} s")
            self.daemon.proc.kill()
        self.slowest_quit = max(self.slowest_quit, time.monotonic() - asked)
        c = self.counts
        print(f"soak {self.game}: {c['lines']} lines in {time.monotonic() - started:.0f} s; "
              f"{c['gos']} go ({c['refused']} refused while searching, {c['bestmoves']} bestmove); "
              f"{c['errors']} error lines; {c['quits']} quit races; "
              f"{c['bad_stdout']} non-protocol stdout lines; {c['restarts'] - c['quits']} unplanned restarts; "
              f"slowest quit {self.slowest_quit:.2f} s; {c['failures']} failures", file=sys.stderr)
        if c["bestmoves"] + c["refused"] != c["gos"] and not c["failures"]:
            self.fail(f"{c['gos']} go gave {c['bestmoves']} bestmove and {c['refused']} refusals")
        return self.counts["failures"]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_plyd = os.path.join(here, "..", "..", "target", "release", "plyd")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plyd", default=default_plyd)
    parser.add_argument("--game", action="append")
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    failures = 0
    for game in args.game or ["othello", "xiangqi", "amazons", "einstein"]:
        failures += Soak(args, game).run()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
