#!/usr/bin/env python3
"""XQF files read by plyd against an independent reader: every `.xqf`
file under the folders given is read by the `cchess` Python package
(PyPI) and by `plyd record`, and the two must agree on the start (the
pieces and the side to move) and the main line's moves.

    pip install cchess
    python3 tests/tools/xqf_vs_cchess.py FOLDER... [--plyd target/release/plyd] \
        [--referee /path/to/fairy-stockfish]

plyd refuses a file whose main line holds an illegal move, or whose
result the rules contradict, naming the move or the result; cchess reads
such a move as it can (it leaves out one it finds illegal, and plays
some that are not, such as a piece leaving its king in check). Those
files are counted by what plyd said, with the move cchess has at that
point; with `--referee`, Fairy-Stockfish (built with largeboards=yes) is
asked for the legal moves where plyd refused a move cchess plays, and
where plyd finds the game over with another result than the file's (it
must find no move there either). Prints
the counts and the first files of each kind; exits 1 where the two read
a file to different moves or starts, or the referee finds legal a move
plyd refused.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

import cchess

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"


def by_cchess(path):
    """The start FEN (placement and side) and the main line, or None."""
    try:
        game = cchess.read_from_xqf(path)
    except Exception as e:  # a file cchess cannot read at all
        return ("error", str(e))
    if game is None:
        return ("error", "not read")
    placement = game.init_board.to_fen().split()[0]
    side = "w" if game.init_board.move_player == cchess.RED else "b"
    moves = [str(m) for m in game.iter_moves()]
    return ("ok", f"{placement} {side}", moves)


def chinese_by_cchess(path):
    return [m.to_text() for m in cchess.read_from_xqf(path).iter_moves()]


def chinese_by_plyd(plyd, path):
    run = subprocess.run([plyd, "record", "--to", "pgn-chinese", path], capture_output=True, text=True)
    body = run.stdout.split("\n\n", 1)[1] if "\n\n" in run.stdout else ""
    return [
        w
        for w in body.split()
        if not w.endswith(".") and w not in ("*", "1-0", "0-1", "1/2-1/2")
    ]


def by_plyd(plyd, path):
    run = subprocess.run([plyd, "record", path], capture_output=True, text=True)
    lines = run.stdout.splitlines()
    if run.returncode != 0 or len(lines) != 1:
        return ("refused", run.stderr.strip().splitlines()[-1:] or ["?"])
    words = lines[0].split()
    if words[1] == "startpos":
        fen, rest = START, words[2:]
    else:
        at = words.index("moves") if "moves" in words else len(words)
        fen, rest = " ".join(words[2:4]), words[at:]
    moves = rest[1:] if rest[:1] == ["moves"] else []
    return ("ok", fen, moves)


def referee_legal(fsf, fen, moves):
    """Fairy-Stockfish's legal moves after `moves` from `fen` (plyd's
    ranks 0-9; Fairy-Stockfish counts 1-10)."""
    def theirs(m):
        a, b = re.match(r"([a-i]\d)([a-i]\d)$", m).groups()
        return f"{a[0]}{int(a[1]) + 1}{b[0]}{int(b[1]) + 1}"

    def ours(m):
        a, r1, b, r2 = re.match(r"([a-i])(\d+)([a-i])(\d+)$", m).groups()
        return f"{a}{int(r1) - 1}{b}{int(r2) - 1}"

    line = f"position fen {fen} - - 0 1"
    if moves:
        line += " moves " + " ".join(theirs(m) for m in moves)
    commands = ["uci", "setoption name UCI_Variant value xiangqi", line, "go perft 1", "quit"]
    out = subprocess.run([fsf], input="\n".join(commands) + "\n", capture_output=True, text=True)
    return {
        ours(l.split(":")[0])
        for l in out.stdout.splitlines()
        if re.match(r"^[a-i]\d+[a-i]\d+: ", l)
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--plyd", default="target/release/plyd")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--show", type=int, default=10, help="differences to print")
    parser.add_argument("--referee", help="a Fairy-Stockfish binary to rule on refused moves")
    parser.add_argument("--list", help="write each file that did not read the same, and why, here")
    parser.add_argument(
        "--chinese",
        action="store_true",
        help="also compare plyd's Chinese notation of each file read the same "
        "(plyd record --to pgn-chinese) with cchess's, move by move",
    )
    args = parser.parse_args()
    files = sorted(
        os.path.join(root, name)
        for folder in args.folders
        for root, _, names in os.walk(folder)
        for name in names
        if name.lower().endswith(".xqf")
    )
    if not files:
        sys.exit("no .xqf file found")

    def both(path):
        theirs, ours = by_cchess(path), by_plyd(args.plyd, path)
        texts = None
        if args.chinese and theirs[0] == "ok" and theirs[1:] == ours[1:]:
            texts = (chinese_by_cchess(path), chinese_by_plyd(args.plyd, path))
        return path, theirs, ours, texts

    counts = {}
    chinese_plies, chinese_same, chinese_shown = 0, 0, []
    listing = open(args.list, "w", encoding="utf-8") if args.list else None
    shown = {}
    plies = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for path, theirs, ours, texts in pool.map(both, files):
            if texts is not None:
                cc, pl = texts
                chinese_plies += len(cc)
                chinese_same += sum(a == b for a, b in zip(cc, pl)) if len(cc) == len(pl) else 0
                if cc != pl and len(chinese_shown) < args.show:
                    chinese_shown.append((path, [(a, b) for a, b in zip(pl, cc) if a != b][:3]))
            if theirs[0] == "error":
                kind = "cchess could not read"
            elif ours[0] == "refused":
                kind = "plyd refused: " + refusal(ours[1][0], theirs[2])
                if args.referee and kind.endswith("contradicts the rules"):
                    # A game the rules end with no move left: the referee
                    # must find none there either.
                    left = referee_legal(args.referee, theirs[1], theirs[2])
                    kind += (
                        ", the referee finds moves there" if left else ", the referee finds no move"
                    )
                if args.referee and kind.endswith("cchess plays"):
                    n = refused_at(ours[1][0])
                    legal = referee_legal(args.referee, theirs[1], theirs[2][: n - 1])
                    if not legal:
                        kind += ", the referee gave no moves"
                    elif theirs[2][n - 1] in legal:
                        kind += ", the referee finds it legal"
                    else:
                        kind += ", the referee agrees"
            elif theirs[1:] == ours[1:]:
                kind = "same"
                plies += len(ours[2])
            elif theirs[2] == ours[2] == [] and theirs[1][:-1] == ours[1][:-1]:
                # No move to tell the side by: cchess gives Red the move,
                # plyd Black where the header says so or Black's general
                # stands attacked (a position Red to move could not have).
                kind = "no moves, Black to move by plyd, Red by cchess"
            elif theirs[2] == ours[2]:
                kind = "same moves, another start"
            else:
                kind = "different moves"
            counts[kind] = counts.get(kind, 0) + 1
            if listing and kind != "same":
                reason = ours[1][0] if ours[0] == "refused" else ""
                listing.write(f"{kind}\t{path}\t{reason}\n")
            if kind != "same" and shown.get(kind, 0) < args.show:
                shown[kind] = shown.get(kind, 0) + 1
                print(f"{kind}: {path}\n  cchess: {theirs}\n  plyd:   {ours}")
    print(f"{len(files)} files, {plies} plies in the files read the same")
    if args.chinese:
        print(f"plyd's Chinese notation: {chinese_same} of {chinese_plies} moves as cchess writes them")
        for path, pairs in chinese_shown:
            print(f"  {path}: " + ", ".join(f"plyd {a} cchess {b}" for a, b in pairs))
    for kind, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"  {kind}: {n}")
    if (
        chinese_same != chinese_plies
        or counts.get("different moves")
        or counts.get("same moves, another start")
        or any(
            kind.endswith(("finds it legal", "gave no moves", "finds moves there"))
            for kind in counts
        )
    ):
        sys.exit(1)


def refused_at(message):
    """The number of the move plyd refused (`move 45 ('E2-G0', e2g0): ...`)."""
    return int(message.split("record 1: move ", 1)[1].split()[0])


def refusal(message, their_moves):
    """What plyd's refusal says: an illegal move that cchess plays there
    too, or one cchess does not have (it left a move out), or the result."""
    if "illegal move" in message and "move " in message:
        n = refused_at(message)
        ours = message.split("', ", 1)[1].split(")", 1)[0] if "', " in message else "?"
        theirs = their_moves[n - 1] if n <= len(their_moves) else None
        return "an illegal move cchess plays" if theirs == ours else "an illegal move cchess has not"
    if "its result says" in message:
        return "the result contradicts the rules"
    if "its general attacked" in message:
        return "a start with both generals attacked"
    return "other"


if __name__ == "__main__":
    main()
