"""MOVE.*: the fantasy remaining moves (engine 0.12.0): each kind of move, what it costs, what
forbids it, the Leadership tests of a march and of a musician's reform, and table mode."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from regiment.core import geometry as geo
from regiment.core.errors import IllegalCommand, InvalidScenario
from regiment.core.i18n import language
from regiment.phases.fantasy.moving import aims, paths
from regiment.phases.fantasy.moving.paths import Leg
from regiment.phases.fantasy.units import box

from . import battle as b

WIDTH = 5 * 20 / geo.MM_PER_INCH    # a 20-model unit five wide on 20 mm bases


def moving(units, **top):
    return b.game(units, phase="remaining", **top)


def move(g, unit="men", by="red", **fields):
    return g.submit({"cmd": "move", "by": by, "unit": unit, **fields})


def refused(g, **fields):
    return b.refused(g, move, **fields)   # a refused move changes nothing


def moved(events):
    return [e for e in events if e.type == "UnitMoved"]


def far_foe():
    return b.unit("foe", "blue", 36, 44, 180)


def test_move_remaining_each_unit_moves_once_and_the_decision_offers_it():
    g = moving([b.unit("men", "red", 36, 10, 0), far_foe()])
    offered = [c for c in g.pending.legal if c.name == "move"]
    assert {c.unit for c in offered} == {"men"} and {c.kind for c in offered} == {
        "forward", "march"}
    events = move(g, path=[["forward", 3]])
    (m,) = moved(events)
    assert (m.reason["code"], m.position, m.facing, m.distance) == \
        ("forward", (36.0, 13.0), 0.0, 3.0)
    assert g.state.context.moves == {"men": "forward"}
    assert "has made its move" in str(refused(g, path=[["forward", 1]]))
    assert not [c for c in g.pending.legal if c.name == "move"]


def test_move_remaining_a_unit_that_may_not_move_is_refused_with_the_rule():
    g = moving([b.unit("men", "red", 36, 10, 0), far_foe()])
    err = refused(g, unit="foe", by="red", path=[["forward", 1]])
    assert err.rule == "MOVE.REMAINING" and "not red's" in str(err)
    assert refused(g, by="blue", path=[["forward", 1]]).rule == "MOVE.REMAINING"
    assert refused(g, kind="gallop").rule == "MOVE.REMAINING"


def test_move_remaining_games_begun_before_0_12_0_make_no_remaining_moves():
    g = b.old_game([b.unit("men", "red", 36, 10, 0), far_foe()], engine="0.11.0",
                   phase="remaining")
    assert not [c for c in g.pending.legal if c.name == "move"]
    assert "0.12.0" in str(refused(g, path=[["forward", 1]]))


def test_move_forward_up_to_its_movement_and_no_farther():
    g = moving([b.unit("men", "red", 36, 10, 0), far_foe()])
    err = refused(g, path=[["forward", 4.5]])
    assert err.rule == "MOVE.FORWARD" and "4.5\"" in str(err) and "4\"" in str(err)
    assert refused(g, path=[["forward", -1]]).rule == "MOVE.FORWARD"
    assert refused(g, path=[["back", 1]]).rule == "MOVE.FORWARD"    # not a leg of this kind
    (m,) = moved(move(g, x=36.0, y=14.0, facing=0.0))   # an end given: straight there
    assert m.position == (36.0, 14.0) and m.distance == 4.0


def test_move_wheel_costs_the_outer_corners_arc_and_keeps_the_inner_corner():
    g = moving([b.unit("men", "red", 36, 10, 0), far_foe()])
    fl, fr, _, _ = geo.corners(box(g.state.units["men"]))
    (m,) = moved(move(g, path=[["wheel", 45]]))    # clockwise: about the right front corner
    assert m.distance == pytest.approx(WIDTH * math.pi / 4, abs=1e-4)
    after = geo.corners(box(g.state.units["men"]))
    assert after[1] == pytest.approx(fr, abs=1e-3) and after[0] != pytest.approx(fl)
    assert m.facing == 45.0


def test_move_wheel_beyond_the_movement_is_refused():
    g = moving([b.unit("men", "red", 36, 10, 0), far_foe()])
    err = refused(g, path=[["forward", 2], ["wheel", -45]])   # 2 + 3.94 x pi/4 > 4
    assert err.rule == "MOVE.FORWARD" and "uses 5.0921\"" in str(err)


def test_move_wheel_an_end_is_reached_by_forward_wheel_and_forward_again():
    start = geo.Box(36.0, 10.0, 0.0, WIDTH, 3.15)
    legs = (Leg("forward", 1.0), Leg("wheel", -20.0), Leg("forward", 1.0))
    end = paths.walk(start, legs)
    found = paths.reach(start, end.x, end.y, end.facing, "forward")
    assert found is not None
    assert [leg.kind for leg in found] == ["forward", "wheel", "forward"]
    assert [leg.amount for leg in found] == pytest.approx([1.0, -20.0, 1.0], abs=1e-3)
    g = moving([b.unit("men", "red", 36, 10, 0), far_foe()])
    (m,) = moved(move(g, x=end.x, y=end.y, facing=end.facing))
    assert m.position == pytest.approx((end.x, end.y), abs=1e-3)
    behind = refused(moving([b.unit("men", "red", 36, 10, 0), far_foe()]), x=36.0, y=8.0,
                     facing=0.0)
    assert behind.rule == "MOVE.FORWARD" and "give its path" in str(behind)


def test_move_turn_costs_a_quarter_of_the_movement_about_the_centre():
    g = moving([b.unit("men", "red", 36, 10, 0), far_foe()])
    centre = geo.centre(box(g.state.units["men"]))
    assert refused(g, path=[["turn", 45]]).rule == "MOVE.TURN"
    (m,) = moved(move(g, path=[["turn", 90], ["forward", 3]]))
    assert m.distance == 4.0 and m.facing == 90.0
    g2 = moving([b.unit("men", "red", 36, 10, 0), far_foe()])
    move(g2, path=[["turn", 180]])
    assert geo.centre(box(g2.state.units["men"])) == pytest.approx(centre, abs=1e-3)
    assert g2.state.units["men"].facing == 180.0


def test_move_reform_about_its_centre_is_its_whole_move():
    g = moving([b.unit("men", "red", 36, 10, 0), far_foe()])
    centre = geo.centre(box(g.state.units["men"]))
    assert refused(g, kind="reform", files=0).rule == "MOVE.REFORM"
    err = refused(g, kind="reform", files=10, path=[["forward", 1]])   # no musician
    assert err.rule == "MOVE.REFORM" and "musician" in str(err)
    (m,) = moved(move(g, kind="reform", files=10, facing=90))
    assert (m.reason["code"], m.files, m.facing) == ("reform", 10, 90.0)
    men = g.state.units["men"]
    assert men.files == 10 and geo.centre(box(men)) == pytest.approx(centre, abs=1e-3)
    assert g.state.context.moves == {"men": "reform"}


def test_move_spacing_a_reform_wider_than_the_unit_keeps_clear_of_its_neighbours():
    """MOVE.REFORM, MOVE.SPACING: twenty wide, the unit stands 15.7" across about its centre:
    a friend beside it, 4" from its old flank, is in the way (and so is 1" of it)."""
    friend = b.unit("friend", "red", 44, 10, 0)   # 42.03 to 45.97 across
    g = moving([b.unit("men", "red", 36, 10, 0), friend, far_foe()])   # 34.03 to 37.97
    err = refused(g, kind="reform", files=20)
    assert err.rule == "MOVE.SPACING" and "Friend" in str(err)
    (m,) = moved(move(g, kind="reform", files=8))   # 6.3" across: 1.03" from the friend
    assert m.files == 8


def test_move_reform_a_musician_passing_its_test_moves_after_it():
    men = b.unit("men", "red", 36, 10, 0, command=["musician"])
    g = moving([men, far_foe()])
    move(g, kind="reform", files=4, path=[["forward", 3]])
    assert g.pending.kind == "roll" and g.pending.purpose == "reform_move"
    events = b.answer(g, {"reform_move": [(3, 3)]})
    test = b.one(events, "LeadershipTested")
    assert test.passed and test.purpose == "reform_move"
    assert [m.reason["code"] for m in moved(events)] == ["reform", "forward"]
    g2 = moving([men, far_foe()])
    move(g2, kind="reform", files=4, path=[["forward", 3]])
    events = b.answer(g2, {"reform_move": [(6, 5)]})
    assert not b.one(events, "LeadershipTested").passed
    assert [m.reason["code"] for m in moved(events)] == ["reform"]   # reformed, no move after
    assert g2.state.units["men"].files == 4


def test_move_back_and_sideways_at_half_rate():
    g = moving([b.unit("men", "red", 36, 20, 0), far_foe()])
    assert refused(g, kind="back", path=[["back", 2.5]]).rule == "MOVE.BACK"   # 5" of 4"
    assert refused(g, kind="back", path=[["wheel", 10]]).rule == "MOVE.BACK"
    (m,) = moved(move(g, kind="back", path=[["back", 2]]))
    assert (m.reason["code"], m.position, m.distance) == ("back", (36.0, 18.0), 4.0)
    g2 = moving([b.unit("men", "red", 36, 20, 0), far_foe()])
    (m,) = moved(move(g2, kind="sideways", x=34.5, y=20.0, facing=0.0))
    assert (m.reason["code"], m.position, m.distance) == ("sideways", (34.5, 20.0), 3.0)


def test_move_march_at_double_movement_with_no_enemy_near():
    g = moving([b.unit("men", "red", 36, 10, 0), far_foe()])
    assert refused(g, kind="march", path=[["turn", 90]]).rule == "MOVE.MARCH"
    events = move(g, kind="march", path=[["forward", 8]])
    assert not b.of(events, "LeadershipTested")
    (m,) = moved(events)
    assert (m.reason["code"], m.distance) == ("march", 8.0)
    assert g.state.context.moves["men"] == "march"


def test_move_march_an_enemy_within_8_inches_calls_for_a_leadership_test():
    near = b.unit("foe", "blue", 44, 10, 270)   # beside the men, 6" off their right flank
    g = moving([b.unit("men", "red", 36, 10, 0), near])
    move(g, kind="march", path=[["forward", 8]])
    assert g.pending.kind == "roll" and g.pending.purpose == "march"
    events = b.answer(g, {"march": [(6, 6)]})
    assert not b.one(events, "LeadershipTested").passed and not moved(events)
    err = refused(g, kind="march", path=[["forward", 8]])
    assert err.rule == "MOVE.MARCH" and "normal move" in str(err)
    (m,) = moved(move(g, path=[["forward", 4]]))   # its normal move is left
    assert m.reason["code"] == "forward"
    g2 = moving([b.unit("men", "red", 36, 10, 0), near])
    move(g2, kind="march", path=[["forward", 8]])
    events = b.answer(g2, {"march": [(2, 3)]})
    assert b.one(events, "LeadershipTested").passed and moved(events)[0].distance == 8.0


def test_move_march_a_fleeing_enemy_near_calls_for_no_test():
    near = b.unit("foe", "blue", 44, 10, 270)
    g = moving([b.unit("men", "red", 36, 10, 0), near])
    men, foe = g.state.units["men"], g.state.units["foe"]
    assert g.preset.moves._enemy_near(g.state, men)
    fled = g.state.evolve(units={**g.state.units, "foe": foe.evolve(status="fleeing")})
    assert not g.preset.moves._enemy_near(fled, men)


def test_move_spacing_never_within_1_inch_on_another_unit_off_the_table_or_in_terrain():
    friend = b.unit("friend", "red", 36, 17, 0)   # its rear 3.15" behind y = 17
    g = moving([b.unit("men", "red", 36, 10, 0), friend, far_foe()],
               table={"width": 72.0, "depth": 48.0,
                      "blocking": [[[31, 7], [33, 7], [33, 11], [31, 11]]]})
    close = refused(g, path=[["forward", 3.5]])   # would end 0.35" from the friend
    assert close.rule == "MOVE.SPACING" and "within 1\" of Friend" in str(close)
    assert "stand on Friend" in str(refused(g, kind="march", path=[["forward", 8]]))
    edge = moving([b.unit("men", "red", 36, 2, 180), far_foe()])
    assert "leave the table" in str(refused(edge, path=[["forward", 3]]))
    wall = refused(g, kind="sideways", path=[["sideways", -1.5]])   # its left edge in the wall
    assert wall.rule == "MOVE.SPACING" and "impassable terrain" in str(wall)
    (m,) = moved(move(g, path=[["forward", 2.8]]))   # 1.05" short of the friend
    assert m.position == (36.0, 12.8)


def test_move_spacing_terrain_blocks_the_path_not_only_the_end():
    wall = [[[35, 12], [37, 12], [37, 12.5], [35, 12.5]]]
    g = moving([b.unit("men", "red", 36, 10, 0), far_foe()],
               table={"width": 72.0, "depth": 48.0, "blocking": wall})
    err = refused(g, path=[["forward", 4]])   # the wall is crossed on the way
    assert err.rule == "MOVE.SPACING" and "impassable" in str(err)


def test_move_table_mode_asks_how_much_of_the_move_was_used():
    g = moving([b.unit("men", "red", 36, 10, 0), far_foe()],
               table={"width": 72.0, "depth": 48.0, "measured": True})
    move(g, kind="march")
    p = g.pending
    assert p.kind == "measurement" and p.question == "within:men:8"
    g.submit({"cmd": "measure", "by": "red", "value": "none"})
    p = g.pending
    assert p.kind == "measurement" and p.question == "moved:men" and p.most == 8.0
    with pytest.raises(IllegalCommand) as err:
        g.submit({"cmd": "measure", "by": "red", "value": 9})
    assert "more than the move allows (8\")" in str(err.value)
    events = g.submit({"cmd": "measure", "by": "red", "value": 7.5})
    (m,) = moved(events)
    assert (m.reason["code"], m.position, m.distance) == ("march", None, 7.5)
    told = g.preset.sentence("UnitMoved", m.to_data(), g.state)
    assert "Men march on the table, using 7.5\"" in told and "(MOVE.MARCH" in told


def test_move_narration_in_english_and_russian():
    g = moving([b.unit("men", "red", 36, 10, 0), far_foe()])
    (m,) = moved(move(g, path=[["wheel", 20], ["forward", 2]]))
    en = g.preset.sentence("UnitMoved", m.to_data(), g.state)
    assert "Men move to (" in en and "of their move" in en and "(MOVE.FORWARD" in en
    with language("ru"):
        ru = g.preset.sentence("UnitMoved", m.to_data(), g.state)
    assert "MOVE.FORWARD" in ru and ru != en and "move" not in ru.split("(")[0]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["forward", "march", "back", "sideways"]),
       legs=st.lists(st.tuples(st.sampled_from(["forward", "wheel", "turn", "back",
                                                "sideways"]),
                               st.floats(-90, 90, allow_nan=False)), min_size=1, max_size=3),
       facing=st.sampled_from([0.0, 90.0, 180.0, 270.0, 33.0]))
def test_move_spacing_no_accepted_move_ends_on_near_or_off_another_unit(kind, legs, facing):
    """Property: whatever path is sent, a move the engine accepts ends on the table, on no
    unit, at least 1" from every other unit and out of the wall."""
    units = [b.unit("men", "red", 30, 20, facing), b.unit("friend", "red", 40, 22, 90),
             b.unit("foe", "blue", 28, 32, 180)]
    wall = [[[20, 14], [24, 14], [24, 15], [20, 15]]]
    g = moving(units, table={"width": 60.0, "depth": 44.0, "blocking": wall})
    path = [[k, 90.0 if k == "turn" else round(a, 2)] for k, a in legs]
    try:
        move(g, kind=kind, path=path)
    except IllegalCommand:
        return
    while g.pending.kind == "roll":
        b.answer(g, default=1)
    st_ = g.state
    men = box(st_.units["men"])
    assert geo.on_table(men, 60.0, 44.0)
    for other in ("friend", "foe"):
        assert geo.gap(men, box(st_.units[other])) >= 1.0 - 1e-3
    assert not geo.polygon(men).intersects(geo.walls_of(wall)[0])


