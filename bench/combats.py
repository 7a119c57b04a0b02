"""Whole one-against-one combats per second, and where the time goes.

A combat: Orc Boyz charge Empire Spearmen 8" away; two bots play both sides with seeded dice
until the combat is over (a unit broken and caught, or fled, or destroyed) or the game ends:
the charge, reactions, several rounds if it lasts, break tests, flee and pursuit.

- live: ``Game`` on a memory store (every event sealed into the hash chain, undo kept).
- playout: ``Playout``, the same rules and dice with no log (what a simulation for odds uses).
- floor: replaying the same logs (``Game.load``), measured in the same run.
"""

from __future__ import annotations

import collections
import cProfile
import gc
import math
import pstats
import statistics
import time
from typing import Any

from regiment.core.game import Game
from regiment.core.playout import Playout
from regiment.core.scenario import parse_scenario
from regiment.store import MemoryStore
from regiment.tools.bot import choose


def duel() -> dict[str, Any]:
    def unit(uid: str, player: str, y: float, facing: float, kind: str, models: int) -> dict:
        return {"id": uid, "player": player, "catalogue": kind, "models": models, "files": 5,
                "command": ["champion", "standard", "musician"], "position": [36.0, y],
                "facing": facing}

    return parse_scenario({
        "preset": "fantasy8", "first": "orcs", "dice": "seeded", "turns": 8,
        "players": [{"id": "orcs"}, {"id": "empire"}],
        "units": [unit("boyz", "orcs", 16.0, 0.0, "orc_boyz", 25),
                  unit("spears", "empire", 24.0, 180.0, "empire_spearmen", 20)]})


def play(game: Any) -> int:
    """Bots play until the combat is over; the number of combat rounds it took."""
    fought = False
    rounds = 0
    while game.pending.kind != "over":
        events = game.submit(choose(game))
        rounds += sum(1 for e in events if e.type == "CombatRoundBegan")
        fought = fought or bool(game.state.combats)
        if fought and not game.state.combats:
            break
        if any(e.type == "ChargeRolled" and not e.success for e in events) and \
                not game.state.combats:
            break   # the charge failed: that combat never happened; it still counts as one
    return rounds


def live(scenario: dict[str, Any], seed: int) -> Game:
    scenario["seed"] = format(seed, "x")
    game = Game.new(scenario, store=MemoryStore())
    play(game)
    return game


def playout(scenario: dict[str, Any], seed: int) -> int:
    """A playout of the scenario; the combat rounds it took."""
    return play(Playout.new(scenario, seed=format(seed, "x")))


AREAS = (("geometry", ("core/geometry/", "lib:shapely", "lib:numpy")),
         ("rules", ("phases/",)), ("kernel", ("core/", "store/")), ("bot", ("tools/",)))


def shares(fn: Any) -> dict[str, float]:
    """Self time by area (cProfile), as shares of the run."""
    prof = cProfile.Profile()
    prof.enable()
    fn()
    prof.disable()
    totals: collections.Counter[str] = collections.Counter()
    for (fname, _, _), (_, _, tt, _, _) in pstats.Stats(prof).stats.items():  # type: ignore[attr-defined]
        if "site-packages" in fname:
            where = "lib:" + fname.split("site-packages/")[1].split("/")[0]
        else:
            where = fname.replace("\\", "/")
        area = next((name for name, keys in AREAS if any(k in where for k in keys)),
                    "python (builtins, stdlib)")
        totals[area] += tt
    whole = sum(totals.values())
    return {k: v / whole for k, v in totals.most_common()}


