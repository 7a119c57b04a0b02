"""The geometry of a remaining move (MOVE.FORWARD, MOVE.WHEEL, MOVE.TURN, MOVE.BACK,
MOVE.SPACING): a path of legs walked from where the unit stands.

Each leg counts against the move (``cost``): a step forward its length, a wheel the arc its
outer front corner travels, a turn a quarter of the unit's Movement, a step backwards or
sideways twice its length (half rate). Every place on the way is checked (``trouble``): the
region a straight leg sweeps is the convex hull of its two ends (a box moved without turning),
and a wheel is walked in steps of at most 1/4" of its outer corner's travel.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from typing import NamedTuple

from regiment.core import geometry as geo
from regiment.core.geometry import Box
from regiment.core.geometry import lazy_shapely as shp

LEG_KINDS = ("forward", "wheel", "turn", "back", "sideways")
TURNS = (90.0, -90.0, 180.0)
SPACING = 1.0     # MOVE.SPACING: inches kept from every other unit
STEP = 0.25       # the longest stretch of a wheel's outer corner between two checks
SLACK = 1e-4      # what a position, rounded to 1/10000", may lose against a limit


class Leg(NamedTuple):
    """One leg of a path: ``amount`` in inches (forward, back; sideways, to the right when
    positive) or degrees (wheel, turn; clockwise when positive)."""

    kind: str
    amount: float


class Other(NamedTuple):
    """A unit the mover must keep clear of: its id, box, and the gap to keep (1", or less
    when the move begins nearer: it may not come closer)."""

    id: str
    box: Box
    keep: float


class Trouble(NamedTuple):
    """Why a path may not be walked: ``code`` (off_table, overlap, too_close, impassable),
    the leg it happens on, and the unit it meets (empty for the table and terrain)."""

    code: str
    leg: int
    unit: str = ""


def cost(leg: Leg, width: float, movement: float) -> float:
    """What ``leg`` counts against the move, in inches (MOVE.WHEEL: the outer front corner's
    arc, a radius of the unit's width; MOVE.TURN: a quarter of its Movement; MOVE.BACK: half
    rate)."""
    if leg.kind == "forward":
        return leg.amount
    if leg.kind == "wheel":
        return width * math.radians(abs(leg.amount))
    if leg.kind == "turn":
        return movement / 4
    return 2 * abs(leg.amount)


def reach_of(legs: Sequence[Leg], width: float, depth: float) -> float:
    """How far any corner of a box ``width`` by ``depth`` can end up from where it began,
    walking ``legs``: a straight leg moves it its length; a wheel or a turn carries it about
    a point at most the box's diagonal away, by the arc (wheel) or across (turn)."""
    diagonal = math.hypot(width, depth)
    out = 0.0
    for leg in legs:
        if leg.kind == "wheel":
            out += min(diagonal * math.radians(abs(leg.amount)), 2 * diagonal)
        elif leg.kind == "turn":
            out += diagonal
        else:
            out += abs(leg.amount)
    return out


def wheeled(b: Box, degrees: float) -> Box:
    """MOVE.WHEEL: ``b`` pivoted about its front corner on the inside of the wheel (the right
    one when it wheels clockwise), so that the other front corner travels the arc."""
    _, (rx, ry) = geo.axes(b.facing)
    s = 1.0 if degrees > 0 else -1.0
    px, py = b.x + s * rx * b.width / 2, b.y + s * ry * b.width / 2
    facing = (b.facing + degrees) % 360.0
    _, (qx, qy) = geo.axes(facing)
    return Box(px - s * qx * b.width / 2, py - s * qy * b.width / 2, facing, b.width, b.depth)


def after(b: Box, leg: Leg) -> Box:
    """Where ``b`` stands after ``leg``."""
    if leg.kind == "forward":
        return geo.moved(b, leg.amount)
    if leg.kind == "back":
        return geo.moved(b, -leg.amount)
    if leg.kind == "sideways":
        return geo.moved(b, leg.amount, b.facing + 90.0)
    if leg.kind == "wheel":
        return wheeled(b, leg.amount)
    return geo.pivoted(b, b.facing + leg.amount)


def walk(b: Box, legs: Sequence[Leg]) -> Box:
    for leg in legs:
        b = after(b, leg)
    return geo.rounded(b)


def _stations(b: Box, leg: Leg) -> list[Box]:
    """The places a leg is checked at, its start first: both ends of a straight leg (the hull
    between them is what it sweeps), the steps of a wheel, the end of a turn in place."""
    if leg.kind != "wheel":
        return [b, after(b, leg)]
    n = max(1, math.ceil(cost(leg, b.width, 0.0) / STEP))
    return [b, *(wheeled(b, leg.amount * i / n) for i in range(1, n + 1))]


