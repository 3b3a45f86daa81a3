#!/usr/bin/env python3
"""plyd's EinStein würfelt nicht against OpenSpiel's `einstein_wurfelt_nicht`.

Four commands, all but bots driving plyd through uci_engine.py:

  check  Random games played in OpenSpiel (set-ups, rolls and moves drawn
         at random). At every move, plyd is given OpenSpiel's position as
         a position text with the roll (`position fen ... r4`) and asked
         for `go perft 1`; its legal moves must be OpenSpiel's. The first
         mismatch stops the run (exit status 1) and prints the position
         and the moves only one side has.
  play   plyd against OpenSpiel's MCTS bot (random roll-outs, chance nodes
         sampled), an outside Monte-Carlo player, or with --opponent random
         against moves drawn at random. Games are played in
         OpenSpiel, which draws the set-ups and the rolls; plyd answers
         `go movetime T` on the position text after each roll. Colours
         alternate; the score is printed with a 95% interval. With
         --equal-time, T follows the bot: after each game it is set so
         that plyd's time a move matches MCTS's mean wall-clock time a
         move over its last RECENT moves, given the share of T that
         plyd's last RECENT answers took, so that both spend the same
         time a move on the same machine, however its load changes.
  regret As play, with a second plyd (the judge, MultiPV over every legal
         step, --judge-time ms a decision) scoring each step of every
         decision with two or more: a player's regret at a decision is the
         judge's win probability of its best step less that of the step
         played. Printed: each player's mean regret a game and a decision,
         by the stones on the board, and 0.5 + (bot's - plyd's) a game,
         the score the judge's values predict, beside the score played.
         0.5 + the bot's regret a game is the score of a player who always
         played the judge's choice, as far as the judge's values are true
         (its own errors count against the bot: an upper estimate). Last,
         how often the player to move won against the judge's win
         probability, by tenths: whether its values are calibrated.
  bots   No plyd: OpenSpiel's MCTS bot with --versus simulations a move
         against the same bot with --simulations, dealt and scored as in
         play (the first in plyd's place): whether more simulations make
         the bot stronger.

OpenSpiel's board, printed with row 0 on top, is plyd's with rank 5 on
top: black cubes start in the top-left triangle (plyd's Red, heading for
e1), white in the bottom-right one (plyd's Blue, heading for a5); the same
steps, captures (of either colour), win conditions and choice of stone when
the rolled one is gone. OpenSpiel draws both set-ups by chance instead of
letting the players choose, and whichever side it has to move is given to
plyd as the side to move.

    python3 tests/tools/einstein_vs_openspiel.py check --games 2000 --seed 1 \\
        --plyd target/release/plyd
    python3 tests/tools/einstein_vs_openspiel.py play --games 100 --seed 1 \\
        --movetime 100 --simulations 1000 --plyd target/release/plyd
    python3 tests/tools/einstein_vs_openspiel.py regret --games 50 --seed 6001 \\
        --movetime 560 --simulations 3000 --judge-time 2000 --plyd target/release/plyd
    python3 tests/tools/einstein_vs_openspiel.py bots --games 100 --seed 9101 \\
        --simulations 3000 --versus 10000
"""
import argparse
import collections
import math
import random
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from uci_engine import Engine, EngineError

# OpenSpiel's direction offsets (row, column), black's three then white's.
DIR_ROWS = [1, 1, 0, -1, -1, 0]
DIR_COLS = [1, 0, 1, 0, -1, -1]


def square(r, c):
    """plyd's name of OpenSpiel's (row, column): row 0 is rank 5."""
    return "abcde"[c] + str(5 - r)


def decode(action):
    """OpenSpiel's move action as plyd's from-to text."""
    cap = action % 2
    action //= 2
    d = action % 6
    action //= 6
    c = action % 5
    r = action // 5
    del cap
    return square(r, c) + square(r + DIR_ROWS[d], c + DIR_COLS[d])


def ranks(state):
    """The board part of plyd's position text, read from the state's text."""
    rows = []
    for line in str(state).strip().splitlines()[:5]:
        cells = [cell for cell in line.split("|") if cell]
        row = ""
        for cell in cells:
            if cell == "__":
                row += "."
            elif cell[0] == "b":
                row += cell[1]
            else:
                row += "abcdef"[int(cell[1]) - 1]
        rows.append(row)
    return "/".join(rows)


def position(state, roll):
    side = "r" if state.current_player() == 0 else "b"
    return f"{ranks(state)} {side} - - r{roll}"


def random_setups(state, rng):
    """Play the two set-up chance nodes at random; return the state."""
    while state.is_chance_node() and len(state.chance_outcomes()) > 6:
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    return state


