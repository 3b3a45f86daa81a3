#!/usr/bin/env python3
"""Stand between a client and an engine, pass every line through, and
write the exchange as a client fixture (tests/fixtures/clients/*.txt).

    record_exchange.py --out FILE [--dialect ugi|uci|gtp|nboard]
        [--client TEXT] [--args TEXT] [--raw FILE] [--strip-ponder]
        -- ENGINE ARGS...
    record_exchange.py --convert RAW --out FILE [--dialect ...] [--client ...] [--args ...]

The first form is what a client starts instead of the engine: it starts
ENGINE ARGS..., copies the client's lines to the engine and the engine's
lines back, and keeps each line with its direction in the order they
passed. When either side closes (or the proxy is terminated) it writes the
raw log (`--raw`, or FILE.raw) and the fixture FILE. The second form turns
a raw log into a fixture again.

The fixture keeps the client's lines (`> `) and the engine's answers
(`< `), minus what the dialect calls chatter (`info` lines; for UGI/UCI
also the `id` and `option` lines of the greeting, for NBoard `nodestats`),
and marks the lines whose words come from the search:

* UGI/UCI: `bestmove M` as `<~` (a `ponder` part is dropped: the fixture
  holds the two-word answer Cute Games reads);
* GTP: the answers to `genmove`, `reg_genmove`, `final_score` and
  `version` as `<~`; blank lines ending answers are left out;
* NBoard: `=== move/eval/time` as `<~`, the `search` lines of `hint` as
  `<.`.

`--strip-ponder` also strips ` ponder ...` from `bestmove` lines on their
way to the client (for clients that read exactly `bestmove M`).

`--args` goes into the `# args:` header and should be the engine arguments
the replay needs (e.g. `--protocol ugi --game xiangqi`).
"""

import argparse
import os
import shlex
import signal
import subprocess
import sys
import threading
import time

CHATTER = {
    "ugi": ["info", "id", "option"],
    "uci": ["info", "id", "option"],
    "gtp": ["info"],
    "nboard": ["info", "nodestats"],
}
GTP_SEARCH_ANSWERS = {"genmove", "reg_genmove", "final_score", "version"}


def strip_ponder(line):
    words = line.split()
    if len(words) >= 3 and words[0] == "bestmove" and words[2] == "ponder":
        return " ".join(words[:2])
    return line


def is_chatter(line, prefixes):
    word = line.split()[0] if line.split() else ""
    return any(word == p or line.startswith(p + " ") for p in prefixes)


def gtp_command_name(line):
    words = line.split()
    if words and words[0].isdigit():
        words = words[1:]
    return words[0] if words else ""


def convert(events, dialect, client, args):
    """events: [(direction, text)] with direction '>' (client) or '<'
    (engine). Returns the fixture text."""
    chatter = CHATTER.get(dialect, ["info"])
    out = [f"# client: {client}"]
    if args:
        out.append(f"# args: {args}")
    out.append(f"# chatter: {', '.join(chatter)}")
    pending = []  # GTP commands not yet answered
    in_answer = None  # GTP: the command whose answer is being read
    for direction, text in events:
        if direction == ">":
            if not text.strip():
                continue
            if dialect == "gtp":
                if not text.lstrip().startswith("#"):
                    pending.append(gtp_command_name(text))
            out.append(f"> {text}")
            continue
        if not text.strip():
            in_answer = None
            continue
        if is_chatter(text, chatter):
            continue
        mark = "<"
        if dialect in ("ugi", "uci"):
            if text.split()[0] == "bestmove":
                text = strip_ponder(text)
                mark = "<~"
        elif dialect == "gtp":
            if in_answer is None and text[0] in "=?":
                in_answer = pending.pop(0) if pending else ""
                if in_answer in GTP_SEARCH_ANSWERS and text[0] == "=":
                    mark = "<~"
        elif dialect == "nboard":
            word = text.split()[0]
            if word == "===":
                mark = "<~"
            elif word == "search":
                mark = "<."
        out.append(f"{mark} {text}")
    return "\n".join(out) + "\n"


