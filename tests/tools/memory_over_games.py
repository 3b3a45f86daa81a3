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
import subprocess
import time


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
    engine = subprocess.Popen(
        [args.plyd, "--game", args.game],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def wait(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                raise SystemExit("plyd ended")
            if line.startswith(prefix):
                return line

    def resident_mib():
        with open(f"/proc/{engine.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS"):
                    return int(line.split()[1]) // 1024
        return -1

    send("uci")
    wait("uciok")
    start = time.monotonic()
    games = plies = 0
    readings = []
    next_reading = 0.0
    while time.monotonic() - start < args.seconds:
        send("ucinewgame")
        send("isready")
        wait("readyok")
        moves = []
        rolled = False
        while len(moves) < args.max_plies:
            send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            send(f"go nodes {rng.choice(nodes)}")
            words = wait("bestmove").split()
            if len(words) < 2 or words[1] == "(none)":
                # EinStein before its roll: the arbiter's draw.
                if args.game == "einstein" and not rolled:
                    moves.append(f"r{rng.randint(1, 6)}")
                    rolled = True
                    continue
                break
            moves.append(words[1])
            rolled = False
            plies += 1
        games += 1
        elapsed = time.monotonic() - start
        if elapsed >= next_reading:
            readings.append((round(elapsed), games, plies, resident_mib()))
            next_reading += args.seconds / 10
    readings.append((round(time.monotonic() - start), games, plies, resident_mib()))
    print(f"{args.game}: (seconds, games, plies, MiB resident) {readings}")
    send("quit")
    engine.wait()


if __name__ == "__main__":
    main()
