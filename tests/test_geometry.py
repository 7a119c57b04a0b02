"""Table geometry (GEO.*): arcs, sight, distance, where chargers land, moves and edges."""

from __future__ import annotations

import pytest

from regiment.core import geometry as geo

A = geo.Box(36.0, 20.0, 0.0, 5.0, 4.0)   # front edge y=20, x 33.5..38.5, body down to y=16


def test_geo_arcs_split_by_the_diagonals():
    assert geo.arc(A, (36, 30)) == "front"
    assert geo.arc(A, (36, 5)) == "rear"
    assert geo.arc(A, (50, 18)) == "right"
    assert geo.arc(A, (20, 18)) == "left"
    # just outside a front corner's diagonal the point is in the flank
    assert geo.arc(A, (38.5 + 1.0, 20 + 0.5)) == "right"
    assert geo.arc(A, (38.5 + 0.5, 20 + 1.0)) == "front"


def test_geo_arcs_turn_with_the_unit():
    b = A._replace(facing=90.0)   # faces +x
    assert geo.arc(b, (60, 18)) == "front"
    assert geo.arc(b, (36, 40)) == "left"


def test_geo_arcs_sight_is_the_front_arc():
    """CH.DECLARE's sight: at least part of the target inside the front arc."""
    ahead = geo.Box(36, 30, 180, 5, 2)
    behind = geo.Box(36, 8, 0, 5, 2)
    wide_left = geo.Box(20, 21, 90, 2, 2)
    assert geo.sees(A, ahead)
    assert not geo.sees(A, behind)
    assert not geo.sees(A, wide_left)


def test_geo_distance_is_edge_to_edge():
    b = geo.Box(36, 32, 180, 5, 4)
    assert geo.gap(A, b) == pytest.approx(12.0)
    assert geo.gap(A, geo.Box(36, 20, 180, 5, 4)) == pytest.approx(0.0)


def test_geo_landing_flush_against_the_side_with_most_contact():
    target = geo.Box(36, 40, 180, 8, 3)      # front edge y=40 facing down the table
    charger = geo.Box(38, 30, 10, 5, 4)      # a little off to the side and askew
    end = geo.flush_against(charger, target, "front")
    assert end.facing == pytest.approx(0.0)
    assert end.y == pytest.approx(40.0)
    # the charger's front (5") lies wholly on the target's front (x 32..40); it slides as
    # little as that allows: from x=38 to 37.5, where its right end meets the corner
    assert end.x == pytest.approx(37.5)
    c = geo.contact(target, end)
    assert c is not None and c[0] == "front" and c[2] - c[1] == pytest.approx(5.0, abs=1e-3)


def test_geo_landing_on_a_flank():
    target = geo.Box(36, 40, 0, 5, 4)         # faces +y; its right flank is x=38.5
    charger = geo.Box(50, 38, 270, 5, 4)       # to the right, facing -x
    assert geo.facing_sides(charger, target) == ("right",)
    end = geo.flush_against(charger, target, "right")
    assert end.facing == pytest.approx(270.0)
    assert end.x == pytest.approx(38.5)
    assert geo.contact(target, end)[0] == "right"


def test_geo_even_split_gives_two_sides():
    target = geo.Box(36, 40, 0, 4, 4)          # corner at (38, 40)
    # a charger whose front is centred on the diagonal out of the front-right corner
    charger = geo.Box(42, 44, 225, 4, 2)
    assert set(geo.facing_sides(charger, target)) == {"front", "right"}


