#!/usr/bin/env python3
"""An NBoard referee: plays whole Othello games between two NBoard
engines (typically plyd and Edax) the way the NBoard GUI (weltyc/nboard)
drives them, checks every move with its own rules
(tests/tools/othello_rules.py), keeps a GGF clock and tallies results.

    nboard_match.py --a '/tmp/plyd-snap3/plyd --protocol nboard' \\
        --b '/work/clients/edax/bin/lEdax-x86-64-v3 -nboard -n-tasks 1' \\
        --b-cwd /work/clients/edax --games 10 --depth 8 --clock 2:00
        [--opening-plies 4] [--hint-ply 12] [--ping-ply 20]
        [--record tests/fixtures/clients/nboard-gui-othello.txt]

Each game starts both engines afresh and sends, as the GUI does:
`nboard 2`, `set depth D`, `set contempt 0`, `set game GGF` (the game so
far: `GM[Othello]`, the players, `TI[m:ss]` the clock per side, the start
board and the moves with `/eval/time`) and `ping n`, answered `pong n`
once everything before it is done. Then the side to move gets `go` and
answers `=== MOVE/EVAL/TIME` (Edax writes `=== move eval time`; both are
read); the move is checked by the rules, the mover's clock is charged the
time measured here, and both engines get `move MOVE/EVAL/TIME` and a new
`ping`. A side that must pass is not asked: both engines get `move PA`.

Two checks the GUI relies on are made once a game: at --hint-ply both
engines get `hint 3` (answered `status ...`, `search PV EVAL 0 DEPTH`
lines with a legal first move, then a status line that is not
"thinking"); at --ping-ply the mover gets `set depth` --ping-depth, `go` and, 0.2 s
later, `ping n`
(the search stops; the GUI discards any `===` that comes before the
`pong n`, and no `===` may come after it), and then `go` again.

Faults end the game as a loss for the engine that made them: no `===`
within its clock plus --grace seconds, an `===` that is not a legal move,
no `pong` within --grace seconds of a `ping`, a crash, its clock run out.
Errors the engine reports (`status error: ...` or its stderr) are listed.
The exit status is 1 when any game had a fault, whichever engine made
it (Edax's `*** SEARCH STILL RUNNING` answers count), else 0. Where every
game had the same result the score's interval is Wilson's (16 wins of 16:
0.806 to 1), as plyd's arena gives it.

--record FILE puts tests/tools/record_exchange.py in front of engine A
(plyd) and writes its fixture (play one game: --games 1).
"""

import argparse
import os
import random
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


class Fault(Exception):
    def __init__(self, who, what):
        super().__init__(what)
        self.who = who
        self.what = what


def parse_clock(text):
    parts = [float(p) for p in text.split(":")]
    seconds = 0.0
    for p in parts:
        seconds = seconds * 60 + p
    return seconds


class NBoard:
    def __init__(self, label, command, cwd, log):
        self.label = label
        self.pipe = EnginePipe(label, command, cwd=cwd, log=log)
        self.ping_no = 0
        self.errors = []
        self.name = None

    def send(self, line):
        self.pipe.send(line)

    def read(self, deadline, what):
        try:
            line = self.pipe.recv(deadline)
        except TimeoutError:
            raise Fault(self.label, f"no {what} in time") from None
        if line is None:
            raise Fault(self.label, f"engine closed its output waiting for {what}")
        if line.startswith("status error"):
            self.errors.append(line)
        if line.startswith("set myname "):
            self.name = line[len("set myname "):]
        return line

    def ping(self, grace):
        """Send `ping n` and read up to `pong n`; returns the lines before it."""
        self.ping_no += 1
        n = self.ping_no
        self.send(f"ping {n}")
        deadline = time.monotonic() + grace
        lines = []
        while True:
            line = self.read(deadline, f"pong {n}")
            if line.strip() == f"pong {n}":
                return lines
            lines.append(line)


def ggf(board_start, moves, names, clocks):
    """moves: [(colour, text)] with text like 'F5/0.50/1.20' or 'PA';
    clocks: (Black's, White's) GGF clock texts, one TI when they agree."""
    body = "".join(f"{'BW'[c]}[{t}]" for c, t in moves)
    timing = f"TI[{clocks[0]}]" if clocks[0] == clocks[1] else f"TB[{clocks[0]}]TW[{clocks[1]}]"
    return (f"(;GM[Othello]PC[plyd nboard_match]DT[{time.strftime('%Y-%m-%d %H:%M:%S')}]"
            f"PB[{names[0]}]PW[{names[1]}]RE[?]{timing}TY[8]BO[{board_start}]{body};)")


def parse_move_line(line):
    """`=== F5/0.50/1.2` or `=== f5 0.50 1.2` -> (move, eval, seconds)."""
    rest = line[3:].strip()
    if "/" in rest:
        parts = rest.split("/")
    else:
        parts = rest.split()
    move = parts[0] if parts else ""
    ev = parts[1] if len(parts) > 1 else ""
    secs = parts[2] if len(parts) > 2 else ""
    # A move alone (`=== A3`: no evaluation, as for a forced move) has no
    # separator to judge.
    sep = "/" if "/" in rest else (" " if len(parts) > 1 else "")
    return move, ev, secs, sep


