"""Panic (PANIC.TRIGGERS) and rallying (RALLY.TEST)."""

from __future__ import annotations

from . import battle as b


def test_panic_triggers_a_friend_breaking_within_six_inches():
    a = b.unit("a", "red", models=30)
    foe = b.against(a, b.unit("b", "blue", profile={"Ld": 2}))
    near = b.unit("near", "blue", 44, 26, 180, models=10)
    far = b.unit("far", "blue", 64, 40, 180, models=10)
    g = b.game([a, foe, near, far], phase="close_combat")
    b.fight(g)
    b.answer(g, {"to_hit": [(6,) * 10, (1,) * 10], "to_wound": [(6, 6)]}, default=1,
             stop="break_test")
    events = b.answer(g, {"break_test": [(3, 4)], "panic": [(5, 5)], "flee": [(2, 2)]})
    caused = b.one(events, "PanicCaused")
    assert caused.units == ("near",) and caused.cause == "b"
    test = b.one(events, "LeadershipTested")
    assert test.purpose == "panic" and not test.passed
    assert g.state.units["near"].status == "fleeing"
    assert g.state.units["far"].status == "ready"


def test_panic_triggers_a_quarter_lost_to_stand_and_shoot():
    g = b.game([b.unit("a", "red", 36, 10, 0, models=8, files=4),
                b.unit("xb", "blue", 36, 20, 180, equipment=["crossbow"])])
    g.submit({"cmd": "declare_charge", "by": "red", "unit": "a", "target": "xb"})
    g.submit({"cmd": "react", "by": "blue", "unit": "xb", "reaction": "stand_and_shoot"})
    events = b.answer(g, {"stand_and_shoot_hit": [(6, 6, 1, 1, 1)], "to_wound": [(6, 6)],
                          "panic": [(6, 5)], "flee": [(3, 3)]})
    assert b.one(events, "PanicCaused").units == ("a",)
    assert g.state.units["a"].status == "fleeing"
    g.submit({"cmd": "end_charges", "by": "red"})
    assert g.state.phase.endswith("rally")   # no charge to move; the panicked unit rallies


def fled_last_turn(flee: tuple[int, int]):
    """Blue's unit fled from a charge that fell short; now blue's turn comes to rallying."""
    g = b.game([b.unit("a", "red", 36, 10, 0), b.unit("x", "blue", 36, 20, 180)])
    b.declare(g, "a", "x", "flee", flee)
    b.charge(g, "a", (1, 1))
    b.next_turn(g)
    g.submit({"cmd": "end_charges", "by": "blue"})
    return g


def test_rally_test_a_pass_rallies_and_faces_the_enemy():
    g = fled_last_turn((2, 2))
    events = b.answer(g, {"rally": [(3, 3)]})
    assert b.one(events, "UnitRallied").unit == "x"
    assert g.state.units["x"].status == "ready" and g.state.units["x"].facing == 180.0


def test_rally_test_a_fail_flees_again_and_a_quarter_left_needs_a_double_one():
    g = fled_last_turn((1, 1))
    events = b.answer(g, {"rally": [(5, 5)], "flee": [(2, 1)]})
    assert not b.one(events, "LeadershipTested").passed
    assert b.one(events, "UnitFled").distance == 3
    worn = g.state.units["x"].evolve(models=5)         # 5 of 20: a quarter
    state = g.state.with_unit(worn)
    from regiment.core.state import Awaiting

    aw = Awaiting(purpose="rally", unit="x", player="blue", dice=2)
    out = g.preset.flights._ld_then_flee(state, aw, (2, 2), "rally")
    assert not out[0].passed
    out = g.preset.flights._ld_then_flee(state, aw, (1, 1), "rally")
    assert out[0].passed
