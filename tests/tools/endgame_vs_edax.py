#!/usr/bin/env python3
"""Time plyd's exact endgame solver and its perft against Edax's, on the
same machine in the same run, the two programs alternated.

Edax is not part of plyd: build it from its own source (its `src/Makefile`,
`make build`) and give its binary with --edax and the folder holding its
`data/eval.dat` with --edax-dir.

Endgame: each position of plyd's position file (plugins/othello/ffo.txt,
--from/--to pick a range) is solved exactly, one thread each, by
`plyd endgame-bench FILE --from P --to P` and by `edax -solve` on a
one-line problem file at level 60; who goes first alternates from one
position and one round to the next. The times and node counts are the
ones each program prints for the solve itself, not process start-up.
Edax's score is checked against the file as plyd's is.

Perft: `plyd perft --depth D` (through the plugin ABI), the same with
`--native` (inside the plugin) and Edax's `perft D` (its time for the last
depth), alternated, --perft-rounds times.

Prints one line per position and round and the totals, with plyd's times
as a ratio to Edax's (above 1: plyd is slower).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def read_positions(path, first, last):
    rows = []
    for line in Path(path).read_text().splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        name, *position, score = line.split()
        rows.append((name, " ".join(position), int(score)))
    names = [r[0] for r in rows]
    lo = names.index(first) if first else 0
    hi = names.index(last) if last else len(rows) - 1
    return rows[lo : hi + 1]


def plyd_solve(plyd, file, name, hash_mib):
    out = subprocess.run(
        [plyd, "endgame-bench", file, "--from", name, "--to", name, "--hash", str(hash_mib)],
        capture_output=True,
        text=True,
    )
    m = re.search(
        r"score\s+([+-]?\d+) expected\s+([+-]?\d+) (\S+)\s+time\s+([\d.]+) s nodes\s+(\d+)",
        out.stdout,
    )
    if not m:
        sys.exit(f"plyd endgame-bench {name}: no result\n{out.stdout}{out.stderr}")
    return int(m.group(1)), float(m.group(4)), int(m.group(5))


def edax_time(text):
    # h:mm:ss.mmm, m:ss.mmm or s.mmm
    seconds = 0.0
    for part in text.split(":"):
        seconds = seconds * 60 + float(part)
    return seconds


def edax_solve(edax, edax_dir, position):
    board, side = position.split()
    with tempfile.NamedTemporaryFile("w", suffix=".obf", delete=False) as f:
        f.write(f"{board} {side};\n")
        problem = f.name
    try:
        out = subprocess.run(
            [edax, "-solve", problem, "-l", "60", "-n", "1", "-book-usage", "off"],
            cwd=edax_dir,
            capture_output=True,
            text=True,
        )
    finally:
        os.unlink(problem)
    # "  1|   20   +38        0:00.546      21000788   38462982 a2 ..."
    m = re.search(r"^\s*1\|\s*\d+\s+([+-]\d+)\s+([\d:.]+)\s+(\d+)", out.stdout, re.M)
    if not m:
        sys.exit(f"edax: no result\n{out.stdout}{out.stderr}")
    return int(m.group(1)), edax_time(m.group(2)), int(m.group(3))


def plyd_perft(plyd, depth, native):
    args = [plyd, "perft", "--depth", str(depth)] + (["--native"] if native else [])
    out = subprocess.run(args, capture_output=True, text=True).stdout
    m = re.search(r"Nodes searched: (\d+)\nTime: (\d+) ms", out)
    if not m:
        sys.exit(f"plyd perft: no result\n{out}")
    return int(m.group(1)), int(m.group(2)) / 1000


def edax_perft(edax, edax_dir, depth):
    proc = subprocess.Popen(
        [edax, "-n", "1"],
        cwd=edax_dir,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    proc.stdin.write(f"perft {depth}\n")
    proc.stdin.flush()
    # Edax reads its input on another thread: wait for the count before
    # asking it to quit, or the quit would cut the count short.
    result = None
    for line in proc.stdout:
        m = re.match(r"\s*(\d+),\s*(\d+),.*?,\s*([\d:.]+),\s*[\d.]+ \S+/s", line)
        if m and int(m.group(1)) == depth:
            result = (int(m.group(2)), edax_time(m.group(3)))
        if line.startswith("Total"):
            break
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=60)
    if result is None:
        sys.exit("edax perft: no result")
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plyd", default="target/release/plyd")
    ap.add_argument("--edax", required=True, help="the Edax binary")
    ap.add_argument("--edax-dir", required=True, help="folder with Edax's data/eval.dat")
    ap.add_argument("--positions", default="plugins/othello/ffo.txt")
    ap.add_argument("--from", dest="first", default="ffo40")
    ap.add_argument("--to", dest="last", default="ffo59")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--hash", type=int, default=64, help="plyd's table in MiB")
    ap.add_argument("--perft-depth", type=int, default=11)
    ap.add_argument("--perft-rounds", type=int, default=3, help="0: no perft")
    ap.add_argument("--no-solve", action="store_true", help="perft only")
    args = ap.parse_args()
    edax = os.path.abspath(args.edax)

    if not args.no_solve:
        positions = read_positions(args.positions, args.first, args.last)
        totals = {"plyd": [0.0, 0], "edax": [0.0, 0]}
        wrong = 0
        print(f"{'position':<8} {'round':>5} {'plyd s':>9} {'plyd nodes':>13} {'plyd nps':>11} "
              f"{'edax s':>9} {'edax nodes':>13} {'edax nps':>11} {'ratio':>6}")
        for rnd in range(args.rounds):
            for i, (name, position, expected) in enumerate(positions):
                runs = {}
                order = ["plyd", "edax"] if (i + rnd) % 2 == 0 else ["edax", "plyd"]
                for who in order:
                    if who == "plyd":
                        runs[who] = plyd_solve(args.plyd, args.positions, name, args.hash)
                    else:
                        runs[who] = edax_solve(edax, args.edax_dir, position)
                for who, (score, seconds, nodes) in runs.items():
                    if score != expected:
                        wrong += 1
                        print(f"{name}: {who} scored {score:+}, expected {expected:+}")
                    totals[who][0] += seconds
                    totals[who][1] += nodes
                (_, ps, pn), (_, es, en) = runs["plyd"], runs["edax"]
                print(f"{name:<8} {rnd + 1:>5} {ps:>9.3f} {pn:>13} {pn / max(ps, 1e-3):>11.0f} "
                      f"{es:>9.3f} {en:>13} {en / max(es, 1e-3):>11.0f} {ps / max(es, 1e-3):>6.2f}",
                      flush=True)
        (ps, pn), (es, en) = totals["plyd"], totals["edax"]
        print(f"{'total':<8} {args.rounds:>5} {ps:>9.3f} {pn:>13} {pn / max(ps, 1e-3):>11.0f} "
              f"{es:>9.3f} {en:>13} {en / max(es, 1e-3):>11.0f} {ps / max(es, 1e-3):>6.2f}")
        print(f"wrong scores: {wrong}")

    if args.perft_rounds > 0:
        sums = {"abi": 0.0, "native": 0.0, "edax": 0.0}
        for rnd in range(args.perft_rounds):
            order = ["abi", "native", "edax"]
            order = order[rnd % 3:] + order[: rnd % 3]
            for who in order:
                if who == "edax":
                    nodes, seconds = edax_perft(edax, args.edax_dir, args.perft_depth)
                else:
                    nodes, seconds = plyd_perft(args.plyd, args.perft_depth, who == "native")
                sums[who] += seconds
                print(f"perft {args.perft_depth} round {rnd + 1} {who:<6} nodes {nodes} "
                      f"time {seconds:.3f} s", flush=True)
        e = sums["edax"]
        print(f"perft {args.perft_depth} total: through the ABI {sums['abi']:.3f} s "
              f"({sums['abi'] / e:.2f}x Edax), inside the plugin {sums['native']:.3f} s "
              f"({sums['native'] / e:.2f}x Edax), Edax {e:.3f} s")


if __name__ == "__main__":
    main()
