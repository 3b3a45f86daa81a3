#!/usr/bin/env python3
"""How far a shallow search's score strays from a deep one's: the numbers
an evaluator gives the host for ProbCut of the whole node (`NodeProbCut`,
docs/search.md).

    probcut_spread.py --plyd target/release/plyd --game othello \\
        --games 200 --seed 2 --max-depth 13 [--evaluator patterns] \\
        [--eval-params FILE] [--min-left 22] [--save scores.jsonl]

Plays --games games of plyd against itself (the first --random-plies
plies at random, then `go depth --play-depth`), and from some of their
positions (each with probability --sample, at least --min-left moves
before the end by the game's count of empty squares: Othello only, other
games take every sampled position) runs one `go depth --max-depth` with
`NodeProbCut` off and an empty table, keeping the score of every
iteration. For each depth d from 4 up, with s the shallow depth the host
pairs with it (2*(d//4) + d%2), it prints the mean and the standard
deviation of score(d) - score(s), in the evaluator's units, and the
table the evaluator's `probcut` entry answers with.

--load FILE reads the scores of an earlier --save instead of playing.
"""

import argparse
import json
import random
import re
import statistics
import subprocess
import sys


def shallow_depth(depth):
    """The host's pairing (engine/src/search/worker.rs, node_probcut_depth)."""
    return 2 * (depth // 4) + (depth & 1)


class Engine:
    def __init__(self, cmd):
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("plyd closed its output")
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def ready(self):
        self.send("isready")
        self.until("readyok")


def legal_moves(engine, moves):
    engine.send("position startpos moves " + " ".join(moves))
    engine.send("go perft 1")
    lines = engine.until("Nodes searched")
    return [l.split(":")[0] for l in lines if re.match(r"^\S+: \d+$", l)]


def empties(engine, moves):
    """Othello: the empty squares of the position after `moves` (`d`
    prints the board)."""
    engine.send("position startpos moves " + " ".join(moves))
    engine.send("d")
    engine.send("isready")
    lines = engine.until("readyok")
    board = [l for l in lines if re.match(r"^[1-8]\s", l)]
    return sum(l.split(None, 1)[1].count(".") for l in board) if board else None


def play(args):
    rng = random.Random(args.seed)
    engine = Engine([args.plyd] + (["--plugin-path", args.plugin_path] if args.plugin_path else []))
    engine.send("uci")
    engine.until("uciok")
    options = [f"UCI_Variant value {args.game}", "NodeProbCut value false",
               "OwnBook value false", "Threads value 1"]
    if args.evaluator:
        options.append(f"Evaluator value {args.evaluator}")
    if args.eval_params:
        options.append(f"EvalParams value {args.eval_params}")
    for option in options:
        engine.send("setoption name " + option)
    engine.ready()
    rows = []
    for game in range(args.games):
        moves = []
        while True:
            legal = legal_moves(engine, moves)
            if not legal:
                break
            if len(moves) < args.random_plies:
                move = rng.choice(legal)
            else:
                engine.send("position startpos moves " + " ".join(moves))
                engine.send(f"go depth {args.play_depth}")
                move = engine.until("bestmove")[-1].split()[1]
            moves.append(move)
            if len(moves) < args.random_plies + 4 or rng.random() >= args.sample:
                continue
            left = empties(engine, moves) if args.game == "othello" else None
            if left is not None and left < args.min_left:
                continue
            engine.send("ucinewgame")
            engine.send("position startpos moves " + " ".join(moves))
            engine.send(f"go depth {args.max_depth}")
            scores = {}
            for line in engine.until("bestmove"):
                m = re.match(r"info depth (\d+) .*score cp (-?\d+)", line)
                if m:
                    scores[m.group(1)] = int(m.group(2))
            rows.append({"game": game, "plies": len(moves), "empties": left, "scores": scores})
        print(f"game {game + 1}/{args.games}: {len(rows)} positions", file=sys.stderr)
    engine.send("quit")
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
