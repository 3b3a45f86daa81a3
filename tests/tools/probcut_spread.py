#!/usr/bin/env python3
"""How far a shallow search's score strays from a deep one's: the numbers
`NodeProbCut`'s margin stands for (ProbCut of the whole node,
docs/search.md). plyd is driven through uci_engine.py.

    probcut_spread.py --plyd target/release/plyd --game othello \\
        --games 200 --seed 2 --max-depth 13 [--evaluator patterns] \\
        [--eval-params FILE] [--min-left 22] [--save scores.jsonl]

Plays --games games of plyd against itself (the first --random-plies
plies at random, then `go depth --play-depth`), and from some of their
positions (each with probability --sample; in Othello only those with at
least --min-left empty squares) runs one `go depth --max-depth` with
`NodeProbCut` off and an empty table, keeping the score of every
iteration. For each depth d from 4 up, with s the shallow depth the host
pairs with it (2*(d//4) + d%2), it prints the mean and the standard
deviation of score(d) - score(s), in the evaluator's units (hundredths of
a disc in Othello): what `NodeProbCut`'s margin is measured against.

--load FILE reads the scores of an earlier --save instead of playing.
"""

import argparse
import json
import random
import re
import statistics
import sys

from uci_engine import Engine


def shallow_depth(depth):
    """The host's pairing (engine/src/search/worker.rs, node_probcut_depth)."""
    return 2 * (depth // 4) + (depth & 1)


def empties(engine):
    """Othello: the empty squares of the engine's position (its FEN's
    digits count them)."""
    board = engine.fen().split()[0]
    return sum(int(c) for c in board if c.isdigit())


def play(args):
    rng = random.Random(args.seed)
    argv = [args.plyd] + (["--plugin-path", args.plugin_path] if args.plugin_path else [])
    setup = [f"UCI_Variant value {args.game}", "NodeProbCut value false",
             "OwnBook value false", "Threads value 1"]
    if args.evaluator:
        setup.append(f"Evaluator value {args.evaluator}")
    if args.eval_params:
        setup.append(f"EvalParams value {args.eval_params}")
    engine = Engine("plyd", argv, ["setoption name " + o for o in setup], timeout=600)
    rows = []
    for game in range(args.games):
        moves = []
        while True:
            engine.set_game(moves)
            legal = list(engine.perft(1)[0])
            if not legal:
                break
            if len(moves) < args.random_plies:
                move = rng.choice(legal)
            else:
                engine.send(f"go depth {args.play_depth}")
                move = engine.read_until(lambda l: l.startswith("bestmove"))[-1].split()[1]
            moves.append(move)
            if len(moves) < args.random_plies + 4 or rng.random() >= args.sample:
                continue
            engine.set_game(moves)
            left = empties(engine) if args.game == "othello" else None
            if left is not None and left < args.min_left:
                continue
            engine.send("ucinewgame")
            engine.set_game(moves)
            engine.send(f"go depth {args.max_depth}")
            scores = {}
            for line in engine.read_until(lambda l: l.startswith("bestmove")):
                m = re.match(r"info depth (\d+) .*score cp (-?\d+)", line)
                if m:
                    scores[m.group(1)] = int(m.group(2))
            rows.append({"game": game, "plies": len(moves), "empties": left, "scores": scores})
        print(f"game {game + 1}/{args.games}: {len(rows)} positions", file=sys.stderr)
    engine.close()
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plyd", default="target/release/plyd")
    ap.add_argument("--plugin-path")
    ap.add_argument("--game", default="othello")
    ap.add_argument("--evaluator")
    ap.add_argument("--eval-params")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random-plies", type=int, default=6)
    ap.add_argument("--play-depth", type=int, default=4)
    ap.add_argument("--max-depth", type=int, default=13)
    ap.add_argument("--sample", type=float, default=0.12)
    ap.add_argument("--min-left", type=int, default=22)
    ap.add_argument("--save")
    ap.add_argument("--load")
    args = ap.parse_args()
    if args.load:
        with open(args.load) as f:
            rows = [json.loads(l) for l in f]
    else:
        rows = play(args)
        if args.save:
            with open(args.save, "w") as f:
                for row in rows:
                    f.write(json.dumps(row) + "\n")
    print(f"{len(rows)} positions")
    print("depth shallow positions mean spread")
    for depth in range(4, args.max_depth + 1):
        s = shallow_depth(depth)
        diffs = [r["scores"][str(depth)] - r["scores"][str(s)] for r in rows
                 if str(depth) in r["scores"] and str(s) in r["scores"]]
        if len(diffs) >= 20:
            print(f"{depth} {s} {len(diffs)} {statistics.mean(diffs):.0f} "
                  f"{statistics.pstdev(diffs):.0f}")


if __name__ == "__main__":
    main()
