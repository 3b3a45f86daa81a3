#!/usr/bin/env python3
"""Check plyd's Amazons move generation against Fairy-Stockfish.

Plays random games, on the 10x10 board (`--board 10`, plyd's `amazons`)
or the 8x8 one (`--board 8`, plyd's `amazons8`). At every ply both engines
are given the game so far (`position startpos moves ...`) and asked for
`go perft 1`; the two sets of legal moves must be equal. With
--perft-depth N, every --every-th ply asks for `go perft N` instead and
compares the per-move counts and the totals too. --start-perft N first
compares `go perft N` from the start position (the per-move counts and
the totals, with the time each engine took). A random move common to both
is then played; a game ends when the side to move has no legal move (an
Amazons game always ends: every move shoots an arrow onto an empty
square) or after --max-plies.

The first mismatch stops the run: it prints the position (FEN from
Fairy-Stockfish's `d`), the moves that led there and the moves only one
engine has. Exit status: 0 all equal, 1 mismatch, 2 engine failure.

Notation: plyd writes a move as its three squares, `d1d7g7` (from, to,
arrow). Fairy-Stockfish writes the queen move and the arrow as two legs,
`d1d7,d7g7`. Moves are compared in plyd's notation.

Fairy-Stockfish's `amazons` is the 10x10 game. For the 8x8 board this
script writes a variants.ini into a temporary directory with a section
that inherits `amazons` on an 8x8 board with the 8x8 start position, and
points Fairy-Stockfish's `VariantPath` option at it; the start FEN that
Fairy-Stockfish's `d` shows is checked before any game. Fairy-Stockfish
must be built with largeboards=yes and all=yes.

    python3 tests/tools/amazons_vs_fsf.py --board 8 --games 100 --seed 1 \\
        --plyd target/release/plyd --fsf /path/to/fairy-stockfish
    python3 tests/tools/amazons_vs_fsf.py --board 10 --perft-depth 2 --every 10
    python3 tests/tools/amazons_vs_fsf.py --board 8 --games 0 --start-perft 3
"""
import argparse
import os
import random
import re
import sys
import tempfile

from uci_engine import Engine, EngineError

# Per board side: plyd's variant, Fairy-Stockfish's variant, start FEN.
BOARDS = {
    10: ("amazons", "amazons",
         "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 w - - 0 1"),
    8: ("amazons8", "amazons8",
        "2q2q2/8/q6q/8/8/Q6Q/8/2Q2Q2 w - - 0 1"),
}

VARIANTS_INI = """\
# The 8x8 Amazons board, for comparing with plyd's amazons8.
[amazons8:amazons]
maxRank = 8
maxFile = h
startFen = {start}
"""

SQUARE = r"([a-j](?:10|[1-9]))"
PLYD_MOVE_RE = re.compile(rf"^{SQUARE}{SQUARE}{SQUARE}$")
FSF_MOVE_RE = re.compile(rf"^{SQUARE}{SQUARE},{SQUARE}{SQUARE}$")


def fsf_to_plyd(move):
    """`d1d7,d7g7` (Fairy-Stockfish) to `d1d7g7` (plyd)."""
    m = FSF_MOVE_RE.match(move)
    if not m or m[2] != m[3]:
        raise EngineError(f"Fairy-Stockfish move '{move}' is not 'from to,to arrow'")
    return f"{m[1]}{m[2]}{m[4]}"


def plyd_to_fsf(move):
    """`d1d7g7` (plyd) to `d1d7,d7g7` (Fairy-Stockfish)."""
    m = PLYD_MOVE_RE.match(move)
    if not m:
        raise EngineError(f"plyd move '{move}' is not three squares")
    return f"{m[1]}{m[2]},{m[2]}{m[3]}"


class Fsf(Engine):
    """Fairy-Stockfish, its two-leg moves converted to plyd's notation."""

    def to_engine(self, move):
        return plyd_to_fsf(move)

    def from_engine(self, move):
        return fsf_to_plyd(move)


def start_fsf(name, args, variant_dir):
    """Start Fairy-Stockfish on the board of --board and check its start."""
    _, variant, start = BOARDS[args.board]
    setup = ["setoption name Threads value 1"]
    if args.board == 8:
        path = os.path.join(variant_dir, "variants.ini")
        setup.append(f"setoption name VariantPath value {path}")
    setup.append(f"setoption name UCI_Variant value {variant}")
    fsf = Fsf(name, [args.fsf], setup, args.timeout)
    fsf.set_game([])
    fen = fsf.fen()
    if fen != start:
        fsf.close()
        raise EngineError(f"{name}: start position {fen}, expected {start} "
                          f"(is variant {variant} known?)")
    return fsf


def report_mismatch(fsf, where, moves, what, plyd_counts, fsf_counts):
    """Print everything needed to reproduce a mismatch."""
    fsf.set_game(moves)
    print(f"MISMATCH in {where} after {len(moves)} plies: {what}")
    print(f"  fen: {fsf.fen()}")
    print(f"  moves (plyd): {' '.join(moves) or '(none)'}")
    print(f"  moves (Fairy-Stockfish): "
          f"{' '.join(plyd_to_fsf(m) for m in moves) or '(none)'}")
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