def offered_moves(g, unit="men"):
    return [c for c in g.pending.legal if c.name == "move" and c.unit == unit]


def worked_out_afresh(g, unit="men"):
    st_ = g.state
    u = st_.units[unit]
    kinds = ("forward",) if unit in st_.context.march_failed else ("forward", "march")
    return aims._straight(st_, u, u.player, kinds) + aims.turn_moves(st_, u)


def test_move_remaining_a_units_offered_moves_are_kept_only_while_nothing_near_changes():
    """The moves a decision offers are kept with the unit's value by what else they depend
    on: the same unit value offers a shorter move once a friend stands in its way, and the
    full one again when the friend stands beyond its reach."""
    g = moving([b.unit("men", "red", 36, 10, 0), b.unit("friend", "red", 60, 30, 0),
                far_foe()])
    st_ = g.state
    men = st_.units["men"]
    friend = st_.units["friend"]

    def runs(friend_at):
        later = st_.evolve(units={**st_.units, "friend": friend.evolve(position=friend_at)})
        assert later.units["men"] is men   # the same unit value, asked in another state
        got = aims.straight_moves(later, men)
        assert got == aims._straight(later, men, "red", ("forward", "march"))
        return {c.kind: c.path[0][1] for c in got}

    assert runs((60.0, 30.0)) == {"forward": 4.0, "march": 8.0}
    assert runs((36.0, 17.0)) == {"forward": 2.85}   # 1" short of its rear (13.85): no march
    assert runs((60.0, 30.0)) == {"forward": 4.0, "march": 8.0}
    assert offered_moves(g) == worked_out_afresh(g)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(x=st.floats(1, 59), y=st.floats(1, 43), facing=st.floats(0, 359.9),
       kind=st.sampled_from(["forward", "march"]))
