"""Sight (GEO.SIGHT): terrain that blocks it, in both games' scenarios; a charge or overwatch
target that cannot be seen is not offered and is refused with its rule; at a table the
players are asked; the replay page draws the walls."""

from __future__ import annotations

import copy
import tomllib

import pytest

from regiment.core import geometry as geo
from regiment.core.errors import IllegalCommand, InvalidScenario
from regiment.core.game import Game
from regiment.core.scenario import parse_scenario
from regiment.store import MemoryStore

from . import battle as b
from .conftest import EXAMPLES

WALL = [[26.0, 14.0], [34.0, 14.0], [34.0, 15.0], [26.0, 15.0]]   # between y=10 and y=20


def test_geo_sight_a_wall_between_blocks_and_grazing_one_does_not():
    walls = geo.walls_of([WALL])
    assert not geo.clear_line((30, 10), (30, 20), walls)
    assert geo.clear_line((20, 10), (20, 20), walls)
    assert geo.clear_line((26, 10), (26, 20), walls)        # along its edge: grazes it
    viewer = geo.Box(30, 10, 0.0, 4, 2)
    assert not geo.clear_sight(viewer, geo.Box(30, 22, 180.0, 4, 2), walls)
    assert geo.clear_sight(viewer, geo.Box(30, 22, 180.0, 4, 2), ())


def test_ch_declare_a_target_behind_a_wall_is_not_offered_and_is_refused():
    units = [b.unit("a", "red", 30, 10, 0), b.unit("x", "blue", 30, 20, 180),
             b.unit("y", "blue", 50, 20, 180)]
    game = b.game(units, table={"width": 72, "depth": 48, "blocking": [WALL]})
    offered = {c.target for c in game.pending.legal if c.name == "declare_charge"}
    assert "x" not in offered and "y" in offered
    before = (game.version, game.head)
    with pytest.raises(IllegalCommand, match="cannot see") as refused:
        game.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "x"})
    assert refused.value.rule == "CH.DECLARE" and (game.version, game.head) == before
    open_table = b.game(units)
    assert "x" in {c.target for c in open_table.pending.legal if c.name == "declare_charge"}


def test_ch_declare_at_a_table_with_walls_the_players_say_whether_it_sees():
    units = [b.unit("a", "red", 30, 10, 0), b.unit("x", "blue", 30, 20, 180)]
    game = b.game(units, table={"width": 72, "depth": 48, "measured": True, "blocking": True})
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "x"})
    p = game.pending
    assert p.kind == "measurement" and p.question == "sight:a:x" and p.rule == "CH.DECLARE"
    events = game.submit({"cmd": "measure", "by": p.player, "value": "no"})
    withdrawn = [e for e in events if e.type == "CommandWithdrawn"]
    assert withdrawn and withdrawn[0].rule == "CH.DECLARE"
    assert game.pending.decision == "declare_charge" and not game.state.units["a"].declared
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "x"})
    events = game.submit({"cmd": "measure", "by": p.player, "value": "yes"})
    assert not [e for e in events if e.type == "CommandWithdrawn"]
    assert game.pending.kind == "measurement" and game.pending.question == "side:a:x"


def test_sk_declare_a_squad_behind_a_wall_cannot_be_declared():
    raw = tomllib.loads((EXAMPLES / "two_targets.toml").read_text(encoding="utf-8"))
    open_game = Game.new(parse_scenario(copy.deepcopy(raw)), store=MemoryStore())
    declares = [c for c in open_game.legal() if c.name == "declare_assault"]
    if not declares:
        pytest.skip("two_targets opens with no assault to declare")
    first = declares[0]
    squads = open_game.state.squads
    me, them = squads[first.unit], squads[first.primary]
    # a wall across the middle of the line between the two squads' first models
    (x0, y0, _), (x1, y1, _) = me.models[0], them.models[0]
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    wall = [[mx - 30, my - 0.5], [mx + 30, my - 0.5], [mx + 30, my + 0.5], [mx - 30, my + 0.5]]
    if abs(x1 - x0) > abs(y1 - y0):
        wall = [[mx - 0.5, my - 30], [mx + 0.5, my - 30], [mx + 0.5, my + 30],
                [mx - 0.5, my + 30]]
    walled = copy.deepcopy(raw)
    walled.setdefault("table", {})["blocking"] = [wall]
    game = Game.new(parse_scenario(walled), store=MemoryStore())
    offered = {(c.unit, c.primary) for c in game.legal() if c.name == "declare_assault"}
    assert (first.unit, first.primary) not in offered
    with pytest.raises(IllegalCommand, match="cannot see") as refused:
        game.submit(first)
    assert refused.value.rule == "SK.DECLARE"
    # SK.OVERWATCH: nor can the target fire overwatch at a charger it cannot see
    from regiment.phases.skirmish.assault.steps import in_sight, may_overwatch

    state = game.state
    assert not in_sight(state, state.squads[first.primary], state.squads[first.unit],
                        "SK.OVERWATCH")
    assert not may_overwatch(state, state.squads[first.primary], state.squads[first.unit])


def test_geo_sight_in_the_scenario_format_of_both_games():
    for bad, says in (([[0, 0], [1, 1]], "3 to 64"), ([[0, 0], [1, "x"], [2, 2]], "[x, y]")):
        with pytest.raises(InvalidScenario, match="blocking"):
            b.scenario([b.unit("a", "red")], table={"width": 72, "depth": 48,
                                                    "blocking": [bad]})
        assert says
    sc = b.scenario([b.unit("a", "red")], table={"width": 72, "depth": 48, "blocking": [WALL]})
    assert sc["table"]["blocking"] == [WALL]
    at_table = b.scenario([b.unit("a", "red")],
                          table={"width": 72, "depth": 48, "measured": True, "blocking": [WALL]})
    assert at_table["table"].get("blocking_at_table") and "blocking" not in at_table["table"]
    raw = tomllib.loads((EXAMPLES / "two_targets.toml").read_text(encoding="utf-8"))
    raw.setdefault("table", {})["blocking"] = [WALL]
    assert parse_scenario(raw)["table"]["blocking"] == [WALL]


def test_geo_sight_the_replay_page_draws_the_walls(tmp_path):
    from regiment.tools.html import page

    units = [b.unit("a", "red", 30, 10, 0), b.unit("y", "blue", 50, 20, 180)]
    game = b.game(units, table={"width": 72, "depth": 48, "blocking": [WALL]})
    html = page(list(game.records))
    assert '"blocking": [[[26.0, 14.0]' in html or '"blocking":[[[26.0,14.0]' in html
    assert 'class": "blocking"' in html or "\"class\": \"blocking\"" in html


def test_geo_sight_walls_block_a_charge_move_too():
    """A wall between a charger and a target it can see past the wall's end: the charge
    is declared, but its move would cross the wall, so it fails for want of room."""
    from regiment.phases.fantasy.charge import plan_charge

    wall = [[28.0, 14.0], [40.0, 14.0], [40.0, 15.0], [28.0, 15.0]]   # covers x 28-40
    units = [b.unit("a", "red", 30, 10, 0), b.unit("x", "blue", 30, 20, 180)]
    game = b.game(units, table={"width": 72, "depth": 48, "blocking": [wall]})
    s = game.state
    end, why = plan_charge(s, s.units["a"], s.units["x"], "front")
    assert end is None and why == {"code": "impassable", "rule": "GEO.SIGHT"}
    open_game = b.game(units)
    assert plan_charge(open_game.state, open_game.state.units["a"],
                       open_game.state.units["x"], "front")[0] is not None
