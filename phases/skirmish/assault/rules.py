"""The skirmish game's assault declaration and charge (SK.DECLARE, SK.OVERWATCH,
SK.CHARGE_MOVE): which targets a unit may name, overwatch, and whether its first model gets
there. Units are given as their models' round bases (``Circle``)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from regiment.core import geometry as geo
from regiment.core.geometry import lazy_shapely as shp
from regiment.core.i18n import tr

from ..models import in_base_contact
from ..scenario import COHERENCY

MAX_CHARGE = 12.0   # inches: the most 2D6 can reach


def gap(a: Sequence[geo.Circle], b: Sequence[geo.Circle]) -> float:
    """GEO.DISTANCE between two units of models: their two nearest models, edge to edge."""
    hypot = math.hypot   # one expression, no call a pair: the legal charges ask it often
    return max(0.0, min(hypot(m[0] - n[0], m[1] - n[1]) - m[2] - n[2] for m in a for n in b))


def declare_problem(unit: str, primary: str, secondary: str | None, shot_at: str | None,
                    distance: dict[str, float], rapid_fired: bool = False) -> str:
    """SK.DECLARE: why ``unit`` may not charge ``primary`` (and ``secondary``) ("" when it
    may). Both are named at once; they differ; a unit that fired a Rapid Fire gun does not
    assault (SK.SHOOT, ``rapid_fired``); a unit that shot may only take its shooting target
    as its primary one; each must be within reach (12", the most two dice go; every
    unit is in sight on an open table). ``distance`` maps each target to its gap."""
    if rapid_fired:
        return tr("{unit} fired a Rapid Fire gun this turn: it does not assault", unit=unit)
    if secondary is not None and secondary == primary:
        return tr("the secondary target must be another unit than the primary one")
    if shot_at is not None and primary != shot_at:
        return tr("{unit} shot at {target} this turn: only it may be the primary target",
                  unit=unit, target=shot_at)
    for target in (primary, secondary):
        if target is not None and distance[target] > MAX_CHARGE:
            return tr("{target} is {distance}\" away, beyond any charge", target=target,
                      distance=format(distance[target], ".1f"))
    return ""


def disordered(secondary: str | None) -> bool:
    """SK.DECLARE: a charge at two targets is disordered: no +1 attack for charging."""
    return secondary is not None


SNAP_SHOT = 6   # SK.OVERWATCH: what a snap shot needs to hit, whatever the firer's BS


def overwatch_hits(faces: Sequence[int]) -> int:
    """SK.OVERWATCH: snap shots hit on 6s only."""
    return sum(1 for f in faces if f >= SNAP_SHOT)


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


def contact_spot(m: geo.Circle, target: geo.Circle, blockers: Sequence[geo.Circle],
                 reach: float, friends: Sequence[geo.Circle] = ()) -> geo.Circle | None:
    """Where model ``m`` can stand in base contact with ``target`` within ``reach`` of where
    it is, on no other model and (given ``friends``, the models of its unit already moved)
    within coherency of one of them: straight at it if that spot is free, else the nearest
    free spot around it (every 10 degrees)."""
    apart = m[2] + target[2] + 1e-5
    if math.hypot(m[0] - target[0], m[1] - target[1]) - apart > reach + geo.EPS:
        return None   # no spot touching it is within reach
    base = math.atan2(m[1] - target[1], m[0] - target[0])
    # only models near the target can stand on a spot touching it
    near = [b for b in blockers if math.hypot(b[0] - target[0], b[1] - target[1])
            < target[2] + 2 * m[2] + b[2]]
    # the spots nearer the straight line lie nearer the model: the first free one is nearest
    for k in range(36):
        turn = math.radians(10 * ((k + 1) // 2) * (1 if k % 2 else -1))
        c = (target[0] + apart * math.cos(base + turn), target[1] + apart * math.sin(base + turn),
             m[2])
        if math.hypot(c[0] - m[0], c[1] - m[1]) > reach + geo.EPS:
            continue
        if geo.circle_blocked(c, near):
            continue
        if friends and not any(math.hypot(c[0] - f[0], c[1] - f[1]) - c[2] - f[2] <= COHERENCY
                               for f in friends):
            continue
        return c
    return None


def charge_moves(models: Sequence[geo.Circle], primary: Sequence[geo.Circle],
                 secondary: Sequence[geo.Circle], others: Sequence[geo.Circle],
                 allies: Sequence[geo.Circle], reach: float) -> list[geo.Circle] | None:
    """SK.CHARGE_MOVE: where the charging models end, or None when the first cannot reach the
    primary target (then no model moves). The first model (the nearest) goes into contact
    with the primary target; then the others, nearest first: into contact with a model of the
    primary target that no model of ours touches yet; only if none can be reached, with the
    secondary target; else with any model of the primary; else as far toward the primary
    target as the unit's coherency lets them. ``others`` are every other model on the table
    (targets included); ``allies`` the models of the charger's side (a target model touching
    one is engaged already, not free)."""
    first = first_charger(models, primary)
    rest = sorted((i for i in range(len(models)) if i != first),
                  key=lambda i: (min(geo.circle_gap(models[i], t) for t in primary), i))
    order = [first, *rest]
    placed: dict[int, geo.Circle] = {}
    for i in order:
        m = models[i]
        moved = list(placed.values())
        blockers = [*others, *moved, *(models[j] for j in order if j not in placed and j != i)]
        engaged = [in_base_contact(t, [*moved, *allies]) for t in primary]
        near = sorted(range(len(primary)), key=lambda k: geo.circle_gap(m, primary[k]))
        tries = [primary[k] for k in near if not engaged[k]] + sorted(
            secondary, key=lambda t: geo.circle_gap(m, t)) + [primary[k] for k in near
                                                               if engaged[k]]
        spot = next((s for t in tries for s in (contact_spot(m, t, blockers, reach, moved),)
                     if s is not None), None)
        if spot is None and i == first:
            return None
        placed[i] = spot if spot is not None else _follow(m, primary[near[0]], blockers, moved,
                                                          reach)
    return [placed[i] for i in range(len(models))]


def _follow(m: geo.Circle, target: geo.Circle, blockers: Sequence[geo.Circle],
            friends: Sequence[geo.Circle], reach: float) -> geo.Circle:
    """The farthest a model that touches no enemy goes toward ``target`` (up to ``reach``),
    on no other model and within coherency of a friend already moved; where it stands if no
    such spot is on its way. A model left out of coherency is brought to its nearest moved
    friend instead."""
    dx, dy = target[0] - m[0], target[1] - m[1]
    length = math.hypot(dx, dy) or 1.0

    def at(d: float) -> geo.Circle:
        return (m[0] + dx / length * d, m[1] + dy / length * d, m[2])

    def good(c: geo.Circle) -> bool:
        return not geo.circle_blocked(c, blockers) and any(
            geo.circle_gap(c, f) <= COHERENCY for f in friends)

    go = min(reach, max(0.0, geo.circle_gap(m, target) - 1e-4))
    for k in range(41):
        c = at(go * (1 - k / 40))
        if good(c):
            return c
    friend = min(friends, key=lambda f: geo.circle_gap(m, f))
    spot = contact_spot(m, friend, blockers, reach)
    return spot if spot is not None else m


def through(path: Sequence[tuple[geo.Circle, geo.Circle]], areas: Sequence[Sequence[Sequence[
        float]]]) -> bool:
    """SK.TERRAIN: whether any model's move (from, to) crosses an area of difficult terrain."""
    if not areas:
        return False
    shapes = [shp.Polygon(a) for a in areas]
    return any(shp.LineString([(a[0], a[1]), (b[0], b[1])]).buffer(a[2]).intersects(s)
               for a, b in path for s in shapes if (a[0], a[1]) != (b[0], b[1]))