def read_raw(path):
    events = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if len(line) < 2 or line[0] not in "<>":
                continue
            # raw format: "<dir> <seconds> <text>"
            direction, _, rest = line.partition(" ")
            _, _, text = rest.partition(" ")
            events.append((direction, text))
    return events


def main():
    argv = sys.argv[1:]
    command = []
    if "--" in argv:
        at = argv.index("--")
        argv, command = argv[:at], argv[at + 1 :]
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="fixture file to write")
    ap.add_argument("--dialect", default="ugi", choices=sorted(CHATTER))
    ap.add_argument("--client", default="unknown client", help="the fixture's '# client:' text")
    ap.add_argument("--args", default="", help="the fixture's '# args:' text (plyd arguments for the replay)")
    ap.add_argument("--raw", help="raw log file (default: OUT.raw)")
    ap.add_argument("--convert", metavar="RAW", help="convert this raw log instead of running an engine")
    ap.add_argument("--strip-ponder", action="store_true", help="forward 'bestmove M ponder P' as 'bestmove M'")
    opts = ap.parse_args(argv)

    if opts.convert:
        text = convert(read_raw(opts.convert), opts.dialect, opts.client, opts.args)
        with open(opts.out, "w") as f:
            f.write(text)
        return 0
    if not command:
        ap.error("give the engine command after --")

    raw_path = opts.raw or opts.out + ".raw"
    raw = open(raw_path, "w", buffering=1)
    events = []
    lock = threading.Lock()
    start = time.monotonic()
    done = threading.Event()
    written = []

    def note(direction, text):
        with lock:
            events.append((direction, text))
            raw.write(f"{direction} {time.monotonic() - start:.3f} {text}\n")

    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)

    def finish(*_):
        with lock:
            if written:
                return
            written.append(True)
            text = convert(events, opts.dialect, opts.client, opts.args)
            with open(opts.out, "w") as f:
                f.write(text)
            raw.flush()

    def from_client():
        for line in iter(sys.stdin.buffer.readline, b""):
            text = line.decode("utf-8", "replace").rstrip("\r\n")
            note(">", text)
            try:
                child.stdin.write(line if line.endswith(b"\n") else line + b"\n")
                child.stdin.flush()
            except (BrokenPipeError, OSError):
                break
        try:
            child.stdin.close()
        except OSError:
            pass

    def from_engine():
        out = sys.stdout.buffer
        for line in iter(child.stdout.readline, b""):
            text = line.decode("utf-8", "replace").rstrip("\r\n")
            note("<", text)
            sent = strip_ponder(text) if opts.strip_ponder else text
            try:
                out.write(sent.encode() + b"\n")
                out.flush()
            except (BrokenPipeError, OSError):
                break
        done.set()

    def on_signal(signum, _frame):
        finish()
        try:
            child.terminate()
        except OSError:
            pass
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    threading.Thread(target=from_client, daemon=True).start()
    reader = threading.Thread(target=from_engine, daemon=True)
    reader.start()
    done.wait()
    try:
        child.wait(timeout=5)
    except subprocess.TimeoutExpired:
        child.kill()
    finish()
    return child.returncode or 0


def proxy_command(out, engine_cmd, dialect=None, client=None, args=None, extra=()):
    """The shell command that runs `engine_cmd` (a shell command line) behind
    this recorder, which writes what passes as the fixture `out`: for the
    match tools' --record. `extra` holds more of this script's options."""
    words = [sys.executable, shlex.quote(str(os.path.abspath(__file__))), "--out", shlex.quote(str(out))]
    if dialect:
        words += ["--dialect", dialect]
    words += list(extra)
    if client:
        words += ["--client", shlex.quote(client)]
    if args is not None:
        words += ["--args", shlex.quote(args)]
    return " ".join(words + ["--", engine_cmd])


if __name__ == "__main__":
    sys.exit(main())
