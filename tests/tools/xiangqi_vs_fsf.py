#!/usr/bin/env python3
"""Check plyd's xiangqi move generation against Fairy-Stockfish.

Plays random games from the start position. At every ply both engines are
given the game so far (`position startpos moves ...`) and asked for
`go perft 1`; the two sets of legal moves must be equal. With
--perft-depth N, every --every-th ply asks for `go perft N` instead and
compares the per-move counts and the totals as well (deeper, slower).
A random move common to both is then played. A game ends when there are
no legal moves or after --max-plies.

The first mismatch stops the run: it prints the position (FEN from
Fairy-Stockfish's `d`), the moves that led there and the moves that only
one engine has. Exit status: 0 all equal, 1 mismatch, 2 engine failure.

Notation: plyd writes xiangqi moves with files a-i and ranks 0-9 from
Red's side (h2e2); Fairy-Stockfish's UCI mode uses ranks 1-10 (h3e3).
Moves are compared in Fairy-Stockfish's notation.

Repetitions: plyd's repetition and no-capture verdicts take no move away
(the arbiter applies them), so both engines list the same moves however
often a position has come round, and a perft through a repeated line
counts the same.

    python3 tests/tools/xiangqi_vs_fsf.py --plyd target/release/plyd \\
        --fsf /work/tools/fairy-stockfish --games 200 --seed 1
    python3 tests/tools/xiangqi_vs_fsf.py --perft-depth 3 --every 10
"""
import argparse
import random
import re
import sys

from uci_engine import Engine, EngineError

VARIANT = "xiangqi"
MOVE_RE = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")


def plyd_to_fsf(move):
    """Convert a plyd move (ranks 0-9) to Fairy-Stockfish's (ranks 1-10)."""
    m = MOVE_RE.match(move)
    if not m:
        raise EngineError(f"plyd move '{move}' is not in file-rank form")
    return f"{m[1]}{int(m[2]) + 1}{m[3]}{int(m[4]) + 1}"


def fsf_to_plyd(move):
    """Convert a Fairy-Stockfish move (ranks 1-10) to plyd's (ranks 0-9)."""
    m = MOVE_RE.match(move)
    if not m:
        raise EngineError(f"Fairy-Stockfish move '{move}' is not in file-rank form")
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


class FsfAsPlyd(Engine):
    """Fairy-Stockfish speaking plyd's notation, to test this tool alone."""

    def to_engine(self, move):
        return plyd_to_fsf(move)

    def from_engine(self, move):
        return fsf_to_plyd(move)


def report_mismatch(fsf, game, moves, what, plyd_counts, fsf_counts):
    """Print everything needed to reproduce a mismatch."""
    fsf.set_game(moves)
    print(f"MISMATCH in game {game + 1} after {len(moves)} plies: {what}")
    print(f"  fen: {fsf.fen()}")
    print(f"  moves (Fairy-Stockfish): {' '.join(moves) or '(none)'}")
    print(f"  moves (plyd): {' '.join(fsf_to_plyd(m) for m in moves) or '(none)'}")
    only_plyd = sorted(set(plyd_counts) - set(fsf_counts))
    only_fsf = sorted(set(fsf_counts) - set(plyd_counts))
    if only_plyd:
        print(f"  only plyd has: {' '.join(only_plyd)}")
    if only_fsf:
        print(f"  only Fairy-Stockfish has: {' '.join(only_fsf)}")
    for move in sorted(set(plyd_counts) & set(fsf_counts)):
        if plyd_counts[move] != fsf_counts[move]:
            print(f"  {move}: plyd {plyd_counts[move]}, "
                  f"Fairy-Stockfish {fsf_counts[move]}")
    print("  (moves above are in Fairy-Stockfish notation, ranks 1-10)")


