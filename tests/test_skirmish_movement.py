"""SK.MOVE: the skirmish game's movement phase (engine 0.12.0): each squad moves once, each
model up to its Movement (6"), through difficult terrain the highest of the squad's 2D6, in
coherency and more than 1" from every enemy model; refused with the rule otherwise."""

from __future__ import annotations

import math

import pytest

from regiment.core.commands import Roll
from regiment.core.dice import ManualDice
from regiment.core.errors import IllegalCommand
from regiment.core.events import GameStarted
from regiment.core.game import Game
from regiment.store import MemoryStore

from .conftest import skirmish_scenario, squad


def game(engine: str | None = None, **top):
    sc = skirmish_scenario(dice="manual", **top)
    dice = ManualDice()
    started = None if engine is None else GameStarted(
        game_id="old", scenario=sc, preset=sc["preset"], engine_version=engine,
        dice_commitment=dice.commitment(), dice=dice.kind, undo="free")
    return Game.new(sc, store=MemoryStore(), dice=dice, started=started)


def move(g, unit="tactical", **fields):
    return g.submit({"cmd": "move", "by": "red", "unit": unit, **fields})


def refused(g, **fields):
    before = len(g.records)
    with pytest.raises(IllegalCommand) as err:
        move(g, **fields)
    assert len(g.records) == before
    assert err.value.rule == "SK.MOVE"
    return str(err.value)


def test_sk_move_the_turn_begins_with_movement_and_a_squad_moves_once():
    g = game()
    assert g.state.phase == "turn.movement" and g.pending.decision == "move"
    offered = {c.unit for c in g.pending.legal if c.name == "move"}
    assert offered == {"assault", "tactical"}
    first = g.state.squads["tactical"].models[0]
    events = move(g, x=first[0], y=first[1] + 5.0)
    m = [e for e in events if e.type == "SquadMoved"][0]
    assert m.distance == 5.0 and g.state.squads["tactical"].models[0][1] == first[1] + 5.0
    assert "has moved this turn" in refused(g, x=first[0], y=first[1] + 6.0)


def test_sk_move_no_farther_than_6_inches_and_a_place_for_each_model():
    g = game()
    first = g.state.squads["tactical"].models[0]
    assert "may move 6\"" in refused(g, x=first[0] + 6.5, y=first[1])
    assert "give 5 places" in refused(g, path=[[1, 1]])
    edge = game(units=[squad("tactical", "red", "tactical_marines", 38, 3),
                       squad("first", "blue", "guardsmen", 19, 40, 180)])
    low = edge.state.squads["tactical"].models[0]
    assert "leave the table" in refused(edge, x=low[0], y=low[1] - 5.0)
    assert "is not red's" in refused(g, unit="first", x=19.0, y=20.0)


def test_sk_coherency_a_move_keeps_the_squad_together_and_1_inch_from_enemies():
    g = game()
    ms = g.state.squads["tactical"].models
    scattered = [[m[0], m[1]] for m in ms[:-1]] + [[ms[-1][0], ms[-1][1] + 5.5]]
    assert "coherency" in refused(g, path=scattered)
    near = g.state.squads["first"].models[0]
    a = g.state.squads["assault"].models[0]
    dy = near[1] - a[1] - 2 * a[2] - 0.5   # the first model 0.5" from a guardsman
    assert "within 1\" of an enemy" in refused(g, unit="assault", x=near[0], y=a[1] + dy)


def test_sk_move_difficult_terrain_takes_the_highest_of_2d6_rolled_first():
    wood = [[[36, 12], [40, 12], [40, 16], [36, 16]]]
    g = game(table={"width": 48, "depth": 48, "difficult": wood})
    first = g.state.squads["tactical"].models[0]
    assert "roll for it first" in refused(g, x=first[0], y=first[1] + 5.0)
    move(g, kind="difficult")
    assert g.pending.kind == "roll" and g.pending.purpose == "difficult_terrain"
    events = g.submit(Roll(by="red", faces=(2, 3)))
    rolled = [e for e in events if e.type == "DifficultTerrainRolled"][0]
    assert rolled.most == 3 and g.state.squads["tactical"].terrain_roll == 3
    assert "may move 3\"" in refused(g, x=first[0], y=first[1] + 5.0)
    events = move(g, x=first[0], y=first[1] + 3.0)
    assert [e for e in events if e.type == "SquadMoved"][0].distance == 3.0
    told = g.preset.sentence("DifficultTerrainRolled", rolled.to_data(), g.state)
    assert "rolls 2 3 for difficult terrain" in told and "SK.MOVE" in told


