#!/usr/bin/env python3
"""What a plugin call stuck spinning on a core costs the searches after it.

Each engine searches Othello's start position for `--movetime` ms, then
has a search of the panicky test plugin stuck spinning in its move
generator (`position fen 20 spin 19`) until the watchdog gives it up,
then searches the same Othello position again. The spinning thread stays
until the process ends: the second search shows what it takes from the
daemon's own threads. Engines are run in turn, `--rounds` times.

    cargo build --release
    mkdir -p /tmp/spin && cp target/release/libplyd_game_othello.so /tmp/spin/ \\
        && cp target/release/libplyd_test_panicky.so /tmp/spin/libplyd_game_panicky.so
    python3 tests/tools/stuck_spin_cost.py --plugins /tmp/spin \\
        --engine target/release/plyd --engine /tmp/old/plyd --threads 2

Prints one line per run: the speed (nodes a second, from the last `info`
line that gives it) of the search before and after, and their ratio.
"""

import argparse
import sys

from uci_engine import Engine, EngineError


def nps_of(lines):
    """The speed (`nps`) of the last `info` line that gives one: the node
    count alone would be that of the last finished iteration."""
    for line in reversed(lines):
        words = line.split()
        if words[:1] == ["info"] and "nps" in words:
            return int(words[words.index("nps") + 1])
    raise RuntimeError(f"no speed in {lines[-5:]}")


def run(engine, args):
    eng = Engine(engine, [engine, "--plugin-path", args.plugins],
                 [f"setoption name Threads value {args.threads}"], timeout=60)

    def othello_speed():
        eng.send("setoption name UCI_Variant value othello")
        eng.send("position startpos")
        eng.send(f"go movetime {args.movetime}")
        return nps_of(eng.read_until(lambda l: l.startswith("bestmove")))

    try:
        before = othello_speed()
        eng.send("setoption name UCI_Variant value panicky")
        eng.send("position fen 20 spin 19")
        eng.send("go movetime 200")
        # The watchdog's error line, which the reader raises on, is the
        # sign that the search was given up.
        try:
            eng.read_until(lambda l: False)
        except EngineError as e:
            if "did not return" not in str(e):
                raise
        after = othello_speed()
    finally:
        eng.close()
    return before, after


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", action="append", required=True)
    parser.add_argument("--plugins", required=True,
                        help="folder with libplyd_game_othello and the panicky "
                             "plugin as libplyd_game_panicky")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--movetime", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for _ in range(args.rounds):
        for engine in args.engine:
            before, after = run(engine, args)
            print(f"{engine}: nps before {before} after {after} "
                  f"ratio {after / before:.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