def decisions(state, rng):
    """Deal the rolls of a game at random, in play: yield the last roll at
    each decision, where the caller applies a move, until the game ends."""
    roll = None
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = outcomes[rng.randrange(len(outcomes))][0]
            roll = action + 1
            state.apply_action(action)
        else:
            yield roll


def search(engine, text, movetime):
    """`go movetime` on a position text: every line up to `bestmove`."""
    engine.send(f"position fen {text}")
    engine.send(f"go movetime {movetime}")
    return engine.read_until(lambda l: l.startswith("bestmove"))


def check(args, plyd):
    rng = random.Random(args.seed)
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    compared = 0
    for index in range(args.games):
        state = random_setups(game.new_initial_state(), rng)
        for roll in decisions(state, rng):
            text = position(state, roll)
            plyd.send(f"position fen {text}")
            counts, _, _ = plyd.perft(1)
            ours = set(counts)
            legal = state.legal_actions()
            theirs = {decode(a) for a in legal}
            if ours != theirs:
                print(f"game {index}: mismatch at {text}")
                print(f"  only plyd: {sorted(ours - theirs)}")
                print(f"  only OpenSpiel: {sorted(theirs - ours)}")
                return 1
            compared += 1
            state.apply_action(legal[rng.randrange(len(legal))])
        # The finished position: plyd must see the game over too.
        plyd.send(f"position fen {ranks(state)} r - -")
        counts, total, _ = plyd.perft(1)
        if total != 0:
            print(f"game {index}: OpenSpiel ended the game, plyd lists {sorted(counts)}")
            return 1
    print(f"{args.games} games, {compared} positions after a roll: "
          "every legal move set equal")
    return 0


# Moves of each player whose times --equal-time compares: a few games'
# worth, so that the two follow a change of the machine's load together
# (means over the whole run would make up for a slow stretch of one side
# by a fast stretch of the other later on).
RECENT = 60


def equal_time(movetime, recent):
    """plyd's next `go movetime`: the bot's mean time a move over its last
    RECENT moves, divided by the mean share of its `go movetime` that
    plyd's last RECENT answers took (never below 10 ms). Set from what
    was measured, not by scaling the last value, so it does not swing."""
    shares, bot = recent["plyd"], recent["mcts"]
    if not shares or not bot or sum(shares) <= 0:
        return movetime
    share = sum(shares) / len(shares)
    return max(10, round(1000 * (sum(bot) / len(bot)) / share))


def mcts_bot(game, simulations, seed):
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1,
                                            random_state=np.random.RandomState(seed))
    return mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations,
                        evaluator=evaluator, solve=True,
                        random_state=np.random.RandomState(seed + 1))


def score_interval(points, n):
    """The score of `points` in `n` games and its 95% interval (the normal
    approximation)."""
    score = points / n
    se = math.sqrt(max(score * (1 - score), 1e-9) / n)
    return score, max(0.0, score - 1.96 * se), min(1.0, score + 1.96 * se)


def score_line(points, n, args):
    """plyd's score over n games, its interval and its opponent, in words."""
    score, low, high = score_interval(points, n)
    return (f"plyd {points:.0f}/{n} = {100 * score:.1f}% (95% interval "
            f"{100 * low:.1f}% to {100 * high:.1f}%) against {opponent_name(args)}")


def opponent_name(args):
    if args.opponent == "random":
        return "a player choosing uniformly at random among the legal moves"
    return f"OpenSpiel MCTS ({args.simulations} simulations a move)"


