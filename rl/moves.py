"""A unit's moves as objects and amounts: headings, anchors and fractions of the run.

Fantasy (MOVE.FORWARD, MOVE.WHEEL, MOVE.MARCH): a heading is a wheel of so many degrees, then
straight ahead; its amounts are fractions of the farthest straight run the rules leave after
that wheel (``aims.farthest``: a straight run that is clear is clear over any shorter
stretch). ``toward j`` wheels to face j (up to a quarter turn) and goes as far as it may;
``flank j`` and ``rear j`` do the same toward a place beside j's nearer flank or behind its
rear (GEO.ARCS, CH.CHARGE_MOVE: where a charge next turn would strike that side);
``edge j`` goes the least distance that brings j within its missile weapon's range (found on
the footprints, GEO.DISTANCE), offered only where the move can get there. Turns are the
engine's own (MOVE.TURN).

Skirmish (SK.MOVE): a heading is a bearing on the table, the squad moved whole; its amounts
are fractions of its allowance. ``toward j`` goes straight at j's nearest model as far as the
1" it must keep allows; ``edge j`` the least distance that brings j within its longest range.

Every choice is decided by the engine before it is offered: an object's whole run when the
unit's move is picked, its shorter runs when the object is.
"""

from __future__ import annotations

import math
from typing import Any

from regiment.core import geometry as geo
from regiment.core.pending import Decision
from regiment.core.state import GameState

from .choices import Choice, accepted
from .layout import FRACTIONS, Layout

EDGE = 0.25   # how far within its range an ``edge`` move ends (inches): measured, not grazed


def moves_of(layout: Layout, state: GameState, decision: Decision, verb: str, unit: str,
             preset: Any) -> list[Choice]:
    if layout.book.rulebook == "skirmish":
        return _skirmish(layout, state, unit, preset)
    return _fantasy(layout, state, verb, unit, preset)


def _runs(layout: Layout, order: int, obj: int, run: float, make: Any, preset: Any,
          state: GameState) -> list[Choice]:
    """The amounts of one object: the whole run decided by the engine now (none offered if it
    refuses it); the shorter ones when a seat picks this object (``Options.amounts``)."""
    out = []
    for i, f in reversed(list(enumerate(FRACTIONS))):
        d = math.floor(run * f * 1e4) / 1e4
        if d <= 1e-3:
            continue
        cmd = make(d)
        if f == 1.0:
            if not accepted(preset, state, cmd):
                return []
            out.append(Choice(order, obj, layout.amount(i), cmd))
        else:
            out.append(Choice(order, obj, layout.amount(i), cmd, sure=False))
    return out[::-1]


def _fantasy(layout: Layout, state: Any, verb: str, uid: str, preset: Any) -> list[Choice]:
    from regiment.phases.fantasy.acting import standing_enemies
    from regiment.phases.fantasy.commands import Move
    from regiment.phases.fantasy.moving import rules
    from regiment.phases.fantasy.moving.aims import farthest
    from regiment.phases.fantasy.moving.paths import Leg, cost, walk
    from regiment.phases.fantasy.units import box, missile

    u = state.units[uid]
    kind = "march" if verb == "march" else "forward"
    order = layout.order(verb, uid)
    start = box(u)
    most = rules.allowance(u, kind)
    m = float(u.profile["M"])

    def wheeled(degrees: float) -> tuple[tuple[Any, ...], float]:
        legs = (Leg("wheel", degrees),) if abs(degrees) > 1e-6 else ()
        return legs, most - sum(cost(leg, start.width, m) for leg in legs)

    def mover(legs: tuple[Any, ...]) -> Any:
        head = tuple((leg.kind, leg.amount) for leg in legs)
        return lambda d: Move(by=u.player, unit=uid, kind=kind,
                              path=(*head, ("forward", d)))

    out: list[Choice] = []
    for i, degrees in enumerate(layout.book.headings):
        legs, left = wheeled(degrees)
        if left <= 0:
            continue
        run = farthest(state, u, kind, legs, left)
        if run > 0:
            out += _runs(layout, order, layout.heading(i), run, mover(legs), preset, state)
    weapon = missile(u)
    def aimed(point: tuple[float, float]) -> tuple[tuple[Any, ...], float]:
        """The wheel toward ``point`` (up to a quarter turn, as much as it can afford) and
        the straight run after it: as far as the rules leave, not past the point."""
        aim = geo.bearing((start.x, start.y), point)
        degrees = round(max(-90.0, min(90.0, (aim - start.facing + 180.0) % 360.0 - 180.0)), 1)
        legs, left = wheeled(degrees)
        while left <= 0 and abs(degrees) > 1.0:
            degrees = round(degrees / 2, 1)
            legs, left = wheeled(degrees)
        if left <= 0:
            return legs, -1.0
        turned = walk(start, legs)
        far = math.hypot(point[0] - turned.x, point[1] - turned.y)
        return legs, farthest(state, u, kind, legs, min(left, far))

    for foe in standing_enemies(state, u):
        if foe.position is None or foe.id not in layout.index:
            continue
        target = box(foe)
        legs, run = aimed((target.x, target.y))
        if run > 0:
            out += _runs(layout, order, layout.toward(foe.id), run, mover(legs), preset, state)
        for kind_of, point in _beside(target, (start.x, start.y)):
            side_legs, side_run = aimed(point)
            if side_run > 0:
                out += _runs(layout, order, layout.anchor(kind_of, foe.id), side_run,
                             mover(side_legs), preset, state)
        if weapon is None or run <= 0:
            continue
        turned = walk(start, legs)
        need = _least(lambda d, b=turned, t=target: geo.gap(walk(b, (Leg("forward", d),)), t),
                      weapon.range - EDGE, run)
        if need is not None and need > 1e-3:
            out += _runs(layout, order, layout.edge(foe.id), need, mover(legs), preset, state)
    return out


