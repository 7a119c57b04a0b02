"""SK.MOVE: which squads may move, how far, and whether the places given may be reached.
Pure functions of the state; a problem is returned as a reason, never raised. Each model
moves in a straight line from where it stands to where the move puts it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from regiment.core import geometry as geo
from regiment.core.geometry import lazy_shapely as shp
from regiment.core.i18n import tr
from regiment.phases.common.sight import walls

from ..scenario import COHERENCY
from ..state import SkirmishState, Squad

MOVEMENT = 6.0   # SK.MOVE: inches, where the profile gives no Movement
APART = 1.0      # SK.MOVE: a move ends more than this from every enemy model


def why_not_mover(state: SkirmishState, s: Squad) -> str:
    """SK.MOVE: why ``s`` may not move ("" when it may): the active player's, on the table,
    not locked in combat nor falling back, and it did not move already this turn."""
    if s.player != state.player:
        return tr("{unit} is not {player}'s", unit=s.name, player=state.player)
    if s.status != "ready" or not s.models:
        return tr("{unit} is {status}", unit=s.name, status=s.status.replace("_", " "))
    if s.moved:
        return tr("{unit} has moved this turn", unit=s.name)
    return ""


def allowance(s: Squad) -> float:
    """SK.MOVE: how far each model may go: its Movement, 6" where its profile has none, or
    the highest of the 2D6 the squad rolled for difficult terrain, where it is lower."""
    m = float(s.profile.get("M", MOVEMENT))
    return min(m, float(s.terrain_roll)) if s.terrain_roll else m


def ends(s: Squad, path: Sequence[Any], x: float | None, y: float | None,
         strict: bool = False) -> tuple[tuple[geo.Circle, ...] | None, str]:
    """Where each model ends: the ``path`` (an [x, y] a model, in the squad's order), or the
    whole squad moved so that its first model ends at (``x``, ``y``). ``strict`` (games from
    0.13.0): one of the two, and ``x`` with ``y`` (before, a path beside them was taken and
    they were not)."""
    if strict and path and (x is not None or y is not None):
        return None, tr("give a place for each model or x and y for the first, not both")
    if strict and (x is None) != (y is None):
        return None, tr("x and y go together: give both, or a place for each model")
    if path:
        if len(path) != len(s.models):
            return None, tr("give {n} places, one for each model of {unit}", n=len(s.models),
                            unit=s.name)
        out = []
        for i, p in enumerate(path):
            if not (len(p) == 2 and all(type(v) in (int, float) and -1e6 <= v <= 1e6
                                        for v in p)):
                return None, tr("path[{i}] is not an [x, y] place", i=i)
            out.append((float(p[0]), float(p[1]), s.models[i][2]))
        return tuple(out), ""
    if x is None or y is None:
        return None, tr("say where {unit} goes: a place for each model, or x and y for its "
                        "first", unit=s.name)
    dx, dy = x - s.models[0][0], y - s.models[0][1]
    return tuple((m[0] + dx, m[1] + dy, m[2]) for m in s.models), ""


def through_difficult(state: SkirmishState, s: Squad, after: Sequence[geo.Circle]) -> bool:
    """SK.MOVE: whether any model's path crosses the table's difficult terrain."""
    areas = geo.walls_of(state.table.get("difficult", ()))
    return any(shp.LineString([a[:2], b[:2]]).buffer(a[2]).intersects(t)
               for a, b in zip(s.models, after, strict=True) for t in areas
               if (a[0], a[1]) != (b[0], b[1]))


def problem(state: SkirmishState, s: Squad, after: Sequence[geo.Circle]) -> str:
    """SK.MOVE, SK.COHERENCY: why the squad may not end at ``after`` ("" when it may): no
    model farther than its allowance, through blocking terrain, off the table or on another
    model; the squad in coherency; every model more than 1" from every enemy model."""
    most = allowance(s)
    width, depth = state.table["width"], state.table["depth"]
    blocks = geo.walls_of(walls(state))
    for i, (a, b) in enumerate(zip(s.models, after, strict=True)):
        gone = math.hypot(b[0] - a[0], b[1] - a[1])
        if gone > most + 1e-6:
            return tr("model {i} would move {gone}\" and may move {most}\"", i=i + 1,
                      gone=format(round(gone, 2), "g"), most=format(most, "g"))
        if not geo.circle_on_table(b, width, depth):
            return tr("model {i} would leave the table", i=i + 1)
        if blocks and any(shp.LineString([a[:2], b[:2]]).buffer(a[2]).intersects(w)
                          for w in blocks):
            return tr("model {i} would cross blocking terrain", i=i + 1)
    others = state.others(s.id)
    for i, b in enumerate(after):
        if geo.circle_blocked(b, others) or geo.circle_blocked(b, [*after[:i], *after[i + 1:]]):
            return tr("model {i} would stand on another model", i=i + 1)
    if len(after) > 1 and not geo.chained(list(after), COHERENCY):
        return tr("the squad would lose coherency (each model within {d}\" of another)",
                  d=format(COHERENCY, "g"))
    foes = [c for q in state.squads.values() if q.player != s.player and q.on_table
            for c in q.models]
    if any(geo.circle_gap(b, f) <= APART for b in after for f in foes):
        return tr("a model would end within 1\" of an enemy model")
    return ""


def farthest_gone(s: Squad, after: Sequence[geo.Circle]) -> float:
    """How far the model that went farthest moved, to 1/10000"."""
    return round(max(math.hypot(b[0] - a[0], b[1] - a[1])
                     for a, b in zip(s.models, after, strict=True)), 4)
