#!/usr/bin/env python3
"""The comments of xiangqi records (XQF, CCBridge CBR and CBL) as
`plyd record --variations --to pgn` gives them, against the `cchess`
Python package (PyPI): file by file, every line of every game with the
comments along it (the start's, then each move's), the order of the
lines within a file aside.

    pip install cchess
    python3 tests/tools/comments_vs_cchess.py PATH... [--plyd target/release/plyd] [--every N]

PATH is a file or a folder searched for `.xqf`, `.cbr` and `.cbl` files,
taken in name order (`--every N`: every Nth). cchess's comments are
taken as plyd keeps a comment: line ends as one `\\n`, other control
characters left out, `}` as `)`, blanks at the ends left out, an empty
one none; and its XQF reader is made to put U+FFFD for bytes GB18030
does not read, as plyd does, where it would leave the comment out.
cchess reads no comments of CBR and CBL games: plyd's are counted, and
their lines compared without them. Files plyd refuses in part, and
libraries with headings or
deleted games, are counted apart, as `variations_vs_cchess.py` counts
them. Prints the counts and the first differences; exits 1 where a
file's comments differ.
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from variations_vs_cchess import both_readings, files_under  # noqa: E402

import cchess  # noqa: E402
import cchess.read_xqf  # noqa: E402


def _read_str(self, size, coding="GB18030"):
    """cchess's XQF text reader, except that bytes GB18030 does not read
    (a comment damaged by an editor) are put as U+FFFD, as plyd reads
    them, rather than the whole comment left out."""
    return self._XQFBuffDecoder__read(size).decode(coding, errors="replace")


cchess.read_xqf.XQFBuffDecoder.read_str = _read_str

MOVE = re.compile(r"^[A-I][0-9]-[A-I][0-9]$")


def comment_text(raw):
    """A comment as plyd keeps it; None where nothing is left."""
    if raw is None:
        return None
    text = raw.replace("\r\n", "\n").replace("\r", "\n").replace("}", ")")
    text = "".join(c for c in text if c in "\n\t" or unicodedata.category(c) != "Cc")
    text = text.strip()
    return text or None


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
        start = comment_text(game.annote)
        head = ((0, start),) if start else ()
        tree = game.dump_moves()
        if not tree:
            lines[((), head)] += 1
        for line in tree:
            moves = tuple(str(m) for m in line["moves"])
            comments = head + tuple(
                (i + 1, comment_text(m.annote))
                for i, m in enumerate(line["moves"])
                if comment_text(m.annote)
            )
            lines[(moves, comments)] += 1
    return lines


def lines_by_plyd(plyd, path):
    run = subprocess.run(
        [plyd, "record", "--variations", "--to", "pgn", path], capture_output=True, text=True
    )
    lines = collections.Counter()
    for game in run.stdout.split("[Game ")[1:]:
        movetext = game.split("\n\n", 1)[1] if "\n\n" in game else ""
        moves, comments = [], []
        for part in re.split(r"(\{[^}]*\})", movetext):
            if part.startswith("{"):
                comments.append((len(moves), part[1:-1]))
                continue
            for word in part.split():
                if MOVE.match(word):
                    moves.append(word.replace("-", "").lower())
        lines[(tuple(moves), tuple(comments))] += 1
    return run.returncode, lines


def without_comments(lines):
    out = collections.Counter()
    for (moves, _), n in lines.items():
        out[(moves, ())] += n
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--plyd", default="target/release/plyd")
    parser.add_argument("--every", type=int, default=1)
    args = parser.parse_args()
    counts = collections.Counter()
    shown = 0
    paths = list(files_under(args.paths))[:: args.every]
    by_plyd = lambda path: lines_by_plyd(args.plyd, path)  # noqa: E731
    for path, ours, theirs in both_readings(paths, by_plyd, lines_by_cchess, counts):
        comments = sum(len(c) * n for (_, c), n in ours.items())
        if not path.lower().endswith(".xqf"):
            # cchess reads no comments of CCBridge's games: the lines alone.
            ours = without_comments(ours)
            counts["comments not compared (CCBridge)"] += comments
            comments = 0
        if ours == theirs:
            counts["same"] += 1
            counts["comments"] += comments
            counts["files with comments"] += comments > 0
            continue
        counts["different"] += 1
        if shown < 10:
            shown += 1
            mine = sorted(ours - theirs)[:1]
            other = sorted(theirs - ours)[:1]
            first = lambda found: [c for c in found[0][1]][:3] if found else []  # noqa: E731
            print(f"{path}: plyd's alone {first(mine)}; cchess's alone {first(other)}")
    print(", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 1 if counts["different"] else 0


if __name__ == "__main__":
    sys.exit(main())
