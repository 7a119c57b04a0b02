"""Where a unit may end a move, asked of a point (``{"query": "reach"}``): whether the move
that ends there is legal, and if not, the legal end nearest to it, with its path.

MOVE.FORWARD, MOVE.WHEEL, MOVE.MARCH: a move to a point is forward, one wheel and forward
again (``paths.reach``); when the rules refuse it (beyond the allowance, through another
unit, off the table), the nearest legal end is looked for among the moves that wheel by each
5 degrees up to the quarter turn each way, each then going straight as far as the allowance
left and the table let it (``aims.farthest``): every one a path ``rules.check`` accepts.
"""

from __future__ import annotations

import math
from typing import Any

from regiment.core import geometry as geo

from ..state import State, UnitState
from ..units import box
from . import rules
from .aims import farthest
from .paths import Leg, cost, walk

STEP = 5.0   # degrees between the wheels tried


def reach_of(state: State, u: UnitState, kind: str, x: float, y: float,
             facing: float | None) -> dict[str, Any]:
    """MOVE.*: ``{"legal": True, "path", "used", "end"}`` for a move of ``kind`` that ends
    with ``u``'s front centre at (``x``, ``y``) (facing ``facing``, or the facing a move
    straight there ends with), else ``{"legal": False, "refused": {why, rule}, "nearest":
    {path, used, end}}`` (``nearest`` absent when the unit cannot move at all)."""
    start = box(u)
    if facing is None:   # straight ahead: its own; else as a wheel toward the point ends
        (rx, ry) = geo.axes(start.facing)[1]
        aside = (x - start.x) * rx + (y - start.y) * ry
        facing = start.facing if abs(aside) < 1e-3 else geo.bearing((start.x, start.y), (x, y))
    plan = rules.check(state, u, kind, (), 0, facing, (x, y, facing))
    if isinstance(plan, rules.Plan):
        return {"legal": True, "path": _path(plan.legs), "used": round(plan.used, 4),
                "end": _end(walk(start, plan.legs))}
    out: dict[str, Any] = {"legal": False, "refused": {"message": str(plan.why),
                                                       "rule": plan.rule}}
    best = nearest(state, u, kind, x, y)
    if best is not None:
        legs, end = best
        out["nearest"] = {"path": _path(legs), "end": _end(end),
                          "used": round(rules.used(u, legs, start.width), 4)}
    return out


def nearest(state: State, u: UnitState, kind: str, x: float, y: float
            ) -> tuple[tuple[Leg, ...], geo.Box] | None:
    """The legal end of a move of ``kind`` nearest to (``x``, ``y``): a wheel of each
    ``STEP`` degrees up to 90 each way (none too), then as far straight as is left."""
    start = box(u)
    most = rules.allowance(u, kind)
    found: tuple[float, tuple[Leg, ...], geo.Box] | None = None
    for i in range(-int(90 / STEP), int(90 / STEP) + 1):
        degrees = i * STEP
        wheel = (Leg("wheel", degrees),) if degrees else ()
        left = most - sum(cost(leg, start.width, float(u.profile["M"])) for leg in wheel)
        if left < -1e-9:
            continue
        # the point on this line nearest to (x, y): no farther than it, nor than allowed
        turned = walk(start, wheel)
        (fx, fy), _ = geo.axes(turned.facing)
        along = max(0.0, min(left, (x - turned.x) * fx + (y - turned.y) * fy))
        run = farthest(state, u, kind, wheel, along)
        if run < 0:
            continue
        run = math.floor(run * 1e4) / 1e4   # (down: still within what is left)
        legs = (*wheel, Leg("forward", run)) if run > 0 else wheel
        if not legs:
            continue
        end = walk(start, legs)
        gap = math.hypot(end.x - x, end.y - y)
        if found is None or gap < found[0] - 1e-9:
            found = (gap, legs, end)
    return None if found is None else (found[1], found[2])


def _path(legs: tuple[Leg, ...]) -> list[list[Any]]:
    """The legs as a command sends them; a leg of no length is left out (a point where the
    unit stands is reached by no move: an empty path)."""
    return [[leg.kind, leg.amount] for leg in legs if abs(leg.amount) > 1e-9]


def _end(b: geo.Box) -> dict[str, float]:
    return {"x": round(b.x, 4), "y": round(b.y, 4), "facing": round(b.facing % 360.0, 4)}
