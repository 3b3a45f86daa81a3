"""Write one exchange with plyd as a client fixture (the format of
tests/fixtures/clients/, read by tests/clients.rs): header lines, `>` for
each line sent to plyd, and each line plyd answered with the expectation
that `classify` gives it (`<`, `<~`, `<.`, `<*`, or None to leave it out).
Used by the match tools' --record option for their first game.
"""


class FixtureWriter:
    """Collects one exchange; writes it at `finish`. Subclasses say how
    plyd's lines are expected, in `classify`."""

    def __init__(self, path, header):
        self.path = path
        self.lines = ["# " + line for line in header]
        self.active = True

    def classify(self, line):
        """The expectation for one of plyd's lines, or None to skip it."""
        return "<"

    def sent(self, line):
        if self.active:
            self.lines.append("> " + line)

    def got(self, line):
        if not self.active or not line.strip():
            return
        kind = self.classify(line)
        if kind:
            self.lines.append(kind + " " + line)

    def comment(self, text):
        if self.active:
            self.lines.append("# " + text)

    def finish(self):
        if self.active:
            self.active = False
            with open(self.path, "w") as f:
                f.write("\n".join(self.lines) + "\n")