def test_sk_move_table_mode_asks_how_far_the_farthest_model_went():
    g = game(table={"width": 48, "depth": 48, "measured": True})
    move(g)
    p = g.pending
    assert p.kind == "measurement" and p.question == "moved:tactical" and p.most == 6.0
    with pytest.raises(IllegalCommand):
        g.submit({"cmd": "measure", "by": "red", "value": 7})
    events = g.submit({"cmd": "measure", "by": "red", "value": 4.5})
    m = [e for e in events if e.type == "SquadMoved"][0]
    assert (m.distance, m.models) == (4.5, None)
    assert "moves on the table" in g.preset.sentence("SquadMoved", m.to_data(), g.state)


def test_sk_move_games_begun_before_0_12_0_have_no_movement_phase():
    g = game(engine="0.11.0")
    assert g.state.phase == "turn.shooting"


def test_sk_move_the_bots_move_toward_the_enemy_and_never_break_the_rules():
    from regiment.phases.skirmish.scenario import COHERENCY
    from regiment.tools.bot import choose

    g = Game.new(skirmish_scenario(turns=2, units=[
        squad("tactical", "red", "tactical_marines", 10, 6),
        squad("gaunts", "blue", "hormagaunts", 38, 40, 180, count=10)]), store=MemoryStore())
    moved = 0
    while g.pending.kind != "over":
        before = {k: s.models for k, s in g.state.squads.items()}
        events = g.submit(choose(g))
        for e in events:
            if e.type == "SquadMoved":
                moved += 1
                s = g.state.squads[e.unit]
                assert all(math.hypot(a[0] - b[0], a[1] - b[1]) <= 6.0 + 1e-6
                           for a, b in zip(before[e.unit], s.models, strict=True))
                from regiment.core.geometry import chained
                assert chained(list(s.models), COHERENCY)
    assert moved >= 2


def test_sk_move_a_squad_moves_its_movement_where_its_profile_gives_one():
    """SK.MOVE: jump marines (M 12 in the catalogue) may go 10"; tactical marines 6"."""
    g = game(units=[squad("jump", "red", "jump_marines", 20, 6),
                    squad("tactical", "red", "tactical_marines", 38, 6),
                    squad("first", "blue", "guardsmen", 19, 40, 180)])
    assert g.state.squads["jump"].profile["M"] == 12
    first = g.state.squads["tactical"].models[0]
    assert "may move 6\"" in refused(g, x=first[0], y=first[1] + 10.0)
    jump = g.state.squads["jump"].models[0]
    events = move(g, unit="jump", x=jump[0], y=jump[1] + 10.0)
    assert [e for e in events if e.type == "SquadMoved"][0].distance == 10.0


def test_sk_move_a_squad_that_rolled_for_difficult_terrain_is_offered_its_moves():
    """SK.MOVE: a carnifex 1.02" from a guardsman cannot go toward it; having rolled 1 and 5
    for the difficult terrain beside it, it is offered a move within 5" elsewhere."""
    wood = [[[2, 18], [6, 18], [6, 30], [2, 30]]]
    g = game(table={"width": 48, "depth": 48, "difficult": wood},
             units=[squad("beast", "red", "carnifex", 10, 24, count=1),
                    squad("first", "blue", "guardsmen", 10, 26.72, 180, count=1)])
    beast = g.state.squads["beast"].models[0]
    guard = g.state.squads["first"].models[0]
    assert 1.0 < math.hypot(guard[0] - beast[0], guard[1] - beast[1]) - beast[2] - guard[2] < 1.1
    move(g, unit="beast", kind="difficult")
    g.submit(Roll(by="red", faces=(1, 5)))
    offered = [c for c in g.pending.legal if c.name == "move"]
    assert len(offered) == 1 and not g.pending.idle
    events = g.submit(offered[0])
    assert 0 < [e for e in events if e.type == "SquadMoved"][0].distance <= 5.0


def test_sk_move_a_squad_with_no_room_is_told_why():
    """SK.MOVE: a carnifex walled in on four sides is offered no move, and the decision says
    why (its ``idle``), in the pending a program reads."""
    x, y, r = 10.0, 24.0, 60 / 25.4 / 2
    k = r + 0.05
    walls = [[[x - k - 1, y + k], [x + k + 1, y + k], [x + k + 1, y + k + 1],
              [x - k - 1, y + k + 1]],
             [[x - k - 1, y - k - 1], [x + k + 1, y - k - 1], [x + k + 1, y - k],
              [x - k - 1, y - k]],
             [[x - k - 1, y - k], [x - k, y - k], [x - k, y + k], [x - k - 1, y + k]],
             [[x + k, y - k], [x + k + 1, y - k], [x + k + 1, y + k], [x + k, y + k]]]
    g = game(table={"width": 48, "depth": 48, "blocking": walls},
             units=[squad("beast", "red", "carnifex", x, y, count=1),
                    squad("first", "blue", "guardsmen", 30, 40, 180)])
    assert not [c for c in g.pending.legal if c.name == "move" and c.unit == "beast"]
    why = dict(g.pending.idle)["beast"]
    assert "no room to move" in why and "blocking terrain" in why
    assert g.pending.to_dict()["idle"] == {"beast": why}
