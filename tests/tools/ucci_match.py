#!/usr/bin/env python3
"""Play xiangqi matches between plyd and another engine, both spoken to in UCCI.

The referee drives both engines the way a UCCI GUI or the xqbase UCCI league
referee does: `ucci` / `ucciok`, the `setoption` lines of a greeting
(`usemillisec true`, `promotion false`, `ponder false`, `hashsize 16`,
`newgame`, ...), then for every move `position fen <position after the last
capture> - - 0 1 moves <moves since>` and `go [draw] time T increment I
opptime T2 oppincrement I2` in milliseconds, read up to `bestmove` or
`nobestmove`. It keeps both clocks itself and judges every game:

* every move is checked against the legal moves of the position; an illegal
  or unreadable move loses and is reported with the lines that led to it;
* a side with no legal move loses (checkmate or stalemate);
* `bestmove ... resign` and `nobestmove` lose (`nobestmove` while legal
  moves exist is reported as a protocol fault too); `bestmove ... draw`
  answered by `draw` from the other side is a draw by agreement;
* a move that leaves its side's clock below zero (less --timemargin) loses
  on time; an engine silent for its whole clock gets `stop` and, still
  silent after --stopwait seconds, loses on time as a hang;
* the third occurrence of a position ends the game: the verdict (perpetual
  check or chase loses, otherwise a draw) is asked of a separate plyd
  spoken to in UGI (`query result`); 120 plies without a capture and
  --maxplies plies are draws.

A separate plyd process in UGI mode (UCI_Variant xiangqi) is the rules
oracle: `d` gives the FEN after the moves, `go perft 1` on that FEN (with
no history, so no repetition verdict hides moves) lists the legal moves.

Colours alternate: plyd is Red in odd games. With --randomplies K each pair
of games starts from the same K seeded random legal moves.

--record FILE writes the first game's exchange between the referee and plyd
(plyd's greeting included) in the client fixture format of
tests/fixtures/clients/: `>` lines sent to plyd, `<` lines it answered,
`<.` for `bestmove` lines (whose move and extra words depend on the search),
`info` lines dropped.

Usage:
  ucci_match.py --plyd target/release/plyd \\
      --opponent /work/clients/eleeye/eleeye/eleeye --games 10 --tc 10+0.1
  ucci_match.py --opponent '/work/clients/fsf/src/stockfish' --games 10 \\
      --tc 10+0.1 --record tests/fixtures/clients/ucci-fairy-stockfish.txt
"""

import argparse
import math
import os
import queue
import random
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fixture_writer import FixtureWriter  # noqa: E402

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"

# The options a UCCI GUI sends plyd after `ucciok`: the usual ones and the
# quiet ones that change nothing in plyd (no book, no tablebases).
PLYD_GREETING = [
    "setoption usemillisec true",
    "setoption promotion false",
    "setoption ponder false",
    "setoption usehash true",
    "setoption hashsize 16",
    "setoption threads 1",
    "setoption usebook false",
    "setoption useegtb false",
    "setoption pruning large",
    "setoption knowledge large",
    "setoption randomness none",
    "setoption idle none",
    "setoption newgame",
]

# The options sent to the opponent when it announced them.
OPPONENT_GREETING = [
    ("usemillisec", "setoption usemillisec true"),
    ("promotion", "setoption promotion false"),
    ("ponder", "setoption ponder false"),
    ("hashsize", "setoption hashsize 16"),
    ("newgame", "setoption newgame"),
]


class Recorder(FixtureWriter):
    """Writes one exchange with plyd in the client fixture format."""

    def __init__(self, path, client, args):
        header = ["client: " + client]
        if args:
            header.append("args: " + args)
        header += ["chatter: info, option",
                   "`option` lines are skipped (the list grows with plyd's"
                   " options); `bestmove` lines are `<.`: the move and any"
                   " `ponder`/`draw`/`resign` words depend on the search."]
        super().__init__(path, header)

    def classify(self, line):
        words = line.split()
        if words[0] in ("info", "option"):
            return None
        if words[0] in ("bestmove", "id"):
            return "<."
        return "<"