def test_geo_arcs_facing_sides_plain_answer_is_shapelys():
    """GEO.ARCS, CH.CHARGE_MOVE: the sides a charger's front faces, answered without shapely
    when the front is plainly inside one arc, are those the shares of its front in every
    arc (shapely's lengths) give: on any table, thin and wide units (whose wedges end
    nearer), fronts on a diagonal (two sides), and from far away."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    def shapely_sides(mover: geo.Box, target: geo.Box) -> tuple[str, ...]:
        shares = geo.side_shares(mover, target)
        best = max(shares.values())
        return tuple(s for s in geo.SIDES if abs(shares[s] - best) <= 1e-4)

    boxes = st.builds(geo.Box, st.floats(-200, 200), st.floats(-200, 200),
                      st.one_of(st.sampled_from([0.0, 45.0, 90.0, 135.0, 225.0, 315.0]),
                                st.floats(0, 359.9999)),
                      st.floats(0.5, 30), st.floats(0.2, 12))

    @settings(max_examples=600, deadline=None)
    @given(boxes, boxes)
    def agree(mover: geo.Box, target: geo.Box) -> None:
        assert geo.facing_sides.__wrapped__(mover, target) == shapely_sides(mover, target)

    agree()
    split = (geo.Box(42, 44, 225, 4, 2), geo.Box(36, 40, 0, 4, 4))   # centred on a diagonal
    assert geo.facing_sides.__wrapped__(*split) == shapely_sides(*split) == ("front", "right")
    thin = geo.Box(0, 0, 0, 40, 0.4)    # its front wedge ends 10" ahead: beyond, a flank's
    far = geo.Box(30, 11, 270, 2, 1)
    assert geo.facing_sides.__wrapped__(far, thin) == shapely_sides(far, thin)


def test_geo_edge_time_and_point():
    b = geo.Box(36, 44, 0, 4, 2)
    t, point = geo.edge_time(b, 0.0, 72, 48)
    assert t == pytest.approx(4.0)
    assert point[1] == pytest.approx(48.0)


def test_geo_free_run_stops_short_of_a_blocker():
    b = geo.Box(36, 20, 0, 4, 2)
    wall = geo.Box(36, 30, 180, 4, 2)
    run = geo.free_run(b, 0.0, 20.0, [wall], 1.0)
    assert run == pytest.approx(9.0, abs=1e-3)
    assert geo.gap(geo.moved(b, run), wall) == pytest.approx(1.0, abs=1e-3)


def test_geo_pivot_keeps_the_centre():
    b = geo.Box(36, 20, 0, 4, 2)
    turned = geo.pivoted(b, 90)
    assert geo.centre(turned) == pytest.approx(geo.centre(b))
    assert turned.facing == 90


def test_geo_area_share_on_a_hill():
    from shapely.geometry import Polygon

    hill = Polygon([(30, 10), (42, 10), (42, 18), (30, 18)])
    assert geo.area_share(A, [hill]) == pytest.approx(0.5)
    assert geo.area_share(geo.moved(A, 10), [hill]) == 0.0


def test_geo_distance_and_overlaps_agree_with_shapely_touching_is_not_overlapping():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    boxes = st.builds(geo.Box, st.floats(0, 20), st.floats(0, 20),
                      st.sampled_from([0.0, 30.0, 90.0, 135.0, 180.0, 271.0]),
                      st.floats(1, 8), st.floats(1, 6))

    @settings(max_examples=300, deadline=None)
    @given(boxes, boxes)
    def agree(a, b):
        area = geo.polygon(a).intersection(geo.polygon(b)).area
        if area > 1e-2:
            assert geo.overlaps(a, b)
        elif area == 0.0:
            assert not geo.overlaps(a, b)
        # GEO.DISTANCE in plain vector maths is shapely's distance
        assert geo.distance(a, b) == pytest.approx(geo.polygon(a).distance(geo.polygon(b)),
                                                   abs=1e-9)

    agree()
    beside = geo.Box(36.0 + 5.0, 20.0, 0.0, 5.0, 4.0)       # flush against A's right side
    assert not geo.overlaps(A, beside) and geo.gap(A, beside) < 1e-9
    assert geo.overlaps(A, geo.Box(37.0, 19.0, 45.0, 2.0, 2.0))


def test_geo_distance_boxes_whose_bounds_are_apart_are_farther_apart_than_that():
    """GEO.DISTANCE: ``apart`` (the cheap look before a distance) never says two boxes are
    more than d apart when they are not; and says so of boxes well apart."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    box = st.builds(geo.Box, st.floats(0, 40), st.floats(0, 40), st.floats(0, 359),
                    st.floats(0.5, 8), st.floats(0.5, 8))

    @settings(max_examples=300, deadline=None)
    @given(a=box, b=box, d=st.floats(0, 12))
    def check(a, b, d):
        if geo.apart(a, b, d):
            assert geo.distance(a, b) > d

    check()
    assert geo.apart(geo.Box(0, 0, 0, 2, 2), geo.Box(10, 0, 0, 2, 2), 5)
    assert not geo.apart(geo.Box(0, 0, 0, 2, 2), geo.Box(3, 0, 0, 2, 2), 1.5)


