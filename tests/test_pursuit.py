"""Flee and pursuit (FP.*): choosing to pursue, the rolls, who is caught, the moves."""

from __future__ import annotations

import pytest

from regiment.core import geometry as geo
from regiment.core.errors import IllegalCommand
from regiment.phases.fantasy.units import box

from . import battle as b


def broken(a_extra=None, b_extra=None, others=(), side="front", ld=2, **top):
    """Blue loses heavily and breaks (Ld 2 never passes but on a double 1)."""
    a = b.unit("a", "red", **{"models": 30, **(a_extra or {})})
    foe = b.against(a, b.unit("b", "blue", **{"profile": {"Ld": ld}, **(b_extra or {})}), side)
    g = b.game([a, foe, *others], phase="close_combat", **top)
    b.fight(g)
    b.answer(g, {"to_hit": [(6,) * 10, (1,) * 10], "to_wound": [(6, 6)]}, default=1,
             stop="break_test")
    b.answer(g, {"break_test": [(3, 4)], "panic": [(1, 2)] * 3})
    return g


def test_fp_choose_pursuit_before_any_dice_pursue_or_restrain():
    g = broken()
    assert g.pending.decision == "pursue" and g.pending.player == "red"
    assert {c.name for c in g.pending.legal} == {"pursue", "restrain"}
    assert g.state.units["b"].status == "fleeing"


def test_fp_choose_pursuit_restraining_takes_a_leadership_test():
    g = broken()
    g.submit({"cmd": "restrain", "by": "red", "unit": "a"})
    events = b.answer(g, {"restrain": [(2, 2)], "flee": [(3, 3)]})
    held = b.one(events, "LeadershipTested")
    assert held.purpose == "restrain" and held.passed
    assert not b.of(events, "PursuitRolled")


def test_fp_flee_roll_and_pursue_roll_are_2d6():
    g = broken()
    g.submit({"cmd": "pursue", "by": "red", "unit": "a", "target": "b"})
    assert (g.pending.purpose, g.pending.dice) == ("flee", 2)
    b.answer(g, {"flee": [(6, 5)]}, stop="pursuit")
    assert (g.pending.purpose, g.pending.dice) == ("pursuit", 2)


def test_fp_pursue_roll_swiftstride_rolls_three_and_keeps_two():
    g = broken({"rules": ["swiftstride"]})
    g.submit({"cmd": "pursue", "by": "red", "unit": "a", "target": "b"})
    b.answer(g, {"flee": [(3, 3)]}, stop="pursuit")
    assert g.pending.dice == 3
    rolled = b.one(b.answer(g, {"pursuit": [(1, 4, 2)]}), "PursuitRolled")
    assert (rolled.dice, rolled.distance, rolled.caught) == ((4, 2), 6, True)


def test_fp_caught_an_equal_roll_catches():
    g = broken()
    g.submit({"cmd": "pursue", "by": "red", "unit": "a", "target": "b"})
    events = b.answer(g, {"flee": [(4, 3)], "pursuit": [(5, 2)]})
    assert b.one(events, "PursuitRolled").caught
    assert b.one(events, "UnitCaught").by == "a"
    assert g.state.units["b"].status == "destroyed"


def test_fp_caught_a_higher_flee_escapes():
    g = broken()
    g.submit({"cmd": "pursue", "by": "red", "unit": "a", "target": "b"})
    events = b.answer(g, {"flee": [(5, 3)], "pursuit": [(5, 2)]})
    assert not b.one(events, "PursuitRolled").caught
    assert g.state.units["b"].status == "fleeing"


def test_fp_flee_direction_directly_away_from_the_enemy():
    g = broken()
    g.submit({"cmd": "pursue", "by": "red", "unit": "a", "target": "b"})
    before = geo.centre(box(g.state.units["b"]))
    b.answer(g, {"flee": [(5, 3)], "pursuit": [(1, 1)]})
    fled = g.state.units["b"]
    # red faces +y with blue on its front: blue turns to face +y and runs 8"
    assert fled.facing == pytest.approx(0.0)
    assert geo.centre(box(fled))[1] == pytest.approx(before[1] + 8, abs=1e-3)


def test_fp_pursue_move_turns_to_the_fled_unit_and_stops_an_inch_short():
    g = broken()
    g.submit({"cmd": "pursue", "by": "red", "unit": "a", "target": "b"})
    events = b.answer(g, {"flee": [(6, 6)], "pursuit": [(6, 5)]})
    move = [e for e in b.of(events, "UnitMoved") if e.unit == "a"][0]
    assert move.reason["code"] == "pursuit"
    assert geo.gap(box(g.state.units["a"]), box(g.state.units["b"])) == pytest.approx(
        1.0, abs=1e-3)


