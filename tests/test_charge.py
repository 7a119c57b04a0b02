"""The charge sub-phase's rules as the skeleton applies them (CH.*, GEO.DISTANCE)."""

from __future__ import annotations

import itertools

import pytest

from regiment.core.commands import Roll
from regiment.core.dice import ManualDice
from regiment.core.errors import IllegalCommand
from regiment.core.game import Game
from regiment.core.state import UnitState
from regiment.phases import charge
from regiment.store import MemoryStore

from .conftest import small_scenario, unit


def state_unit(**extra) -> UnitState:
    return UnitState.from_scenario(small_scenario()["units"][0] | extra)


def test_geo_distance_is_between_footprints_not_centres():
    scenario = small_scenario(units=[unit("a", "red", 20, 10, 0), unit("b", "blue", 20, 22, 180)])
    a = UnitState.from_scenario(scenario["units"][0])
    b = UnitState.from_scenario(scenario["units"][1])
    assert charge.gap(a, b) == pytest.approx(12.0)  # front edges face each other 12" apart
    side = UnitState.from_scenario(small_scenario(units=[
        unit("a", "red", 20, 10, 0), unit("c", "blue", 40, 10, 0)])["units"][1])
    assert charge.gap(a, side) == pytest.approx(20 - 100 / 25.4)  # edge to edge, side by side


def test_ch_range_is_two_dice_plus_movement():
    boyz = state_unit()
    for a, b in itertools.product(range(1, 7), repeat=2):
        assert charge.charge_range(boyz, (a, b)) == a + b + 4


def test_ch_range_swiftstride_rolls_three_and_drops_the_lowest():
    wolves = state_unit(rules=["swiftstride"])
    assert charge.movement_dice(wolves) == 3
    assert charge.charge_range(wolves, (1, 6, 5)) == 11 + 4
    assert charge.counted((2, 2, 6)) == (6, 2)


def test_ch_range_the_odds_of_a_charge_match_the_table():
    """2D6 >= k for k = 3..12, exactly, by enumerating the dice."""
    table = [97.2, 91.7, 83.3, 72.2, 58.3, 41.7, 27.8, 16.7, 8.3, 2.8]
    faces = list(itertools.product(range(1, 7), repeat=2))
    for k, expected in zip(range(3, 13), table, strict=True):
        hits = sum(1 for f in faces if sum(charge.counted(f)) >= k)
        assert round(100 * hits / len(faces), 1) == expected


def charge_12_inches() -> Game:
    """Unit a charges unit b, 12" away; the game waits for the charge range dice."""
    units = [unit("a", "red", 20, 10, 0), unit("b", "blue", 20, 22, 180)]
    game = Game.new(small_scenario(units=units), store=MemoryStore(), dice=ManualDice())
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "b"})
    game.submit({"cmd": "react", "by": "blue", "unit": "b", "reaction": "hold"})
    game.submit({"cmd": "end_charges", "by": "red"})
    game.submit({"cmd": "move_charger", "by": "red", "unit": "a"})
    return game


def test_ch_range_reaching_exactly_the_distance_succeeds():
    game = charge_12_inches()
    rolled = next(e for e in game.submit(Roll(by="red", faces=(4, 4))) if e.type ==
                  "ChargeRolled")
    assert (rolled.range, rolled.distance, rolled.success) == (12.0, 12.0, True)
    game.undo("red")
    rolled = next(e for e in game.submit(Roll(by="red", faces=(4, 4))) if e.type ==
                  "ChargeRolled")
    assert rolled.success  # the same dice after an undo (DICE.NO_REROLL)


def test_ch_range_short_is_a_failed_charge():
    game = charge_12_inches()
    rolled = next(e for e in game.submit(Roll(by="red", faces=(4, 3))) if e.type ==
                  "ChargeRolled")
    assert (rolled.range, rolled.success) == (11.0, False)
    assert not game.state.units["a"].charged


def test_ch_move_order_the_active_player_picks_each_charger_in_turn():
    game = Game.new(small_scenario(), store=MemoryStore(), dice=ManualDice())
    for uid, target in (("boyz", "spears"), ("wolves", "swords")):
        game.submit({"cmd": "declare_charge", "by": "red", "unit": uid, "target": target})
        game.submit({"cmd": "react", "by": "blue", "unit": target, "reaction": "hold"})
    game.submit({"cmd": "end_charges", "by": "red"})
    assert {c.unit for c in game.pending.legal} == {"boyz", "wolves"}
    game.submit({"cmd": "move_charger", "by": "red", "unit": "wolves"})
    with pytest.raises(IllegalCommand):  # one at a time: the wolves roll first
        game.submit({"cmd": "move_charger", "by": "red", "unit": "boyz"})
    game.submit(Roll(by="red", faces=(1, 1, 1)))
    assert [c.unit for c in game.pending.legal] == ["boyz"]
    with pytest.raises(IllegalCommand) as info:
        game.submit({"cmd": "move_charger", "by": "red", "unit": "wolves"})
    assert info.value.rule == "CH.MOVE_ORDER"
    game.submit({"cmd": "move_charger", "by": "red", "unit": "boyz"})
    game.submit(Roll(by="red", faces=(6, 6)))
    assert game.state.phase == "turn.movement.rally"


