#!/usr/bin/env python3
"""Play plyd through Cute Games (kz04px/cutegames), a UGI match runner.

Cute Games knows no rules of its own for UGI games: it asks the engines
whose turn it is (`query p1turn`), whether the game is over (`query
gameover`) and the result (`query result`), sends `position fen F moves
...` and `go p1time .. p2time .. p1inc .. p2inc ..` (or movetime, depth,
nodes), and reads exactly `bestmove M` (two words). So any game plyd
plays over UGI with a move per turn can be played: othello, xiangqi,
amazons (10x10), amazons8. EinStein cannot: its die is rolled by nobody
(plyd answers `bestmove (none)` before the roll, and Cute Games would play
that as a move).

This script builds nothing. It writes a Cute Games settings file per game
in --workdir (default a temporary folder), an openings file of positions
reached by a few random legal plies from the start (plyd's own `perft
--depth 1` lists the moves, its `d` gives the position text), runs
`cutegames --settings FILE --debug` with its full traffic logged in the
work folder, and summarises: the score line Cute Games prints, each game's
result and adjudication from its PGN (out of time, gameover or result
mismatch), and a check of every game by a fresh plyd: the moves replay
without an error and the final position is over with the same result.
A run that outlives --timeout is a hang: the tail of the traffic is shown.

    cutegames_match.py --cutegames /work/clients/cutegames/build/cutegames \\
        --plyd /tmp/plyd-snap3/plyd --games othello,xiangqi,amazons8,amazons \\
        --rounds 10 --tc clock:3000+30 [--a-option Evaluator=patterns]
        [--b-option Evaluator=weights] [--b-cmd 'OTHER UGI ENGINE ...']
        [--opening-plies 4] [--strip-ponder] [--record FILE]

Both engines are plyd (`plyd --protocol ugi --game G`) unless --b-cmd
names another UGI engine; --a-option/--b-option NAME=VALUE become each
entry's UGI `setoption`s. --strip-ponder puts a proxy in front of each
plyd that drops ` ponder P` from `bestmove` (for builds that still send
it: Cute Games waits for a two-word line forever). --record FILE plays one
game per game through tests/tools/record_exchange.py in front of engine A
and writes its fixture to FILE (`{game}` in FILE is replaced by the game;
without it, several games get `-GAME` before the extension).
"""

import argparse
import json
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from record_exchange import proxy_command  # noqa: E402

GAMES = ["othello", "xiangqi", "amazons8", "amazons"]


def parse_tc(text):
    kind, _, value = text.partition(":")
    if kind == "clock":
        base, _, inc = value.partition("+")
        return {"type": "clock", "time": int(base), "increment": int(inc or 0)}
    if kind == "movetime":
        return {"type": "movetime", "time": int(value)}
    if kind == "depth":
        return {"type": "depth", "ply": int(value)}
    if kind == "nodes":
        return {"type": "nodes", "nodes": int(value)}
    raise SystemExit(f"--tc {text}: clock:MS+MS, movetime:MS, depth:N or nodes:N")


