#!/usr/bin/env python3
"""Compare plyd's repetition verdicts in xiangqi with Fairy-Stockfish's.

Plays random games from the start with pyffish (Fairy-Stockfish's Python
module: `pip install pyffish`), picks at a random ply a cycle of four quiet
moves (a move of each side and their way back, no pawn, no capture), plays
it twice so that the position stands for the third time, and asks both for
their verdict: pyffish's `is_optional_game_end` and the `Result:` line of
plyd's `d`. Prints the counts and each position where they differ.

    python3 tests/tools/xiangqi_repetition_vs_fsf.py --plyd target/release/plyd --cycles 1000 --seed 2
"""
import argparse
import random
import re
import subprocess

import pyffish as sf

VARIANT = "xiangqi"


def to_plyd(move):
    """Fairy-Stockfish's ranks 1-10 to plyd's default 0-9."""
    a = re.match(r"([a-i])(\d+)([a-i])(\d+)$", move)
    return f"{a.group(1)}{int(a.group(2)) - 1}{a.group(3)}{int(a.group(4)) - 1}"


def piece_at(fen, square):
    rows = fen.split()[0].split("/")
    file, rank = ord(square[0]) - 97, int(square[1:])
    col = 0
    for ch in rows[10 - rank]:
        if ch.isdigit():
            col += int(ch)
        else:
            if col == file:
                return ch
            col += 1
    return None


def quiet_moves(fen, moves):
    """Legal moves after `moves` that capture nothing and move no pawn,
    each with the move back."""
    now = sf.get_fen(VARIANT, fen, moves)
    out = []
    for m in sf.legal_moves(VARIANT, fen, moves):
        frm, to = re.match(r"([a-i]\d+)([a-i]\d+)$", m).groups()
        if piece_at(now, to) is None and piece_at(now, frm).lower() != "p":
            out.append((m, to + frm))
    return out


class Plyd:
    def __init__(self, path):
        self.p = subprocess.Popen([path, "--game", VARIANT], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, last):
        lines = []
        while True:
            line = self.p.stdout.readline().rstrip()
            lines.append(line)
            if line == last:
                return lines

    def verdict(self, fen, moves):
        self.send(f"position fen {fen} moves {' '.join(to_plyd(m) for m in moves)}")
        self.send("d")
        self.send("isready")
        result = [l for l in self.until("readyok") if l.startswith("Result")]
        if not result:
            return None, ""
        r = result[0]
        word = "draw" if "drawn" in r else "win" if "has won" in r else "loss" if "has lost" in r else r
        return word, r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plyd", required=True)
    ap.add_argument("--cycles", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    random.seed(args.seed)
    start = sf.start_fen(VARIANT)
    plyd = Plyd(args.plyd)
    counts = {"agree": 0, "differ": 0}
    differences = []
    while counts["agree"] + counts["differ"] < args.cycles:
        moves = []
        for _ in range(random.randint(10, 120)):
            legal = sf.legal_moves(VARIANT, start, moves)
            if not legal:
                break
            moves.append(random.choice(legal))
        fen = sf.get_fen(VARIANT, start, moves)
        if not sf.legal_moves(VARIANT, fen, []) or sf.is_optional_game_end(VARIANT, fen, [])[0]:
            continue
        first = quiet_moves(fen, [])
        if not first:
            continue
        m1, back1 = random.choice(first)
        second = quiet_moves(fen, [m1])
        if not second:
            continue
        m2, back2 = random.choice(second)
        line = [m1, m2, back1, back2] * 2
        if any(line[k] not in sf.legal_moves(VARIANT, fen, line[:k]) for k in range(2, 8)):
            continue
        ended, value = sf.is_optional_game_end(VARIANT, fen, line)
        if not ended:
            continue
        theirs = {0: "draw"}.get(value, "win" if value > 0 else "loss")
        ours, why = plyd.verdict(fen, line)
        if ours is None:
            continue
        if ours == theirs:
            counts["agree"] += 1
        else:
            counts["differ"] += 1
            differences.append((fen, " ".join(to_plyd(m) for m in line[:4]), ours, theirs, why))
    plyd.send("quit")
    print(counts)
    for fen, cycle, ours, theirs, why in differences:
        print(f"{fen} | {cycle} | plyd {ours} | Fairy-Stockfish {theirs} | {why}")


if __name__ == "__main__":
    main()
