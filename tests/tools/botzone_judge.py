#!/usr/bin/env python3
"""A local Botzone: judge Amazons (8x8) and Reversi matches between plyd and
another Botzone bot, running both bots the way botzone.org.cn does.

The judge follows Botzone's published judges for the two games (Amazons and
Reversi in Botzone's local runner): player 0 is Black and moves first; its
first request is all -1. Amazons squares are (x, y) with x the column and y
the row from the top, Black's amazons on (0,2) (2,0) (5,0) (7,2) and White's
on (0,5) (2,7) (5,7) (7,5); a move is `x0 y0 x1 y1 x2 y2` (from, to, arrow)
and the player to move with no legal move loses. Reversi starts with Black
on (3,4) (4,3) and White on (3,3) (4,4); a move is `x y`, `-1 -1` is a pass,
allowed only without a legal move; the game ends after a move that leaves
neither side a move, and the side with more discs wins. A response that is
not a move of the right shape, an illegal move, a pass with a legal move,
a crash or an answer over the time limit loses. The rules are written here
in Python, independently of plyd.

Each bot is run as Botzone runs it. On a turn where the bot is not running,
it is started and given the whole history: simple I/O (`n`, then the 2n-1
lines of requests and its own responses) or one line of JSON
(`{"requests":[...],"responses":[...]}`). The bot answers one response line
(simple I/O may add debug/data lines) and either exits or prints
`>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`; a bot that asked to keep running is
stopped (SIGSTOP to its process group) until its next turn, then resumed
(SIGCONT) and given only that turn's request line. Time limits are wall
clock from the input (from the start of the process, on a turn that starts
the bot) to the end of the answer: --firstlimit on a bot's first turn,
--limit later (Botzone: 2 s and 1 s for C++); an answer loses past the
limit plus --slack, and answers past the limit alone are listed. --memory
MB caps plyd's address space (the strictest reading of Botzone's memory
limit; the other bots are left uncapped), and
--limit-fields adds Botzone's time_limit and memory_limit to JSON inputs.

plyd is started as `plyd --protocol botzone --game amazons8|othello`.

--record FILE writes game 1's exchange with plyd in the client fixture
format of tests/fixtures/clients/. In that game plyd is given the whole
history every turn (as Botzone gives a bot that is started afresh), so a
replay stays on the recorded game whatever plyd answers; plyd's answers are
search-dependent moves with no fixed first word: `<*` lines (the same
number of words), each followed by the keep-running line.

Usage:
  botzone_judge.py --game amazons --opponent /work/clients/amazing-amazons/bot003-local \\
      --games 10
  botzone_judge.py --game reversi --opponent /work/clients/reversi-bot/reversi-bot \\
      --games 10 --record tests/fixtures/clients/botzone-reversi.txt
"""

import argparse
import json
import os
import queue
import resource
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fixture_writer import FixtureWriter  # noqa: E402
from othello_rules import score_interval  # noqa: E402

KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


# ---------------------------------------------------------------- rules

