"""SHOOT.COVER: a target is in cover when half or more of it is hidden from the shooters by
cover, whether it stands inside the cover or behind it; cover beside the line of fire hides
nothing (games from engine 0.13.0; before, half of it had to stand inside)."""

from __future__ import annotations

import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from regiment.core import geometry as geo

from . import battle as b

EYE = (36.0, 10.0)        # the middle of the archers' front rank (archers at 36, 10, facing 0)
TABLE = {"width": 72.0, "depth": 48.0}


def archers():
    return b.unit("archers", "red", *EYE, 0.0, equipment=["hand_weapon", "bow"])


def aimed(cover, engine=None, foe=(36.0, 20.0)):
    units = [archers(), b.unit("foe", "blue", *foe, 180.0)]
    table = {**TABLE, "hard_cover": [cover]}
    g = (b.old_game(units, engine=engine, phase="shooting", table=table) if engine else
         b.game(units, phase="shooting", table=table))
    events = g.submit({"cmd": "shoot", "by": "red", "unit": "archers", "target": "foe"})
    return g, b.one(events, "ShotsFired")


def test_shoot_cover_a_thin_wall_between_the_shooters_and_the_target_covers_it():
    wall = [[28, 19], [44, 19], [44, 19.5], [28, 19.5]]   # right in front of the foe
    g, e = aimed(wall)
    assert "hard_cover" in e.modifiers
    told = g.preset.sentence("ShotsFired", e.to_data(), g.state)
    assert "(SHOOT.WHO [G]; SHOOT.HIT [G]; SHOOT.COVER" in told
    _, old = aimed(wall, engine="0.12.0")     # 0.12.0: none of it stands inside the wall
    assert "hard_cover" not in old.modifiers


def test_shoot_cover_a_wall_beside_the_line_of_fire_hides_nothing():
    _, e = aimed([[50, 14], [60, 14], [60, 15], [50, 15]])
    assert "hard_cover" not in e.modifiers


def test_shoot_cover_a_wall_the_shooters_stand_at_is_one_they_shoot_over():
    """SHOOT.COVER: the same thin wall 1" in front of the shooters (they stand at it, as the
    border patrol's handgunners do) hides nothing of the target far beyond it."""
    _, e = aimed([[28, 11], [44, 11], [44, 11.5], [28, 11.5]])
    assert "hard_cover" not in e.modifiers


def test_shoot_cover_a_target_standing_inside_the_cover_is_in_it():
    _, e = aimed([[28, 19], [44, 19], [44, 30], [28, 30]])
    assert "hard_cover" in e.modifiers


def sampled_share(eye, target, wall, n=24):
    """The hidden share of ``target`` counted point by point: a grid of its footprint, each
    point hidden when it stands in the wall or the line from the eye to it crosses the wall."""
    poly = geo.polygon(target)
    x0, y0, x1, y1 = poly.bounds
    points = [shapely.Point(x0 + (x1 - x0) * (i + 0.5) / n, y0 + (y1 - y0) * (j + 0.5) / n)
              for i in range(n) for j in range(n)]
    inside = [p for p in points if poly.contains(p)]
    hidden = sum(1 for p in inside if wall.contains(p) or (
        shapely.LineString([eye, (p.x, p.y)]).intersects(wall)
        and not shapely.LineString([eye, (p.x, p.y)]).touches(wall)))
    return hidden / len(inside)


coord = st.floats(0, 60, allow_nan=False)


@settings(max_examples=150, deadline=None)
@given(tx=st.floats(20, 52), ty=st.floats(18, 40), facing=st.floats(0, 360),
       wx=st.floats(10, 62), wy=st.floats(11, 40), length=st.floats(1, 14),
       angle=st.floats(0, 180), thick=st.floats(0.2, 1.0))
def test_shoot_cover_a_thin_wall_covers_exactly_when_half_the_target_is_hidden(
        tx, ty, facing, wx, wy, length, angle, thick):
    """SHOOT.COVER, property: the share hidden agrees with a point-by-point count of the
    footprint (away from the edge of a half), and a wall off the line of fire (clear of the
    hull of the eye and the target) hides nothing."""
    target = geo.Box(tx, ty, facing, 4.0, 3.0)
    wall = shapely.affinity.rotate(shapely.box(wx - length / 2, wy - thick / 2,
                                               wx + length / 2, wy + thick / 2), angle)
    if wall.contains(shapely.Point(EYE)):
        return
    share = geo.hidden_share(EYE, target, [wall])
    counted = sampled_share(EYE, target, wall)
    assert abs(share - counted) < 0.08, (share, counted)
    if counted > 0.58:
        assert share >= 0.5
    if counted < 0.42:
        assert share < 0.5
    fire = shapely.MultiPoint([EYE, *geo.corners(target)]).convex_hull
    if not wall.intersects(fire):
        assert share == 0.0