class Uci:
    """A plyd kept open for position texts and the checks."""

    def __init__(self, plyd, game, protocol="ugi"):
        self.proc = subprocess.Popen(
            [plyd, "--protocol", protocol, "--game", game],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.send("isready")
        self.until(lambda l: l == "readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, done):
        lines = []
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            lines.append(line)
            if done(line):
                return lines
        raise RuntimeError("plyd closed its output")

    def sync(self):
        self.send("isready")
        return self.until(lambda l: l == "readyok")[:-1]

    def position(self, fen, moves):
        text = "position startpos" if fen in ("", "startpos") else f"position fen {fen}"
        if moves:
            text += " moves " + " ".join(moves)
        self.send(text)
        return [l for l in self.sync() if "error" in l]

    def fen(self):
        self.send("d")
        for line in self.sync():
            if line.startswith("Fen: "):
                return line[5:]
        raise RuntimeError("no Fen line from d")

    def query(self, what):
        self.send(f"query {what}")
        return self.until(lambda l: l.startswith("response "))[-1].split()[1]

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def legal_moves(plyd, game, fen):
    out = subprocess.run(
        [plyd, "perft", "--depth", "1", "--game", game, "--fen", fen],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    return [m.group(1) for m in re.finditer(r"^(\S+): 1$", out, re.M)]


def make_openings(plyd, game, count, plies, seed):
    """Positions after `plies` random legal plies from the start, distinct."""
    if plies == 0:
        return ["startpos"]
    rng = random.Random(seed)
    oracle = Uci(plyd, game)
    found = []
    try:
        start = oracle.fen() if not oracle.position("startpos", []) else None
        for _ in range(count * 5):
            if len(found) >= count:
                break
            fen, ok = start, True
            for _ in range(plies):
                moves = legal_moves(plyd, game, fen)
                if not moves:
                    ok = False
                    break
                oracle.position(fen, [rng.choice(moves)])
                fen = oracle.fen()
            if ok and fen not in found and oracle.query("gameover") == "false":
                found.append(fen)
    finally:
        oracle.close()
    return found


def wrapper(path, lines):
    path.write_text("#!/bin/sh\n" + "\n".join(lines) + "\n")
    path.chmod(0o755)
    return str(path)


def read_pgn(path):
    games = []
    if not path.exists():
        return games
    for block in re.split(r"\n\n\n", path.read_text()):
        if "[Event" not in block:
            continue
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', block, re.M))
        body = "\n".join(l for l in block.splitlines() if l and not l.startswith("["))
        words = [w for w in body.split() if not re.fullmatch(r"\d+\.(\.\.)?", w)]
        result = words.pop() if words and words[-1] in ("1-0", "0-1", "1/2-1/2", "*") else "*"
        games.append({"tags": tags, "moves": words, "result": result})
    return games


def check_games(plyd, game, games):
    """Replay each game in a fresh plyd: the moves are legal, the game is
    over and the result is the one Cute Games wrote. Returns problems."""
    problems = []
    oracle = Uci(plyd, game)
    want = {"1-0": "p1win", "0-1": "p2win", "1/2-1/2": "draw"}
    try:
        for n, g in enumerate(games, 1):
            fen = g["tags"].get("FEN", "startpos")
            errors = oracle.position(fen, g["moves"])
            if errors:
                problems.append(f"game {n}: moves do not replay: {errors[0]}")
                continue
            if g["tags"].get("Adjudicated"):
                continue
            over, result = oracle.query("gameover"), oracle.query("result")
            if over != "true":
                problems.append(f"game {n}: ended but the position is not over")
            elif want.get(g["result"]) != result:
                problems.append(f"game {n}: Cute Games says {g['result']}, plyd says {result}")
    finally:
        oracle.close()
    return problems


def run_game(opts, game, work, rounds, record_to=None):
    tc = parse_tc(opts.tc)
    plyd = str(Path(opts.plyd).resolve())
    proxy = ["--strip-ponder"] if opts.strip_ponder else []
    engine_a = f"{shlex.quote(plyd)} --protocol ugi --game {game}"
    if record_to:
        client = f"Cute Games {opts.cutegames_version}, UGI, {opts.tc}, plyd vs plyd, one game of {game}"
        raw = ["--raw", shlex.quote(str(work / f"record-{game}.raw"))]
        engine_a = proxy_command(record_to, engine_a, "ugi", client, f"--protocol ugi --game {game}", raw + proxy)
    elif opts.strip_ponder:
        engine_a = proxy_command(work / f"a-{game}.txt", engine_a, extra=proxy)
    if opts.b_cmd:
        engine_b = opts.b_cmd
    else:
        engine_b = f"{shlex.quote(plyd)} --protocol ugi --game {game}"
        if opts.strip_ponder:
            engine_b = " ".join([sys.executable, shlex.quote(str(recorder)), "--out", str(work / f"b-{game}.txt")] + proxy + ["--", engine_b])
    a_path = wrapper(work / f"engine-a-{game}.sh", [f"exec {engine_a}"])
    b_path = wrapper(work / f"engine-b-{game}.sh", [f"exec {engine_b}"])

    openings = make_openings(plyd, game, max(1, (rounds + 1) // 2), opts.opening_plies if not record_to else 0, opts.seed)
    (work / f"openings-{game}.txt").write_text("\n".join(openings) + "\n")
    pgn = work / f"games-{game}.pgn"
    if pgn.exists():
        pgn.unlink()
    settings = {
        "games": rounds,
        "concurrency": 1,
        "ratinginterval": max(1, rounds),
        "verbose": True,
        "debug": True,
        "recover": False,
        "tournament": "roundrobin",
        "protocol": {"askturn": True},
        "openings": {"path": str(work / f"openings-{game}.txt"), "repeat": True, "shuffle": False},
        "adjudication": {"timeoutbuffer": opts.timeout_buffer, "maxfullmoves": 1000},
        "timecontrol": tc,
        "pgn": {"enabled": True, "verbose": True, "override": False, "path": str(pgn), "event": f"plyd {game}"},
        "engines": [
            {"name": "A", "path": a_path, "options": dict(o.split("=", 1) for o in opts.a_option)},
            {"name": "B", "path": b_path, "options": dict(o.split("=", 1) for o in opts.b_option)},
        ],
    }
    conf = work / f"settings-{game}.json"
    conf.write_text(json.dumps(settings, indent=1))
    log = work / f"cutegames-{game}.log"
    t0 = time.monotonic()
    with open(log, "w") as f:
        proc = subprocess.Popen([opts.cutegames, "--settings", str(conf), "--debug"], stdout=f, stderr=subprocess.STDOUT, cwd=work, start_new_session=True)
        try:
            rc = proc.wait(timeout=opts.timeout)
            hung = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()
            rc, hung = None, True
    seconds = time.monotonic() - t0
    if record_to:
        # Cute Games kills its engines at the end, before the proxy can
        # write the fixture: convert the raw log here.
        subprocess.run(
            [sys.executable, str(recorder), "--convert", str(work / f"record-{game}.raw"), "--out", str(record_to),
             "--dialect", "ugi", "--client", client, "--args", f"--protocol ugi --game {game}"],
            check=True,
        )
    text = log.read_text(errors="replace")
    games = read_pgn(pgn)
    # Cute Games' own score line can be cut by another thread's output:
    # count from the PGN's Winner tags and results instead.
    a_wins = sum(1 for g in games if g["tags"].get("Winner") == "A")
    b_wins = sum(1 for g in games if g["tags"].get("Winner") == "B")
    draws = sum(1 for g in games if g["result"] == "1/2-1/2")
    problems = check_games(plyd, game, games) if games else []
    adjudicated = {}
    for g in games:
        reason = g["tags"].get("Adjudicated")
        if reason:
            adjudicated[reason] = adjudicated.get(reason, 0) + 1
    plies = [len(g["moves"]) for g in games]
    return {
        "game": game,
        "rc": rc,
        "hung": hung,
        "seconds": seconds,
        "score": (a_wins, b_wins, draws) if games else None,
        "games": len(games),
        "adjudicated": adjudicated,
        "problems": problems,
        "plies": (min(plies), max(plies)) if plies else None,
        "log": log,
        "tail": [l for l in text.splitlines() if "> info" not in l][-12:],
        "openings": len(openings),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cutegames", required=True, help="the cutegames binary")
    ap.add_argument("--plyd", required=True, help="the plyd binary (its plugins beside it)")
    ap.add_argument("--games", default="othello", help=f"comma-separated, of {','.join(GAMES)}")
    ap.add_argument("--rounds", type=int, default=10, help="games per game (colours alternate)")
    ap.add_argument("--tc", default="clock:3000+30", help="clock:MS+MS, movetime:MS, depth:N or nodes:N")
    ap.add_argument("--a-option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--b-option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--b-cmd", help="engine B: another UGI engine's command line (default: plyd)")
    ap.add_argument("--opening-plies", type=int, default=4, help="random plies of each opening (0: the start position)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout-buffer", type=int, default=50, help="Cute Games' movetime grace, ms")
    ap.add_argument("--timeout", type=float, default=900, help="seconds before a run counts as hung")
    ap.add_argument("--strip-ponder", action="store_true", help="proxy that drops ' ponder P' from bestmove")
    ap.add_argument("--record", metavar="FILE", help="play one game per game with engine A recorded into FILE")
    ap.add_argument("--workdir", help="where settings, openings, logs and PGNs go (default: a new temporary folder)")
    opts = ap.parse_args()
    opts.cutegames = str(Path(opts.cutegames).resolve())
    src = Path(opts.cutegames).parent.parent
    try:
        opts.cutegames_version = subprocess.run(
            ["git", "-C", str(src), "log", "-1", "--format=%h"], capture_output=True, text=True
        ).stdout.strip() or "?"
    except OSError:
        opts.cutegames_version = "?"
    work = Path(opts.workdir or tempfile.mkdtemp(prefix="cutegames-"))
    work.mkdir(parents=True, exist_ok=True)
    games = [g.strip() for g in opts.games.split(",") if g.strip()]
    for g in games:
        if g not in GAMES:
            ap.error(f"{g}: Cute Games can play {', '.join(GAMES)} with plyd")
    print(f"work folder {work}")
    failed = False
    rows = []
    for game in games:
        record_to = None
        rounds = opts.rounds
        if opts.record:
            rounds = 1
            if "{game}" in opts.record:
                record_to = Path(opts.record.replace("{game}", game))
            elif len(games) > 1:
                p = Path(opts.record)
                record_to = p.with_name(f"{p.stem}-{game}{p.suffix}")
            else:
                record_to = Path(opts.record)
            record_to = record_to.resolve()
        r = run_game(opts, game, work, rounds, record_to)
        rows.append(r)
        bad = r["hung"] or r["rc"] != 0 or r["problems"] or r["adjudicated"] or r["games"] < rounds
        failed |= bool(bad)
        print(f"\n== {game}: {r['games']} of {rounds} games in {r['seconds']:.0f} s ({r['openings']} openings), exit {r['rc']}{', HUNG' if r['hung'] else ''}")
        if r["score"]:
            w, l, d = r["score"]
            n = w + l + d
            print(f"   A vs B: +{w} -{l} ={d}  score {(w + d / 2) / n:.3f}" if n else "   no game finished")
        if r["plies"]:
            print(f"   plies per game {r['plies'][0]}-{r['plies'][1]}")
        for reason, n in r["adjudicated"].items():
            print(f"   adjudicated: {reason} x{n}")
        for p in r["problems"]:
            print(f"   PROBLEM {p}")
        if bad:
            print(f"   log {r['log']}; its last lines:")
            for line in r["tail"]:
                print(f"     {line}")
        if record_to:
            print(f"   recorded {record_to}")
    print("\n| game | games | A wins | B wins | draws | adjudicated | hangs | problems |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        w, l, d = r["score"] or (0, 0, 0)
        adj = sum(r["adjudicated"].values())
        print(f"| {r['game']} | {r['games']} | {w} | {l} | {d} | {adj} | {int(r['hung'])} | {len(r['problems'])} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