def test_fp_flee_through_an_enemy_tests_dangerous_terrain():
    blocker = b.unit("wall", "red", 36, 26, 0, models=10)     # across blue's line of flight
    g = broken(others=[blocker])
    g.submit({"cmd": "restrain", "by": "red", "unit": "a"})
    events = b.answer(g, {"restrain": [(2, 2)], "flee": [(6, 6)],
                          "dangerous_terrain": [(1, 1, 2, 3, 4, 5, 6)]}, default=4)
    test = b.one(events, "DangerousTerrainTested")
    assert test.through == "wall" and test.slain == 2
    fled = box(g.state.units["b"])
    assert geo.gap(fled, box(g.state.units["wall"])) > 0   # it ended clear


def test_fp_off_table_a_fleeing_unit_touching_the_edge_is_destroyed():
    a = b.unit("a", "red", 36, 40, 0, models=30)
    foe = b.against(a, b.unit("b", "blue", profile={"Ld": 2}))
    g = b.game([a, foe], phase="close_combat")
    b.fight(g)
    b.answer(g, {"to_hit": [(6,) * 10, (1,) * 10], "to_wound": [(6, 6)]}, default=1,
             stop="break_test")
    b.answer(g, {"break_test": [(3, 4)]})
    g.submit({"cmd": "restrain", "by": "red", "unit": "a"})
    events = b.answer(g, {"restrain": [(2, 2)], "flee": [(6, 6)]})
    assert b.one(events, "UnitDestroyed").reason == {"code": "fled_off_table",
                                                        "rule": "FP.OFF_TABLE"}


def off_the_edge():
    """Red, 2" from the table's top edge, breaks blue and pursues it off the table; a blue
    reserve far off keeps the game going. The game and the pursuit's events."""
    a = b.unit("a", "red", 36, 38, 0, models=30)
    foe = b.against(a, b.unit("b", "blue", profile={"Ld": 2}))
    reserve = b.unit("r", "blue", 8, 4, 90, models=5)   # far off: the game goes on
    g = b.game([a, foe, reserve], phase="close_combat")
    b.fight(g)
    b.answer(g, {"to_hit": [(6,) * 10, (1,) * 10], "to_wound": [(6, 6)]}, default=1,
             stop="break_test")
    b.answer(g, {"break_test": [(3, 4)]})
    g.submit({"cmd": "pursue", "by": "red", "unit": "a", "target": "b"})
    return g, b.answer(g, {"flee": [(1, 1)], "pursuit": [(6, 6)]})


def back_on_the_table(g):
    """Play on to red's next remaining moves, where its pursuer comes back."""
    while not g.state.phase.endswith("remaining") or g.state.player != "red":
        b.finish(g)
        g.submit(next(c for c in g.pending.legal if c.name in ("end_phase", "end_charges")))
    return g.state.units["a"]


@pytest.mark.only("fantasy8")
def test_fp_off_table_a_pursuer_leaves_and_returns_in_its_remaining_moves():
    g, events = off_the_edge()
    left = b.one(events, "UnitLeftTable")
    assert g.state.units["a"].status == "off_table" and left.point[1] == pytest.approx(48.0)
    back = back_on_the_table(g)
    assert back.status == "ready" and back.facing == pytest.approx(180.0)
    rear_centre = geo.centre(box(back))
    assert rear_centre[1] + box(back).depth / 2 == pytest.approx(48.0, abs=1e-3)


@pytest.mark.only("fantasy8")
def test_fp_off_table_a_whole_front_meeting_the_edge_leaves_and_returns_at_its_middle():
    """Seed 002 p.57: the unit comes back with the centre of its last rank on the point where
    it touched the edge; a whole front touching at once touched at its middle (issue 13: it
    was recorded at a corner, 2.46" sideways)."""
    g, events = off_the_edge()
    assert b.one(events, "UnitLeftTable").point == pytest.approx((36.0, 48.0))
    back = box(back_on_the_table(g))
    assert geo.centre(back)[0] == pytest.approx(36.0, abs=1e-3)   # on its own line


