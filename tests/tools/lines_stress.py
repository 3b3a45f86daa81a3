#!/usr/bin/env python3
"""Stress Othello's exact endgame lines: random searches in endgame
positions with random `MultiPV` (1 to 64), `Threads` (1 to 3),
`EndgameMode` (`exact`, `wld`), `searchmoves` (three in ten), limits
(`go depth 60`, `movetime` of 1 to 200 ms, `nodes`, `infinite`, a clock
of 50 ms to 5 s, `depth 3`) and a `stop` at a random moment (every
`infinite`, three in ten of the others), for --seconds. Positions: 300 of
random games at 2 to 22 empty squares and 50 whose side must pass
(lines_vs_edax.py's random positions, seeded by --seed).

Every `go` must end in one `bestmove`, a legal move (this folder's
othello_rules.py) inside its `searchmoves`, without an error line, within
its `movetime` and 250 ms, and within its clock.

    python3 tests/tools/lines_stress.py --plyd target/release/plyd --seconds 400 --seed 31

Prints each problem and the totals; exits 1 if there is one.
"""

import argparse
import queue
import random
import subprocess
import sys
import threading
import time

from lines_vs_edax import random_positions
from othello_rules import Board, square_name

MOVETIME_SLACK = 0.25


def legal_moves(position):
    """The legal moves of a `squares side` position, `0000` for a pass."""
    board = Board.from_text(position)
    return [square_name(i) for i in board.legal_moves()] or ["0000"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plyd", default="target/release/plyd")
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    positions = [p for _, p in random_positions(300, list(range(2, 23)), args.seed + 1)]
    positions += [p for _, p in random_positions(50, list(range(2, 16)), args.seed + 2, passes=True)]
    proc = subprocess.Popen([args.plyd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    lines = queue.Queue()

    # Each line with the time it came, so that a search's time is its
    # answer's, whatever the script was doing (sleeping before a `stop`).
    def pump():
        for line in proc.stdout:
            lines.put((time.time(), line.rstrip()))
        lines.put((time.time(), None))

    threading.Thread(target=pump, daemon=True).start()

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    send("uci")
    while lines.get(timeout=10)[1] != "uciok":
        pass
    searches = problems = 0
    started = time.time()
    while time.time() - started < args.seconds:
        position = rng.choice(positions)
        send(f"setoption name MultiPV value {rng.choice([1, 2, 3, 5, 64])}")
        send(f"setoption name Threads value {rng.choice([1, 2, 3])}")
        if rng.random() < 0.2:
            send(f"setoption name EndgameMode value {rng.choice(['exact', 'wld'])}")
        send(f"position fen {position}")
        legal = legal_moves(position)
        given = rng.sample(legal, rng.randint(1, len(legal))) if rng.random() < 0.3 else []
        clock = rng.choice([50, 500, 5000])
        limit = rng.choice([
            "depth 60",
            f"movetime {rng.choice([1, 10, 50, 200])}",
            f"nodes {rng.choice([1000, 100000, 3000000])}",
            "infinite",
            f"wtime {clock} btime {clock}",
            "depth 3",
        ])
        command = f"go {limit}" + (" searchmoves " + " ".join(given) if given else "")
        send(command)
        searches += 1
        sent = time.time()
        if limit == "infinite" or rng.random() < 0.3:
            time.sleep(rng.choice([0, 0.001, 0.05, 0.3]))
            send("stop")
        while True:
            came, line = lines.get(timeout=120)
            if line is None:
                print(f"plyd exited: {position} {command}")
                return 1
            if "error" in line:
                print(f"error line {line!r}: {position} {command}")
                problems += 1
            if line.startswith("bestmove"):
                break
        took = came - sent
        move = line.split()[1]
        if move not in legal:
            print(f"illegal {line!r}: {position} {command} (legal {legal})")
            problems += 1
        if given and move not in given:
            print(f"outside searchmoves {line!r}: {position} {command}")
            problems += 1
        if limit.startswith("movetime") and took > int(limit.split()[1]) / 1000 + MOVETIME_SLACK:
            print(f"late, {took:.3f} s: {position} {command}")
            problems += 1
        if limit.startswith("wtime") and took > clock / 1000:
            print(f"past the clock, {took:.3f} s: {position} {command}")
            problems += 1
    send("isready")
    while lines.get(timeout=30)[1] != "readyok":
        pass
    send("quit")
    print(f"{searches} searches, {problems} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