def play_game(game, plyd, fsf, rng, args, stats):
    """Play one random game, comparing at every ply; False on a mismatch."""
    moves = []
    for ply in range(args.max_plies + 1):
        deep = args.perft_depth > 1 and ply % args.every == 0
        depth = args.perft_depth if deep else 1
        plyd.set_game([fsf_to_plyd(m) for m in moves])
        fsf.set_game(moves)
        plyd_raw, plyd_total, _ = plyd.perft(depth)
        plyd_counts = {plyd_to_fsf(m): n for m, n in plyd_raw.items()}
        fsf_counts, fsf_total, _ = fsf.perft(depth)
        stats["positions compared"] += 1
        stats["moves compared"] += len(fsf_counts)

        if set(plyd_counts) != set(fsf_counts):
            stats["mismatches"] += 1
            report_mismatch(fsf, game, moves, "legal move sets differ",
                            plyd_counts, fsf_counts)
            return False
        if deep:
            stats[f"perft {depth} checks"] += 1
            if plyd_counts != fsf_counts or plyd_total != fsf_total:
                stats["mismatches"] += 1
                report_mismatch(fsf, game, moves,
                                f"perft {depth}: plyd {plyd_total}, "
                                f"Fairy-Stockfish {fsf_total}",
                                plyd_counts, fsf_counts)
                return False

        if not fsf_counts:
            stats["no-move ends"] += 1
            return True
        if ply == args.max_plies:
            stats["max-ply ends"] += 1
            return True
        moves.append(rng.choice(sorted(fsf_counts)))
    return True


def parse_args():
    """Command-line options."""
    p = argparse.ArgumentParser(
        description="Compare plyd's xiangqi legal moves with Fairy-Stockfish's "
                    "on random games.")
    p.add_argument("--plyd", default="target/release/plyd", help="plyd binary")
    p.add_argument("--plugin-path", help="passed to plyd as --plugin-path")
    p.add_argument("--fsf", default="/work/tools/fairy-stockfish",
                   help="Fairy-Stockfish binary (built with largeboards=yes)")
    p.add_argument("--games", type=int, default=200, help="random games to play")
    p.add_argument("--seed", type=int, default=1, help="random seed")
    p.add_argument("--max-plies", type=int, default=200, help="plies per game at most")
    p.add_argument("--perft-depth", type=int, default=1,
                   help="also compare `go perft N` counts every --every plies")
    p.add_argument("--every", type=int, default=10,
                   help="ply interval of the --perft-depth checks")
    p.add_argument("--timeout", type=float, default=300,
                   help="seconds to wait for any one answer")
    p.add_argument("--no-plyd", action="store_true",
                   help="run Fairy-Stockfish against itself (tests this tool)")
    args = p.parse_args()
    if args.every < 1 or args.perft_depth < 1 or args.games < 0 or args.max_plies < 0:
        p.error("--every and --perft-depth must be at least 1, "
                "--games and --max-plies at least 0")
    return args


def main():
    """Run the games and print the summary; return the exit status."""
    args = parse_args()
    stats = dict.fromkeys(
        ["positions compared", "moves compared", "no-move ends", "max-ply ends", "mismatches"], 0)
    if args.perft_depth > 1:
        stats[f"perft {args.perft_depth} checks"] = 0
    rng = random.Random(args.seed)
    engines = []
    games = 0
    status = 0
    try:
        setup = [f"setoption name UCI_Variant value {VARIANT}"]
        fsf = Engine("Fairy-Stockfish", [args.fsf], setup, args.timeout)
        engines.append(fsf)
        if args.no_plyd:
            plyd = FsfAsPlyd("Fairy-Stockfish (as plyd)", [args.fsf], setup, args.timeout)
        else:
            argv = [args.plyd]
            if args.plugin_path:
                argv += ["--plugin-path", args.plugin_path]
            plyd = Engine("plyd", argv, setup, args.timeout)
        engines.append(plyd)
        for game in range(args.games):
            games += 1
            if not play_game(game, plyd, fsf, rng, args, stats):
                status = 1
                break
    except EngineError as e:
        print(f"error: {e}", file=sys.stderr)
        status = 2
    except KeyboardInterrupt:
        status = 130
    finally:
        for engine in engines:
            engine.close()
    print(f"games: {games}")
    for name, value in stats.items():
        print(f"{name}: {value}")
    return status


if __name__ == "__main__":
    sys.exit(main())
