"""A line-based engine process for the referees in this folder: start it,
send lines, read lines with a deadline (a reader thread fills a queue, so
a silent engine is a timeout and not a hang), keep a log of the traffic
and stop it.
"""

import queue
import shlex
import subprocess
import threading
import time


class EnginePipe:
    def __init__(self, label, command, cwd=None, log=None):
        self.label = label
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.log = log
        self.proc = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
            cwd=cwd,
        )
        self.lines = queue.Queue()
        self.stderr = []
        self.history = []  # (direction, text), for reports
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def _read_err(self):
        for line in self.proc.stderr:
            self.stderr.append(line.rstrip("\n"))
            self._note("!", line.rstrip("\n"))

    def _note(self, direction, text):
        self.history.append((direction, text))
        if self.log:
            self.log.write(f"{self.label} {direction} {text}\n")
            self.log.flush()

    def send(self, line):
        self._note(">", line)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def recv(self, deadline):
        """One line, or None at end of output; raises TimeoutError."""
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        try:
            line = self.lines.get(timeout=left)
        except queue.Empty:
            raise TimeoutError from None
        if line is not None:
            self._note("<", line)
        return line

    def tail(self, n=12):
        return [f"{d} {t}" for d, t in self.history[-n:]]

    def close(self, quit_line="quit"):
        if self.proc.poll() is None:
            self.send(quit_line)
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
