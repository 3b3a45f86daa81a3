#!/usr/bin/env python3
"""Replay client fixtures (tests/fixtures/clients/*.txt) against a plyd binary.

The same rules as the Rust replay: `>` lines are sent in order; before the
next `>` line after `<` lines, plyd's output is read until each expectation
is met in order. `<` must match exactly, `<~` needs the same first word and
number of words, `<.` the same first word. Blank lines and lines starting
with a chatter prefix (header `# chatter:`, default `info`) are skipped; any
other line that does not meet the next expectation fails. Each expectation
waits up to --timeout seconds. The plyd command line gets the header's
`# args:`. Prints one line per fixture and the first mismatch.

Usage:
  client_fixture_replay.py --plyd target/release/plyd tests/fixtures/clients/*.txt
"""

import argparse
import os
import queue
import shlex
import subprocess
import sys
import threading
import time


def load(path):
    header = {"args": "", "chatter": "info"}
    steps = []
    in_header = True
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if line.startswith("#"):
            if in_header:
                key, _, value = line[1:].strip().partition(":")
                if key in ("client", "args", "chatter"):
                    header[key] = value.strip()
            continue
        if not line.strip():
            continue
        in_header = False
        for marker in ("<~ ", "<. ", "< ", "> "):
            if line.startswith(marker):
                steps.append((marker.strip(), line[len(marker):]))
                break
        else:
            raise SystemExit("%s: unreadable line %r" % (path, line))
    chatter = [p.strip() for p in header["chatter"].split(",") if p.strip()]
    return header, chatter, steps


def meets(kind, want, got):
    if kind == "<":
        return got == want
    w, g = want.split(), got.split()
    if kind == "<~":
        return w[:1] == g[:1] and len(w) == len(g)
    return w[:1] == g[:1]


def replay(plyd, path, timeout):
    header, chatter, steps = load(path)
    proc = subprocess.Popen([plyd] + shlex.split(header["args"]), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            bufsize=1, cwd=os.path.dirname(plyd))
    lines = queue.Queue()

    def read():
        for l in proc.stdout:
            lines.put(l.rstrip("\r\n"))
        lines.put(None)
    threading.Thread(target=read, daemon=True).start()
    start = time.monotonic()
    try:
        for i, (kind, text) in enumerate(steps):
            if kind == ">":
                proc.stdin.write(text + "\n")
                proc.stdin.flush()
                continue
            while True:
                try:
                    got = lines.get(timeout=timeout)
                except queue.Empty:
                    return "FAIL: no line for %s %r within %d s" % (kind, text, timeout)
                if got is None:
                    return "FAIL: plyd closed its output before %s %r" % (kind, text)
                if not got.strip() or any(got.startswith(p) for p in chatter):
                    continue
                if meets(kind, text, got):
                    break
                return "FAIL: expected %s %r, got %r (step %d)" % (kind, text, got, i + 1)
        return "ok (%d steps, %.1f s)" % (len(steps), time.monotonic() - start)
    finally:
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plyd", default="target/release/plyd")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("fixtures", nargs="+")
    args = ap.parse_args()
    plyd = os.path.abspath(args.plyd)
    failed = 0
    for path in args.fixtures:
        verdict = replay(plyd, path, args.timeout)
        failed += verdict.startswith("FAIL")
        print("%s: %s" % (path, verdict), flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
