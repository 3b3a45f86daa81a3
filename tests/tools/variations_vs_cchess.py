#!/usr/bin/env python3
"""Every line of the move trees of xiangqi records (XQF, CCBridge CBR and
CBL) read by `plyd record --variations` against the `cchess` Python
package (PyPI): file by file, the lines each gives, from the start, must
be the same (the order within a file aside).

    pip install cchess
    python3 tests/tools/variations_vs_cchess.py PATH... [--plyd target/release/plyd]

PATH is a file or a folder searched for `.xqf`, `.cbr` and `.cbl` files.
A file plyd refuses in part (a move of some line illegal, say) is
counted apart, as are libraries' headings and deleted games (which
cchess reads as games and plyd leaves out): only files plyd reads whole
are compared. Prints the counts and the first differences; exits 1
where a file's lines differ.
"""

import argparse
import collections
import os
import struct
import subprocess
import sys

import cchess

EXTENSIONS = (".xqf", ".cbr", ".cbl")


def files_under(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                for name in sorted(names):
                    if name.lower().endswith(EXTENSIONS):
                        yield os.path.join(root, name)
        else:
            yield path


def library_skips(path):
    """Whether a library holds entries plyd leaves out: headings (no
    piece on the board) or deleted games (index flags without 0x02)."""
    data = open(path, "rb").read()
    slots = struct.unpack_from("<i", data, 60)[0]
    at = 66624 + 276 * slots
    for slot in range(slots):
        flags, _, blocks = struct.unpack_from("<3i", data, 66624 + 276 * slot)
        if blocks:
            if not flags & 2 or not any(data[at + 2120:at + 2210]):
                return True
            at += 4096 * blocks
    return False


def lines_by_cchess(path):
    lower = path.lower()
    if lower.endswith(".cbl"):
        games = cchess.Game.read_from_lib(path)["games"]
    elif lower.endswith(".cbr"):
        games = [cchess.Game.read_from(path)]
    else:
        games = [cchess.read_from_xqf(path)]
    lines = collections.Counter()
    for game in games:
        tree = game.dump_moves()
        if not tree:
            lines[()] += 1
        for line in tree:
            lines[tuple(str(m) for m in line["moves"])] += 1
    return lines


def lines_by_plyd(plyd, path):
    run = subprocess.run([plyd, "record", "--variations", path], capture_output=True, text=True)
    lines = collections.Counter()
    for line in run.stdout.splitlines():
        words = line.split()
        lines[tuple(words[words.index("moves") + 1:] if "moves" in words else [])] += 1
    return run.returncode, lines


def both_readings(paths, by_plyd, by_cchess, counts):
    """Each file under `paths` read by plyd (`by_plyd(path)`: exit code
    and lines) and by cchess (`by_cchess(path)`), as (path, ours, theirs);
    the files left out are counted in `counts` by why: CBL libraries whose
    headings or deleted games the two count apart, files plyd refuses in
    part, files cchess cannot read."""
    for path in paths:
        if path.lower().endswith(".cbl") and library_skips(path):
            counts["libraries with headings or deleted games"] += 1
            continue
        code, ours = by_plyd(path)
        if code != 0:
            counts["refused in part by plyd"] += 1
            continue
        try:
            theirs = by_cchess(path)
        except Exception:  # a file cchess cannot read
            counts["not read by cchess"] += 1
            continue
        yield path, ours, theirs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--plyd", default="target/release/plyd")
    args = parser.parse_args()
    counts = collections.Counter()
    shown = 0
    by_plyd = lambda path: lines_by_plyd(args.plyd, path)  # noqa: E731
    for path, ours, theirs in both_readings(files_under(args.paths), by_plyd, lines_by_cchess, counts):
        if ours == theirs:
            counts["same"] += 1
            counts["lines"] += sum(ours.values())
            counts["files with variations"] += sum(ours.values()) > 1
            continue
        counts["different"] += 1
        if shown < 10:
            shown += 1
            print(f"{path}: plyd {sum(ours.values())} lines, cchess {sum(theirs.values())}; "
                  f"first of plyd's alone: {sorted(ours - theirs)[:1]}, of cchess's: {sorted(theirs - ours)[:1]}")
    print(", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 1 if counts["different"] else 0


if __name__ == "__main__":
    sys.exit(main())
