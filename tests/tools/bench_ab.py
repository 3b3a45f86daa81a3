#!/usr/bin/env python3
"""`plyd bench` of two or more builds, runs alternated, with the ratio of
their speeds and an interval for it.

Each round runs every build's `plyd bench GAME [DEPTH]` once, the order
turned by one place from round to round, so that a machine whose speed
drifts hurts every build alike. The builds must search the same nodes (a
build that searches another tree is refused: compare its time to depth
instead) unless `--other-trees` is given: then the builds are compared
by the time the bench takes to its depth as well, the bench's own
figure of nodes a second saying little across different trees. Prints
every run, then per build the median, lowest and highest nodes a second
(and time), and for every build after the first its speed over the
first's (and its time over the first's): the median of the rounds'
ratios (each round's two runs next to each other in time) with a 95%
bootstrap interval over the rounds.

    python3 tests/tools/bench_ab.py --build old=/tmp/old/plyd \\
        --build new=target/release/plyd --game othello --depth 13 --rounds 20

`--pin CPU` runs every bench under `taskset -c CPU`. A bench of under
half a second (the default depths of xiangqi and EinStein) is mostly
noise: the script warns, and a larger depth and `--pin` are the cure.
Each binary loads
the plugins next to it, so copy a build's `plyd` and its `lib*.so` into
a folder of their own before rebuilding.
"""
import argparse
import random
import re
import statistics
import subprocess
import sys


# A bench that does not end in this long is taken for a hang.
BENCH_TIMEOUT_S = 600
# Below this a bench's time is mostly noise (cold caches, the clock's
# whole milliseconds, other processes): identical builds, unpinned, gave
# intervals that left out 1.0 (EinStein's 40 ms bench: 5 of 45
# comparisons).
SHORT_BENCH_MS = 500


def bench(binary, game, depth, pin):
    command = [binary, "bench", game] + ([str(depth)] if depth else [])
    if pin is not None:
        command = ["taskset", "-c", str(pin)] + command
    out = subprocess.run(command, capture_output=True, text=True, check=True,
                         timeout=BENCH_TIMEOUT_S).stdout
    nodes = int(re.search(r"^Nodes searched: (\d+)", out, re.M).group(1))
    nps = int(re.search(r"^Nodes/second: (\d+)", out, re.M).group(1))
    ms = int(re.search(r"^Time: (\d+) ms", out, re.M).group(1))
    return nodes, nps, ms


def interval(ratios, draws=2000, seed=1):
    """95% bootstrap interval of the median of `ratios`."""
    rng = random.Random(seed)
    medians = sorted(
        statistics.median(rng.choice(ratios) for _ in ratios) for _ in range(draws)
    )
    return medians[int(0.025 * draws)], medians[int(0.975 * draws) - 1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", action="append", required=True,
                        help="NAME=PATH of a plyd binary; give two or more")
    parser.add_argument("--game", default="othello")
    parser.add_argument("--depth", type=int, default=None,
                        help="the bench's depth (default: the game's own)")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--pin", type=int, default=None, help="taskset CPU")
    parser.add_argument("--other-trees", action="store_true",
                        help="allow builds that search different nodes")
    args = parser.parse_args()
    builds = []
    for spec in args.build:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            parser.error(f"--build {spec!r}: expected NAME=PATH")
        builds.append((name, path))
    if len(builds) < 2:
        parser.error("give at least two --build")

    speeds = {name: [] for name, _ in builds}
    times = {name: [] for name, _ in builds}
    nodes_of = {}
    for r in range(args.rounds):
        turn = r % len(builds)
        for name, path in builds[turn:] + builds[:turn]:
            nodes, nps, ms = bench(path, args.game, args.depth, args.pin)
            nodes_of.setdefault(name, nodes)
            if nodes != nodes_of[name]:
                sys.exit(f"{name}: {nodes} nodes in round {r + 1}, "
                         f"{nodes_of[name]} before: the bench is not repeatable")
            speeds[name].append(nps)
            times[name].append(ms)
            print(f"round {r + 1} {name}: {nodes} nodes, {ms} ms, {nps} nodes/s", flush=True)
        if len(set(nodes_of.values())) > 1 and not args.other_trees:
            sys.exit(f"the builds search different trees ({nodes_of}): "
                     "nodes a second do not compare")

    first = builds[0][0]
    shortest = min(statistics.median(times[name]) for name, _ in builds)
    if shortest < SHORT_BENCH_MS:
        print(f"warning: a bench of {shortest:.0f} ms (median) is short: its time is "
              f"mostly noise, and intervals can leave out 1.0 between "
              f"identical builds; give a larger --depth"
              + ("" if args.pin is not None else ", and --pin a CPU"), file=sys.stderr)
    for name, _ in builds:
        v = speeds[name]
        print(f"{name}: median {statistics.median(v) / 1e6:.2f} M nodes/s "
              f"(lowest {min(v) / 1e6:.2f}, highest {max(v) / 1e6:.2f}, "
              f"{len(v)} runs; {nodes_of[name]} nodes, median "
              f"{statistics.median(times[name])} ms)")
    for name, _ in builds[1:]:
        ratios = [b / a for a, b in zip(speeds[first], speeds[name])]
        low, high = interval(ratios)
        print(f"{name} over {first}: nodes a second, median ratio "
              f"{statistics.median(ratios):.3f} (95% interval {low:.3f} to {high:.3f})")
        if args.other_trees:
            ratios = [b / max(a, 1) for a, b in zip(times[first], times[name])]
            low, high = interval(ratios)
            print(f"{name} over {first}: time to the depth, median ratio "
                  f"{statistics.median(ratios):.3f} (95% interval {low:.3f} to {high:.3f})")


if __name__ == "__main__":
    main()
