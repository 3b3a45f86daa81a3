#!/usr/bin/env python3
"""CCBridge records (CBR games, CBL libraries) read by plyd against an
independent reader: every `.cbr` and `.cbl` file given (or found under a
folder given) is read by the `cchess` Python package (PyPI) and by `plyd
record --to pgn`, and the two must agree, game by game, on the start
(pieces and side to move), the main line's moves, the result and the
players' names.

    pip install cchess
    python3 tests/tools/cbl_vs_cchess.py PATH... [--plyd target/release/plyd]

cchess reads a library's headings (entries with no piece on the board)
as games without moves; plyd names them on stderr and leaves them out.
cchess also reads the games a library's index marks deleted, which plyd
leaves out: they are left out of the comparison.
cchess stops a line silently at a move it finds illegal, where plyd
refuses the game naming the move: such games are counted apart. Prints
the counts and the first differences; exits 1 where the two read a game
to different moves, starts, results or names.
"""

import argparse
import os
import re
import struct
import subprocess
import sys

import cchess

RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def files_under(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                for name in sorted(names):
                    if name.lower().endswith((".cbr", ".cbl")):
                        yield os.path.join(root, name)
        else:
            yield path


def deleted_entries(path):
    """The places (from 0) among a library's games of those its index
    marks deleted (flags without 0x02): cchess reads them, plyd leaves
    them out."""
    data = open(path, "rb").read()
    slots = struct.unpack_from("<i", data, 60)[0]
    places, place = set(), 0
    for slot in range(slots):
        flags, _, blocks = struct.unpack_from("<3i", data, 66624 + 276 * slot)
        if blocks:
            if not flags & 2:
                places.add(place)
            place += 1
    return places


def by_cchess(path):
    """The games of `path` as cchess reads them, in the file's order,
    less the deleted ones."""
    if path.lower().endswith(".cbl"):
        games = cchess.Game.read_from_lib(path)["games"]
        deleted = deleted_entries(path)
        games = [g for i, g in enumerate(games) if i not in deleted]
    else:
        games = [cchess.Game.read_from(path)]
    out = []
    for game in games:
        board = game.init_board
        out.append({
            "placement": board.to_fen().split()[0],
            "side": "w" if board.move_player == cchess.RED else "b",
            "moves": [str(m) for m in game.iter_moves()],
            "result": game.info.get("result", "*"),
            # plyd trims the names' spaces.
            "red": game.info.get("red", "").strip(),
            "black": game.info.get("black", "").strip(),
        })
    return out


def by_plyd(plyd, path):
    """plyd's games of `path` by their number in the file (from 1), and
    its stderr lines by number: `heading`, `refused` or `note`."""
    run = subprocess.run([plyd, "record", "--to", "pgn", path], capture_output=True, text=True)
    said = {}
    for line in run.stderr.splitlines():
        m = re.search(r": record (\d+): (.*)$", line)
        if m:
            n, what = int(m.group(1)), m.group(2)
            kind = "heading" if "a heading" in what else (
                "note" if "record's" in what or "plays on" in what else "refused")
            said[n] = (kind, what)
    games = []
    for text in run.stdout.split('[Game "Chinese Chess"]')[1:]:
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', text, re.M))
        body = "\n".join(l for l in text.splitlines() if not l.startswith("["))
        moves = [w.replace("-", "").lower() for w in body.split()
                 if re.fullmatch(r"[A-I]\d-[A-I]\d", w)]
        fen = tags.get("FEN", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
        placement, side = fen.split()[:2]
        games.append({
            "placement": placement.replace("h", "n").replace("H", "N").replace("e", "b").replace("E", "B"),
            "side": side,
            "moves": moves,
            "result": tags.get("Result", "*"),
            "red": tags.get("Red", ""),
            "black": tags.get("Black", ""),
        })
    # The games plyd printed are the numbers it said nothing of, or only
    # a note, in order.
    numbers = [n for n in range(1, 1 + len(games) + len(said))
               if said.get(n, ("note",))[0] == "note"][:len(games)]
    return dict(zip(numbers, games)), said


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--plyd", default="target/release/plyd")
    args = parser.parse_args()
    counts = {"same": 0, "plies": 0, "heading": 0, "refused": 0, "different": 0}
    shown = 0
    for path in files_under(args.paths):
        theirs = by_cchess(path)
        ours, said = by_plyd(args.plyd, path)
        for n, game in enumerate(theirs, 1):
            kind = said.get(n, ("game",))[0]
            if kind in ("heading", "refused"):
                counts[kind] += 1
                if kind == "refused" and shown < 10:
                    shown += 1
                    print(f"{path} game {n}: plyd {said[n][1]}; cchess has {len(game['moves'])} moves")
                continue
            mine = ours.get(n)
            if mine == game:
                counts["same"] += 1
                counts["plies"] += len(game["moves"])
                continue
            counts["different"] += 1
            if shown < 10:
                shown += 1
                for key in game:
                    if mine is None or mine[key] != game[key]:
                        print(f"{path} game {n}: {key}: plyd {mine and mine[key]!r}, cchess {game[key]!r}")
                        break
    print(", ".join(f"{k} {v}" for k, v in counts.items()))
    return 1 if counts["different"] else 0


if __name__ == "__main__":
    sys.exit(main())