class Engine:
    """A process spoken to line by line, its output read by a thread."""

    def __init__(self, name, argv, log=None, cwd=None):
        self.name = name
        self.argv = argv
        self.log = log
        self.recorder = None
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, bufsize=1, cwd=cwd)
        self.lines = queue.Queue()
        self.history = []  # the last lines both ways, for fault reports
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.monotonic(), line.rstrip("\r\n")))
        self.lines.put((time.monotonic(), None))

    def _read_errors(self):
        for line in self.proc.stderr:
            self._note("stderr: " + line.rstrip("\r\n"))

    def _note(self, text):
        self.history.append(text)
        del self.history[:-40]
        if self.log:
            self.log.write("%.3f %s %s\n" % (time.monotonic(), self.name, text))

    def send(self, line):
        self._note("> " + line)
        if self.recorder:
            self.recorder.sent(line)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def recv(self, deadline):
        """The next line and when it came, or (None, None) at the deadline;
        ('EOF', t) when the process closed its output."""
        timeout = max(0.0, deadline - time.monotonic())
        try:
            t, line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None, None
        if line is None:
            self._note("<EOF>")
            return "EOF", t
        self._note("< " + line)
        if self.recorder:
            self.recorder.got(line)
        return line, t

    def wait_for(self, first_word, seconds):
        """Read until a line starting with first_word; the lines read."""
        deadline = time.monotonic() + seconds
        seen = []
        while True:
            line, _ = self.recv(deadline)
            if line is None or line == "EOF":
                return seen, False
            seen.append(line)
            if line.split()[:1] == [first_word]:
                return seen, True

    def quit(self):
        self.send("quit")
        self.wait_for("bye", 2.0)
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Oracle:
    """plyd in UGI mode as the xiangqi rules: FENs, legal moves, verdicts."""

    def __init__(self, plyd):
        self.engine = Engine("oracle", [plyd, "--protocol", "ugi"])
        self.engine.send("ugi")
        _, ok = self.engine.wait_for("ugiok", 20)
        if not ok:
            raise SystemExit("the oracle plyd did not answer ugiok")
        self.engine.send("setoption name UCI_Variant value xiangqi")
        self._sync()

    def _sync(self):
        self.engine.send("isready")
        seen, ok = self.engine.wait_for("readyok", 20)
        if not ok:
            raise SystemExit("the oracle plyd did not answer readyok")
        return seen

    @staticmethod
    def _position(fen, moves):
        line = "position fen %s - - 0 1" % fen
        if moves:
            line += " moves " + " ".join(moves)
        return line

    def fen_after(self, fen, moves):
        """Board and side to move after the moves (`d`'s Fen line)."""
        self.engine.send(self._position(fen, moves))
        self.engine.send("d")
        for line in self._sync():
            if line.startswith("Fen:"):
                return " ".join(line.split()[1:3])
        raise SystemExit("the oracle printed no Fen line for %s" % moves)

    def legal_moves(self, fen):
        self.engine.send("position fen %s - - 0 1" % fen)
        self.engine.send("go perft 1")
        seen, ok = self.engine.wait_for("Nodes", 20)
        if not ok:
            raise SystemExit("the oracle's perft did not finish")
        moves = set()
        for line in seen:
            if ":" in line and not line.startswith(("info", "Nodes")):
                moves.add(line.split(":")[0].strip())
        return moves

    def result(self, fen, moves):
        self.engine.send(self._position(fen, moves))
        self.engine.send("query result")
        deadline = time.monotonic() + 20
        while True:
            line, _ = self.engine.recv(deadline)
            if line is None or line == "EOF":
                return "none"
            if line.startswith("response"):
                return line.split()[1]


def parse_tc(text):
    base, _, inc = text.partition("+")
    return int(round(float(base) * 1000)), int(round(float(inc or 0) * 1000))


def board_pieces(fen):
    return sum(c.isalpha() for c in fen.split()[0])