OUT = 3.0   # how far out from a flank or the rear a ``flank`` or ``rear`` move aims (inches)


def _beside(b: geo.Box, at: tuple[float, float]) -> list[tuple[str, tuple[float, float]]]:
    """GEO.ARCS, CH.CHARGE_MOVE: the places a ``flank`` and a ``rear`` move aim at: OUT
    beyond the middle of ``b``'s flank nearer to ``at``, and OUT behind the middle of its
    rear."""
    (fx, fy), (rx, ry) = geo.axes(b.facing)
    mid = (b.x - fx * b.depth / 2, b.y - fy * b.depth / 2)
    sides = [(mid[0] + sx * (b.width / 2 + OUT), mid[1] + sy * (b.width / 2 + OUT))
             for sx, sy in ((rx, ry), (-rx, -ry))]
    flank = min(sides, key=lambda p: math.hypot(p[0] - at[0], p[1] - at[1]))
    rear = (b.x - fx * (b.depth + OUT), b.y - fy * (b.depth + OUT))
    return [("flank", flank), ("rear", rear)]


def _least(gap: Any, within: float, most: float) -> float | None:
    """The least distance d in [0, most] with gap(d) <= within (None: none), by halving: the
    gap falls as a unit closes on its target along a line aimed at it."""
    if gap(0.0) <= within:
        return None   # already within: no move needed
    if gap(most) > within:
        return None
    lo, hi = 0.0, most
    for _ in range(24):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if gap(mid) <= within else (mid, hi)
    return math.ceil(hi * 1e4) / 1e4


def _skirmish(layout: Layout, state: Any, uid: str, preset: Any) -> list[Choice]:
    from regiment.phases.skirmish.commands import Move
    from regiment.phases.skirmish.movement import rules

    s = state.squads[uid]
    order = layout.order("move", uid)
    first = s.models[0]
    most = rules.allowance(s)

    def mover(dx: float, dy: float) -> Any:
        return lambda d: Move(by=s.player, unit=uid, x=round(first[0] + dx * d, 4),
                              y=round(first[1] + dy * d, 4))

    out: list[Choice] = []
    for i, bearing in enumerate(layout.book.headings):
        rad = math.radians(bearing)
        out += _runs(layout, order, layout.heading(i), most,
                     mover(math.sin(rad), math.cos(rad)), preset, state)
    for foe in state.squads.values():
        if foe.player == s.player or not foe.on_table or foe.id not in layout.index:
            continue
        near = min(foe.models, key=lambda f: geo.circle_gap(first, f))
        dx, dy = near[0] - first[0], near[1] - first[1]
        length = math.hypot(dx, dy) or 1.0
        dx, dy = dx / length, dy / length
        room = min(geo.circle_gap(m, f) for m in s.models for f in foe.models)
        run = min(most, max(0.0, room - rules.APART - 0.05))
        if run > 0:
            out += _runs(layout, order, layout.toward(foe.id), run, mover(dx, dy), preset,
                         state)
        reach = max((w.range for w in s.weapons), default=0.0)
        if reach <= 0 or run <= 0:
            continue

        def gap(d: float, dx: float = dx, dy: float = dy, foe: Any = foe) -> float:
            return min(geo.circle_gap((m[0] + dx * d, m[1] + dy * d, m[2]), f)
                       for m in s.models for f in foe.models)

        need = _least(gap, reach - EDGE, run)
        if need is not None and need > 1e-3:
            out += _runs(layout, order, layout.edge(foe.id), need, mover(dx, dy), preset,
                         state)
    return out