def test_move_spacing_an_empty_path_always_fits(x, y, facing, kind):
    """MOVE.SPACING: a path of no legs is the unit where it stands, which the rules never
    refuse, wherever it is (even 1" from a friend, or at the table's edge): the farthest
    straight move (``aims.farthest``) does not check it."""
    from regiment.phases.fantasy.moving import rules

    try:
        g = moving([b.unit("men", "red", x, y, facing), b.unit("friend", "red", 30, 20, 0),
                    far_foe()])
    except InvalidScenario:
        assume(False)   # (off the table, or on another unit)
    u = g.state.units["men"]
    assert isinstance(rules.check(g.state, u, kind, (), 0, u.facing, None), rules.Plan)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(friend=st.tuples(st.floats(20, 52), st.floats(4, 30)),
       wall=st.tuples(st.floats(26, 46), st.floats(12, 24)))
def test_move_remaining_the_forward_move_offered_is_the_farthest(friend, wall):
    """MOVE.FORWARD, MOVE.SPACING: the forward move offered beside a march is the farthest
    the rules allow on its own, with a friend and a wall anywhere (the march's run stands
    for it when it reaches a Movement: a clear straight path is clear over any shorter
    one)."""
    x, y = wall
    try:
        g = moving([b.unit("men", "red", 36, 10, 0), b.unit("friend", "red", *friend, 0),
                    far_foe()],
                   table={"width": 72.0, "depth": 48.0,
                          "blocking": [[[x, y], [x + 3, y], [x + 3, y + 0.5], [x, y + 0.5]]]})
    except InvalidScenario:
        assume(False)   # (the friend on the men, or in the wall)
    st_, men = g.state, g.state.units["men"]
    offered = {c.kind: c.path[0][1] for c in aims._straight(st_, men, "red",
                                                            ("forward", "march"))}
    alone = aims.farthest(st_, men, "forward", (), 4.0)
    assert offered.get("forward", 0.0) == (alone if alone > 0 else 0.0)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=st.tuples(st.floats(20, 52), st.floats(4, 30)),
       then=st.tuples(st.floats(20, 52), st.floats(4, 30)),
       facing=st.sampled_from([0.0, 90.0, 200.0]))
