"""Moves worth offering or making: the straight ones a decision lists (any other path may be
sent), and the bot's move toward the enemy it means to charge next turn. Every move found here
is one ``rules.check`` accepts."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from regiment.core import geometry as geo
from regiment.core.commands import Command

from .. import table
from ..acting import standing_enemies
from ..commands import Move
from ..state import State, UnitState
from ..units import box, missile
from . import rules
from .paths import SPACING, TURNS, Leg, turn_of, walk

CHARGE_REACH = 4.0   # the bot stops this much beyond its Movement of its foe: a likely charge


def clear_ahead(state: State, u: UnitState, b: geo.Box, most: float) -> float:
    """MOVE.SPACING: how far ``b`` (``u`` after the legs before this one) goes straight ahead
    before it comes within its kept gap of another unit (``geo.free_run``, each unit at its
    own gap) or a corner reaches the table's edge; at most ``most``."""
    run = most
    for o in rules.others(state, u):
        run = min(run, geo.free_run(b, b.facing, run, [o.box], o.keep))
    (fx, fy), _ = geo.axes(b.facing)
    width, depth = state.table["width"], state.table["depth"]
    for cx, cy in geo.corners(b):
        for c, f, edge in ((cx, fx, width), (cy, fy, depth)):
            if f > 1e-12:
                run = min(run, (edge - c) / f)
            elif f < -1e-12:
                run = min(run, -c / f)
    return max(0.0, run)


def _fits(state: State, u: UnitState, kind: str, legs: tuple[Leg, ...]) -> bool:
    return isinstance(rules.check(state, u, kind, legs, 0, u.facing, None), rules.Plan)


def _kept(state: State, u: UnitState, slot: str, key: tuple[object, ...],
          area: rules.Bounds, asked: Callable[[], object],
          work: Callable[[], Iterable[Command]]) -> list[Command]:
    """The commands ``work`` finds for ``u``, kept with the unit's value under ``slot`` by
    what they depend on: ``key``, and the units whose bounds meet ``area`` (``asked``, which
    lists them). Between two decisions one unit moves: when none entered, left or moved
    within ``area`` since they were found (``rules.unmoved``, a look at the units that
    moved), they are kept without listing the units again; else listed, and found again
    only when those have changed."""
    t = rules.table_of(state)
    kept: tuple[Any, ...] | None = getattr(u, slot, None)   # (key, table, asked, found)
    if kept is not None and kept[0] == key:
        if kept[1] is t:
            return list(kept[3])
        if rules.unmoved(state, kept[1], area):
            object.__setattr__(u, slot, (key, t, kept[2], kept[3]))   # (its table now)
            return list(kept[3])
    listed = asked()
    found = kept[3] if kept is not None and kept[0] == key and kept[2] == listed else \
        tuple(work())
    object.__setattr__(u, slot, (key, t, listed, found))   # not a field: the unit is unchanged
    return list(found)


def straight_moves(state: State, u: UnitState) -> list[Command]:
    """A forward move as far as ``u`` can go (and a march, when that is farther); in table
    mode, one of each to make on the table."""
    p = u.player
    kinds = ("forward",) if u.id in state.context.march_failed else ("forward", "march")
    if table.measured(state):
        return [Move(by=p, unit=u.id, kind=kind) for kind in kinds]
    most = max(rules.allowance(u, kind) for kind in kinds)
    # Every decision of the remaining moves lists every unit's moves, and one unit moves
    # between two of them: a unit's moves are kept with its value (where it stands, its
    # Movement, its side) by what else they depend on (whether it may march, the units its
    # farthest straight move can come within 1" of: ``ahead_of``, a unit beside or behind it
    # is not one; the table and its walls, one object every state of the game shares), so
    # the units not in the way of the one that moved are not worked out again (on a 32-unit
    # table, 620 -> 180 us a decision, measured, with every unit within reach counted).
    return _kept(state, u, "_moves", (kinds, state.table), rules.ahead_area(u, most),
                 lambda: rules.ahead_of(state, u, most),
                 lambda: _straight(state, u, p, kinds))


def _straight(state: State, u: UnitState, p: str, kinds: tuple[str, ...]) -> list[Command]:
    runs: dict[str, float] = {}
    if "march" in kinds:
        runs["march"] = farthest(state, u, "march", (), rules.allowance(u, "march"))
        forward = rules.allowance(u, "forward")
        if runs["march"] >= forward:
            # a straight leg that is clear is clear over any shorter stretch (``farthest``):
            # a march that goes a Movement or more leaves the whole forward move clear
            runs["forward"] = forward
    out: list[Command] = []
    for kind in kinds:
        run = runs[kind] if kind in runs else farthest(state, u, kind, (),
                                                       rules.allowance(u, kind))
        if run > 0 and (kind == "forward" or run > u.profile["M"]):
            out.append(Move(by=p, unit=u.id, kind=kind, path=(("forward", run),)))
    return out


