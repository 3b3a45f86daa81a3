#!/usr/bin/env python3
"""plyd's EinStein würfelt nicht against OpenSpiel's `einstein_wurfelt_nicht`.

Two commands, both driving plyd through uci_engine.py:

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


def check(args, plyd):
    rng = random.Random(args.seed)
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    compared = 0
    for index in range(args.games):
        state = random_setups(game.new_initial_state(), rng)
        roll = None
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
                roll = action + 1
                state.apply_action(action)
                continue
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
        roll = None
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
                roll = action + 1
                state.apply_action(action)
            elif state.current_player() == plyd_player:
                start = time.perf_counter()
                plyd.send(f"position fen {position(state, roll)}")
                plyd.send(f"go movetime {movetime}")
                line = plyd.read_until(lambda l: l.startswith("bestmove"))[-1]
                move = line.split()[1]
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
    score, low, high = score_interval(points, n)
    print(f"plyd {points:.0f}/{n} = {100 * score:.1f}% "
          f"(95% interval {100 * low:.1f}% to {100 * high:.1f}%) against "
          f"{opponent_name(args)}, "
          f"plyd at {args.movetime} ms a move"
          f"{f' at first, then following the bot (from {low_time} to {high_time} ms)' if args.equal_time else ''}")
    mean = {k: 1000 * t / max(n, 1) for k, (t, n) in spent.items()}
    print(f"mean time a move: plyd {mean['plyd']:.0f} ms, "
          f"{args.opponent} {mean['mcts']:.0f} ms (wall clock, this machine)")
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
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
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
    parser.add_argument("command", choices=["check", "play", "bots"])
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
    try:
        return check(args, plyd) if args.command == "check" else play(args, plyd)
    except EngineError as e:
        print(e)
        return 2
    finally:
        plyd.close()


if __name__ == "__main__":
    sys.exit(main())