def test_move_remaining_kept_moves_follow_a_friend_anywhere(first, then, facing):
    """Property: a unit's moves worked out with a friend in one place, then asked of the same
    unit value with the friend in another (ahead, beside, behind, touching its path's 1"),
    are the ones worked out afresh there: what they are kept by misses nothing they depend
    on (MOVE.SPACING)."""
    g = moving([b.unit("men", "red", 36, 10, 0), b.unit("friend", "red", 60, 30, 0),
                far_foe()])
    st_ = g.state
    men, friend = st_.units["men"], st_.units["friend"]
    for at in (first, then):
        later = st_.evolve(units={**st_.units, "friend": friend.evolve(position=at,
                                                                       facing=facing)})
        if geo.overlaps(box(later.units["friend"]), box(men)):
            continue   # (no state of a game stands them on each other)
        assert aims.straight_moves(later, men) == aims._straight(later, men, "red",
                                                                 ("forward", "march"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(x=st.floats(20, 52), y=st.floats(12, 30), facing=st.sampled_from([0.0, 90.0, 200.0]))
def test_move_remaining_offered_moves_are_those_worked_out_afresh(x, y, facing):
    """Property: wherever a friend stands, the moves offered (kept with each unit's value)
    are the ones the rules work out for that state from nothing."""
    try:
        g = moving([b.unit("men", "red", 36, 10, 0), b.unit("friend", "red", x, y, facing),
                    far_foe()])
    except InvalidScenario:
        assume(False)   # (the two stand on each other)
    for unit in ("men", "friend"):
        assert offered_moves(g, unit) == worked_out_afresh(g, unit)


@settings(max_examples=200, deadline=None)
@given(w=st.floats(0.5, 10), d=st.floats(0.5, 12), facing=st.floats(0, 359),
       legs=st.lists(st.tuples(st.sampled_from(["forward", "wheel", "turn", "back",
                                                "sideways"]),
                               st.floats(-120, 120, allow_nan=False)), min_size=1, max_size=4))
def test_move_spacing_a_path_never_goes_beyond_its_reach(w, d, facing, legs):
    """Property: no corner of any place a path is checked at (``paths._stations``) ends up
    farther from where it began than ``reach_of`` says: so the units beyond it (and 1"
    more) may go unmeasured."""
    start = geo.Box(30.0, 30.0, facing, w, d)
    path = [Leg(k, 90.0 if k == "turn" else a) for k, a in legs]
    reach = paths.reach_of(path, w, d)
    x0, y0, x1, y1 = geo.bounds(start)
    here = start
    for leg in path:
        for station in paths._stations(here, leg):
            for cx, cy in geo.corners(station):
                assert x0 - reach - 1e-9 <= cx <= x1 + reach + 1e-9
                assert y0 - reach - 1e-9 <= cy <= y1 + reach + 1e-9
        here = paths.after(here, leg)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=st.integers(1, 20), facing=st.sampled_from([0.0, 90.0, 180.0, 270.0, 33.0]),
       x=st.floats(24, 48), y=st.floats(14, 30))
def test_move_spacing_no_accepted_reform_stands_on_or_near_another_unit(files, facing, x, y):
    """Property: whatever frontage and facing a reform asks for, with a friend anywhere
    near, a reform the engine accepts leaves the unit on the table and at least 1" from
    every other unit."""
    try:
        g = moving([b.unit("men", "red", 36, 20, 0), b.unit("friend", "red", x, y, 90),
                    b.unit("foe", "blue", 28, 40, 180)],
                   table={"width": 72.0, "depth": 48.0})
    except InvalidScenario:
        assume(False)   # (the two stand on each other)
    st_ = g.state
    start = {o: geo.gap(box(st_.units["men"]), box(st_.units[o])) for o in ("friend", "foe")}
    try:
        move(g, kind="reform", files=files, facing=facing)
    except IllegalCommand:
        return
    men = box(g.state.units["men"])
    assert geo.on_table(men, 72.0, 48.0)
    for other in ("friend", "foe"):
        assert geo.gap(men, box(g.state.units[other])) >= min(1.0, start[other]) - 1e-3


def test_move_remaining_a_state_kept_for_undo_lets_go_of_its_old_units_answers():
    """A state kept only for undo (``forget`` with the newest state) drops the moves and
    charges kept with its unit values that the newest state no longer holds; the values it
    shares with the newest keep theirs."""
    from regiment.core.state import forget

    g = moving([b.unit("men", "red", 36, 10, 0), b.unit("friend", "red", 50, 10, 0),
                far_foe()])
    old = g.state
    assert g.pending.legal   # the decision lists every unit's moves: each value keeps its own
    assert getattr(old.units["men"], "_moves", None) is not None
    assert getattr(old.units["friend"], "_moves", None) is not None
    move(g, path=[["forward", 2]])
    newest = g.state
    assert newest.units["friend"] is old.units["friend"]
    assert newest.units["men"] is not old.units["men"]
    forget(old, newest)
    assert getattr(old.units["men"], "_moves", None) is None
    assert getattr(old.units["friend"], "_moves", None) is not None


def test_move_turn_a_unit_facing_the_table_edge_is_offered_its_turns_and_the_bot_turns_it():
    """MOVE.TURN, MOVE.REMAINING (issue 54 row 13): boyz left facing the table's edge 0.3"
    away, their enemy behind them: the decision offers their turns, and the bot turns them
    to the enemy rather than march the 0.3" left to the edge."""
    from regiment.phases.fantasy.bot import choose

    # facing 180 at y = 0.3: its front 0.3" from the bottom edge, the foe behind it
    g = moving([b.unit("boyz", "red", 36, 0.3, 180), b.unit("foe", "blue", 36, 30, 180)])
    offered = offered_moves(g, "boyz")
    turns = {c.path for c in offered if c.path and c.path[0][0] == "turn"}
    assert (("turn", 180.0),) in turns   # (a quarter turn would put its flank off the edge)
    chosen = choose(g.state, g.pending)
    assert chosen.unit == "boyz" and chosen.path[0] in (("turn", 180.0), ("turn", 90.0),
                                                        ("turn", -90.0))
    g.submit(chosen)
    boyz = g.state.units["boyz"]
    assert abs(geo.turn_between(boyz.facing, 0.0)) < 60   # now facing the foe's way


def test_move_turn_any_move_the_rules_allow_can_be_sent_not_only_the_offered():
    """MOVE.WHEEL: a wheel and a shorter move, as a path no decision lists, is taken."""
    g = moving([b.unit("men", "red", 36, 10, 0), far_foe()])
    path = [["wheel", 20], ["forward", 2]]
    assert ("wheel", 20) not in {leg for c in offered_moves(g) for leg in c.path}
    moved = b.one(move(g, path=path), "UnitMoved")
    assert moved.facing == 20.0 and moved.reason["code"] == "forward"


@pytest.mark.parametrize("seed", range(3))
def test_move_remaining_moves_kept_across_a_crowded_battle_are_those_worked_out_afresh(seed):
    """Between two decisions of the remaining moves one unit moves, and the others keep the
    moves worked out for them while no unit entered, left or moved within what they depend
    on (``moving.rules.unmoved``). In 16-unit battles (the bot deciding but for the moves,
    chosen at random), at every such decision each unit's moves offered are those worked
    out from nothing: the same state with every unit a fresh value, nothing kept with it."""
    import random

    from regiment.core.game import Game
    from regiment.core.scenario import parse_scenario
    from regiment.phases.fantasy.moving import rules
    from regiment.store import MemoryStore
    from regiment.tools.bot import choose

    def unit(i, player, y, facing, kind):
        return {"id": f"{player}{i}", "player": player, "catalogue": kind, "models": 10,
                "files": 5, "position": [8.0 + i * 8.0, y], "facing": facing}

    rng = random.Random(seed)
    asked = 0
    for game_seed in range(6):
        game = Game.new(parse_scenario({
            "preset": "fantasy8", "first": "orcs", "dice": "seeded",
            "seed": f"{seed:x}{game_seed:x}", "turns": 3,
            "table": {"width": 72.0, "depth": 48.0},
            "players": [{"id": "orcs"}, {"id": "empire"}],
            "units": [*(unit(i, "orcs", 12.0, 0.0, "orc_boyz") for i in range(8)),
                      *(unit(i, "empire", 36.0, 180.0, "empire_spearmen")
                        for i in range(8))]}), store=MemoryStore())
        while game.pending.kind != "over":
            pending = game.pending
            moves = [c for c in getattr(pending, "legal", ()) if c.name == "move"]
            if getattr(pending, "decision", "") != "remaining_moves" or not moves:
                game.submit(choose(game))
                continue
            asked += 1
            st_ = game.state
            fresh = st_.evolve(units={k: u.evolve() for k, u in st_.units.items()})
            assert moves == [c for u in fresh.units.values() if not rules.still(fresh, u)
                             for c in (*aims.straight_moves(fresh, u),
                                       *aims.turn_moves(fresh, u))]
            game.submit(rng.choice(moves) if rng.random() < 0.9 else choose(game))
        if asked >= 40:
            break
    assert asked >= 40
