"""GEO.NO_OVERLAP: no unit ever stands on another, after any kind of move, in any battle."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regiment.core import geometry as geo
from regiment.core.errors import InvalidScenario
from regiment.core.game import Game
from regiment.core.scenario import load_scenario, parse_scenario
from regiment.phases.fantasy.state import State, fantasy
from regiment.phases.fantasy.units import ALIVE, box
from regiment.store import MemoryStore

from .conftest import EXAMPLES, unit


def standing_on(state: State) -> list[tuple[str, str]]:
    """Pairs of units on the table that stand on each other."""
    on = [u for u in state.units.values() if u.status in ALIVE]
    return [(a.id, c.id) for i, a in enumerate(on) for c in on[i + 1:]
            if geo.stands_on(box(a), box(c))]


def battle(rng: random.Random) -> dict[str, Any] | None:
    """Two to eight units, red toward the bottom facing up and blue toward the top facing
    down, near enough to charge, at slightly odd angles; None when two would start on each
    other (the scenario refuses that)."""
    units = []
    for i in range(rng.choice((2, 4, 6, 8, 8, 8))):
        red = i % 2 == 0
        units.append(unit(f"u{i}", "red" if red else "blue", rng.uniform(10, 62),
                          rng.uniform(8, 24) if red else rng.uniform(22, 40),
                          rng.choice((0.0, 10.0, 350.0, 20.0) if red else
                                     (180.0, 170.0, 190.0, 200.0)),
                          models=rng.choice((10, 15, 20, 25)), files=rng.choice((4, 5, 6))))
    return parsed({"preset": "fantasy8", "first": "red", "dice": "seeded",
                   "seed": f"{rng.getrandbits(32):x}", "turns": 4,
                   "players": [{"id": "red"}, {"id": "blue"}], "units": units})


def parsed(data: dict[str, Any]) -> dict[str, Any] | None:
    """The scenario, or None when two of its units would start on each other."""
    try:
        return parse_scenario(data)
    except InvalidScenario:
        return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_geo_no_overlap_holds_after_every_step_of_random_battles(seed: int):
    """Charges, flee and pursuit moves, pivots, reforms, close-ups, rallies and returns from
    off the table, chosen at random by both sides: no step ends with a unit on another."""
    rng = random.Random(seed)
    scenario = battle(rng)
    if scenario is not None:
        play_checking(scenario, rng, 300, lambda s: standing_on(fantasy(s)))


def play_checking(scenario: dict[str, Any], rng: random.Random, steps: int,
                  overlaps: Any) -> None:
    """Random legal choices for both sides, ``overlaps`` of the state checked at every step."""
    game = Game.new(scenario, store=MemoryStore())
    assert overlaps(game.state) == []
    for _ in range(steps):
        if game.pending.kind == "over":
            break
        options = [c for c in game.legal() if c.name not in ("undo", "redo")]
        game.submit(rng.choice(options))
        assert overlaps(game.state) == [], len(game.timeline.steps) - 1


def test_geo_no_overlap_the_mill_race_with_the_first_option_every_time():
    """Issue 13: in the mill race, both sides taking the first option, the Dwarf Warriors'
    pivot to pursue the Trolls put the Empire Spearmen's corner 0.37" inside them (step 36)."""
    game = Game.new(load_scenario(EXAMPLES / "mill_race.toml"), store=MemoryStore())
    while game.pending.kind != "over":
        game.submit(game.pending.legal[0])
        assert standing_on(fantasy(game.state)) == [], len(game.timeline.steps) - 1


def test_geo_no_overlap_a_pursuer_may_not_pivot_onto_a_friend():
    """The pivot toward the quarry would stand on the friend at its right: the pursuer keeps
    its facing and does not move. A game begun under 0.4.0 made the pivot (LOG.RULINGS)."""
    from regiment.phases.fantasy.pursuit import rules as pursuit

    from . import battle as b

    a = b.unit("a", "red", 36, 20, 0, models=30)
    friend = b.unit("f", "red", 39.95, 20, 0)        # flush against a's right flank
    game = b.game([a, b.against(a, b.unit("b", "blue")), friend], phase="close_combat")
    state = fantasy(game.state)
    unit = state.units["a"]
    end, left, fresh, run = pursuit.pursue_move(state, unit, 90.0, 6.0, True)
    assert (run, left, fresh) == (0.0, None, None)
    assert (end.x, end.y, end.facing) == pytest.approx((36.0, 20.0, 0.0))
    old = pursuit.pursue_move(state.evolve(engine=(0, 4, 0)), unit, 90.0, 6.0, True)[0]
    assert geo.stands_on(old, box(state.units["f"]))


