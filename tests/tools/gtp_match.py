#!/usr/bin/env python3
"""A GTP referee for Othello, in the manner of gogui-twogtp and of Quarry
(the GTK board-game GUI that drives Othello engines over GTP): it plays
whole games between two GTP engines, typically plyd and Edax, checks
every move with its own Othello rules (tests/tools/othello_rules.py),
keeps both clocks and tallies the results with a 95% interval.

    gtp_match.py --a '/tmp/plyd-snap3/plyd --protocol gtp' \\
        --b '/work/clients/edax/bin/lEdax-x86-64-v3 -gtp -n-tasks 1' \\
        --b-cwd /work/clients/edax --games 10 --time 20 [--opening-plies 4]
        [--record tests/fixtures/clients/gtp-quarry-othello.txt]

Each game starts both engines afresh and opens the session as Quarry
does: `protocol_version`, `name`, `version`, `list_commands`,
`known_command list_games`, `list_games` and `set_game Othello` (for an
engine that knows them), `known_command final_score`, `boardsize 8`,
`clear_board`, `komi 0`, `time_settings T 0 0`. Then, from the start
position (after --opening-plies random legal moves sent to both with
`play`), the side to move gets `time_left COLOUR SECONDS 0` and
`genmove COLOUR`, and the other engine `play COLOUR MOVE`; an engine that
must pass is asked too and must answer `pass`. At the end each engine
that knows `final_score` is asked for it and checked against the rules
(the empty squares go to the winner).

Faults are counted against the engine that made them and end the game as
a loss for it: an answer that is not `= ...`, a move that is not a square
or `pass`, an illegal move, no answer within its clock plus --grace
seconds, a clock run out (--time seconds per side per game, measured
here), a crash. A refused `play` of a legal move, a refused set-up
command or a wrong `final_score` is a protocol fault too.
The exit status is 1 when any game had a fault, whichever engine made
it (Edax's `*** SEARCH STILL RUNNING` answers count), else 0. Where every
game had the same result the score's interval is Wilson's (16 wins of 16:
0.806 to 1), as plyd's arena gives it.

--record FILE plays the games with engine A (plyd) behind
tests/tools/record_exchange.py and writes its fixture (play one game:
--games 1). So that a replay whose search picks another move stays on the
recorded game, each of A's `genmove`s is followed by `undo` and `play` of
the move it chose (a no-op for the game, and a check of `undo`).
"""

import argparse
import os
import random
import re
import shlex
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from engine_pipe import EnginePipe  # noqa: E402
from record_exchange import proxy_command  # noqa: E402
from othello_rules import BLACK, Board, is_pass, parse_square, score_interval, square_name  # noqa: E402

COLOUR = ["b", "w"]


class Fault(Exception):
    def __init__(self, who, what):
        super().__init__(what)
        self.who = who
        self.what = what


class Gtp:
    def __init__(self, label, command, cwd, log):
        self.label = label
        self.pipe = EnginePipe(label, command, cwd=cwd, log=log)
        self.known = {}

    def ask(self, command, seconds=30.0):
        """(ok, text) of one GTP answer: `=`/`?` line and its continuation
        lines up to the blank line."""
        self.pipe.send(command)
        deadline = time.monotonic() + seconds
        lines = []
        while True:
            try:
                line = self.pipe.recv(deadline)
            except TimeoutError:
                raise Fault(self.label, f"no answer to '{command}' within {seconds:.1f} s") from None
            if line is None:
                raise Fault(self.label, f"engine closed its output after '{command}'")
            if not lines:
                if not line.strip():
                    continue
                if line[0] not in "=?":
                    raise Fault(self.label, f"answer to '{command}' is not a GTP answer: '{line}'")
                lines.append(line)
                continue
            if not line.strip():
                break
            lines.append(line)
        first = lines[0]
        text = "\n".join([first[1:].strip()] + lines[1:])
        return first[0] == "=", text

    def must(self, command, seconds=30.0):
        ok, text = self.ask(command, seconds)
        if not ok:
            raise Fault(self.label, f"'{command}' refused: '? {text}'")
        return text

    def knows(self, command):
        if command not in self.known:
            ok, text = self.ask(f"known_command {command}")
            self.known[command] = ok and text.strip() == "true"
        return self.known[command]


def open_session(engine, notes):
    engine.must("protocol_version")
    name = engine.must("name")
    version = engine.must("version")
    engine.must("list_commands")
    if engine.knows("list_games"):
        games = engine.must("list_games").split("\n")
        if "Othello" not in [g.strip() for g in games]:
            raise Fault(engine.label, f"list_games does not list Othello: {games}")
        if not engine.knows("set_game"):
            notes.append(f"{engine.label}: knows list_games but not set_game")
        engine.must("set_game Othello")
    else:
        notes.append(f"{engine.label}: known_command list_games is not true")
    engine.knows("final_score")
    engine.must("boardsize 8")
    engine.must("clear_board")
    engine.must("komi 0")
    return f"{name} {version}"