class Player:
    def __init__(self, label, argv, is_plyd, extra_options, log, cwd):
        self.label = label
        self.argv = argv
        self.is_plyd = is_plyd
        self.extra_options = extra_options
        self.log = log
        self.cwd = cwd
        self.engine = None
        self.options = set()
        self.greeting_errors = []

    def start(self, recorder=None):
        self.engine = Engine(self.label, self.argv, self.log, self.cwd)
        self.engine.recorder = recorder
        self.engine.send("ucci")
        seen, ok = self.engine.wait_for("ucciok", 20)
        if not ok:
            raise RuntimeError("%s did not answer ucciok: %s" % (self.label, seen[-5:]))
        self.options = set()
        for line in seen:
            words = line.split()
            if words[:1] == ["option"] and len(words) > 1:
                name = words[2] if words[1] == "name" and len(words) > 2 else words[1]
                self.options.add(name.lower())
        if self.is_plyd:
            lines = list(PLYD_GREETING)
        else:
            lines = [l for (name, l) in OPPONENT_GREETING if name in self.options]
        lines += self.extra_options
        for line in lines:
            self.engine.send(line)
        self.sync()

    def sync(self):
        self.engine.send("isready")
        seen, ok = self.engine.wait_for("readyok", 20)
        for line in seen:
            if "error" in line or line.startswith("No such option"):
                self.greeting_errors.append(line)
        if not ok:
            raise RuntimeError("%s did not answer readyok" % self.label)

    def new_game(self):
        if self.engine is None or self.engine.proc.poll() is not None:
            self.start()
        else:
            if self.is_plyd or "newgame" in self.options:
                self.engine.send("setoption newgame")
            self.sync()

    def stop(self):
        if self.engine is not None:
            self.engine.quit()
            self.engine = None


def play_game(number, red, black, oracle, opening, args, faults):
    """One game; returns (result from Red's side: 1, 0.5, 0; reason; info)."""
    base, inc = parse_tc(args.tc)
    players = [red, black]
    clocks = [base, base]
    fen0 = START_FEN          # the position after the last capture
    since = []                # the moves since it
    fen = START_FEN
    seen = {fen: 1}
    plies = 0
    no_capture = 0
    draw_offer = False
    info = {"least": [None, None], "plies": 0, "moves": []}

    def end(result, reason):
        info["plies"] = plies
        return result, reason, info

    def fault(player, what):
        faults.append("game %d, %s (%s): %s\n    last lines:\n      %s" % (
            number, player.label, "Red" if player is red else "Black", what,
            "\n      ".join(player.engine.history[-12:])))

    for p in players:
        p.new_game()

    while True:
        side = 0 if fen.split()[1] == "w" else 1
        legal = oracle.legal_moves(fen)
        if not legal:
            return end(0.0 if side == 0 else 1.0, "no legal move (mate or stalemate)")
        if plies < len(opening):
            move = opening[plies]
        else:
            mover = players[side]
            eng = mover.engine
            pos = "position fen %s - - 0 1" % fen0
            if since:
                pos += " moves " + " ".join(since)
            eng.send(pos)
            go = "go draw" if draw_offer else "go"
            go += " time %d increment %d opptime %d oppincrement %d" % (
                max(clocks[side], 1), inc, max(clocks[1 - side], 1), inc)
            eng.send(go)
            start = time.monotonic()
            deadline = start + clocks[side] / 1000.0
            stopped = False
            answer = None
            while answer is None:
                line, when = eng.recv(deadline)
                if line is None:
                    if not stopped:
                        stopped = True
                        eng.send("stop")
                        deadline = time.monotonic() + args.stopwait
                        continue
                    fault(mover, "no bestmove %.1f s after its clock ran out and `stop`"
                          % args.stopwait)
                    mover.stop()
                    return end(0.0 if side == 0 else 1.0, "time forfeit (hang)")
                if line == "EOF":
                    fault(mover, "the engine exited during its move")
                    mover.stop()
                    return end(0.0 if side == 0 else 1.0, "engine exited")
                words = line.split()
                if words[:1] in (["bestmove"], ["nobestmove"]):
                    answer = (words, when)
                elif mover.is_plyd and words and words[0] not in ("info",):
                    fault(mover, "unexpected line while thinking: %r" % line)
            words, when = answer
            used = int(round((when - start) * 1000))
            clocks[side] -= used
            left = clocks[side]
            least = info["least"][side]
            if least is None or left < least:
                info["least"][side] = left
            if words[0] == "nobestmove":
                fault(mover, "nobestmove with %d legal moves" % len(legal))
                return end(0.0 if side == 0 else 1.0, "nobestmove")
            if len(words) < 2:
                fault(mover, "bestmove without a move")
                return end(0.0 if side == 0 else 1.0, "unreadable bestmove")
            move = words[1]
            if move not in legal:
                fault(mover, "illegal move %s in %s" % (move, fen))
                return end(0.0 if side == 0 else 1.0, "illegal move")
            if left < -args.timemargin:
                fault(mover, "lost on time: %d ms over (move took %d ms)" % (-left, used))
                return end(0.0 if side == 0 else 1.0, "time forfeit")
            if "resign" in words[2:]:
                return end(0.0 if side == 0 else 1.0, "resigned")
            offers = "draw" in words[2:]
            if offers and draw_offer:
                return end(0.5, "draw agreed")
            draw_offer = offers
            clocks[side] += inc
        if move not in legal:
            raise SystemExit("opening move %s is not legal" % move)
        # Make the move.
        info["moves"].append(move)
        moves_from_start = info["moves"]
        new_fen = oracle.fen_after(fen0, since + [move])
        plies += 1
        if board_pieces(new_fen) < board_pieces(fen):
            fen0, since = new_fen, []
            no_capture = 0
            seen = {}
        else:
            since.append(move)
            no_capture += 1
        fen = new_fen
        seen[fen] = seen.get(fen, 0) + 1
        if seen[fen] >= 3:
            verdict = oracle.result(START_FEN, moves_from_start)
            if verdict == "p1win":
                return end(1.0, "repetition: Black checks or chases perpetually")
            if verdict == "p2win":
                return end(0.0, "repetition: Red checks or chases perpetually")
            return end(0.5, "threefold repetition")
        if no_capture >= 120:
            return end(0.5, "120 plies without a capture")
        if plies >= args.maxplies:
            return end(0.5, "%d plies" % args.maxplies)


