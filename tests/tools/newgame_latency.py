#!/usr/bin/env python3
"""Time from `go` to `bestmove` for the first move of a game when the GUI
sends `ucinewgame`, `position` and `go` together, without waiting for
`readyok` between: whatever the daemon does for the new game before its
search (clearing the hash table) is on the mover's clock.

Each engine, started afresh `--rounds` times (the engines alternated, so
that they share the machine's conditions), sets `Hash` to `--hash` MiB,
then `--games` times searches the start position for `--first` ms (which
writes into the table) and sends `ucinewgame`, `position startpos` and
`go WORDS` (`--go`, default `wtime 1000 btime 1000`) at once, timing the
last from its sending to its `bestmove`.

    python3 tests/tools/newgame_latency.py --engine new=target/release/plyd \\
        --engine old=/tmp/old/plyd --game xiangqi --hash 4096 --rounds 2

Prints one line per engine: median, least and largest time in
milliseconds over its moves.
"""

import argparse
import statistics
import time

from direct_engine import DirectEngine


def run(command, args):
    """The timed moves of one daemon, in milliseconds, its output read
    with no reader thread (`direct_engine.py`)."""
    engine = DirectEngine([command, "--game", args.game])
    engine.start([f"setoption name Hash value {args.hash}"])
    send, wait = engine.send, engine.until
    times = []
    for _ in range(args.games):
        send("position startpos")
        send(f"go movetime {args.first}")
        wait("bestmove")
        began = time.monotonic()
        send("ucinewgame")
        send("position startpos")
        send(f"go {args.go}")
        wait("bestmove")
        times.append((time.monotonic() - began) * 1000)
    engine.close()
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", action="append", required=True, help="NAME=COMMAND")
    parser.add_argument("--game", default="xiangqi")
    parser.add_argument("--hash", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--first", type=int, default=300)
    parser.add_argument("--go", default="wtime 1000 btime 1000")
    args = parser.parse_args()
    engines = [e.split("=", 1) for e in args.engine]
    times = {name: [] for name, _ in engines}
    for round_ in range(args.rounds):
        for name, command in engines if round_ % 2 == 0 else engines[::-1]:
            times[name] += run(command, args)
    for name, values in times.items():
        print(
            f"{name}: Hash {args.hash}, go {args.go} after ucinewgame: median "
            f"{statistics.median(values):.1f} ms, least {min(values):.1f}, "
            f"largest {max(values):.1f} ({len(values)} moves)"
        )


if __name__ == "__main__":
    main()