def test_ch_declare_one_charge_a_turn_at_an_enemy():
    game = Game.new(small_scenario(), store=MemoryStore())
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    game.submit({"cmd": "react", "by": "blue", "unit": "spears", "reaction": "hold"})
    for command in ({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "swords"},
                    {"cmd": "declare_charge", "by": "red", "unit": "wolves", "target": "boyz"}):
        with pytest.raises(IllegalCommand) as info:
            game.submit(command)
        assert info.value.rule == "CH.DECLARE"
    assert all(c.unit != "boyz" for c in game.pending.legal if c.name == "declare_charge")


def test_ch_declare_a_fleeing_unit_cannot_charge():
    game = Game.new(small_scenario(), store=MemoryStore())
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    game.submit({"cmd": "react", "by": "blue", "unit": "spears", "reaction": "flee"})
    while game.state.player == "red":
        game.submit(game.pending.legal[-1])
    with pytest.raises(IllegalCommand, match="fleeing"):
        game.submit({"cmd": "declare_charge", "by": "blue", "unit": "spears", "target": "boyz"})


def test_ch_react_flee_rolls_and_a_fleeing_unit_must_flee():
    game = Game.new(small_scenario(), store=MemoryStore(), dice=ManualDice())
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "boyz", "target": "spears"})
    assert {c.reaction for c in game.pending.legal} == {"hold", "flee"}
    game.submit({"cmd": "react", "by": "blue", "unit": "spears", "reaction": "flee"})
    assert game.pending.to_dict() == {"kind": "roll", "player": "blue", "purpose": "flee",
                                      "unit": "spears", "dice": 2}
    fled = next(e for e in game.submit(Roll(by="blue", faces=(5, 3))) if e.type == "UnitFled")
    assert fled.distance == 8 and game.state.units["spears"].status == "fleeing"
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "wolves", "target": "spears"})
    assert [c.reaction for c in game.pending.legal] == ["flee"]
    with pytest.raises(IllegalCommand) as info:
        game.submit({"cmd": "react", "by": "blue", "unit": "spears", "reaction": "hold"})
    assert info.value.rule == "CH.REACT"


def test_ch_react_immune_to_psychology_may_not_flee_and_only_the_target_reacts():
    units = [unit("a", "red", 20, 10, 0), unit("b", "blue", 20, 22, 180,
                                              rules=["immune_to_psychology"])]
    game = Game.new(small_scenario(units=units), store=MemoryStore())
    game.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "b"})
    assert [c.reaction for c in game.pending.legal] == ["hold"]
    for command in ({"cmd": "react", "by": "blue", "unit": "b", "reaction": "flee"},
                    {"cmd": "react", "by": "red", "unit": "b", "reaction": "hold"}):
        with pytest.raises(IllegalCommand) as info:
            game.submit(command)
        assert info.value.rule == "CH.REACT"


def test_ch_redirect_is_refused_until_the_rule_is_applied():
    game = Game.new(small_scenario(), store=MemoryStore())
    with pytest.raises(IllegalCommand) as info:
        game.submit({"cmd": "redirect", "by": "red", "unit": "boyz", "target": "swords"})
    assert info.value.rule == "TURN.ORDER"  # no redirect step in the declaration
    from regiment.phases.preset import FantasyPreset

    preset = FantasyPreset()
    with pytest.raises(IllegalCommand) as info:
        preset._no_redirect(game.state, game.legal()[0])
    assert info.value.rule == "CH.REDIRECT"


def test_turn_order_the_turn_passes_and_game_turns_count_up():
    game = Game.new(small_scenario(turns=2), store=MemoryStore())
    seen = []
    while game.pending.kind != "over":
        state = game.state
        if not seen or seen[-1] != (state.turn, state.player):
            seen.append((state.turn, state.player))
        game.submit(game.pending.legal[-1])
    assert seen == [(1, "red"), (1, "blue"), (2, "red"), (2, "blue")]
    phases = [e.phase for step in game.timeline.steps for e in step if e.type == "PhaseChanged"]
    assert phases[:9] == [
        "turn.start", "turn.movement.charge.declaration", "turn.movement.charge.charge_moves",
        "turn.movement.rally", "turn.movement.compulsory", "turn.movement.remaining",
        "turn.magic", "turn.shooting", "turn.close_combat.choose_combat"]