def test_geo_no_overlap_a_pivot_onto_an_enemy_ends_touching_it():
    """FP.PIVOT_CONTACT: a pivot that brings the front onto a fresh enemy is a contact; the
    pursuer ends touching that enemy, not standing on it."""
    from regiment.phases.fantasy.pursuit import rules as pursuit

    from . import battle as b

    a = b.unit("a", "red", 36, 20, 0, models=30)
    near = b.unit("c", "blue", 38.2, 17.6, 270, models=4, files=4)
    game = b.game([a, b.against(a, b.unit("b", "blue")), near], phase="close_combat")
    state = fantasy(game.state)
    end, _, fresh, run = pursuit.pursue_move(state, state.units["a"], 90.0, 6.0, True)
    assert fresh == "c" and run == 0.0
    assert geo.gap(end, box(state.units["c"])) < 1e-3
    assert not geo.stands_on(end, box(state.units["c"]))


def test_geo_no_overlap_a_pursuer_comes_back_beside_a_unit_standing_where_it_left():
    """FP.OFF_TABLE: it comes back as close to the point it left by as it can stand; a unit
    that has moved onto that spot since is not stood on. A game begun under 0.4.0 stood on
    it (LOG.RULINGS)."""
    from regiment.phases.fantasy.flight.steps import return_box

    from .test_pursuit import off_the_edge

    g, _ = off_the_edge()
    state = fantasy(g.state)
    gone = state.units["a"]
    assert gone.status == "off_table"
    spot = return_box(state, gone)
    friend = state.units["r"].evolve(position=(spot.x, spot.y), facing=spot.facing)
    crowded = state.with_unit(friend)
    back = return_box(crowded, gone)
    assert not geo.stands_on(back, box(friend)) and back != spot
    assert abs(back.y - spot.y) < 1e-6 and abs(back.x - spot.x) < 12   # along the edge
    assert geo.stands_on(return_box(crowded.evolve(engine=(0, 4, 0)), gone), box(friend))


def models_on_models(state: Any) -> list[tuple[str, str]]:
    """Pairs of models on the table (skirmish squads) whose bases overlap."""
    from regiment.phases.skirmish.state import skirmish

    on = [(q.id, m) for q in skirmish(state).squads.values() if q.on_table for m in q.models]
    return [(a, b) for i, (a, m) in enumerate(on) for b, n in on[i + 1:]
            if geo.circles_overlap(m, n)]


def skirmish_battle(rng: random.Random) -> dict[str, Any] | None:
    """Two to five squads of the catalogue in loose rows, red low and blue high, each pair in
    its own column, near enough to charge; None when two would start on each other."""
    kinds = ("assault_marines", "guardsmen", "ork_boyz", "hormagaunts", "carnifex")
    units = []
    for i in range(rng.randint(2, 5)):
        red = i % 2 == 0
        kind = rng.choice(kinds)
        count = 1 if kind == "carnifex" else rng.randint(3, 10)
        units.append({"id": f"s{i}", "player": "red" if red else "blue", "catalogue": kind,
                      "formation": {"centre": [8 + (i // 2) * 14 + rng.uniform(-3, 3),
                                               rng.uniform(8, 14) if red else rng.uniform(19, 26)],
                                    "facing": rng.uniform(-30, 30) + (0 if red else 180),
                                    "count": count, "per_row": rng.randint(1, min(5, count)),
                                    "spacing": rng.uniform(0.1, 1.0)}})
    return parsed({"preset": "skirmish40k", "first": "red", "dice": "seeded", "phase": "assault",
                   "seed": f"{rng.getrandbits(32):x}", "turns": 3,
                   "table": {"width": 48, "depth": 36},
                   "players": [{"id": "red"}, {"id": "blue"}], "units": units})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_geo_no_overlap_holds_for_every_model_of_random_skirmish_battles(seed: int):
    """Charges at one or two targets, piling in, consolidation toward any enemy, falling back,
    chosen at random by both sides: no step ends with a model's base on another's."""
    rng = random.Random(seed)
    scenario = skirmish_battle(rng)
    if scenario is not None:
        play_checking(scenario, rng, 200, models_on_models)
