"""A UCI engine process for the measuring scripts in this folder: start it,
send lines, read answers with a timeout, set a game, run a divided perft.
Imported by amazons_vs_fsf.py, xiangqi_vs_fsf.py, einstein_vs_openspiel.py,
stuck_spin_cost.py, probcut_spread.py and endgame_accuracy.py (run from anywhere:
Python puts the script's own folder on the import path)."""

import queue
import re
import subprocess
import threading
import time

DIVIDE_RE = re.compile(r"^(\S+): (\d+)$")


class EngineError(Exception):
    """An engine died, timed out or reported an error."""


class Engine:
    """One long-lived engine process spoken to over UCI. Moves cross its
    interface in the caller's notation; a subclass converts them with
    `to_engine` and `from_engine`."""

    def __init__(self, name, argv, setup, timeout):
        self.name = name
        self.timeout = timeout
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                text=True, bufsize=1,
            )
        except OSError as e:
            raise EngineError(f"{name}: cannot start {argv[0]}: {e}") from e
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.send("uci")
        self.read_until(lambda line: line == "uciok")
        for line in setup:
            self.send(line)
        self.send("ucinewgame")
        self.sync()

    def _pump(self):
        """Move the engine's output lines into a queue (None at the end)."""
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        """Write one command line."""
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except OSError as e:
            raise EngineError(f"{self.name}: cannot write '{line}': {e}") from e

    def read_line(self):
        """Next output line; fails on timeout, exit or a reported error."""
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise EngineError(f"{self.name}: no answer in {self.timeout} s") from None
        if line is None:
            raise EngineError(f"{self.name}: the process exited")
        if line.startswith("info string error") or line.startswith("Unknown command"):
            raise EngineError(f"{self.name}: {line}")
        return line

    def read_until(self, done):
        """Read lines up to and including the one `done` accepts; return them."""
        seen = []
        while True:
            line = self.read_line()
            seen.append(line)
            if done(line):
                return seen

    def sync(self):
        """Wait until the engine has handled everything sent so far."""
        self.send("isready")
        self.read_until(lambda line: line == "readyok")

    def to_engine(self, move):
        """A plyd move in this engine's notation."""
        return move

    def from_engine(self, move):
        """A move of this engine in plyd's notation."""
        return move

    def set_game(self, moves):
        """The start position followed by `moves` (plyd notation)."""
        line = "position startpos"
        if moves:
            line += " moves " + " ".join(self.to_engine(m) for m in moves)
        self.send(line)
        self.sync()

    def perft(self, depth):
        """Run `go perft depth`; return ({move: count}, total, seconds)."""
        started = time.perf_counter()
        self.send(f"go perft {depth}")
        lines = self.read_until(lambda line: line.startswith("Nodes searched:"))
        seconds = time.perf_counter() - started
        counts = {}
        for line in lines:
            m = DIVIDE_RE.match(line)
            if m:
                move = self.from_engine(m[1])
                if move in counts:
                    raise EngineError(f"{self.name}: {move} listed twice")
                counts[move] = int(m[2])
        total = int(lines[-1].split(":", 1)[1])
        return counts, total, seconds

    def fen(self):
        """The current position's FEN, from the `d` command."""
        self.send("d")
        line = self.read_until(lambda line: line.startswith("Fen:"))[-1]
        return line.split(":", 1)[1].strip()

    def close(self):
        """Ask the engine to quit; kill it if it does not."""
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (EngineError, subprocess.TimeoutExpired):
            self.proc.kill()