class Amazons:
    name = "amazons"
    keys = ("x0", "y0", "x1", "y1", "x2", "y2")
    plyd_game = "amazons8"
    DIRS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]

    def __init__(self):
        # grid[x][y]: 0 empty, 1 Black, -1 White, 2 arrow
        self.grid = [[0] * 8 for _ in range(8)]
        for x, y in ((0, 2), (2, 0), (5, 0), (7, 2)):
            self.grid[x][y] = 1
        for x, y in ((0, 5), (2, 7), (5, 7), (7, 5)):
            self.grid[x][y] = -1

    def _line_clear(self, x0, y0, x1, y1):
        dx, dy = x1 - x0, y1 - y0
        if (dx, dy) == (0, 0) or (dx and dy and abs(dx) != abs(dy)):
            return False
        sx = (dx > 0) - (dx < 0)
        sy = (dy > 0) - (dy < 0)
        x, y = x0, y0
        while (x, y) != (x1, y1):
            x += sx
            y += sy
            if self.grid[x][y] != 0:
                return False
        return True

    def legal(self, move, colour):
        if len(move) != 6 or any(not (0 <= v < 8) for v in move):
            return False
        x0, y0, x1, y1, x2, y2 = move
        if self.grid[x0][y0] != colour:
            return False
        self.grid[x0][y0] = 0
        ok = self._line_clear(x0, y0, x1, y1)
        if ok:
            self.grid[x1][y1] = colour
            ok = self._line_clear(x1, y1, x2, y2)
            self.grid[x1][y1] = 0
        self.grid[x0][y0] = colour
        return ok

    def play(self, move, colour):
        x0, y0, x1, y1, x2, y2 = move
        self.grid[x0][y0] = 0
        self.grid[x1][y1] = colour
        self.grid[x2][y2] = 2

    def has_move(self, colour):
        for x in range(8):
            for y in range(8):
                if self.grid[x][y] != colour:
                    continue
                for dx, dy in self.DIRS:
                    a, b = x + dx, y + dy
                    if 0 <= a < 8 and 0 <= b < 8 and self.grid[a][b] == 0:
                        return True  # move there, shoot back to (x, y)
        return False

    def after(self, move, colour):
        """The game's verdict after `colour` played: None, or the winner."""
        if not self.has_move(-colour):
            return colour
        return None


class Reversi:
    name = "reversi"
    keys = ("x", "y")
    plyd_game = "othello"
    DIRS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]

    def __init__(self):
        self.grid = [[0] * 8 for _ in range(8)]
        self.grid[3][4] = self.grid[4][3] = 1
        self.grid[3][3] = self.grid[4][4] = -1

    def flips(self, x, y, colour):
        if not (0 <= x < 8 and 0 <= y < 8) or self.grid[x][y] != 0:
            return []
        out = []
        for dx, dy in self.DIRS:
            run = []
            a, b = x + dx, y + dy
            while 0 <= a < 8 and 0 <= b < 8 and self.grid[a][b] == -colour:
                run.append((a, b))
                a += dx
                b += dy
            if run and 0 <= a < 8 and 0 <= b < 8 and self.grid[a][b] == colour:
                out += run
        return out

    def has_move(self, colour):
        return any(self.flips(x, y, colour) for x in range(8) for y in range(8))

    def legal(self, move, colour):
        if len(move) != 2:
            return False
        if move == [-1, -1]:
            return not self.has_move(colour)
        return bool(self.flips(move[0], move[1], colour))

    def play(self, move, colour):
        if move == [-1, -1]:
            return
        for a, b in self.flips(move[0], move[1], colour):
            self.grid[a][b] = colour
        self.grid[move[0]][move[1]] = colour

    def count(self, colour):
        return sum(row.count(colour) for row in self.grid)

    def after(self, move, colour):
        if move != [-1, -1] and not self.has_move(1) and not self.has_move(-1):
            b, w = self.count(1), self.count(-1)
            return 1 if b > w else -1 if w > b else 0
        return None


GAMES = {"amazons": Amazons, "reversi": Reversi}


# ---------------------------------------------------------------- bots

