"""OpenSpiel's MCTS against the bundled rule bot, through the registered game.

``python -m regiment.rl.arena knights_flank --games 20 --simulations 100`` (``make arena``)
plays whole games: one seat is OpenSpiel's own ``MCTSBot`` (``open_spiel.python.algorithms.
mcts``, a random-rollout evaluator), the other the bundled rule bot (``regiment.bot``), the
seats swapped every game. It prints MCTS's score with its 95 % interval (Wilson's), the games
played a minute and how often the rule bot's command had to be put on the layout's nearest
action (a move of its own path; the layout has headings and fractions).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from typing import Any

from regiment.core.commands import Command
from regiment.tools.chances import wilson  # (a draw counts half a win)

from .choices import options
from .play import Play


def actions_for(play: Play, command: Command) -> tuple[list[int], bool]:
    """The actions that make ``command`` (True: exactly it), else those of the nearest
    choice under its order: a move that ends nearest to where it ends (False)."""
    d = play.decision()
    assert d is not None
    opts = options(play.layout, play.session.state, d, play.session.rules.preset)
    best: tuple[float, Any] | None = None
    for order in opts.orders():
        for obj in opts.objects(order):   # every amount decided, so that only those taken stay
            opts.amounts(order, obj)
        for c in opts.group(order):
            if c.command == command:
                return _path(play, c), True
    for order in opts.orders():
        for c in opts.group(order):
            if c.command.name != command.name or \
                    getattr(c.command, "unit", None) != getattr(command, "unit", None):
                continue
            far = _apart(play, c.command, command)
            if best is None or far < best[0]:
                best = (far, c)
    if best is None:
        return [opts.orders()[0]], False
    return _path(play, best[1]), False


def bot_actions(play: Play) -> tuple[list[int], bool]:
    """The bundled rule bot's command for the decision ``play`` waits on, as actions
    (``actions_for``): its rulebook view's choice, or the first legal command."""
    from regiment.core.protocols import view_of

    d = play.decision()
    assert d is not None
    view = view_of(play.session.rules.preset)
    command = view.choose(play.session.state, d) if view is not None else d.legal[0]
    return actions_for(play, command)


def _path(play: Play, choice: Any) -> list[int]:
    """The actions, block by block, that ``act`` needs for ``choice``."""
    out = [choice.order]
    trial = play.copy()
    if trial.act(choice.order) is not None:
        return out
    if trial.stage() == 2:
        out.append(choice.object)
        if trial.act(choice.object) is not None:
            return out
    out.append(choice.amount)
    return out


def _apart(play: Play, a: Command, b: Command) -> float:
    """How far apart two moves of one unit end (inches; infinite when not comparable)."""
    ends = [_end(play, c) for c in (a, b)]
    if ends[0] is None or ends[1] is None:
        return math.inf
    return math.hypot(ends[0][0] - ends[1][0], ends[0][1] - ends[1][1]) + \
        (0.0 if getattr(a, "kind", "") == getattr(b, "kind", "") else 100.0)


def _end(play: Play, cmd: Command) -> tuple[float, float] | None:
    x, y = getattr(cmd, "x", None), getattr(cmd, "y", None)
    if x is not None and y is not None:
        return float(x), float(y)
    state = play.session.state
    units = getattr(state, "units", None)
    if units is None or not getattr(cmd, "path", ()):
        return None
    from regiment.phases.fantasy.moving.paths import Leg, walk
    from regiment.phases.fantasy.units import box

    try:
        end = walk(box(units[cmd.unit]), tuple(Leg(k, float(v))  # type: ignore[attr-defined]
                                                for k, v in cmd.path))  # type: ignore[attr-defined]
    except (KeyError, ValueError, TypeError):
        return None
    return end.x, end.y


def play_game(game: Any, mcts_seat: int, simulations: int, rng: random.Random
              ) -> tuple[float, int, int]:
    """One game: MCTS's return (+1 / 0 / -1), the rule bot's commands, how many of them were
    put on a nearest action."""
    import numpy as np
    from open_spiel.python.algorithms import mcts

    np_rng = np.random.RandomState(rng.randrange(2**31))
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations,
                       evaluator=mcts.RandomRolloutEvaluator(1, np_rng), random_state=np_rng)
    state = game.new_initial_state()
    commands = near = 0
    while not state.is_terminal():
        player = state.current_player()
        if state.is_chance_node():
            state.apply_action(rng.randrange(6))
        elif player == mcts_seat:
            state.apply_action(bot.step(state))
        else:
            acts, exact = bot_actions(state.play)
            commands += 1
            near += not exact
            for a in acts:
                state.apply_action(a)
    return state.returns()[mcts_seat], commands, near


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m regiment.rl.arena",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", nargs="?", default="knights_flank")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    import pyspiel

    from . import register

    register()
    game = pyspiel.load_game("python_regiment", {"scenario": args.scenario})
    rng = random.Random(args.seed)
    score = 0.0
    wins = draws = commands = near = 0
    start = time.perf_counter()
    for i in range(args.games):
        ret, c, n = play_game(game, i % 2, args.simulations, rng)
        wins += ret > 0
        draws += ret == 0
        score += (ret + 1) / 2
        commands += c
        near += n
        print(f"game {i + 1}: MCTS as {game.rules.opening.players[i % 2]}: "
              f"{'won' if ret > 0 else 'drew' if ret == 0 else 'lost'}", flush=True)
    minutes = (time.perf_counter() - start) / 60
    low, high = wilson(score, args.games)
    print(f"MCTS ({args.simulations} simulations, random rollouts) against the rule bot on "
          f"{args.scenario}: {wins} won, {draws} drawn, {args.games - wins - draws} lost of "
          f"{args.games}; score {score / max(1, args.games):.0%} (95 % interval "
          f"{low:.0%}-{high:.0%}); {args.games / minutes:.1f} games a minute; the rule bot's "
          f"commands put on a nearest action: {near} of {commands}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
