#!/usr/bin/env python3
"""What plyd's exact endgame lines cost against the root's solve alone:
the shares behind the solver's time estimate for several lines
(engine/src/search/endgame.rs, `EXACT_MOVE_SHARE` and
`TESTED_MOVE_SHARE`).

Each position (files in the form of plugins/othello/ffo.txt, as
othello_endgame_positions.py writes them) is solved three times through
UCI with `go depth 60` on one thread, after `ucinewgame`: `MultiPV 1`
(the root alone), `MultiPV N` (N lines: the root, N - 1 more moves
solved exactly, the others tested by a null window) and `MultiPV 64`
(every move exact). Printed per size (empty squares): the medians of
each position's time over the root's, and of the extra time a move
beyond the root (`MultiPV 64`) and a move beyond the N lines
(`MultiPV N`, its exact solves counted at the first share), both as a
share of the root's time.

    python3 tests/tools/othello_endgame_positions.py --count 30 \\
        --empties 16 --seed 316 --prefix e16 > pos16.txt
    python3 tests/tools/lines_cost.py --plyd target/release/plyd pos16.txt

--pin CPU runs plyd under `taskset -c CPU`; --rows prints each position.
"""

import argparse
import statistics
import sys
import time

from endgame_vs_edax import read_positions
from uci_engine import Engine


def positions(paths):
    """(name, position, empty squares) of every position of the files."""
    for path in paths:
        for name, position, _ in read_positions(path, None, None):
            yield name, position, position.count("-")


def solve(engine, position, multipv):
    """(nodes, seconds, lines) of one exact solve with `multipv` lines."""
    engine.send("ucinewgame")
    engine.send("isready")
    engine.read_until(lambda line: line == "readyok")
    engine.send(f"setoption name MultiPV value {multipv}")
    engine.send(f"position fen {position}")
    start = time.perf_counter()
    engine.send("go depth 60")
    lines = engine.read_until(lambda line: line.startswith("bestmove"))
    seconds = time.perf_counter() - start
    if "info string exact" not in lines:
        raise SystemExit(f"plyd did not solve {position} with MultiPV {multipv}: {lines[-3:]}")
    nodes = 0
    for line in lines:
        words = line.split()
        if "nodes" in words:
            nodes = max(nodes, int(words[words.index("nodes") + 1]))
    return nodes, seconds, sum(1 for line in lines if " multipv " in line)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--plyd", default="target/release/plyd")
    ap.add_argument("--lines", type=int, default=3)
    ap.add_argument("--exact-share", type=float, default=0.5,
                    help="share of the root's time counted for each exact line besides the root's")
    ap.add_argument("--pin", help="CPU to run plyd on")
    ap.add_argument("--rows", action="store_true")
    args = ap.parse_args()
    argv = (["taskset", "-c", args.pin] if args.pin else []) + [args.plyd]
    engine = Engine("plyd", argv, ["setoption name Threads value 1"], 3600)
    by_size = {}
    for name, position, size in positions(args.files):
        root = solve(engine, position, 1)
        some = solve(engine, position, args.lines)
        every = solve(engine, position, 64)
        moves = every[2]
        if args.rows:
            print(name, size, moves, *(f"{n} {s:.4f}" for n, s, _ in (root, some, every)), flush=True)
        by_size.setdefault(size, []).append((moves, root[1], some[1], every[1]))
    for size, rows in sorted(by_size.items()):
        every_share = [(e / r - 1) / (m - 1) for m, r, _, e in rows if m > 1]
        exact = lambda m: min(args.lines, m) - 1
        tested_share = [(s / r - 1 - args.exact_share * exact(m)) / (m - args.lines)
                        for m, r, s, _ in rows if m > args.lines]
        med = statistics.median
        print(f"{size} empty squares, {len(rows)} positions, {med([m for m, *_ in rows])} moves (median): "
              f"root {1000 * med([r for _, r, _, _ in rows]):.1f} ms; "
              f"MultiPV {args.lines} {med([s / r for _, r, s, _ in rows]):.2f} times the root, "
              f"every move {med([e / r for _, r, _, e in rows]):.2f}; a move exact "
              f"{med(every_share) if every_share else float('nan'):.3f} of the root, "
              f"tested {med(tested_share) if tested_share else float('nan'):.3f}")
    engine.close()


if __name__ == "__main__":
    sys.exit(main())
