#!/usr/bin/env python3
"""Time from `ponderhit` to `bestmove` after pondering for a given while,
beside a plain `go` from the same position and clock, one plyd or several
builds in turn.

    ponder_hit.py --plyd target/release/plyd [--plyd OTHER ...]
        [--game xiangqi] [--moves 'h2e2 h9g7'] [--clock 3000+50]
        [--waits 0,50,200,600] [--rounds 3]

For each build, round and wait W: `position`, a timed `go` (its time
measured from the `go` written to the `bestmove` read), then `position`,
`go ponder` with the same clock, W ms of pondering, `ponderhit`, and the
time from `ponderhit` to `bestmove`, with the depth of the last `info
depth` line. The builds take turns round by round.
"""

import argparse
import subprocess
import sys
import time


class Engine:
    def __init__(self, path, game):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")
        self.send(f"setoption name UCI_Variant value {game}")
        self.send("setoption name Ponder value true")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("plyd ended")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def close(self):
        self.send("quit")
        self.p.wait()


def depth_of(lines):
    for line in reversed(lines):
        words = line.split()
        if words[:2] == ["info", "depth"]:
            return int(words[2])
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plyd", action="append", required=True)
    ap.add_argument("--game", default="xiangqi")
    ap.add_argument("--moves", default="h2e2 h9g7")
    ap.add_argument("--clock", default="3000+50", help="BASE+INC in ms, both sides")
    ap.add_argument("--waits", default="0,50,200,600", help="ms of pondering, comma-separated")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    base, inc = args.clock.split("+")
    clock = f"wtime {base} btime {base} winc {inc} binc {inc}"
    position = f"position startpos moves {args.moves}" if args.moves else "position startpos"
    waits = [int(w) for w in args.waits.split(",")]
    for r in range(args.rounds):
        for path in args.plyd:
            engine = Engine(path, args.game)
            for wait in waits:
                engine.send(position)
                t = time.monotonic()
                engine.send(f"go {clock}")
                plain = engine.until("bestmove")
                plain_ms = (time.monotonic() - t) * 1000
                engine.send(position)
                engine.send(f"go ponder {clock}")
                time.sleep(wait / 1000)
                t = time.monotonic()
                engine.send("ponderhit")
                hit = engine.until("bestmove")
                hit_ms = (time.monotonic() - t) * 1000
                print(f"round {r} {path}: go {plain_ms:.0f} ms (depth {depth_of(plain)}); "
                      f"ponder {wait} ms, then ponderhit to bestmove {hit_ms:.0f} ms "
                      f"(depth {depth_of(hit)}, {hit[-1]})", flush=True)
            engine.close()


if __name__ == "__main__":
    main()
