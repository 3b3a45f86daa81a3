#!/usr/bin/env python3
"""Resident memory of one plyd daemon over many games: whether a long
tournament's daemon grows. The daemon plays itself game after game
(`ucinewgame`, `isready`, then a `position startpos moves ...` and a `go
nodes N` a ply, N drawn from `--nodes`), and its resident set (VmRSS) is
read ten times over `--seconds`. EinStein's rolls are drawn here, as an
arbiter draws them.

    python3 tests/tools/memory_over_games.py --game xiangqi --seconds 240

Prints one line: the game, then (seconds, games, plies, MiB) at each
reading.
"""

import argparse
import random
import time

from uci_engine import Engine, EngineError


def resident_mib(pid):
    """The process's resident set, in MiB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) // 1024
    return -1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plyd", default="target/release/plyd")
    parser.add_argument("--game", default="xiangqi")
    parser.add_argument("--seconds", type=float, default=240)
    parser.add_argument("--nodes", default="200,500,2000")
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    nodes = [int(n) for n in args.nodes.split(",")]
    engine = Engine("plyd", [args.plyd, "--game", args.game], [], timeout=60)
    start = time.monotonic()
    games = plies = 0
    readings = []
    next_reading = 0.0
    while time.monotonic() - start < args.seconds:
        engine.send("ucinewgame")
        engine.sync()
        moves = []
        rolled = False
        while len(moves) < args.max_plies:
            engine.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            engine.send(f"go nodes {rng.choice(nodes)}")
            words = engine.read_until(lambda line: line.startswith("bestmove"))[-1].split()
            if len(words) < 2 or words[1] == "(none)":
                # EinStein before its roll: the arbiter's draw, unless the
                # game is over (the roll is then refused).
                if args.game == "einstein" and not rolled:
                    roll = f"r{rng.randint(1, 6)}"
                    try:
                        engine.send("position startpos moves " + " ".join(moves + [roll]))
                        engine.sync()
                    except EngineError:
                        engine.read_until(lambda line: line == "readyok")
                        break
                    moves.append(roll)
                    rolled = True
                    continue
                break
            moves.append(words[1])
            rolled = False
            plies += 1
        games += 1
        elapsed = time.monotonic() - start
        if elapsed >= next_reading:
            readings.append((round(elapsed), games, plies, resident_mib(engine.proc.pid)))
            next_reading += args.seconds / 10
    readings.append((round(time.monotonic() - start), games, plies, resident_mib(engine.proc.pid)))
    print(f"{args.game}: (seconds, games, plies, MiB resident) {readings}")
    engine.close()


if __name__ == "__main__":
    main()
