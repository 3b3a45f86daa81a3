#!/usr/bin/env python3
"""Write Othello endgame positions for tuning the exact solver, in the form
of plugins/othello/ffo.txt, from games plyd plays against itself.

Each game starts with --random-plies random moves (seeded by --seed), then
plyd plays both sides at `go depth D`; when the board has --empties empty
squares the position is kept and the next game begins. A game that ends
or reaches a pass first is dropped. The last field of each line, the
exact score, is written as +0 unless --solve is given, when
`plyd endgame-bench` solves the position and its score is written.

    python3 tests/tools/othello_endgame_positions.py --plyd target/release/plyd \\
        --count 16 --empties 22 --seed 2 --first 200 --solve

These are positions the FFO suite does not hold, so that settings of the
solver can be chosen on them and then checked on FFO 40-59.
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

from uci_engine import Engine


def board_of(fen):
    """The 64-square board text of a `d` command's Fen line."""
    squares = ""
    for row in fen.split("/"):
        for c in row:
            squares += "-" * int(c) if c.isdigit() else c
    if len(squares) != 64:
        raise ValueError(f"not an Othello board: {fen}")
    return squares


def show(engine, moves):
    """Board text, side to move and legal moves after `moves`."""
    engine.set_game(moves)
    engine.send("d")
    lines = engine.read_until(lambda line: line.startswith("Key:"))
    fen = next(line for line in lines if line.startswith("Fen:")).split()[1:]
    legal = next((line for line in lines if line.startswith("Legal:")), "Legal:")
    return board_of(fen[0]), "X" if fen[1] == "b" else "O", legal.split()[1:]


def solve(plyd, name, board, side):
    """The exact score by `plyd endgame-bench` on a one-line file."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(f"{name} {board} {side} +0\n")
        path = f.name
    try:
        out = subprocess.run(
            [plyd, "endgame-bench", path], capture_output=True, text=True
        ).stdout
    finally:
        os.unlink(path)
    m = re.search(rf"^{name}\s.*?score\s+([+-]?\d+)", out, re.M)
    if not m:
        raise RuntimeError(f"no score for {name}:\n{out}")
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plyd", default="target/release/plyd")
    ap.add_argument("--count", type=int, default=16)
    ap.add_argument("--empties", type=int, default=22)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--random-plies", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--prefix", default="sp", help="name of each position before its number")
    ap.add_argument("--first", type=int, default=100, help="number of the first position")
    ap.add_argument("--solve", action="store_true", help="write exact scores")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    engine = Engine("plyd", [args.plyd], [], timeout=120)
    kept = 0
    while kept < args.count:
        engine.send("ucinewgame")
        moves = []
        while True:
            board, side, legal = show(engine, moves)
            if board.count("-") == args.empties:
                name = f"{args.prefix}{args.first + kept}"
                score = solve(args.plyd, name, board, side) if args.solve else 0
                print(f"{name} {board} {side} {score:+d}", flush=True)
                kept += 1
                break
            if not legal or legal == ["pass"]:
                break
            if len(moves) < args.random_plies:
                move = rng.choice(legal)
            else:
                engine.send(f"go depth {args.depth}")
                line = engine.read_until(lambda l: l.startswith("bestmove"))[-1]
                move = line.split()[1]
            moves.append(move)
    engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
