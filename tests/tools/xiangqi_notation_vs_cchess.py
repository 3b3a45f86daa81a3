#!/usr/bin/env python3
"""Xiangqi's Chinese move notation read by plyd against an independent
writer of it: the games of an arena log (`plyd arena --game xiangqi ...
--out LOG`) are written out in Chinese notation (`炮二平五`) by the
`cchess` Python package (PyPI), one PGN game each, and `plyd record`
must read every one back to the moves of the log.

    pip install cchess
    plyd arena --game xiangqi --engine cmd=target/release/plyd name=a \\
        --engine cmd=target/release/plyd name=b --depth 1 --games 300 \\
        --openings random:16 --seed 22 --out games.log
    python3 tests/tools/xiangqi_notation_vs_cchess.py --log games.log

Prints the games and plies, how many read back to the same moves, and
the first failures. Then the other way: plyd writes the same games in
Chinese notation (`plyd record --to pgn-chinese`), and each move's text
must be the one `cchess` writes.
"""

import argparse
import os
import subprocess
import sys
import tempfile

import cchess


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--log", required=True, help="an arena game log of xiangqi games")
    parser.add_argument("--plyd", default="target/release/plyd")
    args = parser.parse_args()
    games = [
        line.split(" moves ", 1)[1].split()
        for line in open(args.log, encoding="utf-8")
        if line.startswith("position startpos moves ")
    ]
    records, expected = [], []
    for moves in games:
        board = cchess.ChessBoard(cchess.FULL_INIT_FEN)
        texts = []
        for move in moves:
            played = board.move_iccs(move)
            if played is None:
                sys.exit(f"cchess refuses {move} in {' '.join(moves)}")
            texts.append(played.to_text())
            board.next_turn()
        body = " ".join(
            f"{i // 2 + 1}. {text}" if i % 2 == 0 else text for i, text in enumerate(texts)
        )
        records.append(f'[Game "Chinese Chess"]\n[Format "Chinese"]\n\n{body} *\n')
        expected.append("position startpos moves " + " ".join(moves))
    with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False, encoding="utf-8") as f:
        f.write("\n".join(records))
        path = f.name
    try:
        run = subprocess.run([args.plyd, "record", path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    read = set(run.stdout.splitlines())
    same = sum(1 for line in expected if line in read)
    failures = [line for line in run.stderr.splitlines() if "record " in line]
    print(
        f"games {len(games)}, plies {sum(map(len, games))}: "
        f"{same} read back to the same moves, {len(failures)} failed"
    )
    for line in failures[:10]:
        print(line)

    # The other way: plyd's Chinese text of each move against cchess's.
    iccs = "".join(
        f'[Game "Chinese Chess"]\n\n{" ".join(moves)} *\n\n' for moves in games
    )
    with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False, encoding="utf-8") as f:
        f.write(iccs)
        path = f.name
    try:
        written = subprocess.run(
            [args.plyd, "record", "--to", "pgn-chinese", path], capture_output=True, text=True
        )
    finally:
        os.unlink(path)
    ours = [
        [w for w in body.split() if not w.endswith(".") and w not in ("*", "1-0", "0-1", "1/2-1/2")]
        for body in (
            game.split("\n\n", 1)[1] for game in written.stdout.split("[Game ")[1:]
        )
    ]
    theirs = [r.split("\n\n", 1)[1].split() for r in records]
    theirs = [[w for w in moves if not w.endswith(".") and w != "*"] for moves in theirs]
    plies = sum(map(len, theirs))
    agree = sum(a == b for x, y in zip(ours, theirs) for a, b in zip(x, y))
    print(f"plyd's Chinese notation: {agree} of {plies} moves as cchess writes them")
    shown = 0
    for x, y in zip(ours, theirs):
        for a, b in zip(x, y):
            if a != b and shown < 10:
                shown += 1
                print(f"  plyd {a}  cchess {b}")
    sys.exit(0 if same == len(games) and agree == plies and len(ours) == len(theirs) else 1)


if __name__ == "__main__":
    main()
