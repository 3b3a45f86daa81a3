#!/usr/bin/env python3
"""Time from `go` to `bestmove` for very short searches, on a machine made
busy on purpose: what a daemon spends around its search (reading the
`position` sent just before the `go`, preparing the search, starting its
threads) is on the mover's clock, and on a busy machine every thread that
must wait for a core makes it longer.

Each engine plays `--moves` moves of self-play in the game (a new game
after `--max-plies` plies or at the end), every move a `position startpos
moves ...` with the whole game so far and a `go movetime`. Engines are run
in turn, `--rounds` times, so that they share the same machine conditions;
`--busy` spinning processes run beside them all along.

    python3 tests/tools/move_latency.py --engine target/release/plyd \
        --engine /tmp/old/plyd --game xiangqi --threads 2 --busy 2

`--go WORDS` sends `go WORDS` instead of `go movetime N`: with `--go
"wtime 1 btime 1"` every move is played on a clock of 1 ms, as at the end
of a long game in sudden death.

Prints one line per run: mean, median, 90th and 99th percentile and the
largest time in milliseconds, how many answers came after the move time
or the clock (`wtime`, else `movetime`, in `--go`), and how many came
without an `info ... depth` of 1 or more (a move the search had not
looked at; `bestmove (none)`, at the end of a game, is not counted). The
first move after each `ucinewgame` comes with no `isready` before it: a
daemon that clears its hash table there does so on the move's clock
(plyd keeps the last game's table for such a `go`).
"""

import argparse
import statistics
import subprocess
import sys
import time

from direct_engine import DirectEngine


def measure(engine, args):
    """The go-to-bestmove times of one run, in milliseconds, the engine's
    output read with no reader thread (`direct_engine.py`)."""
    daemon = DirectEngine([engine, "--game", args.game])
    daemon.start([f"setoption name Threads value {args.threads}"])
    send = daemon.send
    go = "go " + (args.go or f"movetime {args.movetime}")
    moves, times, unsearched = [], [], 0
    for _ in range(args.moves):
        send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        start = time.perf_counter()
        send(go)
        deepest = 0
        while True:
            words = daemon.read_line().split()
            if words[:1] == ["info"] and "depth" in words[:-1]:
                deepest = max(deepest, int(words[words.index("depth") + 1]))
            if words[:1] == ["bestmove"]:
                break
        times.append((time.perf_counter() - start) * 1000)
        best = words[1]
        unsearched += deepest < 1 and best != "(none)"
        if best == "(none)" or len(moves) >= args.max_plies:
            moves = []
            send("ucinewgame")
        else:
            moves.append(best)
    daemon.close()
    return times, unsearched


def allowed_ms(args):
    """The time a move may take: the side's clock or the move time."""
    words = (args.go or f"movetime {args.movetime}").split()
    for key in ("wtime", "movetime"):
        if key in words[:-1]:
            return float(words[words.index(key) + 1])
    return float("inf")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", action="append", required=True)
    parser.add_argument("--game", default="xiangqi")
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--movetime", type=int, default=2)
    parser.add_argument("--busy", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--go", help="the words after `go` (default: movetime N)")
    args = parser.parse_args()
    spinners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(args.busy)
    ]
    try:
        for _ in range(args.rounds):
            for engine in args.engine:
                times, unsearched = measure(engine, args)
                times.sort()
                late = sum(t > allowed_ms(args) for t in times)
                at = lambda q: times[min(len(times) - 1, int(q * len(times)))]
                print(
                    f"{engine}: moves {len(times)} mean {statistics.mean(times):.2f} "
                    f"p50 {at(0.5):.2f} p90 {at(0.9):.2f} p99 {at(0.99):.2f} "
                    f"max {times[-1]:.2f} ms, late {late}, unsearched {unsearched}",
                    flush=True,
                )
    finally:
        for spinner in spinners:
            spinner.kill()


if __name__ == "__main__":
    main()
