#!/usr/bin/env python3
"""Time plyd's `go perft N` against Fairy-Stockfish's on the same position.

Both engines get the same variant and position and count the same tree
(plyd walks it through the plugin ABI: gen_moves, make_move, unmake_move;
Fairy-Stockfish walks its own board). Runs alternate between the two
engines so that a noisy, shared machine slows both alike; each run is one
fresh process, timed from the `go` line to the `Nodes searched` line. The
script checks that both counted the same number of leaves and prints each
run, the total time of each engine and the ratio.

    python3 tests/tools/perft_vs_fsf.py --fsf /path/to/fairy-stockfish \
        [--plyd target/release/plyd] [--variant xiangqi] [--depth 5] [--rounds 3]
"""

import argparse
import subprocess
import sys
import time


def timed_perft(command, setup, depth):
    """Run one engine process: send the set-up lines, then `go perft`, and
    return (leaves, seconds from `go` to the `Nodes searched` line)."""
    proc = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )
    try:
        for line in setup:
            proc.stdin.write(line + "\n")
        proc.stdin.write("isready\n")
        proc.stdin.flush()
        for line in proc.stdout:
            if line.strip() == "readyok":
                break
        started = time.perf_counter()
        proc.stdin.write(f"go perft {depth}\n")
        proc.stdin.flush()
        for line in proc.stdout:
            if line.startswith("Nodes searched"):
                elapsed = time.perf_counter() - started
                return int(line.split(":")[1]), elapsed
        raise RuntimeError(f"{command[0]} ended without a perft total")
    finally:
        try:
            proc.stdin.write("quit\n")
            proc.stdin.flush()
        except BrokenPipeError:
            pass
        proc.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plyd", default="target/release/plyd")
    parser.add_argument("--fsf", required=True, help="Fairy-Stockfish binary")
    parser.add_argument("--variant", default="xiangqi")
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--fen", help="position (default: the start); plyd and FSF read the same FEN"
    )
    args = parser.parse_args()

    position = f"position fen {args.fen}" if args.fen else "position startpos"
    setup = [
        "uci",
        f"setoption name UCI_Variant value {args.variant}",
        "setoption name Threads value 1",
        position,
    ]
    engines = [("plyd", [args.plyd]), ("fairy-stockfish", [args.fsf])]
    totals = {name: 0.0 for name, _ in engines}
    leaves = {}
    for round_index in range(args.rounds):
        # Alternate who goes first, so neither always runs on a warm cache
        # or right after the other's load.
        order = engines if round_index % 2 == 0 else list(reversed(engines))
        for name, command in order:
            count, seconds = timed_perft(command, setup, args.depth)
            leaves.setdefault(name, count)
            if count != leaves[name]:
                sys.exit(f"{name} counted {count}, earlier {leaves[name]}")
            totals[name] += seconds
            print(f"round {round_index + 1} {name:16} {count:>12} leaves {seconds:8.3f} s")
    if leaves["plyd"] != leaves["fairy-stockfish"]:
        sys.exit(
            f"the counts differ: plyd {leaves['plyd']}, "
            f"Fairy-Stockfish {leaves['fairy-stockfish']}"
        )
    ratio = totals["fairy-stockfish"] / totals["plyd"]
    print(
        f"total plyd {totals['plyd']:.3f} s, Fairy-Stockfish "
        f"{totals['fairy-stockfish']:.3f} s: plyd {ratio:.2f}x as fast"
    )


if __name__ == "__main__":
    main()
