#!/usr/bin/env python3
"""Time to a fixed depth with 1 and with N threads, runs alternated.

Drives plyd over its protocol: for every position, `ucinewgame`,
`position fen ...`, `go depth D`, and the wall time until `bestmove`.
Each round runs every thread count once, the order swapped from round to
round, so that a noisy machine hurts both alike. Prints the time per
position and thread count, and the speed-up of the sums.

    python3 tests/tools/time_to_depth.py --engine target/release/plyd \\
        --depth 14 --threads 1 2 --rounds 2
"""
import argparse
import subprocess
import time

# The first seven positions of `plyd bench othello`.
OTHELLO = [
    "8/8/8/3OX3/3XO3/8/8/8 b",
    "8/8/8/3OOO2/3XXO2/4XO2/8/8 b",
    "8/6X1/6X1/1OOOOOX1/3XXX2/3OX3/8/8 w",
    "8/1O6/OOOX4/3OOO1X/3OOXX1/3OXX1O/5X2/8 b",
    "1O4O1/2OXXOX1/2XOOX2/2XXOO2/1X1XXO2/3XXX2/6X1/7X b",
    "3XXXXX/5OXX/2OOOXXX/3OXXX1/3XOX2/2XO1OOO/1XOX4/X7 b",
    "2X1X1O1/X1OXXO2/1X1OO3/XXXOOXO1/2OXXXX1/1OX1XOOO/3X1O1X/2XXXXX1 w",
]


class Engine:
    def __init__(self, path, options):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.ready()

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            # A refused position or option would be timed as a search.
            if line.startswith("info string error:"):
                raise RuntimeError(f"the engine refused a line: {line.strip()}")
            if line.startswith(prefix):
                return line

    def ready(self):
        self.send("isready")
        self.wait("readyok")

    def time_to_depth(self, fen, depth):
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.ready()
        start = time.perf_counter()
        self.send(f"go depth {depth}")
        self.wait("bestmove")
        return time.perf_counter() - start

    def close(self):
        self.send("quit")
        self.proc.wait(10)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="target/release/plyd")
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--variant", default="othello")
    ap.add_argument("--fen", action="append", help="a position (default: Othello's)")
    args = ap.parse_args()
    if args.variant != "othello" and not args.fen:
        ap.error(f"--variant {args.variant}: give its positions with --fen (the default ones are Othello's)")
    fens = args.fen or OTHELLO
    times = {t: [[] for _ in fens] for t in args.threads}
    for r in range(args.rounds):
        order = args.threads if r % 2 == 0 else list(reversed(args.threads))
        for t in order:
            engine = Engine(
                args.engine,
                [("UCI_Variant", args.variant), ("Threads", t), ("Hash", args.hash)],
            )
            for i, fen in enumerate(fens):
                times[t][i].append(engine.time_to_depth(fen, args.depth))
            engine.close()
            total = sum(times[t][i][-1] for i in range(len(fens)))
            print(f"round {r + 1} threads {t}: {total:.2f} s", flush=True)
    print()
    print("| position | " + " | ".join(f"{t} thread(s), s" for t in args.threads) + " |")
    print("|---|" + "---|" * len(args.threads))
    for i, fen in enumerate(fens):
        cells = [" / ".join(f"{x:.2f}" for x in times[t][i]) for t in args.threads]
        print(f"| `{fen}` | " + " | ".join(cells) + " |")
    sums = {t: sum(sum(x) for x in times[t]) for t in args.threads}
    cells = [f"{sums[t]:.2f}" for t in args.threads]
    print("| sum of all rounds | " + " | ".join(cells) + " |")
    base = sums[args.threads[0]]
    for t in args.threads[1:]:
        print(f"speed-up with {t} threads: {base / sums[t]:.2f}x")


if __name__ == "__main__":
    main()