def play(args, plyd):
    rng = random.Random(args.seed)
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    bot = mcts_bot(game, args.simulations, args.seed)
    points = 0.0
    # Wall-clock seconds and moves of each player, so that the report
    # says how the time was shared.
    spent = {"plyd": [0.0, 0], "mcts": [0.0, 0]}
    recent = {"plyd": collections.deque(maxlen=RECENT),
              "mcts": collections.deque(maxlen=RECENT)}
    movetime = args.movetime
    low_time = high_time = movetime
    for index in range(args.games):
        plyd_player = index % 2
        state = random_setups(game.new_initial_state(), rng)
        plyd.send("ucinewgame")
        for roll in decisions(state, rng):
            if state.current_player() == plyd_player:
                start = time.perf_counter()
                move = search(plyd, position(state, roll), movetime)[-1].split()[1]
                matches = [a for a in state.legal_actions() if decode(a) == move]
                if not matches:
                    print(f"game {index}: plyd played {move}, not legal in OpenSpiel")
                    return 1
                state.apply_action(matches[0])
                took = time.perf_counter() - start
                spent["plyd"][0] += took
                spent["plyd"][1] += 1
                recent["plyd"].append(took / (movetime / 1000))
            else:
                start = time.perf_counter()
                if args.opponent == "random":
                    actions = state.legal_actions()
                    state.apply_action(actions[rng.randrange(len(actions))])
                else:
                    state.apply_action(bot.step(state))
                took = time.perf_counter() - start
                spent["mcts"][0] += took
                spent["mcts"][1] += 1
                recent["mcts"].append(took)
        won = state.returns()[plyd_player] > 0
        points += 1.0 if won else 0.0
        if args.equal_time:
            movetime = equal_time(movetime, recent)
            low_time, high_time = min(low_time, movetime), max(high_time, movetime)
        print(f"game {index + 1}: plyd as {'black' if plyd_player == 0 else 'white'} "
              f"{'won' if won else 'lost'} ({points:.0f}/{index + 1})"
              f"{f', next at {movetime} ms' if args.equal_time else ''}", file=sys.stderr)
    n = args.games
    print(f"{score_line(points, n, args)}, plyd at {args.movetime} ms a move"
          f"{f' at first, then following the bot (from {low_time} to {high_time} ms)' if args.equal_time else ''}")
    mean = {k: 1000 * t / max(n, 1) for k, (t, n) in spent.items()}
    print(f"mean time a move: plyd {mean['plyd']:.0f} ms, "
          f"{args.opponent} {mean['mcts']:.0f} ms (wall clock, this machine)")
    return 0


def judge_scores(judge, text, legal, judge_time):
    """The judge's score (win probability of the side to move) of each
    legal step, from the deepest iteration that scored all of them."""
    lines = search(judge, text, judge_time)
    by_depth = collections.defaultdict(dict)
    for line in lines:
        words = line.split()
        if (not words or words[0] != "info" or "multipv" not in words
                or "pv" not in words or "lowerbound" in words or "upperbound" in words):
            continue
        depth = int(words[words.index("depth") + 1])
        kind, value = words[words.index("score") + 1: words.index("score") + 3]
        if kind == "cp":
            p = (1 + int(value) / 1000) / 2
        else:
            p = 1.0 if int(value) > 0 else 0.0
        by_depth[depth][words[words.index("pv") + 1]] = min(1.0, max(0.0, p))
    for depth in sorted(by_depth, reverse=True):
        if set(by_depth[depth]) >= set(legal):
            return by_depth[depth]
    return None


def regret(args, plyd, judge):
    rng = random.Random(args.seed)
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    bot = mcts_bot(game, args.simulations, args.seed)
    points = 0.0
    # (player, stones on the board) -> [regret summed, decisions]
    table = collections.defaultdict(lambda: [0.0, 0])
    totals = {"plyd": 0.0, "mcts": 0.0}
    # tenth of the judge's win probability -> [probability summed, wins, decisions]
    calibration = collections.defaultdict(lambda: [0.0, 0, 0])
    unscored = 0
    for index in range(args.games):
        plyd_player = index % 2
        state = random_setups(game.new_initial_state(), rng)
        plyd.send("ucinewgame")
        judge.send("ucinewgame")
        judged = []  # (player, the judge's win probability of its best step)
        for roll in decisions(state, rng):
            text = position(state, roll)
            legal = {decode(a): a for a in state.legal_actions()}
            who = "plyd" if state.current_player() == plyd_player else "mcts"
            if who == "plyd":
                move = search(plyd, text, args.movetime)[-1].split()[1]
                if move not in legal:
                    print(f"game {index}: plyd played {move}, not legal in OpenSpiel")
                    return 1
                action = legal[move]
            else:
                action = bot.step(state)
                move = decode(action)
            if len(legal) > 1:
                scores = judge_scores(judge, text, legal, args.judge_time)
                if scores is None:
                    unscored += 1
                else:
                    best = max(scores.values())
                    loss = best - scores[move]
                    stones = sum(ch not in "./" for ch in ranks(state))
                    entry = table[(who, stones)]
                    entry[0] += loss
                    entry[1] += 1
                    totals[who] += loss
                    judged.append((state.current_player(), best))
            state.apply_action(action)
        for player, p in judged:
            entry = calibration[min(9, int(p * 10))]
            entry[0] += p
            entry[1] += state.returns()[player] > 0
            entry[2] += 1
        won = state.returns()[plyd_player] > 0
        points += 1.0 if won else 0.0
        done = index + 1
        print(f"game {done}: plyd {'won' if won else 'lost'} ({points:.0f}/{done}); "
              f"regret a game so far: plyd {totals['plyd'] / done:.3f}, "
              f"mcts {totals['mcts'] / done:.3f}", file=sys.stderr)
    n = args.games
    print(f"{score_line(points, n, args)}, plyd at {args.movetime} ms a move, "
          f"the judge at {args.judge_time} ms")
    for who in ("plyd", "mcts"):
        count = sum(v[1] for k, v in table.items() if k[0] == who)
        print(f"{who}: regret {totals[who] / n:.4f} a game, "
              f"{totals[who] / max(count, 1):.4f} a decision ({count} decisions)")
    print("stones  plyd: decisions, regret a decision  mcts: decisions, regret a decision")
    for stones in sorted({k[1] for k in table}, reverse=True):
        row = [table[("plyd", stones)], table[("mcts", stones)]]
        print(f"{stones:6d}  " + "  ".join(
            f"{d:6d} {r / max(d, 1):.4f}" for r, d in row))
    print("the judge's win probability of the best step, and how often the player to move won:")
    for tenth in sorted(calibration):
        total, wins, count = calibration[tenth]
        print(f"  {tenth / 10:.1f}-{(tenth + 1) / 10:.1f}: {count:5d} decisions, "
              f"mean {total / count:.3f}, won {wins / count:.3f}")
    print(f"predicted by the judge's values: {100 * (0.5 + (totals['mcts'] - totals['plyd']) / n):.1f}%; "
          f"a player playing the judge's choices: {100 * (0.5 + totals['mcts'] / n):.1f}%"
          f"{f' ({unscored} decisions the judge did not score)' if unscored else ''}")
    return 0


