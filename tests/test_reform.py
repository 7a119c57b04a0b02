"""Combat reform (REF.*): who may, the test, where the unit may go."""

from __future__ import annotations

from regiment.phases.fantasy.state import Combat

from . import battle as b


def drawn(side="front", a_extra=None, b_extra=None, **top):
    """A round that ends in a draw (every die a 1), so the combat goes on."""
    a = b.unit("a", "red", **(a_extra or {}))
    foe = b.against(a, b.unit("b", "blue", **(b_extra or {})), side)
    g = b.game([a, foe], phase="close_combat", **top)
    b.fight(g)
    b.answer(g, default=1)
    return g


def test_ref_who_units_still_fighting_the_active_players_first():
    g = drawn()
    b.reform_first(g)
    assert g.pending.decision == "reform" and g.pending.player == "red"
    g.submit({"cmd": "skip_reform", "by": "red", "unit": "a"})
    assert g.pending.decision == "reform" and g.pending.player == "blue"


def test_ref_who_a_unit_fought_from_two_sides_may_not_reform():
    a = b.unit("a", "red")
    g = b.game([a, b.against(a, b.unit("f", "blue", models=4, files=4), "front")],
               phase="close_combat")
    from regiment.phases.fantasy.reform import rules as reform

    state = g.state
    combat = state.combats["0-a-f"]
    assert reform.reform_options(state, combat, state.units["a"])
    # a second enemy on the flank: two directions, no reform (checked on the table)
    two = b.game([a, b.against(a, b.unit("f", "blue", models=4, files=4), "front"),
                  b.against(a, b.unit("g", "blue", models=4, files=4), "right")],
                 phase="close_combat")
    st = two.state
    fake = Combat(id="x", units=("a", "f", "g"))
    assert reform.reform_options(st, fake, st.units["a"]) == []


def test_ref_placement_turn_to_face_an_enemy_in_the_flank():
    g = drawn(side="right")          # blue's flank bonus wins it: red tests to reform
    b.reform_first(g, "red")
    a = g.state.units["a"]
    faces = [c for c in g.pending.legal if getattr(c, "face", "")]
    assert [c.face for c in faces] == ["b"]
    g.submit(faces[0])
    b.answer(g, {"reform": [(2, 2)]})
    turned = g.state.units["a"]
    assert turned.facing == 90.0 and turned.position != a.position
    from regiment.phases.fantasy.close_combat.combat import side_fought

    assert side_fought(g.state, "a", "b") == "front"
    assert side_fought(g.state, "b", "a") == "front"


def test_ref_contact_no_reform_that_brings_more_enemy_models_into_contact():
    a = b.unit("a", "red")
    g = b.game([a, b.against(a, b.unit("b", "blue", models=10, files=10))],
               phase="close_combat")
    from regiment.phases.fantasy.reform import rules as reform

    state = g.state
    combat = state.combats["0-a-b"]
    # red, 5 wide against 10: wider would touch more blue models, narrower fewer of its own
    assert reform.reform_options(state, combat, state.units["a"]) == []
    # blue may narrow while its models in contact stay as they are
    assert {f for f, _, _, _ in reform.reform_options(state, combat, state.units["b"])} == {8, 9}


def test_ref_test_the_losers_test_with_their_break_test_penalty():
    a = b.unit("a", "red", models=30, profile={"Ld": 9})
    foe = b.against(a, b.unit("b", "blue", models=30), "front")
    g = b.game([a, foe], phase="close_combat")
    b.fight(g)
    b.answer(g, {"to_hit": [(1,) * 20, (6, 6)], "to_wound": [(6, 6)]}, default=1,
             stop="break_test")
    b.answer(g, {"break_test": [(3, 3)]})                   # Ld 9 - 2: holds on 6
    b.reform_first(g, "blue")
    while g.pending.player != "red":
        g.submit(next(c for c in g.pending.legal if c.name == "skip_reform"))
    option = next(c for c in g.pending.legal if c.name == "reform")
    g.submit(option)
    events = b.answer(g, {"reform": [(4, 4)]})
    test = b.one(events, "LeadershipTested")
    assert (test.purpose, test.penalty, test.passed) == ("reform", 2, False)
    assert b.one(events, "ReformSkipped")


