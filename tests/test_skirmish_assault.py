"""SK.DECLARE, SK.OVERWATCH, SK.CHARGE_MOVE (issue 14): naming targets, snap shots, and the
first model's reach."""

from __future__ import annotations

from regiment.phases.skirmish.assault import (
    charge_reaches,
    declare_problem,
    disordered,
    first_charger,
    gap,
    overwatch_hits,
)

R = 0.5


def test_sk_declare_primary_and_secondary_at_once_within_reach():
    near = {"boyz": 6.0, "grots": 9.0, "nobz": 14.0}
    assert declare_problem("tac", "boyz", "grots", None, near) == ""
    assert disordered("grots") and not disordered(None)       # no +1 attack
    assert "another unit" in declare_problem("tac", "boyz", "boyz", None, near)
    assert "only it may be the primary" in declare_problem("tac", "grots", None, "boyz", near)
    assert declare_problem("tac", "boyz", "grots", "boyz", near) == ""
    assert "beyond any charge" in declare_problem("tac", "boyz", "nobz", None, near)


def test_sk_overwatch_snap_shots_hit_on_sixes():
    assert overwatch_hits((6, 5, 1, 6, 4)) == 2


def test_sk_charge_move_the_first_model_must_reach_the_primary_target():
    tac = [(10.0, 10.0, R), (12.0, 14.0, R), (14.0, 10.0, R)]
    boyz = [(12.0, 20.0, R), (13.0, 21.0, R)]
    assert first_charger(tac, boyz) == 1          # the nearest model goes first
    assert gap(tac, boyz) == 5.0                  # 6" centre to centre, less two radii
    assert charge_reaches(tac, boyz, (3, 2)) and not charge_reaches(tac, boyz, (2, 2))
