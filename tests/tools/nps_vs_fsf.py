#!/usr/bin/env python3
"""Search speed and depth of plyd and Fairy-Stockfish on the same xiangqi
positions, runs alternated.

For each of the positions of `plyd bench xiangqi`, each engine gets
`ucinewgame`, the position and `go movetime T` on one thread with the same
hash; the last `info` line before `bestmove` gives the depth, the nodes
and the time. Rounds alternate which engine goes first, so a noisy machine
hurts both alike. Prints every search, then per engine the sums of nodes
and time, the nodes per second and the mean depth, and the ratio of the
speeds.

    python3 tests/tools/nps_vs_fsf.py --plyd target/release/plyd \\
        --fsf /path/to/fairy-stockfish --movetime 2000 --rounds 2

Extra plyd options (`--plyd-option LMP=true`) are sent with setoption.
"""
import argparse
import re

from uci_engine import Engine

# The positions of `plyd bench xiangqi` (the start and seven reached by
# random plies from a fixed seed).
POSITIONS = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "1nbakabnr/9/rc5c1/p1p3p1p/4p4/9/P1P1P1P1P/4C2CB/9/RNBAKA1NR w - - 4 3",
    "rnbakab1r/9/c5nc1/p3p1p2/2p2C2p/9/P1P1P1P1P/1C7/4A4/RNBAK1BNR b - - 9 5",
    "r1bakabC1/4r4/2n6/2p1p1p1p/pc7/7c1/P1P1P1P1P/2C1B4/R3A3R/1N2KABN1 w - - 1 8",
    "1nbak1b1r/2r1a4/6c1n/p3p1p1C/2p4c1/7C1/P1P1P1P1P/R5N2/9/1NBAKAB1R w - - 3 11",
    "rnbak2cr/4an3/8b/p3p3p/1cp3P2/1NP6/PC2P3P/R2C5/9/2BAKABR1 w - - 1 14",
    "2bakabnr/4n4/4r1C2/4p1p1p/p8/2P5P/Pc2P1P2/8B/N4c2R/1RBAKA1N1 b - - 8 17",
    "3a1a3/2r1k4/4b1r1b/4p4/4C1p1p/p1p1P4/P1P3P1P/R2A5/1c7/1NB1KABNR w - - 9 21",
]


def search(engine, fen, movetime):
    """One `go movetime` from `fen` after `ucinewgame`: the last info
    line's depth, nodes and time."""
    engine.send("ucinewgame")
    engine.sync()
    engine.send(f"position fen {fen}")
    engine.send(f"go movetime {movetime}")
    lines = engine.read_until(lambda line: line.startswith("bestmove"))
    infos = [l for l in lines if l.startswith("info") and " nodes " in l and " depth " in l]
    last = infos[-1]
    depth = int(re.search(r" depth (\d+)", last).group(1))
    nodes = int(re.search(r" nodes (\d+)", last).group(1))
    ms = int(re.search(r" time (\d+)", last).group(1))
    return depth, nodes, ms


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--plyd", default="target/release/plyd")
    p.add_argument("--fsf", required=True, help="Fairy-Stockfish binary")
    p.add_argument("--movetime", type=int, default=2000, help="ms per search")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--hash", type=int, default=64, help="MiB, both engines")
    p.add_argument("--plyd-option", action="append", default=[],
                   help="NAME=VALUE sent to plyd with setoption (repeatable)")
    args = p.parse_args()

    def setup(options):
        return [f"setoption name {name} value {value}" for name, value in options]

    common = [("UCI_Variant", "xiangqi"), ("Hash", args.hash), ("Threads", 1)]
    plyd_options = common + [tuple(o.split("=", 1)) for o in args.plyd_option]
    timeout = args.movetime / 1000 + 30
    engines = {
        "plyd": lambda: Engine("plyd", [args.plyd], setup(plyd_options), timeout),
        "fsf": lambda: Engine("fsf", [args.fsf], setup(common), timeout),
    }
    totals = {name: [0, 0, 0, 0] for name in engines}  # nodes, ms, depth sum, searches
    for r in range(args.rounds):
        order = ["plyd", "fsf"] if r % 2 == 0 else ["fsf", "plyd"]
        for name in order:
            engine = engines[name]()
            for i, fen in enumerate(POSITIONS):
                depth, nodes, ms = search(engine, fen, args.movetime)
                t = totals[name]
                t[0] += nodes
                t[1] += ms
                t[2] += depth
                t[3] += 1
                print(f"round {r + 1} {name:4} position {i + 1}: depth {depth:2} "
                      f"nodes {nodes:9} time {ms:5} ms nps {nodes * 1000 // max(ms, 1)}",
                      flush=True)
            engine.close()
    nps = {}
    for name, (nodes, ms, depths, count) in totals.items():
        nps[name] = nodes * 1000 / max(ms, 1)
        print(f"{name}: {nodes} nodes in {ms} ms, {nps[name]:.0f} nodes/s, "
              f"mean depth {depths / count:.1f}")
    print(f"plyd / fsf nodes per second: {nps['plyd'] / nps['fsf']:.2f}")


if __name__ == "__main__":
    main()