def bots(args):
    rng = random.Random(args.seed)
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    first = mcts_bot(game, args.versus, args.seed)
    second = mcts_bot(game, args.simulations, args.seed + 7)
    points, spent = 0, [0.0, 0.0]
    for index in range(args.games):
        first_player = index % 2
        state = random_setups(game.new_initial_state(), rng)
        for _ in decisions(state, rng):
            mover = 0 if state.current_player() == first_player else 1
            start = time.perf_counter()
            state.apply_action((first, second)[mover].step(state))
            spent[mover] += time.perf_counter() - start
        won = state.returns()[first_player] > 0
        points += won
        print(f"game {index + 1}: {args.versus} simulations "
              f"{'won' if won else 'lost'} ({points}/{index + 1})", file=sys.stderr)
    n = args.games
    score, low, high = score_interval(points, n)
    print(f"MCTS with {args.versus} simulations {points}/{n} = {100 * score:.1f}% "
          f"(95% interval {100 * low:.1f}% to {100 * high:.1f}%) against MCTS with "
          f"{args.simulations}; time {spent[0]:.0f} s against {spent[1]:.0f} s")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["check", "play", "regret", "bots"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plyd", default="target/release/plyd")
    parser.add_argument("--movetime", type=int, default=100,
                        help="plyd's time per move in ms (play)")
    parser.add_argument("--equal-time", action="store_true",
                        help="scale plyd's time a move after each game so that "
                             "its mean equals the bot's (play; --movetime is the start)")
    parser.add_argument("--opponent", choices=["mcts", "random"], default="mcts",
                        help="OpenSpiel's MCTS bot, or a player drawing each move "
                             "uniformly at random (play): how far plyd is from "
                             "winning every game, which the dice do not allow")
    parser.add_argument("--simulations", type=int, default=1000,
                        help="MCTS simulations per move (play)")
    parser.add_argument("--evaluator", default=None,
                        help="plyd's Evaluator option (play)")
    parser.add_argument("--option", action="append", default=[],
                        metavar="NAME=VALUE",
                        help="a plyd option to set after the evaluator, "
                             "e.g. EvalParams=my-odds.toml (play; repeatable)")
    parser.add_argument("--versus", type=int, default=10000,
                        help="the other bot's simulations per move (bots)")
    parser.add_argument("--judge-time", type=int, default=1000,
                        help="the judge's time a decision in ms (regret)")
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    if args.command == "bots":
        return bots(args)
    setup = ["setoption name UCI_Variant value einstein"]
    if args.evaluator:
        setup.append(f"setoption name Evaluator value {args.evaluator}")
    for option in args.option:
        name, sep, value = option.partition("=")
        if not sep or not name:
            parser.error(f"--option {option!r}: expected NAME=VALUE")
        setup.append(f"setoption name {name} value {value}")
    try:
        plyd = Engine("plyd", [args.plyd], setup, args.timeout)
    except EngineError as e:
        print(e)
        return 2
    judge = None
    try:
        if args.command == "regret":
            judge = Engine("judge", [args.plyd], setup + [
                "setoption name MultiPV value 6"], args.timeout)
            return regret(args, plyd, judge)
        return check(args, plyd) if args.command == "check" else play(args, plyd)
    except EngineError as e:
        print(e)
        return 2
    finally:
        plyd.close()
        if judge is not None:
            judge.close()


if __name__ == "__main__":
    sys.exit(main())
