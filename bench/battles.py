"""Big battles (issues 29 and 61): the live cost of an event as the table fills.

A battle of ``n`` units, half a side, in two lines facing each other 20" apart on a table
as wide as they need; the bots play two game turns (moves, marches, charges, combats) with
seeded dice, live (``Game`` on a memory store). The figures are microseconds an event, and
their ratio to the 2-unit battle's, measured in the same run, in interleaved rounds: the
whole (the bot's choice, the step, the decision after it) and the engine's part alone (the
step and the decision after it with its legal commands, what a server pays a step).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from regiment.core.game import Game
from regiment.core.scenario import parse_scenario
from regiment.store import MemoryStore
from regiment.tools.bot import choose


def battle(n: int) -> dict[str, Any]:
    per_side = max(1, n // 2)
    width = max(72.0, per_side * 8.0 + 8.0)

    def unit(i: int, player: str, y: float, facing: float, kind: str) -> dict[str, Any]:
        return {"id": f"{player}{i}", "player": player, "catalogue": kind, "models": 10,
                "files": 5, "position": [8.0 + i * 8.0, y], "facing": facing}

    return parse_scenario({
        "preset": "fantasy8", "first": "orcs", "dice": "seeded", "turns": 2,
        "table": {"width": width, "depth": 48.0},
        "players": [{"id": "orcs"}, {"id": "empire"}],
        "units": [*(unit(i, "orcs", 12.0, 0.0, "orc_boyz") for i in range(per_side)),
                  *(unit(i, "empire", 36.0, 180.0, "empire_spearmen")
                    for i in range(per_side))]})


Kinds = dict[str, list[float]]   # a decision's kind: [seconds, events] over the games


def cost(n: int, seeds: range, kinds: Kinds | None = None) -> tuple[float, float]:
    """Microseconds an event over the games of ``seeds``: the whole, and the engine's part
    (``Game.submit`` and ``Game.pending``, the bot's choice left out); with ``kinds``, the
    time and the events of each kind of decision (its choice, its command and what follows)
    added in."""
    events, spent, engine = 0, 0.0, 0.0
    clock = time.perf_counter
    for seed in seeds:
        scenario = {**battle(n), "seed": f"{seed:x}"}
        start = clock()
        game = Game.new(scenario, store=MemoryStore())
        if kinds is None:
            while game.pending.kind != "over":
                command = choose(game)
                at = clock()
                game.submit(command)
                _ = game.pending   # (worked out once a state: the loop's next look is free)
                engine += clock() - at
        else:
            _play_by_kind(game, kinds)
        spent += clock() - start
        events += len(game.records)
    return spent / events * 1e6, engine / events * 1e6


def _play_by_kind(game: Game, kinds: Kinds) -> None:
    while True:
        start = time.perf_counter()
        pending = game.pending
        if pending.kind == "over":
            return
        kind = getattr(pending, "decision", "") or pending.kind
        before = len(game.records)
        game.submit(choose(game))
        row = kinds.setdefault(kind, [0.0, 0.0])
        row[0] += time.perf_counter() - start
        row[1] += len(game.records) - before


def mix_figure(small: Kinds, big: Kinds) -> float:
    """The big battle's microseconds an event if each kind of decision cost what it costs
    an event in the small one: what its mix of events alone makes (more of them are close
    combat, dearer than the average), with no cost of the table's size."""
    spent = events = 0.0
    for kind, (_, n) in big.items():
        if kind in small and small[kind][1]:
            spent += n * small[kind][0] / small[kind][1]
            events += n
    return spent / events * 1e6 if events else 0.0


# Games a size plays for each game of the 32-unit battle: about as many events in each (a
# 2-unit battle makes 127 events, an 8-unit one 377, a 32-unit one 1,283, a 64-unit one
# 2,400), so that the small battles' figures are not a twentieth of a second of a noisy
# machine's time, and come from as many seeds as their events need.
GAMES_PER = {2: 10, 8: 3, 32: 1, 64: 1}
TARGET = {32: 1.3, 64: 1.5}


def bench_big(out: list[str], games: int, rounds: int = 5) -> None:
    sizes = (2, 8, 32, 64)
    for n in sizes:   # the rulebook loaded, and each size's first game, before any is timed
        cost(n, range(1))
    seen: dict[int, list[tuple[float, float]]] = {n: [] for n in sizes}
    for r in range(rounds):
        for n in sizes:
            k = max(1, games * GAMES_PER[n] // (2 if n == 64 else 1))
            seen[n].append(cost(n, range(r * k, (r + 1) * k)))
    kinds: dict[int, Kinds] = {2: {}, 32: {}}
    for n in (2, 32, 2, 32):   # the kinds of decision, timed in rounds of their own
        cost(n, range(games * GAMES_PER[n]), kinds[n])
    out.append(f"big battles, live (two game turns by the bots; {games * GAMES_PER[2]}, "
               f"{games * GAMES_PER[8]}, {games} and {max(1, games // 2)} games of 2, 8, 32 "
               f"and 64 units a round, {rounds} interleaved rounds; each ratio is the median "
               "of the rounds' own)")
    for part, label in ((0, "bots and engine"), (1, "the engine alone")):
        out.append(f"  {label} (us an event, its ratio to the 2-unit battle's):")
        for n in sizes:
            mine = [s[part] for s in seen[n]]
            each = [m / b[part] for m, b in zip(mine, seen[2], strict=True)]
            med = statistics.median(each)
            out.append(f"    {n:2d} units: {statistics.median(mine):6.1f} us ({min(mine):.1f}-"
                       f"{max(mine):.1f});  {med:.2f}x ({min(each):.2f}-{max(each):.2f})"
                       + (f"  (target <= {TARGET[n]}x)" if n in TARGET else ""))
    small = sum(k[0] for k in kinds[2].values()) / sum(k[1] for k in kinds[2].values()) * 1e6
    mix = mix_figure(kinds[2], kinds[32])
    out.append(f"  32 units at the 2-unit cost of each kind of decision (their mix of events "
               f"alone): {mix / small:.2f}x")
