#!/usr/bin/env python3
"""Write Othello PGN games (as the WTHOR archives' conversions give them:
`[Event ..]`, `[Black ..]`, `[White ..]`, `[Result "34-30"]`, `1. F5 D6
...`) back into WTHOR's binary form: a games file (16-byte header, 68
bytes a game) and `WTHOR.JOU` / `WTHOR.TRN` beside it with the players'
and tournaments' names, so that `plyd record` can read the same games
both ways:

    python3 tests/tools/wthor_from_pgn.py WTH_1990.pgn OUT_FOLDER
    plyd record OUT_FOLDER/WTH_1990.wtb > a.txt
    plyd record WTH_1990.pgn > b.txt && cmp a.txt b.txt

The layout written: header bytes 0-3 the creation date (century, year,
month, day), 4-7 the number of games, 10-11 the games' year, 12 the
board size (8), 14 the depth of the perfect-play score; a game: the
tournament, Black's and White's player numbers (16 bits each,
little-endian), Black's discs, the perfect-play discs (here the same),
and 60 moves as `10 * row + column` (a1 = 11), 0 after the last.
"""

import os
import re
import struct
import sys


def games_of(text):
    for chunk in re.split(r"\n\s*\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', chunk, re.M))
        body = "\n".join(l for l in chunk.splitlines() if not l.startswith("["))
        moves = re.findall(r"\b([A-Ha-h][1-8])\b", body)
        yield tags, moves


def latin1(name, size):
    raw = name.encode("latin-1", "replace")[: size - 1]
    return raw + b"\0" * (size - len(raw))


def names_file(names, size):
    header = bytes([20, 25, 1, 1]) + struct.pack("<IHH", 0, len(names), 0) + bytes(4)
    return header + b"".join(latin1(n, size) for n in names)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    games = list(games_of(open(source, encoding="utf-8", errors="replace").read()))
    players, tournaments = {}, {}
    year = 0
    body = b""
    for tags, moves in games:
        black = players.setdefault(tags.get("Black", ""), len(players))
        white = players.setdefault(tags.get("White", ""), len(players))
        event = tournaments.setdefault(tags.get("Event", ""), len(tournaments))
        year = int(re.sub(r"\D", "", tags.get("Date", "")) or 0) or year
        discs = int(tags["Result"].split("-")[0])
        squares = bytes(10 * int(m[1]) + "abcdefgh".index(m[0].lower()) + 1 for m in moves)
        body += struct.pack("<HHHBB", event, black, white, discs, discs)
        body += squares + bytes(60 - len(squares))
    header = bytes([20, 25, 1, 1]) + struct.pack("<IHH", len(games), 0, year) + bytes([8, 0, 22, 0])
    name = os.path.splitext(os.path.basename(source))[0] + ".wtb"
    with open(os.path.join(out, name), "wb") as f:
        f.write(header + body)
    with open(os.path.join(out, "WTHOR.JOU"), "wb") as f:
        f.write(names_file(list(players), 20))
    with open(os.path.join(out, "WTHOR.TRN"), "wb") as f:
        f.write(names_file(list(tournaments), 26))
    print(f"{len(games)} games, {len(players)} players, {len(tournaments)} tournaments")


if __name__ == "__main__":
    main()
