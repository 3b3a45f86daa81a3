#!/usr/bin/env python3
"""Where an engine's xiangqi games were lost, as a reference engine sees
them: Fairy-Stockfish scores the positions of each lost game.

Reads a `plyd arena --out` log (games from the start position, moves in
Fairy-Stockfish's notation, ranks 1-10, as the matches against it are
played with `MoveRanks=1-10`; `--ranks-from-zero` for logs in plyd's
default notation). For each game the engine named `--engine` lost, it
sends every position from the opening on where that engine is to move
(ply 6 on after a six-ply opening) to Fairy-Stockfish with `go depth D`,
and prints the scores for the losing engine, then a summary: the mean
change of the score per move and the largest single drops, which tell a
steady positional decline from a tactical blunder.

    python3 tests/tools/xiangqi_review.py --fsf /path/to/fairy-stockfish \\
        --engine plyd --games 6 --depth 12 games.txt
"""
import argparse
import re

from uci_engine import Engine

# A mate score, in centipawns, for the summary.
MATE = 3000


def parse_games(path):
    """The games of an arena log: (first engine, result, moves)."""
    text = open(path, encoding="utf-8").read()
    for block in text.split('[Game "')[1:]:
        first = re.search(r'\[First "([^"]+)"\]', block)
        result = re.search(r'\[Result "([^"]+)"\]', block)
        moves = re.search(r"^position startpos moves (.*)$", block, re.M)
        if first and result and moves:
            yield first.group(1), result.group(1), moves.group(1).split()


def to_fsf(move):
    """A move in plyd's default notation (ranks 0-9) in Fairy-Stockfish's."""
    m = re.fullmatch(r"([a-i])(\d)([a-i])(\d)", move)
    if not m:
        raise ValueError(f"not a xiangqi move: {move}")
    return f"{m.group(1)}{int(m.group(2)) + 1}{m.group(3)}{int(m.group(4)) + 1}"


def score(fsf, moves, depth):
    """Fairy-Stockfish's score of the position after `moves`, for the side
    to move (mates as +-MATE)."""
    fsf.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
    fsf.send(f"go depth {depth}")
    value = None
    for line in fsf.read_until(lambda l: l.startswith("bestmove")):
        m = re.search(r" score (cp|mate) (-?\d+)", line)
        if m:
            n = int(m.group(2))
            value = n if m.group(1) == "cp" else (MATE if n > 0 else -MATE)
    if value is None:
        raise RuntimeError("no score from Fairy-Stockfish")
    return value


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("log", help="plyd arena --out log")
    p.add_argument("--fsf", default="/work/tools/fairy-stockfish", help="Fairy-Stockfish binary")
    p.add_argument("--engine", default="plyd", help="the engine whose losses are reviewed")
    p.add_argument("--games", type=int, default=6, help="lost games to review")
    p.add_argument("--depth", type=int, default=12, help="Fairy-Stockfish's depth")
    p.add_argument("--opening", type=int, default=6, help="opening plies skipped")
    p.add_argument("--ranks-from-zero", action="store_true",
                   help="the log's moves number ranks 0-9 (plyd's default)")
    p.add_argument("--timeout", type=float, default=300, help="seconds per answer at most")
    args = p.parse_args()

    setup = ["setoption name UCI_Variant value xiangqi", "setoption name Hash value 64"]
    fsf = Engine("Fairy-Stockfish", [args.fsf], setup, args.timeout)
    reviewed = 0
    drops_all = []
    for first, result, moves in parse_games(args.log):
        red = first == args.engine
        if not ((result == "1-0" and not red) or (result == "0-1" and red)):
            continue
        if args.ranks_from_zero:
            moves = [to_fsf(m) for m in moves]
        # Plies where the reviewed engine is to move: even plies for Red.
        start = args.opening + ((args.opening % 2) != (0 if red else 1))
        trajectory = []
        for ply in range(start, len(moves) + 1, 2):
            trajectory.append((ply, score(fsf, moves[:ply], args.depth)))
        reviewed += 1
        drops = [
            (b[1] - a[1], b[0])
            for a, b in zip(trajectory, trajectory[1:])
            if abs(a[1]) < MATE and abs(b[1]) < MATE
        ]
        drops_all.extend(d for d, _ in drops)
        worst = sorted(drops)[:3]
        print(f"game {reviewed}: {args.engine} {'Red' if red else 'Black'}, {len(moves)} plies")
        print("  " + " ".join(f"{ply}:{s}" for ply, s in trajectory))
        if drops:
            mean = sum(d for d, _ in drops) / len(drops)
            print(f"  mean change per move {mean:+.1f}; largest drops "
                  + ", ".join(f"{d} before ply {ply}" for d, ply in worst))
        if reviewed >= args.games:
            break
    if drops_all:
        big = sum(1 for d in drops_all if d <= -150)
        print(f"{reviewed} games, {len(drops_all)} moves: mean change "
              f"{sum(drops_all) / len(drops_all):+.1f} a move, {big} drops of 150 or more")
    fsf.close()


if __name__ == "__main__":
    main()