def test_ref_order_the_active_player_says_who_reforms_first():
    for first, then in (("red", "blue"), ("blue", "red")):
        g = drawn()
        assert g.pending.decision == "reform_order" and g.pending.player == "red"
        assert {c.first for c in g.pending.legal} == {"red", "blue"}
        b.reform_first(g, first)
        order = []
        while g.pending.kind == "decision" and g.pending.decision == "reform":
            order.append(g.pending.player)
            g.submit(next(c for c in g.pending.legal if c.name == "skip_reform"))
        assert order == [first, then]


def test_ref_order_is_not_asked_when_only_one_side_may_reform():
    a = b.unit("a", "red")
    g = b.game([a, b.against(a, b.unit("b", "blue", models=10, files=10))],
               phase="close_combat")
    b.fight(g)
    b.answer(g, default=1)
    # red, 5 wide against 10, has no reform open: no order to choose, blue decides at once
    assert g.pending.decision == "reform" and g.pending.player == "blue"


def test_cr_no_more_foes_the_winner_may_reform_freely_without_a_test():
    a = b.unit("a", "red", profile={"I": 5, "S": 6})
    g = b.game([a, b.against(a, b.unit("x", "blue", models=5, profile={"I": 1}))],
               phase="close_combat")
    b.fight(g)
    b.answer(g, default=6)                       # the blue unit is wiped out
    assert g.state.units["x"].status == "destroyed" and not g.state.combats
    assert g.pending.decision == "reform" and g.pending.player == "red"
    turns = [c for c in g.pending.legal if getattr(c, "turn", 0)]
    assert {c.turn for c in turns} == {90, 180, 270}
    events = g.submit(next(c for c in turns if c.turn == 180))
    assert not b.of(events, "LeadershipTested")  # a winner reforms without a test
    assert g.state.units["a"].facing == 180.0
    assert g.pending.decision == "end_phase"


def test_ref_who_a_winner_that_pursued_does_not_reform():
    from .test_pursuit import broken

    g = broken()
    g.submit({"cmd": "pursue", "by": "red", "unit": "a", "target": "b"})
    b.answer(g, {"flee": [(6, 6)], "pursuit": [(1, 1)]})
    assert g.pending.decision != "reform"


def test_ref_placement_no_model_moves_more_than_twice_its_movement():
    """S2 p.57: in a reform no model may move more than twice its Movement. Thirty models ten
    wide turning to face an enemy on their flank: however they are placed, some model goes
    5.5"; with Movement 2 (4") they may not, with Movement 3 (6") they may."""
    from regiment.phases.fantasy.reform import rules as reform

    for m, allowed in ((2, False), (3, True)):
        a = b.unit("a", "red", models=30, files=10, profile={"M": m})
        foe = b.against(a, b.unit("b", "blue", models=10, files=5), "right")
        g = b.game([a, foe], phase="close_combat")
        st = g.state
        cmb = next(iter(st.combats.values()))
        checks = reform.reform_checks(st, cmb, st.units["a"])
        turn = [why for (files, face, _, _), why in checks if face == "b"]
        assert turn, checks
        assert (turn[0] == ("", "")) is allowed, (m, turn)
        if not allowed:
            assert turn[0] == ("REF.PLACEMENT", "a model would move more than twice its "
                                                "Movement (4\")")


def test_ref_placement_reforms_kept_across_states_are_those_worked_out_afresh():
    """REF.PLACEMENT, REF.CONTACT: the reforms open to a unit are kept from one state to the
    next while both hold the same units and combat (reform.steps._kept); in every state of
    whole seeded combats, played by the bots, for every unit of the combat being fought,
    what is kept is what the rules work out from that state alone."""
    from regiment.phases.fantasy.flow import fight_of
    from regiment.phases.fantasy.reform import rules, steps
    from regiment.tools.bot import choose

    asked = reused = 0
    for seed in range(12):
        a = b.unit("a", "red", models=20, command=["musician"])
        foe = b.against(a, b.unit("b", "blue", models=15), "front")
        g = b.game([a, foe], phase="close_combat", dice="seeded", seed=f"{seed:x}", turns=4)
        while g.pending.kind != "over":
            st = g.state
            if st.fight is not None:
                cmb = st.combats.get(fight_of(st).combat)
                for u in st.units.values():
                    fresh = (rules.reform_options(st, cmb, u) if cmb is not None
                             else rules.free_reform_options(st, u))
                    hit = steps._KEPT.get((id(st.units), id(cmb), u.id))
                    reused += hit is not None and hit[0] is st.units and hit[1] is cmb
                    assert steps._kept(st, cmb, u) == fresh
                    asked += 1
            g.submit(choose(g))
    assert asked > 50 and reused > 10   # (combats fought; answers kept from a state before)
