#!/usr/bin/env python3
"""Replay client fixtures (tests/fixtures/clients/*.txt) against a plyd
binary, the way CI does, and say where one stops matching: a quick check
of a freshly recorded or hand-edited fixture without a Rust build.

    replay_fixture.py --plyd /tmp/plyd-snap3/plyd FIXTURE...

`>` lines are sent in order; before the next `>` after `<` lines, plyd's
output is read until each expectation is met in order (`<` exactly, `<~`
the same first word and number of words, `<.` the same first word, `<*`
the same number of words); `# config:` header lines are written to a
configuration file given to plyd with `--config`;
blank lines and lines starting with a chatter prefix are skipped; any
other line fails. Each expectation waits at most --timeout seconds.
"""

import argparse
import shlex
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_pipe import EnginePipe  # noqa: E402


def parse(path):
    header = {"args": "", "chatter": "info", "config": []}
    body = []
    for n, raw in enumerate(Path(path).read_text().splitlines(), 1):
        if raw.startswith("#"):
            key, _, value = raw[1:].strip().partition(":")
            if key == "config" and not body:
                header["config"].append(value.strip())
            elif key in ("client", "args", "chatter") and not body:
                header[key] = value.strip()
            continue
        if not raw.strip():
            continue
        mark, _, text = raw.partition(" ")
        if mark not in (">", "<", "<~", "<.", "<*"):
            raise SystemExit(f"{path}:{n}: unknown mark '{mark}'")
        body.append((n, mark, text))
    header["chatter"] = [c.strip() for c in header["chatter"].split(",") if c.strip()]
    return header, body


def matches(mark, want, got):
    if mark == "<":
        return got == want
    w, g = want.split(), got.split()
    if mark == "<*":
        return len(g) == len(w)
    if not g or g[0] != w[0]:
        return False
    return mark == "<." or len(g) == len(w)


def replay(plyd, path, timeout):
    header, body = parse(path)
    args = shlex.split(header["args"])
    config = None
    if header["config"]:
        config = tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False)
        config.write("\n".join(header["config"]) + "\n")
        config.close()
        args += ["--config", config.name]
    engine = EnginePipe("plyd", [plyd] + args)
    try:
        for n, mark, text in body:
            if mark == ">":
                engine.send(text)
                continue
            deadline = time.monotonic() + timeout
            while True:
                try:
                    got = engine.recv(deadline)
                except TimeoutError:
                    return f"line {n}: waited {timeout} s for '{mark} {text}'"
                if got is None:
                    return f"line {n}: plyd closed its output waiting for '{mark} {text}'"
                if not got.strip() or any(got == c or got.startswith(c + " ") for c in header["chatter"]):
                    continue
                if matches(mark, text, got):
                    break
                return f"line {n}: expected '{mark} {text}', got '{got}'"
        return None
    finally:
        engine.close()
        if config is not None:
            Path(config.name).unlink()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plyd", required=True)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("fixtures", nargs="+")
    opts = ap.parse_args()
    failed = 0
    for path in opts.fixtures:
        t0 = time.monotonic()
        why = replay(opts.plyd, path, opts.timeout)
        print(f"{'FAIL' if why else 'ok  '} {path} ({time.monotonic() - t0:.1f} s){': ' + why if why else ''}", flush=True)
        failed += bool(why)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