def play_game(number, a_is_black, opts, log, record=None):
    """Returns (points for A, reason, plies, names, notes)."""
    a_cmd = opts.a
    if record:
        client = f"tests/tools/gtp_match.py (a Quarry-like GTP referee), plyd vs {opts.b_name}, time_settings {opts.time} 0 0"
        a_cmd = proxy_command(record, opts.a, "gtp", client, "--protocol gtp")
    engines = {"A": Gtp("A", a_cmd, opts.a_cwd, log), "B": Gtp("B", opts.b, opts.b_cwd, log)}
    side_of = {BLACK: "A" if a_is_black else "B", 1 - BLACK: "B" if a_is_black else "A"}
    board = Board()
    clock = {"A": float(opts.time), "B": float(opts.time)}
    names, notes = {}, []
    rng = random.Random(opts.seed * 1000 + number // 2)  # both colours of a pair share the opening
    outcome = None
    try:
        for label, e in engines.items():
            names[label] = open_session(e, notes)
            e.must(f"time_settings {opts.time} 0 0")
        for _ in range(opts.opening_plies):
            move = square_name(rng.choice(board.legal_moves()))
            colour = COLOUR[board.to_move]
            board.play(move)
            for e in engines.values():
                e.must(f"play {colour} {move}")
        while not board.game_over():
            colour = COLOUR[board.to_move]
            mover = side_of[board.to_move]
            other = "B" if mover == "A" else "A"
            e = engines[mover]
            e.must(f"time_left {colour} {max(0, int(clock[mover]))} 0")
            start = time.monotonic()
            ok, text = e.ask(f"genmove {colour}", clock[mover] + opts.grace)
            used = time.monotonic() - start
            clock[mover] -= used
            if not ok:
                raise Fault(mover, f"genmove {colour} refused: '? {text}'")
            move = text.strip()
            if clock[mover] < 0:
                raise Fault(mover, f"lost on time ({used:.2f} s for {move}, {clock[mover]:.2f} s left)")
            if not (is_pass(move) or parse_square(move) is not None):
                raise Fault(mover, f"genmove {colour} answered '{move}', not a move")
            if is_pass(move) and move.lower() != "pass":
                notes.append(f"{mover}: pass written '{move}'")
            try:
                board.play(move)
            except ValueError as why:
                raise Fault(mover, f"illegal move {move} at ply {len(board.moves) + 1}: {why}") from None
            if record and mover == "A":
                e.must("undo")
                e.must(f"play {colour} {move.lower()}")
            engines[other].must(f"play {colour} {'pass' if is_pass(move) else move.lower()}")
        margin = board.final_margin()
        want = "0" if margin == 0 else (f"B+{margin}" if margin > 0 else f"W+{-margin}")
        for label, e in engines.items():
            if e.known.get("final_score"):
                got = e.must("final_score").strip()
                if got != want:
                    raise Fault(label, f"final_score '{got}', the rules say '{want}'")
        a_colour = BLACK if a_is_black else 1 - BLACK
        a_margin = margin if a_colour == BLACK else -margin
        outcome = (1.0 if a_margin > 0 else 0.5 if a_margin == 0 else 0.0, f"{want}", len(board.moves))
    except Fault as f:
        tail = engines[f.who].pipe.tail(8) if f.who in engines else []
        stderr = engines[f.who].pipe.stderr[-3:] if f.who in engines else []
        outcome = (0.0 if f.who == "A" else 1.0, f"{f.who} fault: {f.what}", len(board.moves))
        notes.append(f"fault of {f.who}: {f.what}\n      " + "\n      ".join(tail + [f"stderr: {s}" for s in stderr]))
    finally:
        for e in engines.values():
            try:
                e.pipe.close()
            except Exception:
                pass
    return outcome[0], outcome[1], outcome[2], names, notes, min(clock.values()), clock


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="engine A's command (plyd: '.../plyd --protocol gtp')")
    ap.add_argument("--b", required=True, help="engine B's command (Edax: '.../lEdax-x86-64-v3 -gtp -n-tasks 1')")
    ap.add_argument("--a-cwd")
    ap.add_argument("--b-cwd", help="engine B's folder (Edax reads data/eval.dat from it)")
    ap.add_argument("--b-name", default="Edax", help="engine B's name for the fixture header")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--time", type=int, default=20, help="main time per side per game, seconds")
    ap.add_argument("--grace", type=float, default=2.0, help="seconds past the clock before no answer is a hang")
    ap.add_argument("--opening-plies", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log", help="traffic log (default: gtp_match.log in the system's temporary folder)")
    ap.add_argument("--record", metavar="FILE", help="record engine A's side into this fixture")
    opts = ap.parse_args()
    log = open(opts.log or os.path.join(tempfile.gettempdir(), "gtp_match.log"), "w")
    points, faults, rows = [], [], []
    t0 = time.monotonic()
    for n in range(opts.games):
        a_black = n % 2 == 0
        p, result, plies, names, notes, least, clock = play_game(n, a_black, opts, log, opts.record if opts.record else None)
        points.append(p)
        rows.append((n + 1, "A" if a_black else "B", result, plies, p, clock))
        print(f"game {n + 1}: A ({names.get('A', '?')}) {'black' if a_black else 'white'} vs B ({names.get('B', '?')}): "
              f"{result}, {plies} plies, A scores {p}, clock left A {clock['A']:.1f} s B {clock['B']:.1f} s", flush=True)
        for note in notes:
            print(f"   {note}")
            if "fault" in note:
                faults.append(f"game {n + 1}: {note}")
    mean, lo, hi = score_interval(points, len(points))
    wins = points.count(1.0)
    draws = points.count(0.5)
    losses = points.count(0.0)
    print(f"\nA vs B over {len(points)} games in {time.monotonic() - t0:.0f} s: +{wins} -{losses} ={draws}, "
          f"score {mean:.3f} (95% interval {lo:.3f}-{hi:.3f}); faults {len(faults)}")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
