"""A skirmish assault of three squads, from declaration to consolidation (issue 14).

Eight assault marines declare a disordered charge at two squads of guardsmen; bots play both
sides with seeded dice through the overwatch, the charge move, the initiative steps, the
result, the morale checks, the sweeping advances and the consolidation, until that fight is
over (or the charge fails). Measured as a playout (``Playout``: the rules and dice, no log),
live (``Game`` on a memory store) and against its floor: replaying the same logs
(``Game.load``). Rounds are interleaved; each figure is the best of them.
"""

from __future__ import annotations

import time
from typing import Any

import regiment.phases  # noqa: F401 - registers the presets
from regiment.core.game import Game
from regiment.core.playout import Playout
from regiment.core.scenario import parse_scenario
from regiment.store import MemoryStore
from regiment.tools.bot import choose

ROUNDS = 3


def assault() -> dict[str, Any]:
    def squad(uid: str, player: str, kind: str, x: float, y: float, facing: float,
              count: int) -> dict[str, Any]:
        return {"id": uid, "player": player, "catalogue": kind,
                "formation": {"centre": [x, y], "facing": facing, "count": count,
                              "per_row": min(count, 5), "spacing": 0.5}}

    return parse_scenario({
        "preset": "skirmish40k", "first": "red", "dice": "seeded", "turns": 1,
        "phase": "assault", "table": {"width": 48, "depth": 48},
        "players": [{"id": "red"}, {"id": "blue"}],
        "units": [squad("assault", "red", "assault_marines", 24, 16, 0, 8),
                  squad("first", "blue", "guardsmen", 19, 22, 180, 5),
                  squad("second", "blue", "guardsmen", 29, 22, 180, 5)]})


def play(game: Any) -> None:
    """Bots play until the first fight is over, or the charge failed."""
    while game.pending.kind != "over":
        events = game.submit(choose(game))
        if any(e.type == "FightEnded" or (e.type == "AssaultRolled" and not e.reached)
               for e in events):
            return


def bench_skirmish(out: list[str], n: int) -> None:
    scenario = assault()
    for seed in range(10):   # warm up
        play(Playout.new(scenario, seed=format(50_000 + seed, "x")))
    t_play, t_live, t_floor = [], [], []
    events = 0
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for seed in range(n):
            play(Playout.new(scenario, seed=format(seed, "x")))
        t_play.append(time.perf_counter() - start)
        logs = []
        start = time.perf_counter()
        for seed in range(n):
            game = Game.new({**scenario, "seed": format(seed, "x")}, store=MemoryStore())
            play(game)
            logs.append((game.store, game.game_id))
        t_live.append(time.perf_counter() - start)
        events = sum(len(list(store.read(gid))) for store, gid in logs)
        start = time.perf_counter()
        for store, gid in logs:
            Game.load(gid, store)
        t_floor.append(time.perf_counter() - start)
    play_, live_, floor_ = min(t_play), min(t_live), min(t_floor)
    out.append(f"skirmish assault, 3 squads, declaration to consolidation ({n} seeded games: "
               f"{events / n:.0f} events each, best of {ROUNDS} interleaved rounds)")
    out.append(f"  playout: {n / play_:6.0f} assaults/s ({play_ / n * 1e3:.2f} ms each), "
               f"ratio {play_ / floor_:.2f}x the floor  (target <= 3x)")
    out.append(f"  live:    {n / live_:6.0f} assaults/s ({live_ / n * 1e3:.2f} ms each), "
               f"ratio {live_ / floor_:.2f}x the floor")
    out.append(f"  floor: replaying the same logs: {n / floor_:6.0f} assaults/s "
               f"(spread of the playout rounds {min(t_play) / n * 1e3:.2f}-"
               f"{max(t_play) / n * 1e3:.2f} ms)")