def test_log_rulings_a_game_begun_before_a_fix_keeps_its_ruling():
    """A game begun under engine 0.4.0 is played and verified under its rulings
    (phases/fantasy/rulings.py): its pursuer leaves at the corner that engine recorded."""
    from regiment.phases.fantasy.pursuit import rules as pursuit

    a = b.unit("a", "red", 36, 38, 0, models=30)
    g = b.game([a, b.against(a, b.unit("b", "blue"))], phase="close_combat")
    state = g.state.with_unit(g.state.units["b"].evolve(status="destroyed"))  # a clear run
    unit = state.units["a"]
    now = pursuit.pursue_move(state, unit, 0.0, 12.0, pivot=False)
    before = pursuit.pursue_move(state.evolve(engine=(0, 4, 0)), unit, 0.0, 12.0, pivot=False)
    assert now[1] == pytest.approx((36.0, 48.0))
    assert before[1] != now[1] and before[1][1] == pytest.approx(48.0)
    assert abs(before[1][0] - 36.0) == pytest.approx(box(unit).width / 2, abs=1e-3)


def test_fp_fresh_enemy_a_pursuit_into_a_new_enemy_is_a_charge():
    fresh = b.unit("c", "blue", 36, 31, 180, models=10)   # 11" ahead of red
    g = broken(others=[fresh])
    g.submit({"cmd": "pursue", "by": "red", "unit": "a", "target": "b"})
    events = b.answer(g, {"flee": [(1, 1)], "pursuit": [(6, 6)], "panic": [(1, 2)]})
    began = [e for e in b.of(events, "CombatBegan")]
    assert began and began[0].units == ("a", "c") and began[0].chargers == ("a",)
    assert g.state.units["c"].status == "engaged"
    # it is fought in the next close combat phase, not this one
    assert began[0].combat in g.state.context.fought


def test_fp_pivot_contact_the_turn_itself_can_touch_a_new_enemy():
    from regiment.phases.fantasy.pursuit import rules as pursuit

    # a small unit just off red's right flank: red's pivot to face it brings its front on
    g = broken(others=[b.unit("c", "blue", 38.2, 17.6, 270, models=4, files=4)])
    state = g.state
    unit = state.units["a"]
    _, _, fresh, run = pursuit.pursue_move(state, unit, 90.0, 6.0, True)
    assert fresh == "c" and run == 0.0


def test_fp_overrun_a_charger_that_wipes_out_its_foe_in_the_first_round():
    a = b.unit("a", "red", charged=True, profile={"S": 6, "I": 5})
    foe = b.against(a, b.unit("b", "blue", models=5, profile={"I": 1}))
    g = b.game([a, foe], phase="close_combat")
    b.fight(g)
    b.answer(g, default=6)
    assert g.pending.decision == "pursue"
    assert {c.name for c in g.pending.legal} == {"overrun", "restrain"}
    g.submit({"cmd": "overrun", "by": "red", "unit": "a"})
    events = b.answer(g, {"overrun": [(3, 2)]})
    move = b.one(events, "UnitMoved")
    assert (move.reason["code"], move.distance, move.facing) == ("overrun", 5.0, 0.0)


def test_fp_multi_order_one_fleeing_unit_needs_no_choice():
    g = broken()
    g.submit({"cmd": "pursue", "by": "red", "unit": "a", "target": "b"})
    assert g.pending.kind == "roll"


@pytest.mark.only("fantasy-classic")
def test_fp_off_table_fantasy_classic_returns_at_the_start_of_the_movement_phase():
    a = b.unit("a", "red", 36, 38, 0, models=30)
    foe = b.against(a, b.unit("b", "blue", profile={"Ld": 2}))
    reserve = b.unit("r", "blue", 8, 4, 90, models=5)
    g = b.game([a, foe, reserve], phase="close_combat", preset="fantasy-classic")
    b.fight(g)
    b.answer(g, {"to_hit": [(6,) * 10, (1,) * 10], "to_wound": [(6, 6)]}, default=1,
             stop="break_test")
    b.answer(g, {"break_test": [(3, 4)]})
    g.submit({"cmd": "pursue", "by": "red", "unit": "a", "target": "b"})
    b.answer(g, {"flee": [(1, 1)], "pursuit": [(6, 6)]})
    assert g.state.units["a"].status == "off_table"
    while not (g.state.player == "red" and g.state.turn == 2):
        b.finish(g)
        g.submit(next(c for c in g.pending.legal if c.name in ("end_phase", "end_charges")))
    assert g.state.phase.endswith("declaration")
    assert g.state.units["a"].status == "ready"
    # back as reinforcements: it may not charge this turn
    assert not any(c.name == "declare_charge" and c.unit == "a" for c in g.pending.legal)
    with pytest.raises(IllegalCommand, match="reinforcements") as info:
        g.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "r"})
    assert info.value.rule == "CH.DECLARE"