def test_geo_distance_nearest_is_what_min_over_every_box_gives():
    """GEO.DISTANCE: the ordered scan (``nearest``) names the box ``min`` names, the first of
    equals, by the true gap and by the gap rounded to 1/10000 inch; and it works out fewer
    gaps than there are boxes on a spread-out table."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    coarse = st.floats(0, 40).map(lambda v: round(v, 1))   # many ties, many touching
    box = st.builds(geo.Box, coarse, coarse, st.sampled_from([0.0, 90.0, 180.0, 33.0]),
                    st.sampled_from([2.0, 4.0, 5.0]), st.sampled_from([2.0, 4.0]))

    def rounded(a, b):
        return round(geo.gap(a, b), 4)

    @settings(max_examples=400, deadline=None)
    @given(here=box, others=st.lists(box, max_size=12))
    def check(here, others):
        for measure in (geo.gap, rounded):
            want = min(range(len(others)), key=lambda i: measure(here, others[i]),
                       default=-1)
            assert geo.nearest(here, others, measure) == want

    check()
    # equals: the one looked at first (its bounding rectangle nearer) is the second named
    here = geo.Box(20.0, 20.0, 0.0, 4.0, 2.0)
    tied = [geo.Box(1.0, 39.0, 90.0, 4.0, 2.0), geo.Box(2.0, 0.0, 45.0, 4.0, 2.0)]
    assert rounded(here, tied[0]) == rounded(here, tied[1])
    assert geo.nearest(here, tied, rounded) == 0
    asked = []
    row = [geo.Box(4.0 + 8 * i, 30.0, 180.0, 5.0, 2.0) for i in range(16)]
    here = geo.Box(4.0, 10.0, 0.0, 5.0, 2.0)
    assert geo.nearest(here, row, lambda a, b: asked.append(b) or geo.gap(a, b)) == 0
    assert len(asked) < 4


def test_geo_arcs_sees_what_shapely_says_of_the_front_arc_plain_or_not():
    """GEO.ARCS: whether a target is partly in the front arc, answered by the plain look
    (``_plainly``) where it answers, is shapely's answer (the area of the wedge and the
    target shared is more than EPS); and the plain look answers most pairs of a table."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from regiment.core.geometry.sight import _plainly

    coarse = st.floats(0, 48).map(lambda v: round(v, 2))
    box = st.builds(geo.Box, coarse, coarse, st.sampled_from([0.0, 45.0, 90.0, 180.0, 271.5]),
                    st.sampled_from([0.5, 2.0, 5.0, 40.0]), st.sampled_from([0.5, 1.0, 4.0]))

    def shapely_says(viewer, target):
        shared = geo.arc_region(viewer, "front").intersection(geo.polygon(target)).area
        return float(shared) > geo.EPS

    answered = []

    @settings(max_examples=1500, deadline=None)
    @given(viewer=box, target=box)
    def check(viewer, target):
        plain = _plainly(viewer, target)
        answered.append(plain is not None)
        if plain is not None:
            assert plain == shapely_says(viewer, target)
        assert geo.sees(viewer, target) == shapely_says(viewer, target)

    check()
    assert sum(answered) > 0.5 * len(answered)   # boxes thrown anywhere, over each other
    # on a table, two lines 24" apart: nine pairs in ten answered plainly (the rest have a
    # corner on the edge of the wedge, which shapely says)
    line = [geo.Box(8.0 + 8 * i, 12.0, 0.0, 4.0, 3.0) for i in range(16)]
    facing = [geo.Box(8.0 + 8 * i, 36.0, 180.0, 4.0, 3.0) for i in range(16)]
    plain = [_plainly(a, b) is not None for a in line for b in facing]
    assert sum(plain) > 0.9 * len(plain)
    # the wedge ends 1000" out along its corners: for a wide, shallow unit that is short of
    # the far side of a table, and the plain look keeps to it
    wide, ahead = geo.Box(24.0, 10.0, 0.0, 40.0, 0.5), geo.Box(24.0, 47.0, 180.0, 2.0, 2.0)
    assert not shapely_says(wide, ahead) and not geo.sees(wide, ahead)


def test_geo_contact_a_box_with_a_side_of_no_length_touches_nothing_and_raises_nothing():
    """Issue 56 item 1: ``contact`` divided by a side's length; a unit's box of no depth (its
    models gone, a character left) crashed a challenge accepted with ZeroDivisionError."""
    from regiment.core import geometry as geo

    flat = geo.Box(30.0, 20.0, 0.0, 4.0, 0.0)
    other = geo.Box(30.0, 20.0, 180.0, 4.0, 2.0)
    side, lo, hi = geo.contact(flat, other)   # its front still touches, its flanks do not
    assert side in ("front", "rear") and abs(hi - lo - 4.0) < 1e-6
    assert geo.contact(geo.Box(30.0, 20.0, 0.0, 0.0, 0.0), other) is None
    geo.flush_against(other, geo.Box(10.0, 10.0, 0.0, 0.0, 0.0), "front")
