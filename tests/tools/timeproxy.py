#!/usr/bin/env python3
"""Run an engine behind a proxy that logs its thinking time.

    timeproxy.py LOG COMMAND [ARGS...]

Every line on stdin goes to the engine and every line it prints comes
back unchanged; the milliseconds from each `go` line to the `bestmove`
that answers it are appended to LOG, one number a line. Used as an
arena engine command (`--engine "cmd=timeproxy.py t.log ./plyd"`) it
measures both sides of a match the same way. The engine's stderr is
dropped.
"""
import subprocess
import sys
import threading
import time


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    log_path, command = sys.argv[1], sys.argv[2:]
    engine = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )
    started = [None]
    log = open(log_path, "a")

    def relay_output():
        for line in engine.stdout:
            if line.startswith("bestmove") and started[0] is not None:
                log.write("%.3f\n" % ((time.perf_counter() - started[0]) * 1000))
                log.flush()
                started[0] = None
            sys.stdout.write(line)
            sys.stdout.flush()

    threading.Thread(target=relay_output, daemon=True).start()
    for line in sys.stdin:
        if line.startswith("go"):
            started[0] = time.perf_counter()
        engine.stdin.write(line)
        engine.stdin.flush()
        if line.strip() == "quit":
            break
    engine.wait()


if __name__ == "__main__":
    main()
