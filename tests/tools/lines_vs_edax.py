#!/usr/bin/env python3
"""Check plyd's exact endgame lines (`MultiPV` above 1, NBoard's `hint
n`) against Edax: the exact score of every legal move, position by
position.

plyd answers `setoption name MultiPV value 64` and `go depth 60` with a
line for every move, each solved to the end of the game; with --lines N,
`MultiPV N`, whose lines are the N best (the other moves shown by null
windows to be no better), compared with Edax's N best scores and with
Edax's score of each move plyd names. Edax gives every
move's exact score with its console command `script-to-obf` at level 60
(it finds the best move, leaves it out, searches again, and so on: how
Edax writes its own test files). Edax is not part of plyd: build it from
its own source (`src/Makefile`: `make build CC=gcc ARCH=x86-64-v2
OS=linux`) and give its binary with --edax and the folder holding its
`data/eval.dat` with --edax-dir. The weights only order its search; the
scores are exact whatever they are.

Positions: --random N positions reached by random games (this folder's
othello_rules.py, seeded), with --empties E squares left (a range such
as 10-16), and/or the FFO positions of plyd's file between --from and
--to; --passes keeps only random positions where the side to move must
pass, compared on that pass. Prints one line per position that differs and the totals; exits 1
when any differs.
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from othello_rules import BLACK, Board, square_name
from uci_engine import Engine

FFO = Path(__file__).resolve().parents[2] / "plugins" / "othello" / "ffo.txt"


def random_positions(count, empties, seed, passes=False):
    """`count` positions of random games with `empties` empty squares (a
    list of counts), each with a move to play or a pass to make; with
    `passes`, only positions whose side to move must pass."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = Board()
        seen = []
        while not board.game_over():
            left = 64 - board.count(BLACK) - board.count(1 - BLACK)
            moves = board.legal_moves()
            if left in empties and (moves == [] or not passes):
                seen.append(board_text(board))
            board.play(square_name(rng.choice(moves)) if moves else "pass")
        if seen:
            found.append((f"random{len(found) + 1}", rng.choice(seen)))
    return found


def board_text(board):
    squares = "".join("-XO"[c + 1] for c in board.cells)
    return f"{squares} {'XO'[board.to_move]}"


def ffo_positions(first, last):
    rows = []
    for line in FFO.read_text().splitlines():
        fields = line.split("#")[0].split()
        if fields:
            rows.append((fields[0], f"{fields[1]} {fields[2]}"))
    names = [name for name, _ in rows]
    return rows[names.index(first) : names.index(last) + 1]


def plyd_lines(engine, position):
    """Every move's exact score by plyd: {move: score}."""
    engine.send(f"position fen {position}")
    engine.send("go depth 60")
    lines = engine.read_until(lambda line: line.startswith("bestmove"))
    if "info string exact" not in lines:
        raise SystemExit(f"plyd did not solve {position}: {lines}")
    scores = {}
    for line in lines:
        words = line.split()
        if "score" in words and "pv" in words:
            move = words[words.index("pv") + 1].lower()
            move = "pass" if move == "0000" else move
            scores[move] = int(words[words.index("cp") + 1]) // 100
    return scores


class Edax:
    """One Edax console at level 60, given one problem file at a time."""

    def __init__(self, binary, folder):
        self.folder = folder
        self.tmp = tempfile.mkdtemp(prefix="lines_vs_edax_")
        self.log = open(os.path.join(self.tmp, "edax.log"), "w")
        # Started at level 1: without a book file Edax builds one at its
        # start-up level, which at 60 would solve the opening.
        self.proc = subprocess.Popen(
            [binary, "-l", "1", "-n", "1", "-q", "-ponder", "off", "-book-usage", "off"],
            cwd=folder,
            stdin=subprocess.PIPE,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.send("level 60")
        self.count = 0

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def lines(self, position):
        """Every move's exact score by Edax: {move: score}."""
        self.count += 1
        problem = os.path.join(self.tmp, f"p{self.count}.scr")
        answer = os.path.join(self.tmp, f"p{self.count}.obf")
        Path(problem).write_text(position + "\n")
        self.send(f"script-to-obf {problem} {answer}")
        while not (os.path.exists(answer) and Path(answer).read_text().endswith("\n")):
            if self.proc.poll() is not None:
                raise SystemExit(f"Edax exited; see {self.log.name}")
            time.sleep(0.005)
        text = Path(answer).read_text()
        # "BOARD X; A2:+38; C7:+36; ..."
        scores = {}
        for field in text.split(";")[1:]:
            if ":" in field:
                move, score = field.split(":")
                move = move.strip().lower()
                scores["pass" if move == "pa" else move] = int(score)
        return scores

    def close(self):
        # End of input ends Edax's console (a `quit` would drop the
        # commands still queued before it).
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plyd", required=True)
    ap.add_argument("--edax", required=True)
    ap.add_argument("--edax-dir", required=True, help="folder with Edax's data/eval.dat")
    ap.add_argument("--random", type=int, default=0, help="positions of random games")
    ap.add_argument("--empties", default="10-16", help="their empty squares, N or N-M")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--passes", action="store_true", help="only positions with a pass to make")
    ap.add_argument("--from", dest="first", help="first FFO position (ffo1)")
    ap.add_argument("--to", dest="last", help="last FFO position")
    ap.add_argument("--threads", type=int, default=1, help="plyd's Threads")
    ap.add_argument("--lines", type=int, default=64, help="plyd's MultiPV (64: every move)")
    args = ap.parse_args()
    low, _, high = args.empties.partition("-")
    empties = list(range(int(low), int(high or low) + 1))
    positions = random_positions(args.random, empties, args.seed, args.passes) if args.random else []
    if args.first:
        positions += ffo_positions(args.first, args.last or args.first)
    plyd = Engine(
        "plyd",
        [args.plyd],
        [f"setoption name MultiPV value {args.lines}", f"setoption name Threads value {args.threads}"],
        timeout=3600,
    )
    edax = Edax(args.edax, args.edax_dir)
    differ = moves = 0
    times = [0.0, 0.0]
    for name, position in positions:
        started = time.time()
        ours = plyd_lines(plyd, position)
        times[0] += time.time() - started
        started = time.time()
        theirs = edax.lines(position)
        times[1] += time.time() - started
        moves += len(theirs)
        best = sorted(theirs.values(), reverse=True)[: args.lines]
        same = sorted(ours.values(), reverse=True) == best and all(
            theirs.get(move) == score for move, score in ours.items()
        )
        if not same:
            differ += 1
            print(f"{name} {position}: plyd {sorted(ours.items())} Edax {sorted(theirs.items())}")
    edax.close()
    plyd.send("quit")
    print(
        f"{len(positions)} positions, {moves} moves: {len(positions) - differ} the same, "
        f"{differ} different; plyd {times[0]:.1f} s, Edax {times[1]:.1f} s"
    )
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