class Bot:
    """One player's program, run as Botzone runs it."""

    def __init__(self, label, argv, io, game, log):
        self.label = label
        self.argv = argv
        self.io = io
        self.game = game
        self.log = log
        self.proc = None
        self.recorder = None
        self.full_input_always = False
        self.sigstop = True
        self.memory_mb = None     # address-space cap (Botzone's memory limit)
        self.limit_fields = None  # (time_limit s, memory_limit MB) added to JSON input
        self.history = []
        self.times = []
        self.over = []   # (game, turn, seconds) of answers over Botzone's limit

    def _note(self, text):
        self.history.append(text)
        del self.history[:-30]
        if self.log:
            self.log.write("%.3f %s %s\n" % (time.monotonic(), self.label, text))

    def reset(self):
        self.kill()
        self.requests = []
        self.responses = []   # as the bot wrote them (simple: text; json: objects)
        self.turn = 0

    def kill(self):
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
            self.proc = None

    def _start(self):
        cap = self.memory_mb

        def limit_memory():
            if cap:
                size = cap * 1024 * 1024
                resource.setrlimit(resource.RLIMIT_AS, (size, size))
        self.proc = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, bufsize=1, start_new_session=True,
            preexec_fn=limit_memory)
        self.out = queue.Queue()
        proc = self.proc
        out = self.out

        def read():
            for line in proc.stdout:
                out.put(line.rstrip("\r\n"))
            out.put(None)

        def read_errors():
            # The bot's log on Botzone: kept in the fault history and the log.
            for line in proc.stderr:
                self._note("stderr: " + line.rstrip("\r\n"))
        threading.Thread(target=read, daemon=True).start()
        threading.Thread(target=read_errors, daemon=True).start()

    def _request_text(self, request):
        if self.io == "simple":
            return " ".join(str(request[k]) for k in self.game.keys)
        return json.dumps(request, separators=(",", ":"))

    def _write(self, lines):
        for line in lines:
            self._note("> " + line)
            if self.recorder:
                self.recorder.sent(line)
        try:
            self.proc.stdin.write("".join(l + "\n" for l in lines))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def step(self, request, limit):
        """Give the bot this turn's request; returns (verdict, response
        numbers or None, seconds)."""
        self.requests.append(request)
        self.turn += 1
        running = self.proc is not None and self.proc.poll() is None
        # Botzone times a turn that starts the bot from the start.
        start = time.monotonic()
        if running and not self.full_input_always:
            lines = [self._request_text(request)]
        else:
            if not running:
                self.kill()
                self._start()
            if self.io == "simple":
                n = len(self.requests)
                lines = [str(n)]
                for i in range(n - 1):
                    lines.append(self._request_text(self.requests[i]))
                    lines.append(self.responses[i])
                lines.append(self._request_text(request))
                # Then the data and globaldata lines, as Botzone sends
                # them: blank for a bot that saved none.
                lines += ["", ""]
            else:
                full = {"requests": self.requests, "responses": self.responses,
                        "data": "", "globaldata": ""}
                if self.limit_fields:
                    full["time_limit"], full["memory_limit"] = self.limit_fields
                lines = [json.dumps(full, separators=(",", ":"))]
        if running and self.sigstop:
            os.killpg(self.proc.pid, signal.SIGCONT)
        self._write(lines)
        deadline = start + limit
        answer = []
        keep = False
        verdict = "OK"
        while True:
            try:
                line = self.out.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                verdict = "TLE"
                break
            if line is None:
                self._note("<EOF>")
                break
            self._note("< " + line)
            if self.recorder:
                self.recorder.got(line)
            if line.strip() == KEEP:
                keep = True
                break
            answer.append(line)
        used = time.monotonic() - start
        self.times.append((self.turn, used))
        if verdict == "OK" and keep:
            # Kept running: stopped until its next turn, as Botzone does,
            # or left running with --no-sigstop.
            if self.sigstop:
                os.killpg(self.proc.pid, signal.SIGSTOP)
        elif verdict == "OK":
            try:
                self.proc.wait(timeout=max(0.0, deadline - time.monotonic()) + 0.5)
            except subprocess.TimeoutExpired:
                pass
            self.kill()
        else:
            self.kill()
        if verdict != "OK":
            self.responses.append("" if self.io == "simple" else None)
            return verdict, None, used
        first = next((l for l in answer if l.strip()), None)
        if first is None:
            self.responses.append("" if self.io == "simple" else None)
            return "RE (no answer)", None, used
        if self.io == "simple":
            self.responses.append(first)
            try:
                nums = [int(w) for w in first.split()]
            except ValueError:
                return "bad answer %r" % first, None, used
        else:
            try:
                obj = json.loads(first)
                resp = obj.get("response", obj) if isinstance(obj, dict) else obj
                if isinstance(resp, str):
                    resp = json.loads(resp)
                nums = [int(resp[k]) for k in self.game.keys]
            except (ValueError, KeyError, TypeError, AttributeError):
                self.responses.append(None)
                return "bad answer %r" % first, None, used
            self.responses.append(resp)
        if len(nums) != len(self.game.keys):
            return "bad answer %r" % first, None, used
        return "OK", nums, used