def compare_perft(where, moves, depth, plyd, fsf, stats):
    """Both engines' `go perft depth` after `moves`; the two counts, or None
    after printing a mismatch."""
    plyd.set_game(moves)
    fsf.set_game(moves)
    plyd_counts, plyd_total, plyd_seconds = plyd.perft(depth)
    fsf_counts, fsf_total, fsf_seconds = fsf.perft(depth)
    stats["positions compared"] += 1
    stats["moves compared"] += len(fsf_counts)
    if set(plyd_counts) != set(fsf_counts):
        stats["mismatches"] += 1
        report_mismatch(fsf, where, moves, "legal move sets differ",
                        plyd_counts, fsf_counts)
        return None
    if plyd_counts != fsf_counts or plyd_total != fsf_total:
        stats["mismatches"] += 1
        report_mismatch(fsf, where, moves,
                        f"perft {depth}: plyd {plyd_total}, "
                        f"Fairy-Stockfish {fsf_total}",
                        plyd_counts, fsf_counts)
        return None
    return plyd_counts, plyd_total, plyd_seconds, fsf_seconds


def play_game(game, plyd, fsf, rng, args, stats):
    """Play one random game, comparing at every ply; False on a mismatch."""
    moves = []
    for ply in range(args.max_plies + 1):
        deep = args.perft_depth > 1 and ply % args.every == 0
        depth = args.perft_depth if deep else 1
        result = compare_perft(f"game {game + 1}", moves, depth, plyd, fsf, stats)
        if result is None:
            return False
        counts = result[0]
        if deep:
            stats[f"perft {depth} checks"] += 1
        if not counts:
            stats["no-move ends"] += 1
            winner = "second" if len(moves) % 2 == 0 else "first"
            stats[f"{winner} player wins"] += 1
            return True
        if ply == args.max_plies:
            stats["max-ply ends"] += 1
            return True
        moves.append(rng.choice(sorted(counts)))
    return True


def parse_args():
    """Command-line options."""
    p = argparse.ArgumentParser(
        description="Compare plyd's Amazons legal moves with Fairy-Stockfish's "
                    "on random games.")
    p.add_argument("--board", type=int, choices=sorted(BOARDS), default=10,
                   help="board side: 10 (amazons) or 8 (amazons8)")
    p.add_argument("--plyd", default="target/release/plyd", help="plyd binary")
    p.add_argument("--plugin-path", help="passed to plyd as --plugin-path")
    p.add_argument("--fsf", default="/work/tools/fairy-stockfish",
                   help="Fairy-Stockfish binary (largeboards=yes all=yes)")
    p.add_argument("--games", type=int, default=100, help="random games to play")
    p.add_argument("--seed", type=int, default=1, help="random seed")
    p.add_argument("--max-plies", type=int, default=200, help="plies per game at most")
    p.add_argument("--perft-depth", type=int, default=1,
                   help="also compare `go perft N` counts every --every plies")
    p.add_argument("--every", type=int, default=10,
                   help="ply interval of the --perft-depth checks")
    p.add_argument("--start-perft", type=int, default=0,
                   help="first compare `go perft N` from the start position")
    p.add_argument("--timeout", type=float, default=600,
                   help="seconds to wait for any one answer")
    p.add_argument("--no-plyd", action="store_true",
                   help="run Fairy-Stockfish against itself (tests this tool)")
    args = p.parse_args()
    if (args.every < 1 or args.perft_depth < 1 or args.games < 0
            or args.max_plies < 0 or args.start_perft < 0):
        p.error("--every and --perft-depth must be at least 1, "
                "--games, --max-plies and --start-perft at least 0")
    return args


def main():
    """Run the comparisons and print the summary; return the exit status."""
    args = parse_args()
    plyd_variant, _, start = BOARDS[args.board]
    stats = dict.fromkeys(
        ["positions compared", "moves compared", "no-move ends",
         "first player wins", "second player wins", "max-ply ends",
         "mismatches"], 0)
    if args.perft_depth > 1:
        stats[f"perft {args.perft_depth} checks"] = 0
    rng = random.Random(args.seed)
    engines = []
    games = 0
    status = 0
    with tempfile.TemporaryDirectory(prefix="amazons_vs_fsf") as variant_dir:
        with open(os.path.join(variant_dir, "variants.ini"), "w") as ini:
            ini.write(VARIANTS_INI.format(start=BOARDS[8][2]))
        try:
            fsf = start_fsf("Fairy-Stockfish", args, variant_dir)
            engines.append(fsf)
            if args.no_plyd:
                plyd = start_fsf("Fairy-Stockfish (as plyd)", args, variant_dir)
            else:
                argv = [args.plyd, "--game", plyd_variant]
                if args.plugin_path:
                    argv += ["--plugin-path", args.plugin_path]
                plyd = Engine("plyd", argv, [], args.timeout)
            engines.append(plyd)
            if args.start_perft:
                result = compare_perft("the start position", [], args.start_perft,
                                       plyd, fsf, stats)
                if result is None:
                    status = 1
                else:
                    _, total, plyd_seconds, fsf_seconds = result
                    print(f"start perft {args.start_perft} ({start}): {total} "
                          f"from both; plyd {plyd_seconds:.1f} s, "
                          f"Fairy-Stockfish {fsf_seconds:.1f} s")
            for game in range(args.games if status == 0 else 0):
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
    print(f"board: {args.board}x{args.board}")
    print(f"games: {games}")
    for name, value in stats.items():
        print(f"{name}: {value}")
    return status


if __name__ == "__main__":
    sys.exit(main())