def interval(scores):
    """Mean score and its 95% interval (low, high). The normal interval of
    the per-game scores, but Wilson's score interval where every game
    scored alike (or there is one game): the normal one is then zero wide."""
    n = len(scores)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.0
    if var > 0:
        half = 1.96 * math.sqrt(var / n)
        return mean, max(mean - half, 0.0), min(mean + half, 1.0), "normal"
    z2 = 1.96 ** 2
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = 1.96 / (1 + z2 / n) * math.sqrt(mean * (1 - mean) / n + z2 / (4 * n * n))
    return mean, max(centre - half, 0.0), min(centre + half, 1.0), "Wilson"


def elo(p):
    """Elo difference of a mean score; infinite at 0 and 1."""
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return -400 * math.log10(1 / p - 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plyd", default="target/release/plyd")
    ap.add_argument("--plyd-args", default="--protocol ucci",
                    help="plyd's command-line arguments (default: --protocol ucci)")
    ap.add_argument("--opponent", required=True, help="the opponent's command line")
    ap.add_argument("--opponent-name", default=None,
                    help="the opponent's name in the report (default: its program's file name;"
                    " 'opponent plyd' for a plyd)")
    ap.add_argument("--opponent-option", action="append", default=[],
                    help="an extra line for the opponent's greeting (repeatable)")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--tc", default="10+0.1", help="base+increment in seconds")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--randomplies", type=int, default=2,
                    help="seeded random opening plies per pair of games")
    ap.add_argument("--maxplies", type=int, default=300)
    ap.add_argument("--timemargin", type=int, default=0,
                    help="ms a clock may fall below zero before the move loses")
    ap.add_argument("--stopwait", type=float, default=5.0,
                    help="seconds to wait after `stop` before a silent engine loses")
    ap.add_argument("--record", default=None, help="fixture file for game 1")
    ap.add_argument("--log", default=None, help="write every line both ways here")
    args = ap.parse_args()

    plyd = os.path.abspath(args.plyd)
    opp_argv = shlex.split(args.opponent)
    opp_name = args.opponent_name or os.path.basename(opp_argv[0])
    if opp_name == "plyd":
        # plyd against another plyd build: the report and the log name the
        # two sides apart.
        opp_name = "opponent plyd"
    if os.sep in opp_argv[0]:
        # The opponent runs in its own folder (where engines look for their
        # books and data): a path given from here must still find it.
        opp_argv[0] = os.path.abspath(opp_argv[0])
    opp_cwd = os.path.dirname(os.path.abspath(opp_argv[0])) or None
    log = open(args.log, "w") if args.log else None
    rng = random.Random(args.seed)

    oracle = Oracle(plyd)
    plyd_argv = [plyd] + shlex.split(args.plyd_args)
    me = Player("plyd", plyd_argv, True, [], log, None)
    opp = Player(opp_name, opp_argv, False, args.opponent_option, log, opp_cwd)
    recorder = None
    if args.record:
        recorder = Recorder(args.record,
                            "tests/tools/ucci_match.py (UCCI referee) against %s, --tc %s"
                            % (opp_name, args.tc), args.plyd_args)
    me.start(recorder)
    opp.start()

    faults = []
    rows = []
    opening = []
    t0 = time.monotonic()
    for g in range(1, args.games + 1):
        if g % 2 == 1:
            opening = []
            fen = START_FEN
            for _ in range(args.randomplies):
                moves = sorted(oracle.legal_moves(fen))
                if not moves:
                    break
                m = rng.choice(moves)
                opening.append(m)
                fen = oracle.fen_after(START_FEN, opening)
        plyd_red = g % 2 == 1
        red, black = (me, opp) if plyd_red else (opp, me)
        if recorder and g == 1:
            recorder.comment("game 1: plyd is Red against %s, opening %s"
                             % (opp_name, " ".join(opening) or "none"))
        result, reason, info = play_game(g, red, black, oracle, opening, args, faults)
        if recorder and g == 1:
            recorder.comment("result (Red's score) %s: %s" % (result, reason))
            recorder.finish()
            me.engine.recorder = None
        if log:
            log.write("# game %d: Red's score %s (%s); moves from the start: %s\n"
                      % (g, result, reason, " ".join(info["moves"])))
        score = result if plyd_red else 1 - result
        least = info["least"][0 if plyd_red else 1]
        rows.append((g, "Red" if plyd_red else "Black", score, reason, info["plies"],
                     least, info["least"][1 if plyd_red else 0]))
        print("game %2d: plyd %-5s %-4s %-48s %3d plies, least left plyd %s ms, %s %s ms"
              % (g, rows[-1][1], {1.0: "win", 0.5: "draw", 0.0: "loss"}[score], reason,
                 info["plies"], least, opp_name, rows[-1][6]), flush=True)
        # An engine that hung or exited is started afresh for the next game.
        for p in (me, opp):
            if p.engine is None:
                p.start()

    me.stop()
    opp.stop()
    oracle.engine.quit()
    if recorder:
        recorder.finish()

    scores = [r[2] for r in rows]
    mean, low, high, kind = interval(scores)
    w = scores.count(1.0)
    d = scores.count(0.5)
    l = scores.count(0.0)
    print()
    print("plyd vs %s, %d games, --tc %s, seed %d, %.0f s"
          % (opp_name, len(rows), args.tc, args.seed, time.monotonic() - t0))
    print("| colour | games | plyd W | D | L | plyd score |")
    print("|---|---|---|---|---|---|")
    for colour in ("Red", "Black"):
        sub = [r[2] for r in rows if r[1] == colour]
        if sub:
            print("| plyd %s | %d | %d | %d | %d | %.1f |" % (
                colour, len(sub), sub.count(1.0), sub.count(0.5), sub.count(0.0), sum(sub)))
    print("| all | %d | %d | %d | %d | %.1f/%d = %.3f [%.3f, %.3f] (95%%, %s), Elo %+.0f [%+.0f, %+.0f] |" % (
        len(rows), w, d, l, sum(scores), len(rows), mean, low, high, kind, elo(mean),
        elo(low), elo(high)))
    reasons = {}
    for r in rows:
        reasons[r[3]] = reasons.get(r[3], 0) + 1
    print("endings: " + ", ".join("%s %d" % kv for kv in sorted(reasons.items())))
    time_losses = sum(1 for r in rows if r[3].startswith("time forfeit") and r[2] == 0.0)
    opp_time_losses = sum(1 for r in rows if r[3].startswith("time forfeit") and r[2] == 1.0)
    illegal = sum(1 for r in rows if r[3] == "illegal move" and r[2] == 0.0)
    print("plyd losses on time: %d, illegal moves: %d; %s losses on time: %d, illegal moves: %d"
          % (time_losses, illegal, opp_name, opp_time_losses,
             sum(1 for r in rows if r[3] == "illegal move" and r[2] == 1.0)))
    lows = [r[5] for r in rows if r[5] is not None]
    if lows:
        print("least time plyd had left after a move: %d ms" % min(lows))
    for p in (me, opp):
        if p.greeting_errors:
            print("%s answered the greeting with: %s" % (p.label, "; ".join(sorted(set(p.greeting_errors)))))
    if faults:
        print("\nfaults:")
        for f in faults:
            print("  " + f)
    sys.exit(1 if any("plyd" in f.split(":")[0] for f in faults) else 0)


if __name__ == "__main__":
    main()
