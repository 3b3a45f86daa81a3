"""A daemon spoken to over its pipes with no reader thread, for the tools
that time its answers (`move_latency.py`, `newgame_latency.py`,
`first_search.py`): a reader
thread, as `uci_engine.Engine` has, would add its own wait for a core to
every time measured.
"""

import subprocess
import sys


class DirectEngine:
    def __init__(self, argv):
        self.argv = argv
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def send(self, line):
        """Write one command line."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_line(self):
        """The next output line; the tool stops if the daemon has exited."""
        line = self.proc.stdout.readline()
        if not line:
            sys.exit(f"{self.argv[0]} exited")
        return line

    def until(self, prefix):
        """Read up to the first line that starts with `prefix`; return it."""
        while True:
            line = self.read_line()
            if line.startswith(prefix):
                return line

    def start(self, setup):
        """`uci`, the `setup` lines, and `isready` answered."""
        self.send("uci")
        self.until("uciok")
        for line in setup:
            self.send(line)
        self.send("isready")
        self.until("readyok")

    def close(self):
        """`quit`, and wait for the daemon to end."""
        self.send("quit")
        self.proc.wait()
