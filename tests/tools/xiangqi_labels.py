#!/usr/bin/env python3
"""Label xiangqi positions with plyd's own search, for `tune_xiangqi --labels`.

Reads `plyd arena --out` logs of xiangqi games from the start position, in
plyd's default notation (ranks 0-9). From every game it draws positions
after ply `--skip` at random (each with chance `--rate`), sets each in a
plyd process and searches it with `go nodes N`, and writes one line per
position whose score is not a mate:

    RESULT <tab> SCORE <tab> NEXT <tab> MOVES

RESULT is the game's result for Red (1, 0.5, 0), SCORE the search's score
in centipawns for the side to move, NEXT the move the game played there
(the tuner keeps only the positions before a quiet move) and MOVES the
moves from the start position that lead to it.

    python3 tests/tools/xiangqi_labels.py --plyd target/release/plyd \\
        --nodes 30000 --rate 0.1 --seed 1 --out labels.txt games.txt...
"""
import argparse
import random
import re
import sys
import time

from uci_engine import Engine
from xiangqi_review import parse_games

# The game results of an arena log, for Red.
RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}

SCORE_RE = re.compile(r"\bscore (cp|mate) (-?\d+)")


def search(engine, moves, nodes):
    """The score of `go nodes` on the position after `moves`, or None for a mate."""
    engine.set_game(moves)
    engine.send(f"go nodes {nodes}")
    lines = engine.read_until(lambda line: line.startswith("bestmove"))
    score = None
    for line in lines:
        m = SCORE_RE.search(line)
        if m:
            score = None if m[1] == "mate" else int(m[2])
    return score


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plyd", required=True)
    ap.add_argument("--nodes", type=int, default=30000)
    ap.add_argument("--rate", type=float, default=0.1)
    ap.add_argument("--skip", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("logs", nargs="+")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    chosen = []
    for log in args.logs:
        with open(log, encoding="utf-8") as f:
            from_text = sum(1 for line in f if line.startswith("position fen "))
        if from_text:
            print(f"{log}: {from_text} games start from a position text and are left out "
                  "(labels are drawn from games from the start position)", file=sys.stderr)
        for _first, result, moves in parse_games(log):
            if result not in RESULTS:
                continue
            result = RESULTS[result]
            for ply in range(args.skip, len(moves)):
                if rng.random() < args.rate:
                    chosen.append((result, moves[:ply], moves[ply]))
    print(f"{len(chosen)} positions to label", file=sys.stderr)
    engine = Engine("plyd", [args.plyd, "--game", "xiangqi"],
                    ["setoption name Threads value 1"], timeout=120)
    started = time.time()
    written = 0
    with open(args.out, "w", encoding="utf-8") as out:
        for i, (result, moves, after) in enumerate(chosen):
            score = search(engine, moves, args.nodes)
            if score is not None:
                out.write(f"{result}\t{score}\t{after}\t{' '.join(moves)}\n")
                written += 1
            if (i + 1) % 1000 == 0:
                out.flush()
                print(f"{i + 1} searched, {written} written, "
                      f"{time.time() - started:.0f} s", file=sys.stderr)
    engine.close()
    print(f"{written} positions written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
