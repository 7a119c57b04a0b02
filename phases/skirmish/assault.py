"""The skirmish game's assault declaration and charge (SK.DECLARE, SK.OVERWATCH,
SK.CHARGE_MOVE): which targets a unit may name, overwatch, and whether its first model gets
there. Units are given as their models' round bases (``Circle``)."""

from __future__ import annotations

from collections.abc import Sequence

from regiment.core import geometry as geo

MAX_CHARGE = 12.0   # inches: the most 2D6 can reach


def gap(a: Sequence[geo.Circle], b: Sequence[geo.Circle]) -> float:
    """GEO.DISTANCE between two units of models: their two nearest models, edge to edge."""
    return min(geo.circle_gap(m, n) for m in a for n in b)


def declare_problem(unit: str, primary: str, secondary: str | None, shot_at: str | None,
                    distance: dict[str, float]) -> str:
    """SK.DECLARE: why ``unit`` may not charge ``primary`` (and ``secondary``) ("" when it
    may). Both are named at once; they differ; a unit that shot may only take its shooting
    target as its primary one; each must be within reach (12", the most two dice go; every
    unit is in sight on an open table). ``distance`` maps each target to its gap."""
    if secondary is not None and secondary == primary:
        return "the secondary target must be another unit than the primary one"
    if shot_at is not None and primary != shot_at:
        return f"{unit} shot at {shot_at} this turn: only it may be the primary target"
    for target in (primary, secondary):
        if target is not None and distance[target] > MAX_CHARGE:
            return f"{target} is {distance[target]:.1f}\" away, beyond any charge"
    return ""


def disordered(secondary: str | None) -> bool:
    """SK.DECLARE: a charge at two targets is disordered: no +1 attack for charging."""
    return secondary is not None


def overwatch_hits(faces: Sequence[int]) -> int:
    """SK.OVERWATCH: snap shots hit on 6s only."""
    return sum(1 for f in faces if f == 6)


def first_charger(models: Sequence[geo.Circle], target: Sequence[geo.Circle]) -> int:
    """SK.CHARGE_MOVE: the model that goes first: the nearest to the primary target."""
    return min(range(len(models)), key=lambda i: (min(geo.circle_gap(models[i], t)
                                                       for t in target), i))


def charge_reaches(models: Sequence[geo.Circle], target: Sequence[geo.Circle],
                   faces: Sequence[int]) -> bool:
    """SK.CHARGE_MOVE: the charge succeeds when its first model reaches the primary target
    within the two dice; otherwise no model moves."""
    first = models[first_charger(models, target)]
    return min(geo.circle_gap(first, t) for t in target) <= sum(faces) + geo.EPS
