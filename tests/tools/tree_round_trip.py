#!/usr/bin/env python3
"""Xiangqi games with variations written back by `plyd record --tree` and
read again: file by file, the lines `plyd record --variations FILE` gives
(each line's start, moves and comments) must be those of the file
`--tree --to pgn`, `--to pgn-chinese` and `--to xqf` write of it (the
main line first; the other lines in any order). XQF holds its comments
in GBK: a character GBK lacks is written as `&#N;`, and compared so.

    python3 tests/tools/tree_round_trip.py PATH... [--plyd target/release/plyd]
        [--every N] [--jobs 2]

PATH is a file or a folder searched for `.xqf`, `.cbr`, `.cbl` and `.pgn`
files, taken in name order; `--every N` takes every Nth of them. A file
plyd does not read whole (a line with an illegal move, say) is counted
apart: the lines that do replay are still compared. Prints the counts
and the first differences; exits 1 where a file's lines differ.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

EXTENSIONS = (".xqf", ".cbr", ".cbl", ".pgn")
FORMS = ("pgn", "pgn-chinese", "xqf")


def files_under(paths):
    for path in paths:
        if os.path.isdir(path):
            found = []
            for root, _, names in os.walk(path):
                found += [os.path.join(root, n) for n in names if n.lower().endswith(EXTENSIONS)]
            yield from sorted(found)
        else:
            yield path


MOVE = re.compile(r"^[A-I][0-9]-[A-I][0-9]$")


def lines(plyd, path):
    """Every line of every game in `path`, as `plyd record --variations
    --to pgn` writes each: its start, moves and comments; and whether plyd
    read the file whole."""
    run = subprocess.run([plyd, "record", "--variations", "--to", "pgn", path], capture_output=True)
    found = []
    for game in run.stdout.decode().split("[Game ")[1:]:
        tags, _, movetext = game.partition("\n\n")
        fen = re.search(r'\[FEN "([^"]*)"\]', tags)
        moves, comments = [], []
        for part in re.split(r"(\{[^}]*\})", movetext):
            if part.startswith("{"):
                comments.append((len(moves), part[1:-1]))
                continue
            moves += [w.replace("-", "").lower() for w in part.split() if MOVE.match(w)]
        found.append((fen and fen.group(1), moves, comments))
    return found, run.returncode == 0


def gbk_character(c):
    """`c` as plyd writes it in GBK's text: itself, or `&#N;` where GBK
    lacks it (U+FFFD, put for bytes a record did not read). The
    private-use characters GB18030 reads GBK's user-defined area as are
    written back there (Python's `gbk` codec does not write them)."""
    if 0xE000 <= ord(c) <= 0xF8FF:
        return c
    try:
        c.encode("gbk")
        return c
    except UnicodeEncodeError:
        return f"&#{ord(c)};"


def as_gbk(line):
    """`line` with its comments as an XQF file holds them (GBK)."""
    fen, moves, comments = line
    return fen, moves, [(at, "".join(map(gbk_character, c))) for at, c in comments]


def written(plyd, path, form, folder):
    """`path` written back as `form` by `--tree`, as a file to read."""
    if form == "xqf":
        out = os.path.join(folder, "xqf")
        subprocess.run([plyd, "record", "--tree", "--to", "xqf", "--out", out, path], capture_output=True)
        return sorted(
            (os.path.join(out, n) for n in os.listdir(out)),
            key=lambda p: int(os.path.basename(p).split(".")[0]),
        ) if os.path.isdir(out) else []
    run = subprocess.run([plyd, "record", "--tree", "--to", form, path], capture_output=True)
    target = os.path.join(folder, form + ".pgn")
    with open(target, "wb") as f:
        f.write(run.stdout)
    return [target]


def check(plyd, path):
    found, whole = lines(plyd, path)
    differences = []
    with tempfile.TemporaryDirectory() as folder:
        for form in FORMS:
            back = []
            for target in written(plyd, path, form, folder):
                back += [repr(line) for line in lines(plyd, target)[0]]
            original = [repr(as_gbk(line) if form == "xqf" else line) for line in found]
            same_first = back[:1] == original[:1]
            if not same_first or sorted(back) != sorted(original):
                gone = sorted(set(original) - set(back))[:2]
                new = sorted(set(back) - set(original))[:2]
                differences.append(f"{form}: {len(original)} lines, {len(back)} back; missing {gone}, new {new}")
    return path, len(found), whole, differences


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--plyd", default="target/release/plyd")
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    paths = list(files_under(args.paths))[:: args.every]
    counts = {"files": 0, "same": 0, "different": 0, "not whole": 0, "lines": 0, "with variations": 0}
    shown = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for path, n, whole, differences in pool.map(lambda p: check(args.plyd, p), paths):
            counts["files"] += 1
            counts["lines"] += n
            counts["not whole"] += not whole
            counts["with variations"] += n > 1
            if differences:
                counts["different"] += 1
                if shown < 10:
                    shown += 1
                    print(f"{path}: " + "; ".join(differences))
            else:
                counts["same"] += 1
    print(", ".join(f"{k} {v}" for k, v in counts.items()))
    return 1 if counts["different"] else 0


if __name__ == "__main__":
    sys.exit(main())
