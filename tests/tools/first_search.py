#!/usr/bin/env python3
"""How far the first searches of a fresh daemon get with a given `Hash`.

For each table size, starts `plyd --game GAME`, sets `Hash`, waits for
`readyok` (timing it), then searches the start position for `--movetime`
milliseconds, sends `ucinewgame`, waits for `readyok` again and searches
it once more. Prints, per size, the time to `readyok` and the depth and
nodes of each search's last `info depth` line. A table whose memory is
mapped on demand shows here as first searches far shallower than later
ones with the same table size (docs/search.md, "Techniques from
Stockfish").

    python3 tests/tools/first_search.py --plyd target/release/plyd \\
        --game othello --hash 16,256,1024
"""
import argparse
import sys
import time

from direct_engine import DirectEngine


class Daemon(DirectEngine):
    def __init__(self, plyd, game):
        super().__init__([plyd, "--game", game])

    def last_info_until(self, word):
        """Reads up to a line starting with `word`; returns the last
        `info depth` line before it."""
        last = None
        for line in self.proc.stdout:
            if line.startswith("info depth"):
                last = line.split()
            if line.startswith(word):
                return last
        sys.exit(f"plyd ended before `{word}`")

    def search(self, movetime):
        self.send("position startpos")
        self.send(f"go movetime {movetime}")
        info = self.last_info_until("bestmove")
        if info is None:
            return None, None
        return int(info[info.index("depth") + 1]), int(info[info.index("nodes") + 1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plyd", required=True)
    parser.add_argument("--game", default="othello")
    parser.add_argument("--hash", default="16,256,1024", help="MiB, comma-separated")
    parser.add_argument("--movetime", type=int, default=1000)
    args = parser.parse_args()
    for mib in [int(m) for m in args.hash.split(",")]:
        daemon = Daemon(args.plyd, args.game)
        start = time.monotonic()
        daemon.send(f"setoption name Hash value {mib}")
        daemon.send("isready")
        daemon.until("readyok")
        ready = time.monotonic() - start
        first = daemon.search(args.movetime)
        daemon.send("ucinewgame")
        daemon.send("isready")
        daemon.until("readyok")
        again = daemon.search(args.movetime)
        daemon.close()
        print(
            f"{args.game} Hash {mib}: readyok after {ready:.2f} s; "
            f"first search depth {first[0]} nodes {first[1]}; "
            f"after ucinewgame depth {again[0]} nodes {again[1]}",
            flush=True,
        )


if __name__ == "__main__":
    main()
