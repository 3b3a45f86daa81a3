#!/usr/bin/env python3
"""How many discs plyd gives away in Othello endgames at a given time a
move: for each position of a file in the form of plugins/othello/ffo.txt
(its last field the exact score for the side to move), plyd plays one move
at `go movetime T` with the options given, and a second plyd process
solves the position after that move exactly (`go depth 60`, no time
limit). The move's loss is the position's exact score less the one it
keeps; a perfect move loses nothing.

    python3 tests/tools/endgame_accuracy.py --plyd target/release/plyd \\
        --positions plugins/othello/selfplay-endgames.txt --movetime 1000 \\
        --option EndgameEmpties=18

Prints one line a position (the move, whether the solver answered it
exactly, the loss) and the total.

--cut plays `go infinite` and `stop` after the move time instead: the
solver (where the position has at most `EndgameEmpties` empty squares)
then starts whatever the time, and its move is the one it has when the
stop comes; against `--option EndgameSolver=false` at the same time, the
evaluation search's, it tells whether a solve cut short plays better.
"""

import argparse
import re
import sys
import time

from endgame_vs_edax import read_positions
from uci_engine import Engine


def search(engine, position, command, stop_after=None):
    """The best move and the info lines of one search from a new game
    (stopped after `stop_after` seconds where given)."""
    engine.send("ucinewgame")
    engine.send("isready")
    engine.read_until(lambda line: line == "readyok")
    engine.send(f"position fen {position}")
    engine.send(command)
    if stop_after is not None:
        time.sleep(stop_after)
        engine.send("stop")
    lines = engine.read_until(lambda line: line.startswith("bestmove"))
    return lines[-1].split()[1], [line for line in lines if line.startswith("info")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plyd", default="target/release/plyd")
    ap.add_argument("--positions", default="plugins/othello/selfplay-endgames.txt")
    ap.add_argument("--movetime", type=int, default=1000, help="ms a move")
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE for the player")
    ap.add_argument("--label", default="plyd")
    ap.add_argument("--cut", action="store_true", help="go infinite, stop after the move time")
    args = ap.parse_args()
    setup = ["setoption name Threads value 1", "setoption name OwnBook value false"]
    for option in args.option:
        name, _, value = option.partition("=")
        setup.append(f"setoption name {name} value {value}")
    player = Engine("player", [args.plyd], setup, 60 + args.movetime / 1000)
    judge = Engine(
        "judge",
        [args.plyd],
        ["setoption name Threads value 1", "setoption name EndgameEmpties value 60"],
        3600,
    )
    total, solved, rows = 0, 0, read_positions(args.positions, None, None)
    for name, position, score in rows:
        if args.cut:
            move, info = search(player, position, "go infinite", args.movetime / 1000)
        else:
            move, info = search(player, position, f"go movetime {args.movetime}")
        exact = "info string exact" in info
        _, judged = search(judge, f"{position} moves {move}", "go depth 60")
        kept = None
        for line in judged:
            m = re.search(r"score cp (-?\d+)", line)
            if m:
                kept = -int(m.group(1)) // 100
        if kept is None:
            sys.exit(f"{name}: no exact score after {move}: {judged}")
        loss = score - kept
        total += loss
        solved += exact
        print(f"{args.label} {name} move {move} solved {int(exact)} loss {loss}", flush=True)
    print(f"{args.label} total loss {total} discs over {len(rows)} positions; {solved} solved exactly")


if __name__ == "__main__":
    main()