def bench_combats(out: list[str], n: int, rounds: int = 5) -> None:
    """Live, playout and the floor in ``rounds`` interleaved rounds of ``n // rounds`` seeded
    combats each (the same seeds every round, so every round does the same work): medians,
    with their range; each round's ratio is taken to its own floor, so that drift in the
    machine's speed between rounds cancels."""
    scenario = duel()
    for seed in range(20):   # warm up (imports, caches)
        live(scenario, 10_000 + seed)
    per = max(1, n // rounds)
    t_live, t_play, t_floor = [], [], []
    events = rounds_fought = 0
    for _ in range(rounds):
        gc.collect()
        logs = []   # keep only the stores' bytes: a heap of live games would slow the GC
        start = time.perf_counter()
        for seed in range(per):
            game = live(scenario, seed)
            logs.append((game.store, game.game_id, len(game.records)))
        t_live.append(time.perf_counter() - start)
        del game
        start = time.perf_counter()
        for seed in range(per):
            playout(scenario, seed)
        t_play.append(time.perf_counter() - start)
        start = time.perf_counter()
        for store, game_id, _ in logs:
            Game.load(game_id, store)
        t_floor.append(time.perf_counter() - start)
        events = sum(size for _, _, size in logs)
        rounds_fought = sum(1 for store, game_id, _ in logs for r in store.read(game_id)
                            if r.type == "CombatRoundBegan")
    live_x = [a / b for a, b in zip(t_live, t_floor, strict=True)]
    play_x = [a / b for a, b in zip(t_play, t_floor, strict=True)]

    def each(times: list[float]) -> str:
        ms = [t / per * 1e3 for t in times]
        return (f"{per / statistics.median(times):6.0f} combats/s ({statistics.median(ms):.2f} "
                f"ms each, {min(ms):.2f}-{max(ms):.2f})")

    def ratio(values: list[float]) -> str:
        return f"{statistics.median(values):.2f}x ({min(values):.2f}-{max(values):.2f})"

    out.append(f"whole combats, one against one ({per} seeded games a round, {rounds} "
               f"interleaved rounds: {events / per:.0f} events, {rounds_fought / per:.1f} "
               "rounds a combat; medians, their range)")
    out.append(f"  floor: Game.load of the same logs:     {each(t_floor)}")
    out.append(f"  live (Game, memory store, hash chain): {each(t_live)};  "
               f"{ratio(live_x)} the floor (goal <= 3.5x)")
    out.append(f"  playout (same rules and dice, no log): {each(t_play)};  "
               f"{ratio(play_x)} the floor (goal <= 2.2x; target 1,000 combats/s)")
    split = shares(lambda: [live(scenario, 20_000 + s) for s in range(max(20, per))])
    out.append("  where the time goes (live, self time): " +
               ", ".join(f"{k} {v * 100:.0f}%" for k, v in split.items()))


def melee(per_side: int) -> dict[str, Any]:
    """``per_side`` units of Orc Boyz side by side against as many Empire Spearmen, the lines
    offset by half a unit so that every inner unit fights two (a model at each seam splits
    its attacks): one multiple combat from the start of the close combat phase."""
    width = 5 * 20 / 25.4

    def unit(uid: str, player: str, x: float, y: float, facing: float, kind: str) -> dict:
        return {"id": uid, "player": player, "catalogue": kind, "models": 20, "files": 5,
                "base": [20, 20], "command": ["standard"], "position": [x, y],
                "facing": facing}

    left = 36.0 - per_side * width / 2
    orcs = [unit(f"o{i}", "orcs", left + (i + 0.5) * width, 20.0, 0.0, "orc_boyz")
            for i in range(per_side)]
    empire = [unit(f"e{i}", "empire", left + (i + 1.0) * width, 20.0, 180.0,
                   "empire_spearmen") for i in range(per_side)]
    return parse_scenario({
        "preset": "fantasy8", "first": "orcs", "dice": "seeded", "turns": 8,
        "phase": "close_combat", "players": [{"id": "orcs"}, {"id": "empire"}],
        "units": orcs + empire})


def bench_multiple(out: list[str], n: int) -> None:
    """Multiple combats of 2, 4, 6 and 8 units, from the first blow until the combat is over
    (or eight game turns): combats a second, and the time a combat round costs per unit."""
    out.append("multiple combats (bots, seeded dice; one combat from the start, until it ends)")
    base = None
    for per_side in (1, 2, 3, 4):
        scenario = melee(per_side)
        for seed in range(5):
            playout(scenario, 30_000 + seed)
        runs = max(20, n // per_side)
        t_play, rounds = math.inf, 0
        for _ in range(3):  # the best of three passes: the machine is noisy
            rounds = 0
            start = time.perf_counter()
            for seed in range(runs):
                rounds += playout(scenario, seed)
            t_play = min(t_play, time.perf_counter() - start)
        start = time.perf_counter()
        for seed in range(runs // 4):
            live(scenario, seed)
        t_live = (time.perf_counter() - start) / max(1, runs // 4)
        units = 2 * per_side
        per_round_unit = t_play / rounds / units
        base = base or per_round_unit
        out.append(f"  {units} units: playout {runs / t_play:6.0f} combats/s, live "
                   f"{1 / t_live:6.0f}/s, {rounds / runs:.1f} rounds a combat; a round costs "
                   f"{per_round_unit * 1e6:5.0f} us a unit ({per_round_unit / base:.2f}x the "
                   "2-unit figure)")