def toward(state: State, u: UnitState) -> Command | None:
    """The bot's move for ``u``: face the nearest enemy that does not flee (a wheel, or a
    turn and a smaller wheel, whichever leaves more of the move), then go straight at it,
    stopping where a charge next turn is likely (its Movement and 4" away); march when no
    enemy is within 8". A unit with a missile weapon stays where it can shoot. None: it has
    nowhere better to be."""
    foes = standing_enemies(state, u)
    if not foes or u.position is None:
        return None
    here = box(u)
    foe = foes[geo.nearest(here, [box(e) for e in foes])]
    weapon = missile(u)
    if weapon is not None and geo.gap(here, box(foe)) <= weapon.range + u.profile["M"]:
        return None   # SHOOT.WHO: a unit that may shoot stays to shoot (a march would forbid it)
    delta = turn_of(u.facing, geo.bearing(geo.centre(here), geo.centre(box(foe))))
    near = geo.gap(here, box(foe)) <= rules.MARCH_ZONE   # (the nearest is, if any is)
    stop = u.profile["M"] + CHARGE_REACH
    start = (round(max(geo.gap(here, box(foe)), stop), 2), abs(delta))
    # every kind weighed together: a march of a few hundredths of an inch toward the table's
    # edge is no better than a turn to face the foe (a unit left facing the edge by a pursuit
    # turned 0.14" at a time before)
    best: tuple[float, float, Command] | None = None
    for kind in ("forward",) if near else ("march", "forward"):
        for legs in _facings(delta, kind):
            left = rules.allowance(u, kind) - rules.used(u, legs, here.width)
            if left < 0:
                continue
            gap = geo.gap(walk(here, legs), box(foe))
            run = farthest(state, u, kind, legs,
                           math.floor(min(left, max(0.0, gap - stop)) * 100) / 100)
            if run < 0 or (run < MEANINGFUL and not legs):
                continue
            run = run if run >= MEANINGFUL else 0.0
            path = (*((leg.kind, leg.amount) for leg in legs),
                    *((("forward", run),) if run else ()))
            end = walk(here, (*legs, Leg("forward", run)))
            score = (round(max(geo.gap(end, box(foe)), stop), 2),
                     abs(turn_of(delta, sum(leg.amount for leg in legs))))
            if score >= start:
                continue   # no nearer, and no more squarely facing it: not worth a move
            if best is None or score < best[:2]:
                best = (*score, Move(by=u.player, unit=u.id, kind=kind, path=path))
    return best[2] if best is not None else None


MEANINGFUL = 0.5   # a straight stretch shorter than this is not worth making alone (inches)


def turn_moves(state: State, u: UnitState) -> list[Command]:
    """MOVE.TURN: a quarter turn either way and a half turn about the unit's centre, each
    that fits where it stands (a unit left facing the table's edge turns to the battle);
    in table mode, none: the players turn their units by a move of their own."""
    if table.measured(state) or u.position is None:
        return []
    # kept with the unit's value by what a turn in place depends on (the units within its
    # diagonal and 1", the table): a decision of the remaining moves lists every unit's turns,
    # and one unit moves between two of them (a 32-unit battle asked 96 checks a decision)
    b = box(u)
    reach = math.hypot(b.width, b.depth) + SPACING
    return _kept(state, u, "_turns", (state.table,), geo.grown(geo.bounds(b), reach),
                 lambda: rules.others_within(state, u, reach), lambda: (
        Move(by=u.player, unit=u.id, kind="forward", path=(("turn", t),))
        for t in TURNS if _fits(state, u, "forward", (Leg("turn", t),))))


def _facings(delta: float, kind: str) -> list[tuple[Leg, ...]]:
    """Ways to turn by about ``delta`` degrees: a wheel (whole or half), or, outside a
    march, a quarter or half turn and a wheel for the rest; or not at all."""
    def wheel(d: float) -> tuple[Leg, ...]:
        return (Leg("wheel", round(d, 1)),) if abs(d) >= 1 else ()

    out = [wheel(delta), wheel(delta / 2), ()]
    if kind != "march":
        for t in (90.0, -90.0, 180.0):
            if abs(turn_of(t, delta)) < 60:
                out.append((Leg("turn", t), *wheel(turn_of(t, delta))))
    return out


def farthest(state: State, u: UnitState, kind: str, legs: tuple[Leg, ...], most: float
             ) -> float:
    """How far ``u`` can go straight ahead after ``legs``, up to ``most`` (to 1/100"); -1
    when the legs themselves do not fit. The run the other units and the table's edge leave
    is worked out first (``clear_ahead``) and checked; where the rules refuse it (terrain),
    halving finds the farthest: a straight leg that is clear is clear over any shorter
    stretch."""
    # (no legs fit always: ``rules.check`` of an empty path is the unit where it stands)
    if legs and not _fits(state, u, kind, legs):
        return -1.0
    if most <= 0 or _fits(state, u, kind, (*legs, Leg("forward", most))):
        return most
    guess = math.floor(clear_ahead(state, u, walk(box(u), legs), most) * 100) / 100
    if _fits(state, u, kind, (*legs, Leg("forward", guess))):
        return guess
    lo, hi = 0.0, most
    for _ in range(10):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _fits(state, u, kind, (*legs, Leg("forward", mid))) else (lo, mid)
    return math.floor(lo * 100) / 100   # (rounded down: still clear)