class Recorder(FixtureWriter):
    def __init__(self, path, client, args, json_io):
        super().__init__(path, [
            "client: " + client, "args: " + args, "chatter: info",
            "plyd's answers are search-dependent moves with no fixed first"
            " word: `<*` (the same number of words); every turn ends with"
            " the keep-running line.",
            "The judge gives plyd the whole history every turn (%s input),"
            " so the replay stays on this game whatever plyd answers."
            % ("JSON" if json_io else "simple")])

    def classify(self, line):
        if line.strip() == KEEP:
            return "<"
        if line.startswith("info"):
            return None
        if line[:1].isdigit() or line.startswith(("-", "{\"response\"")):
            return "<*"
        return "<"


# ---------------------------------------------------------------- judge

def play_game(number, game_cls, bots, args, faults):
    """bots[0] is Black. Returns (winner colour 1/-1/0, reason, plies)."""
    board = game_cls()
    for b in bots:
        b.reset()
    colour = 1
    request = {k: -1 for k in game_cls.keys}
    plies = 0
    while True:
        who = 0 if colour == 1 else 1
        bot = bots[who]
        limit = args.firstlimit if bot.turn == 0 else args.limit
        verdict, move, used = bot.step(request, limit + args.slack)
        if used > limit:
            bot.over.append((number, bot.turn, used))

        def lose(reason):
            faults.append("game %d, %s (%s): %s\n    last lines:\n      %s" % (
                number, bot.label, "Black" if colour == 1 else "White", reason,
                "\n      ".join(bot.history[-8:])))
            for b in bots:
                b.kill()
            return -colour, reason, plies

        if verdict != "OK":
            return lose(verdict + " (%.2f s)" % used)
        if not board.legal(move, colour):
            if game_cls is Reversi and move == [-1, -1]:
                return lose("passed with a legal move")
            return lose("illegal move %s" % " ".join(map(str, move)))
        board.play(move, colour)
        plies += 1
        result = board.after(move, colour)
        if result is not None:
            for b in bots:
                b.kill()
            return result, "game over", plies
        request = dict(zip(game_cls.keys, move))
        colour = -colour


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=sorted(GAMES), required=True)
    ap.add_argument("--plyd", default="target/release/plyd")
    ap.add_argument("--plyd-args", default=None,
                    help="default: --protocol botzone --game amazons8|othello")
    ap.add_argument("--plyd-io", choices=("simple", "json"), default=None,
                    help="default: simple for amazons, json for reversi")
    ap.add_argument("--opponent", default=None,
                    help="the other bot's command line (default: another plyd)")
    ap.add_argument("--opponent-name", default=None)
    ap.add_argument("--opponent-io", choices=("simple", "json"), default="simple")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--firstlimit", type=float, default=2.0)
    ap.add_argument("--limit", type=float, default=1.0)
    ap.add_argument("--slack", type=float, default=0.2,
                    help="seconds added to every limit before an answer loses (this"
                    " machine's wall clock, not Botzone's); answers over the limit"
                    " itself are counted and listed")
    ap.add_argument("--memory", type=int, default=None, metavar="MB",
                    help="cap plyd's address space at MB MiB (ulimit -v), the strictest"
                    " reading of Botzone's memory limit (256 or 512 MB for its games)")
    ap.add_argument("--limit-fields", action="store_true",
                    help="put time_limit (--limit, seconds) and memory_limit (--memory)"
                    " in the JSON inputs, as Botzone does")
    ap.add_argument("--no-sigstop", action="store_true",
                    help="leave kept-running bots running between turns (Botzone stops them)")
    ap.add_argument("--record", default=None)
    ap.add_argument("--log", default=None)
    args = ap.parse_args()

    game_cls = GAMES[args.game]
    plyd = os.path.abspath(args.plyd)
    plyd_args = args.plyd_args or "--protocol botzone --game " + game_cls.plyd_game
    plyd_io = args.plyd_io or ("simple" if args.game == "amazons" else "json")
    log = open(args.log, "w") if args.log else None
    me = Bot("plyd", [plyd] + shlex.split(plyd_args), plyd_io, game_cls, log)
    if args.opponent:
        opp_argv = shlex.split(args.opponent)
        opp_name = args.opponent_name or os.path.basename(opp_argv[0])
        opp = Bot(opp_name, opp_argv, args.opponent_io, game_cls, log)
    else:
        opp_name = "plyd-2"
        opp = Bot(opp_name, [plyd] + shlex.split(plyd_args), plyd_io, game_cls, log)

    me.sigstop = opp.sigstop = not args.no_sigstop
    me.memory_mb = args.memory
    for bot in (me, opp):
        if args.limit_fields:
            bot.limit_fields = (args.limit, args.memory or 512)
    recorder = None
    if args.record:
        recorder = Recorder(args.record,
                            "tests/tools/botzone_judge.py (local Botzone judge, %s) against %s"
                            % (args.game, opp_name), plyd_args, plyd_io == "json")
    faults = []
    rows = []
    t0 = time.monotonic()
    for g in range(1, args.games + 1):
        plyd_black = g % 2 == 1
        bots = [me, opp] if plyd_black else [opp, me]
        if recorder and g == 1:
            me.recorder = recorder
            me.full_input_always = True
            recorder.comment("game 1: plyd is Black (player 0) against %s" % opp_name)
        winner, reason, plies = play_game(g, game_cls, bots, args, faults)
        if recorder and g == 1:
            recorder.comment("result: %s, %s" % (
                {1: "Black wins", -1: "White wins", 0: "draw"}[winner], reason))
            recorder.finish()
            me.recorder = None
            me.full_input_always = False
        mine = 1 if plyd_black else -1
        score = 1.0 if winner == mine else 0.5 if winner == 0 else 0.0
        rows.append((g, "Black" if plyd_black else "White", score, reason, plies))
        print("game %2d: plyd %-5s %-4s %-40s %3d plies" % (
            g, rows[-1][1], {1.0: "win", 0.5: "draw", 0.0: "loss"}[score], reason, plies),
            flush=True)

    scores = [r[2] for r in rows]
    n = len(scores)
    mean, low, high = score_interval(scores, n)
    print()
    print("plyd vs %s, Botzone %s, %d games, limits %.1f s first turn / %.1f s, %.0f s"
          % (opp_name, args.game, n, args.firstlimit, args.limit, time.monotonic() - t0))
    print("| colour | games | plyd W | D | L | plyd score |")
    print("|---|---|---|---|---|---|")
    for colour in ("Black", "White"):
        sub = [r[2] for r in rows if r[1] == colour]
        if sub:
            print("| plyd %s | %d | %d | %d | %d | %.1f |" % (
                colour, len(sub), sub.count(1.0), sub.count(0.5), sub.count(0.0), sum(sub)))
    print("| all | %d | %d | %d | %d | %.1f/%d = %.3f (95%% interval %.3f-%.3f) |" % (
        n, scores.count(1.0), scores.count(0.5), scores.count(0.0), sum(scores), n, mean,
        low, high))
    for b in (me, opp):
        first = [t for (k, t) in b.times if k == 1]
        later = [t for (k, t) in b.times if k > 1]
        print("%s answer times: first turn max %.3f s, later max %.3f s, mean %.3f s (%d answers)"
              % (b.label, max(first or [0]), max(later or [0]),
                 sum(later) / len(later) if later else 0, len(b.times)))
        if b.over:
            print("  %d answers over the limit (game/turn/seconds): %s" % (len(b.over), ", ".join(
                "%d/%d/%.3f" % o for o in b.over[:20])))
    if faults:
        print("\nfaults:")
        for f in faults:
            print("  " + f)
    sys.exit(1 if any(f.split(":")[0].split("(")[0].strip().endswith("plyd") for f in faults) else 0)


if __name__ == "__main__":
    main()
