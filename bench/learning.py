"""What a search pays on the OpenSpiel face of ``regiment.rl``: a state's clone and an action
applied, each as a ratio to the engine's own step (``Session.submit``: the rules' decide and
fold of the same command, no log) measured on the same states in the same round.

OpenSpiel's MCTS clones the state at every node it visits and applies an action to each
clone; a clone that folded the log again would grow with the game. Each round plays a random
game of the border patrol through the registered game; at every action that completes a
command, interleaved: ``state.clone()`` (through OpenSpiel's C++ and back), the clone's
``apply_action`` of it, and the engine's step of the command it makes. A die's chance action
is timed apart. Medians over a round, then the median and range of the rounds. The floor of
a clone is OpenSpiel's own Python game at its smallest (``python_kuhn_poker``), cloned beside.
"""

from __future__ import annotations

import random
import statistics
import time


def bench_learning(out: list[str], rounds: int) -> None:
    import pyspiel

    from regiment import rl

    rl.register()
    game = pyspiel.load_game("python_regiment", {"scenario": "border_patrol"})
    from open_spiel.python.games import kuhn_poker  # noqa: F401  (registers python_kuhn_poker)

    kuhn = pyspiel.load_game("python_kuhn_poker").new_initial_state()
    kuhn.apply_action(0)
    clones, applies, dice, lates, floors = [], [], [], [], []
    steps: list[float] = []
    for r in range(rounds):
        rng = random.Random(r)
        state = game.new_initial_state()
        c_t, a_t, s_t, d_t, k_t, early, late = [], [], [], [], [], [], []
        while not state.is_terminal():
            if state.is_chance_node():
                face = rng.randrange(6)
                trial = state.clone()
                start = time.perf_counter()
                trial.apply_action(face)
                d_t.append(time.perf_counter() - start)
                state.apply_action(face)
                continue
            action = rng.choice(state.legal_actions())
            probe = state.play.copy()
            made = probe.act(action)
            if made is None:   # not a whole command yet: no engine step to set it beside
                state.apply_action(action)
                continue
            start = time.perf_counter()
            kuhn.clone()
            k_t.append(time.perf_counter() - start)
            start = time.perf_counter()
            clone = state.clone()
            c_t.append(time.perf_counter() - start)
            (early if len(state.history()) < 200 else late).append(c_t[-1])
            start = time.perf_counter()
            clone.apply_action(action)
            a_t.append(time.perf_counter() - start)
            session = state.play.session.copy()
            start = time.perf_counter()
            session.submit(made)
            s_t.append(time.perf_counter() - start)
            state.apply_action(action)
        step = statistics.median(s_t)
        steps.append(step)
        clones.append(statistics.median(c_t) / step)
        floors.append(statistics.median(c_t) / statistics.median(k_t))
        applies.append(statistics.median(a_t) / step)
        dice.append(statistics.median(d_t) / step)
        if early and late:
            lates.append(statistics.median(late) / statistics.median(early))

    def spread(xs: list[float]) -> str:
        return f"{statistics.median(xs):.2f}x ({min(xs):.2f}-{max(xs):.2f})"

    out.append(f"learning (regiment.rl, OpenSpiel's python_regiment), {rounds} random games of "
               "the border patrol, each beside the engine's own step of the same command "
               f"({statistics.median(steps) * 1e6:.0f} us)")
    out.append(f"  state.clone(): {spread(clones)} the engine's step; {spread(floors)} the clone "
               "of OpenSpiel's own Python Kuhn poker (the floor of a Python game's clone)")
    out.append(f"  apply_action of a command's last action: {spread(applies)} the engine's step "
               "(the step, its options for the next decision and OpenSpiel's bookkeeping)")
    out.append(f"  apply_action of a die: {spread(dice)} the engine's step")
    if lates:
        out.append(f"  a clone after 200 actions against one before: {spread(lates)} "
                   "(1x: a clone does not grow with the game)")
