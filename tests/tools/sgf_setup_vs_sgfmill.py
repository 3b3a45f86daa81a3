#!/usr/bin/env python3
"""Othello games from other starts written to SGF by `plyd record --to
sgf`, read by sgfmill (a Python SGF library, `pip install sgfmill`): the
set-up stones (`AB`, `AW`, `AE`) put on the standard start and `PL` must
give the board and side to move the game began from, and plyd must read
the SGF back to the same lines as the GGF it was written from.

Each game starts from a position of a random game (lines_vs_edax.py's
random positions, 20 to 59 empty squares, seeded by --seed) and has one
move, written as GGF with its board in `BO`.

    python3 tests/tools/sgf_setup_vs_sgfmill.py --plyd target/release/plyd --games 300

Prints the games that differ and the totals; exits 1 if any differ.
"""

import argparse
import os
import subprocess
import sys
import tempfile

from lines_vs_edax import random_positions
from othello_rules import Board, square_name
from sgfmill import sgf

STANDARD = "---------------------------OX------XO---------------------------"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plyd", default="target/release/plyd")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=4)
    args = ap.parse_args()
    starts = [position.split() for _, position in random_positions(args.games, range(20, 60), args.seed)]
    ggf = []
    for squares, side in starts:
        moves = Board.from_text(f"{squares} {side}").legal_moves()
        move = square_name(moves[0]).upper() if moves else "PA"
        color = "B" if side == "X" else "W"
        bo = f"{squares.replace('X', '*')} {side.replace('X', '*')}"
        ggf.append(f"(;GM[Othello]PC[t]PB[a]PW[b]RE[?]TY[8]BO[8 {bo}]{color}[{move}];)")
    with tempfile.TemporaryDirectory() as folder:
        ggf_path = os.path.join(folder, "games.ggf")
        sgf_path = os.path.join(folder, "games.sgf")
        with open(ggf_path, "w") as f:
            f.write("\n".join(ggf) + "\n")
        written = subprocess.run([args.plyd, "record", "--to", "sgf", ggf_path],
                                 capture_output=True, text=True)
        records = [r for r in written.stdout.split("\n\n") if r.strip()]
        if written.returncode != 0 or len(records) != len(starts):
            raise SystemExit(f"plyd wrote {len(records)} of {len(starts)} games: {written.stderr[:500]}")
        with open(sgf_path, "w") as f:
            f.write(written.stdout)
        lines = [subprocess.run([args.plyd, "record", path], capture_output=True, text=True).stdout
                 for path in (ggf_path, sgf_path)]
    differ = 0
    for (squares, side), record in zip(starts, records):
        root = sgf.Sgf_game.from_bytes(record.encode()).get_root()
        board = list(STANDARD)
        for key, disc in (("AB", "X"), ("AW", "O"), ("AE", "-")):
            if root.has_property(key):
                # sgfmill counts rows from the bottom.
                for row, column in root.get(key):
                    board[(7 - row) * 8 + column] = disc
        player = root.get("PL") if root.has_property("PL") else "b"
        if "".join(board) != squares or player != ("b" if side == "X" else "w"):
            differ += 1
            print(f"{squares} {side}: sgfmill reads {''.join(board)} {player} from {record}")
    same_lines = lines[0] == lines[1]
    print(f"{len(starts)} games: {len(starts) - differ} set up the same by sgfmill, {differ} different; "
          f"plyd reads the SGF back to {'the same' if same_lines else 'other'} lines as the GGF")
    return 1 if differ or not same_lines else 0


if __name__ == "__main__":
    sys.exit(main())