def play_game(number, a_is_black, opts, log, record=None):
    a_cmd = opts.a
    if record:
        client = f"tests/tools/nboard_match.py (NBoard GUI's commands), plyd vs {opts.b_name}, set depth {opts.depth}, TI[{opts.clock}]"
        a_cmd = proxy_command(record, opts.a, "nboard", client, "--protocol nboard")
    engines = {"A": NBoard("A", a_cmd, opts.a_cwd, log), "B": NBoard("B", opts.b, opts.b_cwd, log)}
    side_of = {BLACK: "A" if a_is_black else "B", 1 - BLACK: "B" if a_is_black else "A"}
    board = Board()
    start_board = board.ggf_board()
    clock_text = {"A": opts.a_clock or opts.clock, "B": opts.b_clock or opts.clock}
    depth = {"A": opts.a_depth or opts.depth, "B": opts.b_depth or opts.depth}
    clock = {label: parse_clock(text) for label, text in clock_text.items()}
    thinking = {"A": [0.0, 0], "B": [0.0, 0]}
    notes, moves = [], []
    names = {}
    rng = random.Random(opts.seed * 1000 + number // 2)
    grace = opts.grace
    try:
        for label, e in engines.items():
            e.send("nboard 2")
            e.send(f"set depth {depth[label]}")
            e.send("set contempt 0")
            e.ping(grace)
            names[label] = e.name or label
        pnames = [names[side_of[BLACK]], names[side_of[1 - BLACK]]]
        for _ in range(opts.opening_plies):
            c = board.to_move
            move = square_name(rng.choice(board.legal_moves()))
            board.play(move)
            moves.append((c, f"{move.upper()}//0.01"))
        for e in engines.values():
            clocks = (clock_text[side_of[BLACK]], clock_text[side_of[1 - BLACK]])
            e.send(f"set game {ggf(start_board, moves, pnames, clocks)}")
            e.ping(grace)
        hinted = pinged = False
        while not board.game_over():
            c = board.to_move
            mover = side_of[c]
            if board.must_pass():
                board.play("pass")
                moves.append((c, "PA"))
                for e in engines.values():
                    e.send("move PA")
                    e.ping(grace)
                continue
            ply = len(board.moves)
            if not hinted and ply >= opts.hint_ply:
                hinted = True
                for e in engines.values():
                    check_hint(e, board, grace + 30, notes)
            e = engines[mover]
            if not pinged and ply >= opts.ping_ply:
                pinged = True
                e.send(f"set depth {opts.ping_depth}")
                e.send("go")
                time.sleep(0.2)
                before = e.ping(grace)
                stale = [l for l in before if l.startswith("===")]
                # nothing but status lines may follow the pong
                after = []
                end = time.monotonic() + 0.5
                while True:
                    try:
                        after.append(e.read(end, "lines after pong"))
                    except Fault:
                        break
                if any(l.startswith("===") for l in after):
                    raise Fault(mover, f"'===' after the pong of a ping during go: {after}")
                e.send(f"set depth {depth[mover]}")
                e.ping(grace)
                notes.append(f"{mover}: ping during go answered {'with the stopped search' + chr(39) + 's ' + stale[0] if stale else 'without an ===' } before the pong")
            start = time.monotonic()
            e.send("go")
            deadline = start + max(0.0, clock[mover]) + grace
            while True:
                line = e.read(deadline, "=== after go")
                if line.startswith("==="):
                    break
            used = time.monotonic() - start
            clock[mover] -= used
            thinking[mover][0] += used
            thinking[mover][1] += 1
            move, ev, secs, sep = parse_move_line(line)
            if clock[mover] < 0:
                raise Fault(mover, f"lost on time ({used:.2f} s for {move}, clock {clock[mover]:.2f} s)")
            if sep == " " and not any(n.startswith(f"{mover}: '=== move eval time'") for n in notes):
                notes.append(f"{mover}: '=== move eval time' (spaces, not NBoard's slashes): '{line}'")
            if not (is_pass(move) or parse_square(move) is not None):
                raise Fault(mover, f"'{line}' is not a move")
            try:
                board.play(move)
            except ValueError as why:
                raise Fault(mover, f"illegal move '{line}' at ply {ply + 1}: {why}") from None
            text = "PA" if is_pass(move) else move.upper()
            try:
                ev = f"{float(ev):.2f}"
            except ValueError:
                ev = ""
            moves.append((c, f"{text}/{ev}/{used:.2f}"))
            for other in engines.values():
                other.send(f"move {text}/{ev}/{used:.2f}")
                other.ping(grace)
        margin = board.final_margin()
        a_margin = margin if a_is_black else -margin
        result = ("0" if margin == 0 else f"{'+' if margin > 0 else '-'}{abs(margin)}")
        outcome = (1.0 if a_margin > 0 else 0.5 if a_margin == 0 else 0.0, f"RE[{result}]")
    except Fault as f:
        tail = engines[f.who].pipe.tail(8)
        outcome = (0.0 if f.who == "A" else 1.0, f"{f.who} fault: {f.what}")
        notes.append(f"fault of {f.who}: {f.what}\n      " + "\n      ".join(tail))
    finally:
        for e in engines.values():
            try:
                e.pipe.close()
            except Exception:
                pass
    for label, e in engines.items():
        for err in e.errors[:3]:
            notes.append(f"{label} reported: {err}")
        for err in e.pipe.stderr[:3]:
            notes.append(f"{label} stderr: {err}")
    return outcome[0], outcome[1], len(board.moves), names, notes, clock, thinking


def check_hint(e, board, seconds, notes):
    e.send("hint 3")
    deadline = time.monotonic() + seconds
    lines, thinking = [], False
    while True:
        line = e.read(deadline, "end of hint")
        lines.append(line)
        if line.startswith("status"):
            if "thinking" in line:
                thinking = True
                continue
            break
    searches = [l for l in lines if l.startswith("search ")]
    if not thinking:
        notes.append(f"{e.label}: hint without a 'thinking' status")
    if not searches:
        raise Fault(e.label, f"hint 3 gave no search line: {lines}")
    for l in searches:
        w = l.split()
        if len(w) != 5:
            raise Fault(e.label, f"search line '{l}' is not 'search PV EVAL 0 DEPTH'")
        first = w[1].replace("-", "")[:2]
        if parse_square(first) is None or parse_square(first) not in board.legal_moves():
            raise Fault(e.label, f"search line '{l}' does not start with a legal move")
    firsts = {l.split()[1].replace("-", "")[:2].lower() for l in searches}
    notes.append(f"{e.label}: hint 3 -> {len(searches)} search lines, {len(firsts)} distinct first moves, last '{searches[-1]}'")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="engine A's command (plyd: '.../plyd --protocol nboard')")
    ap.add_argument("--b", required=True, help="engine B's command (Edax: '.../lEdax-x86-64-v3 -nboard -n-tasks 1')")
    ap.add_argument("--a-cwd")
    ap.add_argument("--b-cwd", help="engine B's folder (Edax reads data/eval.dat from it)")
    ap.add_argument("--b-name", default="Edax")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--depth", type=int, default=8, help="set depth for both engines")
    ap.add_argument("--a-depth", type=int, help="set depth for engine A (default --depth)")
    ap.add_argument("--b-depth", type=int, help="set depth for engine B (default --depth)")
    ap.add_argument("--clock", default="2:00", help="GGF TI: time per side per game, m:ss")
    ap.add_argument("--a-clock", help="engine A's clock, m:ss (default --clock); the record then has TB and TW")
    ap.add_argument("--b-clock", help="engine B's clock, m:ss (default --clock)")
    ap.add_argument("--grace", type=float, default=10.0, help="seconds for a pong, and past the clock for an ===")
    ap.add_argument("--opening-plies", type=int, default=4)
    ap.add_argument("--hint-ply", type=int, default=12)
    ap.add_argument("--ping-ply", type=int, default=20)
    ap.add_argument("--ping-depth", type=int, default=40, help="set depth of the go that the ping stops")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log", help="traffic log (default: nboard_match.log in the system's temporary folder)")
    ap.add_argument("--record", metavar="FILE")
    opts = ap.parse_args()
    log = open(opts.log or os.path.join(tempfile.gettempdir(), "nboard_match.log"), "w")
    points, faults = [], []
    spent = {"A": [0.0, 0], "B": [0.0, 0]}
    t0 = time.monotonic()
    for n in range(opts.games):
        a_black = n % 2 == 0
        p, result, plies, names, notes, clock, thinking = play_game(n, a_black, opts, log, opts.record)
        points.append(p)
        for label in spent:
            spent[label][0] += thinking[label][0]
            spent[label][1] += thinking[label][1]
        print(f"game {n + 1}: A ({names.get('A', '?')}) {'black' if a_black else 'white'} vs B ({names.get('B', '?')}): "
              f"{result}, {plies} plies, A scores {p}, clock left A {clock['A']:.1f} s B {clock['B']:.1f} s", flush=True)
        for note in notes:
            print(f"   {note}")
            if note.startswith("fault"):
                faults.append(note)
    mean, lo, hi = score_interval(points, len(points))
    print(f"\nA vs B over {len(points)} games in {time.monotonic() - t0:.0f} s: +{points.count(1.0)} -{points.count(0.0)} "
          f"={points.count(0.5)}, score {mean:.3f} (95% interval {lo:.3f}-{hi:.3f}); faults {len(faults)}")
    for label, (seconds, count) in spent.items():
        print(f"{label}: {count} moves in {seconds:.1f} s, {1000 * seconds / max(count, 1):.1f} ms a move")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
