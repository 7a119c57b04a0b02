"""SK.CONSOLIDATE (issue 14): piling in and consolidating, never onto another model."""

from __future__ import annotations

import pytest

from regiment.core import geometry as geo
from regiment.phases.skirmish.moves import consolidate_problem, pile_in

R = 0.5


def test_sk_consolidate_pile_in_moves_toward_the_enemy_and_stops_in_contact():
    enemy = [(10.0, 15.0, R)]
    mine = [(10.0, 13.0, R),     # 1" away: moves 1" into contact
            (12.0, 10.0, R)]     # far: moves its 3"
    after = pile_in(mine, [], enemy)
    assert geo.circle_gap(after[0], enemy[0]) == pytest.approx(0.0, abs=1e-6)
    moved = ((after[1][0] - 12.0) ** 2 + (after[1][1] - 10.0) ** 2) ** 0.5
    assert moved == pytest.approx(3.0)
    everyone = [*after, *enemy]
    assert not any(geo.circles_overlap(a, b) for i, a in enumerate(everyone)
                   for b in everyone[i + 1:])


def test_sk_consolidate_pile_in_never_onto_another_model():
    enemy = [(10.0, 15.0, R)]
    friend_in_the_way = [(10.0, 13.0, R)]      # of another unit, between them
    after = pile_in([(10.0, 11.0, R)], friend_in_the_way, enemy)
    assert not geo.circles_overlap(after[0], friend_in_the_way[0])
    assert geo.circle_gap(after[0], friend_in_the_way[0]) == pytest.approx(0.0, abs=1e-6)


def test_sk_consolidate_a_proposal_is_checked():
    before = [(10.0, 10.0, R), (11.5, 10.0, R)]
    enemy = [(10.0, 20.0, R)]
    assert consolidate_problem(before, [(10.0, 13.0, R), (11.5, 13.0, R)], [], enemy, 3) == ""
    assert "more than 2\"" in consolidate_problem(before, [(10.0, 13.0, R), (11.5, 13.0, R)],
                                                  [], enemy, 2)
    assert "touch an enemy" in consolidate_problem(
        before, [(10.0, 19.0, R), (11.5, 13.0, R)], [], enemy, 9)
    assert "coherency" in consolidate_problem(before, [(10.0, 10.0, R), (16.0, 10.0, R)], [],
                                              enemy, 6)
    assert "stand on another" in consolidate_problem(
        before, [(10.0, 10.0, R), (10.5, 10.0, R)], [], enemy, 2)


def test_sk_consolidate_only_new_contact_is_forbidden():
    """A pile in toward the nearest enemy model can leave a model touching a unit outside the
    fight; consolidating, it may stay there (the contact is not new) but touch no one else."""
    from regiment.phases.skirmish.moves import consolidate_toward
    before = [(10.0, 10.0, R), (11.5, 10.0, R)]
    outside = [(10.0, 10.0 + 2 * R, R)]                 # touching the first model already
    other = [(30.0, 10.0, R)]
    enemies = [*outside, *other]
    assert consolidate_problem(before, before, [], enemies, 3) == ""
    assert "touch an enemy" in consolidate_problem(
        before, [(10.0, 10.0, R), (10.0 + 2 * R, 10.0 + 2 * R, R)], [], enemies, 3)
    after = consolidate_toward(before, [], enemies, other, 3)
    assert consolidate_problem(before, after, [], enemies, 3) == ""


def test_sk_fall_back_straight_away_from_the_enemy_and_clear_of_any_model():
    from regiment.phases.skirmish.moves import fall_back

    enemy = [(10.0, 12.0, R), (11.0, 12.0, R)]
    mine = [(10.0, 11.0, R), (11.0, 11.0, R)]
    after, off = fall_back(mine, enemy, [], 7, 72, 48)
    assert not off and after[0][:2] == pytest.approx((10.0, 4.0))
    in_the_way = [(10.0, 4.0, R), (11.0, 4.0, R)]        # another unit where it would end
    after, off = fall_back(mine, enemy, in_the_way, 7, 72, 48)
    assert not off and not any(geo.circles_overlap(a, b) for a in after for b in in_the_way)
    assert after[0][1] < 3.0 + 1e-9                       # it went on until clear
    _, off = fall_back(mine, enemy, [], 12, 72, 48)       # 11" takes it over the edge
    assert off


def test_sk_fall_back_with_no_enemy_model_left_it_falls_back_from_the_tables_middle():
    """A squad whose enemies are all gone falls back away from the table's middle (before: a
    division by zero, found by the random skirmish battles of test_no_overlap)."""
    from regiment.phases.skirmish.moves import fall_back

    squad = [(30.0, 20.0, 0.5), (31.0, 20.0, 0.5)]
    moved, off = fall_back(squad, [], [], 4.0, 48.0, 36.0)
    assert not off and all(m[0] > s[0] for m, s in zip(moved, squad, strict=True))
