#!/usr/bin/env python3
"""Long self-play matches under a clock, counted for losses on time.

    clock_campaign.py run [--plyd PATH] [--dir DIR] [--game G]... [--threads T]...
                          [--tc TC] [--games N] [--chunk C] [--at-once K]
                          [--seed S]
    clock_campaign.py report [--dir DIR]

`run` plays plyd against itself in every cell, a game and a thread count
(default: othello xiangqi amazons einstein, 1 and 2 threads), until each
cell has N games (default 10,000) at the clock TC (default 40/5, 40 moves
in 5 s, repeating), with `--timemargin 0`: the arena forgives no overstep
at all, and the engines keep their default Move Overhead. It plays in
rounds: each round adds a match of C games (default 200) to every cell
that is short (N rounds up to a whole number of matches), so that all
cells grow together and an interruption costs at most the games in
progress. A match is `plyd arena ... --concurrency K --out
DIR/<cell>-s<seed>.games`; its seed is S plus the round, so the matches
of a cell differ in their openings (`random:4`). Run again with the same
arguments, or a larger N, it resumes: a finished match is skipped and an
interrupted one goes on with `--resume`. Ctrl-C interrupts the match in
progress (the arena writes its games, then stops) and ends the campaign.

K (default: the number of cores) is how many games run side by side. The
clock is wall time, so K games at once take as long as one; with one
thread each and more games than cores, each engine gets part of a core
and searches less deep in its time, which makes the test harder, not
easier: a thread that waits for a core is late all the same. The table
says K for every row.

`report` reads every game log in DIR and prints one Markdown row per
cell and at-once: games, losses on time, no answers, illegal moves,
crashes, and the least time a move left its player over all the cell's
games (the `LeastLeft` tag of each game, which logs written by arenas
before it lack: then `-`).

The plyd binary's folder is also the plugin folder, as after `cargo build
--release`; give `--plyd` a copy of a build (with its plugins beside it)
to keep a long campaign on one build while the tree changes.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
from collections import defaultdict

GAMES = ["othello", "xiangqi", "amazons", "einstein"]
# <game>-t<threads>-<tc>-k<at once>-s<seed>.games
LOG_NAME = re.compile(r"^([a-z0-9_-]+)-t(\d+)-(.+)-k(\d+)-s(\d+)\.games$")
ENDINGS = ["time forfeit", "no answer", "illegal move", "crash"]


def tc_tag(tc):
    return tc.replace("/", "o").replace("+", "p")


def tc_from_tag(tag):
    return tag.replace("o", "/").replace("p", "+")


def read_log(path):
    """The games of one arena game log: a dict of tags per game."""
    games, tags, in_header = [], {}, True
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if tags and not in_header and "position" in tags:
                    games.append(tags)
                tags, in_header = {}, False
                continue
            m = re.match(r'^\[(\w+) "(.*)"\]$', line)
            if m:
                tags[m.group(1)] = m.group(2)
            elif line.startswith("position "):
                tags["position"] = line
    return games


def played(path):
    return len(read_log(path)) if os.path.exists(path) else 0


def run(args):
    plyd = os.path.abspath(args.plyd)
    os.makedirs(args.dir, exist_ok=True)
    cells = [(g, t) for t in args.threads for g in args.game]
    rounds = -(-args.games // args.chunk)
    for r in range(rounds):
        for game, threads in cells:
            # Every match has C games, so that a later run with a larger N
            # finds its matches as it would have played them.
            wanted = args.chunk
            seed = args.seed + r
            name = "%s-t%d-%s-k%d-s%d.games" % (game, threads, tc_tag(args.tc), args.at_once, seed)
            log = os.path.join(args.dir, name)
            have = played(log)
            if have >= wanted:
                continue
            command = [
                plyd, "arena",
                "--engine", "cmd=%s" % plyd, "name=a",
                "--engine", "cmd=%s" % plyd, "name=b",
                "--each", "option.Threads=%d" % threads,
                "--game", game, "--tc", args.tc, "--games", str(wanted),
                "--concurrency", str(args.at_once), "--openings", "random:4",
                "--seed", str(seed), "--timemargin", "0",
            ]
            command += ["--resume", log] if os.path.exists(log) else ["--out", log]
            print("round %d/%d: %s, Threads %d: %d of %d games played"
                  % (r + 1, rounds, game, threads, have, wanted), flush=True)
            summary = open(log[: -len(".games")] + ".summary", "w")
            arena = subprocess.Popen(command, stdout=summary, stderr=subprocess.DEVNULL)
            try:
                status = arena.wait()
            except KeyboardInterrupt:
                # The arena had the Ctrl-C too (same process group).
                status = arena.wait()
            summary.close()
            if status == 130:
                print("interrupted: run the same command again to go on", flush=True)
                return 130
            if status != 0:
                print("the arena exited with %d; see %s" % (status, summary.name), flush=True)
                return status
    report(args)
    return 0


def report(args):
    cells = defaultdict(lambda: {"games": 0, "least": None, **{e: 0 for e in ENDINGS}})
    for name in sorted(os.listdir(args.dir)):
        m = LOG_NAME.match(name)
        if not m:
            continue
        game, threads, tc, at_once = m.group(1), int(m.group(2)), tc_from_tag(m.group(3)), int(m.group(4))
        cell = cells[(game, threads, tc, at_once)]
        for g in read_log(os.path.join(args.dir, name)):
            cell["games"] += 1
            ending = g.get("Ending", "")
            if ending in ENDINGS:
                cell[ending] += 1
            left = g.get("LeastLeft")
            if left is not None:
                ms = int(left.split(" ", 1)[0])
                if cell["least"] is None or ms < cell["least"]:
                    cell["least"] = ms
    print("| game | threads | clock | at once | games | lost on time | no answer "
          "| illegal moves | crashes | least time left |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (game, threads, tc, at_once), c in sorted(cells.items()):
        least = "-" if c["least"] is None else "%d ms" % c["least"]
        print("| %s | %d | %s | %d | %s | %d | %d | %d | %d | %s |" % (
            game, threads, tc, at_once, format(c["games"], ","), c["time forfeit"],
            c["no answer"], c["illegal move"], c["crash"], least))
    return 0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_plyd = os.path.join(here, "..", "..", "target", "release", "plyd")
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["run", "report"])
    p.add_argument("--plyd", default=default_plyd)
    p.add_argument("--dir", default="clock-campaign")
    p.add_argument("--game", action="append")
    p.add_argument("--threads", action="append", type=int)
    p.add_argument("--tc", default="40/5")
    p.add_argument("--games", type=int, default=10000)
    p.add_argument("--chunk", type=int, default=200)
    p.add_argument("--at-once", type=int, default=os.cpu_count() or 1)
    p.add_argument("--seed", type=int, default=1000)
    args = p.parse_args()
    args.game = args.game or GAMES
    args.threads = args.threads or [1, 2]
    if args.games < 1 or args.chunk < 1 or args.at_once < 1:
        p.error("--games, --chunk and --at-once take a number of at least 1")
    # A Ctrl-C reaches the arena and this script alike; the arena decides.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.exit(run(args) if args.what == "run" else report(args))


if __name__ == "__main__":
    main()