def _swept(points: Sequence[geo.Point]) -> shp.Polygon:
    return shp.MultiPoint(points).convex_hull


def _bounds(points: Sequence[geo.Point]) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def trouble(start: Box, legs: Sequence[Leg], others: Sequence[Other],
            walls: Sequence[shp.Polygon], width: float, depth: float) -> Trouble | None:
    """MOVE.SPACING: the first thing that forbids walking ``legs`` from ``start``: leaving the
    table, standing on or coming within the kept gap of another unit, entering impassable
    terrain; None when the path is clear. A turn in place is checked where it ends."""
    b = start
    for i, leg in enumerate(legs):
        stations = _stations(b, leg)
        for here in stations[1:]:
            if not geo.on_table(here, width, depth):
                return Trouble("off_table", i)
        pieces = ([geo.corners(stations[-1])] if leg.kind == "turn" else
                  [(*geo.corners(p), *geo.corners(q)) for p, q in pairwise(stations)])
        for points in pieces:
            # shapely only where something is near: the piece's bounds are a cheap first look
            bounds = _bounds(points)
            near = [o for o in others if _near(bounds, o)]
            if not near and not walls:
                continue
            piece = _swept(points)
            if any(piece.intersects(w) for w in walls):
                return Trouble("impassable", i)
            for o in near:
                gap = piece.distance(geo.polygon(o.box))
                if gap <= SLACK and piece.intersection(geo.polygon(o.box)).area > 1e-4:
                    return Trouble("overlap", i, o.id)
                if gap < o.keep - SLACK:
                    return Trouble("too_close", i, o.id)
        b = stations[-1]
    return None


def _near(bounds: tuple[float, float, float, float], o: Other) -> bool:
    """The piece's bounds within the kept gap of the other's."""
    x0, y0, x1, y1 = bounds
    ox0, oy0, ox1, oy1 = geo.bounds(o.box)
    k = o.keep + SLACK
    return bool(x0 - k <= ox1 and ox0 <= x1 + k and y0 - k <= oy1 and oy0 <= y1 + k)


def turn_of(a: float, b: float) -> float:
    """The signed turn in (-180, 180] from bearing ``a`` to ``b`` (clockwise positive)."""
    d = (b - a) % 360.0
    return d - 360.0 if d > 180.0 else d


def reach(b: Box, x: float, y: float, facing: float, kind: str) -> tuple[Leg, ...] | None:
    """The path a move of ``kind`` takes to end with its front centre at (``x``, ``y``),
    facing ``facing``: straight ahead, backwards or sideways; a turn in place; or forward,
    one wheel, and forward again (the two lengths solve a 2x2 system). None: no such path."""
    dx, dy = x - b.x, y - b.y
    (fx, fy), (rx, ry) = geo.axes(b.facing)
    ahead, aside = dx * fx + dy * fy, dx * rx + dy * ry
    delta = turn_of(b.facing, facing)
    tol = 1e-3
    if abs(delta) < tol:
        if kind == "back" and abs(aside) < tol and ahead <= tol:
            return (Leg("back", round(-ahead, 4)),)
        if kind == "sideways" and abs(ahead) < tol:
            return (Leg("sideways", round(aside, 4)),)
        if kind in ("forward", "march") and abs(aside) < tol and ahead >= -tol:
            return (Leg("forward", round(max(ahead, 0.0), 4)),)
        return None
    if kind not in ("forward", "march"):
        return None
    turned = geo.pivoted(b, facing)
    if kind == "forward" and math.hypot(turned.x - x, turned.y - y) < tol and any(
            abs(delta - t) < tol for t in TURNS):
        return (Leg("turn", 180.0 if abs(delta) > 179.0 else round(delta, 4)),)
    if abs(abs(delta) - 180.0) < tol:
        return None
    # end = start + d1 f0 + (wheel about the inner corner) + d2 f1, so
    # end - start - s (w/2)(r0 - r1) = d1 f0 + d2 f1
    s = 1.0 if delta > 0 else -1.0
    (gx, gy), (qx, qy) = geo.axes(facing)
    hx = dx - s * b.width / 2 * (rx - qx)
    hy = dy - s * b.width / 2 * (ry - qy)
    det = fx * gy - fy * gx
    d1 = (hx * gy - hy * gx) / det
    d2 = (fx * hy - fy * hx) / det
    if d1 < -tol or d2 < -tol:
        return None
    legs = [Leg("forward", round(d1, 4))] if d1 > tol else []
    legs.append(Leg("wheel", round(delta, 4)))
    if d2 > tol:
        legs.append(Leg("forward", round(d2, 4)))
    return tuple(legs)
