"""Who may make a remaining move, how far, and whether the path given may be walked
(MOVE.REMAINING, MOVE.FORWARD, MOVE.WHEEL, MOVE.TURN, MOVE.REFORM, MOVE.BACK, MOVE.MARCH,
MOVE.SPACING). Pure functions of the state: a problem is returned as a ``Refusal`` (what is
wrong, and the rule that forbids it), never raised."""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any, NamedTuple

from regiment.core import geometry as geo
from regiment.core.geometry.sight import walls_of as wall_polygons
from regiment.core.i18n import mark, tr
from regiment.core.state import memo
from regiment.phases.common.sight import walls

from ..acting import idle, told_idle
from ..rulings import ruled
from ..state import State, UnitState
from ..units import ALIVE, box
from .paths import (
    LEG_KINDS,
    SPACING,
    TURNS,
    Leg,
    Other,
    Trouble,
    cost,
    reach,
    reach_of,
    trouble,
    walk,
)

# the legs each kind of move may hold (MOVE.MARCH: wheels, nothing else; MOVE.BACK: no wheel)
LEGS_OF = {"forward": ("forward", "wheel", "turn"), "march": ("forward", "wheel"),
           "back": ("back",), "sideways": ("sideways",),
           "reform": ("forward", "wheel", "turn")}
RULE_OF = {"forward": "MOVE.FORWARD", "march": "MOVE.MARCH", "back": "MOVE.BACK",
           "sideways": "MOVE.BACK", "reform": "MOVE.REFORM", "wheel": "MOVE.WHEEL",
           "turn": "MOVE.TURN"}
MARCH_ZONE = 8.0   # MOVE.MARCH: an enemy this near calls for a Leadership test
# MOVE.*: what a path may use beyond its allowance (inches, games from 0.13.0; before 1e-4):
# a client that rounds a wheel to a tenth of a degree is not refused for a few thousandths
TOLERANCE = 0.01


class Refusal(NamedTuple):
    why: str
    rule: str


class Plan(NamedTuple):
    """A move checked and ready to make: its kind, legs, the reform before them (files, 0
    for none; facing), where it ends (None in table mode) and how much of the move it uses."""

    kind: str
    legs: tuple[Leg, ...]
    files: int
    facing: float
    end: geo.Box | None
    used: float


STILL = {"moved": mark("{unit} has made its move this turn"),
         "left": mark("{unit} left a unit this turn")}


def still(state: State, u: UnitState) -> str:
    """MOVE.REMAINING: why ``u`` may make no remaining move, as a key of ``IDLE`` or
    ``STILL`` ("" when it may): the active player's, on the table and out of combat, no
    character inside a unit (it moves with it), and it did not charge, fail a charge, flee,
    rally, or move already this turn."""
    ctx = state.context
    code = idle(state, u)
    if code:
        return code
    if u.id in ctx.moves:
        return "moved"
    if u.id in ctx.characters_moved:
        return "left"
    return ""


def movable(state: State, u: UnitState) -> str:
    """MOVE.REMAINING: ``still``, told ("" when ``u`` may move)."""
    code = still(state, u)
    if code in STILL:
        return tr(STILL[code], unit=u.name)
    return told_idle(state, u, code)   # (the code already found: idle is not asked again)


def allowance(u: UnitState, kind: str) -> float:
    """How far ``u`` may go: its Movement, twice that marching (MOVE.MARCH)."""
    m = float(u.profile["M"])
    return 2 * m if kind == "march" else m


MOST_LEGS = 16   # MOVE.*: legs in one move (a real one has a handful: forward, wheel, ...)


def legs_of(path: Sequence[Any], kind: str, bounded: bool = True
            ) -> tuple[tuple[Leg, ...], Refusal | None]:
    """The path as sent (``[["forward", 3], ["wheel", -20], ...]``), read into legs; a
    refusal names the leg that is wrong. ``bounded`` (games from engine 0.13.0): at most
    ``MOST_LEGS`` legs, none of them of no length, checked before any geometry runs, so that
    the costliest path a client may send costs about what a real move does."""
    rule = RULE_OF[kind]
    if bounded and len(path) > MOST_LEGS:
        return (), Refusal(tr("a move has at most {n} legs, not {count}", n=MOST_LEGS,
                              count=len(path)), rule)
    legs = []
    for i, raw in enumerate(path):
        if not (len(raw) == 2 and type(raw[0]) is str and type(raw[1]) in (int, float)
                and -1e6 <= raw[1] <= 1e6):   # (finite: NaN fails it, 10**400 too)
            return (), Refusal(tr("path[{i}] is not a [kind, amount] pair", i=i), rule)
        leg_kind, amount = raw[0], float(raw[1])
        if bounded and amount == 0:
            return (), Refusal(tr("path[{i}]: a leg of no length moves nothing", i=i), rule)
        if leg_kind not in LEG_KINDS:
            return (), Refusal(tr("path[{i}]: {kind} is not one of {kinds}", i=i, kind=leg_kind,
                                  kinds=", ".join(LEG_KINDS)), rule)
        if leg_kind not in LEGS_OF[kind]:
            return (), Refusal(tr("path[{i}]: a {move} move holds no {kind}", i=i, move=kind,
                                  kind=leg_kind), rule)
        if leg_kind == "turn" and amount not in TURNS:
            return (), Refusal(tr("path[{i}]: a turn is 90, -90 or 180 degrees", i=i),
                               "MOVE.TURN")
        if leg_kind in ("forward", "back") and amount < 0:
            return (), Refusal(tr("path[{i}]: {kind} takes a distance of 0 or more", i=i,
                                  kind=leg_kind), rule)
        if leg_kind == "wheel" and not -360.0 < amount < 360.0:
            return (), Refusal(tr("path[{i}]: a wheel is less than a full circle", i=i),
                               "MOVE.WHEEL")
        legs.append(Leg(leg_kind, amount))
    return tuple(legs), None


def mixed(kind: str, path: bool, x: float | None, y: float | None, facing: float | None
          ) -> Refusal | None:
    """A move says where it goes one way: a path, or where its front centre ends (``x`` and
    ``y`` together, with ``facing``); a reform's ``facing`` is its new facing (games from
    0.13.0: before, an ``x`` without ``y`` or a path beside an end was read as what it could
    be, silently)."""
    rule = RULE_OF[kind]
    if (x is None) != (y is None):
        return Refusal(tr("x and y go together: give both, or a path"), rule)
    if path and x is not None:
        return Refusal(tr("give a path or where the move ends (x, y), not both"), rule)
    if facing is not None and x is None and kind != "reform":
        return Refusal(tr("facing goes with x and y, where the move ends"), rule)
    return None


def used(u: UnitState, legs: Sequence[Leg], width: float) -> float:
    """How much of the move ``legs`` use, in inches."""
    return round(sum(cost(leg, width, float(u.profile["M"])) for leg in legs), 4)


Placed = tuple[str, geo.Box, tuple[float, float, float, float]]


class Table(NamedTuple):
    """MOVE.SPACING: every unit a mover keeps clear of (on the table, alive, not inside
    another) with its box and bounds, in the state's order (``placed``); and the same by
    their left edges (``by_left``, ``lefts``: their indexes in ``placed``), with the widest
    bounds, so that the units near a place are found by bisection, not by a look at each."""

    placed: list[Placed]
    by_left: list[int]
    lefts: list[float]
    widest: float
    ids: frozenset[str]


def table_of(state: State) -> Table:
    """The state's ``Table``, worked out once a state for every unit that asks."""
    answers = memo(state)
    found: Table | None = answers.get("placed")
    if found is None:
        placed = []
        for o in state.units.values():
            if o.status in ALIVE and o.joined is None and o.position is not None:
                # a unit's entry is kept with the unit value (a slot, as its box is): most
                # units are the same objects as in the state before, whose table was built
                e: Placed | None = getattr(o, "_placed", None)
                if e is None:
                    b = box(o)
                    e = (o.id, b, geo.bounds(b))
                    object.__setattr__(o, "_placed", e)   # not a field: the unit is unchanged
                placed.append(e)
        left = [e[2][0] for e in placed]
        by_left = sorted(range(len(placed)), key=left.__getitem__)
        found = answers["placed"] = Table(
            placed, by_left, [left[i] for i in by_left],
            max((e[2][2] - e[2][0] for e in placed), default=0.0),
            frozenset(e[0] for e in placed))
    return found


def _other(start: geo.Box, near: tuple[float, float, float, float], entry: Placed) -> Other:
    oid, b, ob = entry
    keep = min(SPACING, round(geo.gap(start, b), 4)) if geo.overlap(near, ob) else SPACING
    return Other(oid, b, keep)


def others(state: State, u: UnitState) -> list[Other]:
    """MOVE.SPACING: every other unit on the table, with the gap ``u`` must keep from it (1",
    or its gap where it begins nearer), kept with the state: every move checked and offered
    in it asks the same. A unit whose bounds are more than 1" from ``u``'s is not measured."""
    answers = memo(state)
    key = ("spacing", u.id)
    if key in answers:
        return answers[key]  # type: ignore[no-any-return]  # what this function memoized
    start = box(u)
    near = geo.grown(geo.bounds(start), SPACING)
    out = [_other(start, near, e) for e in table_of(state).placed if e[0] != u.id]
    answers[key] = out
    return out


def others_within(state: State, u: UnitState, reach: float) -> tuple[Other, ...]:
    """The ``others`` whose bounds come within ``reach`` of ``u``'s, in ``others``' order
    (the first unit a path meets is the one a refusal names): all that a path keeping within
    ``reach`` of where ``u`` stands can meet or must keep its gap from."""
    t = table_of(state)
    start = box(u)
    bounds = geo.bounds(start)
    near = geo.grown(bounds, SPACING)
    return tuple(_other(start, near, t.placed[i])
                 for i in _placed_in(t, geo.grown(bounds, reach), u.id))


Bounds = tuple[float, float, float, float]


def unmoved(state: State, since: Table, area: Bounds) -> bool:
    """Whether no unit entered, left or moved within ``area`` between the table ``since``
    (an earlier state's) and this state's: then whatever depends only on the units whose
    bounds meet ``area`` is as it was (``aims``: a unit's moves). False when the tables do
    not hold the same units in the same order (a unit gone: looked at again)."""
    t = table_of(state)
    if t is since:
        return True
    moved = _moved(state, t, since)
    if moved is None:
        return False
    x0, y0, x1, y1 = area   # (meeting as ``_placed_in`` has it: touching counts)
    return not any(x0 <= b[2] and b[0] <= x1 and y0 <= b[3] and b[1] <= y1 for b in moved)


def _moved(state: State, t: Table, since: Table) -> list[Bounds] | None:
    """The bounds, before and after, of each unit that moved between ``since`` and ``t``
    (the state's table); None when they do not hold the same units in the same order.
    Worked out once a state for each earlier table asked of."""
    answers = memo(state)
    key = ("moved", id(since))
    hit = answers.get(key)
    if hit is not None and hit[0] is since:
        return hit[1]  # type: ignore[no-any-return]  # what this function memoized
    old, new = since.placed, t.placed
    out: list[Bounds] | None = []
    if len(old) != len(new):
        out = None
    else:
        for a, b in zip(old, new, strict=True):
            if a[0] != b[0]:
                out = None
                break
            if a[1] is not b[1] and a[1] != b[1]:
                out += (a[2], b[2])  # type: ignore[operator]  # (a list here)
    answers[key] = (since, out)
    return out


def ahead_area(u: UnitState, run: float) -> Bounds:
    """The bounds of ``u``'s straight path up to ``run`` inches, the start and end boxes'
    together, grown by its kept gap and a hundredth (``ahead_of``)."""
    x0, y0, x1, y1 = geo.bounds(box(u))
    (fx, fy), _ = geo.axes(u.facing)
    dx, dy = fx * run, fy * run   # the end box's bounds are the start's, moved so
    k = SPACING + 0.01
    return (min(x0, x0 + dx) - k, min(y0, y0 + dy) - k, max(x1, x1 + dx) + k,
            max(y1, y1 + dy) + k)


def ahead_of(state: State, u: UnitState, run: float) -> tuple[tuple[str, geo.Box], ...]:
    """MOVE.SPACING: the units (id and box, in ``others``' order) that ``u`` moving straight
    ahead up to ``run`` inches can meet or must keep its gap from: those whose bounds come
    within 1" (and a hundredth) of its path's bounds, the start and end boxes' together. No
    other can stop a straight move (``paths.trouble`` and ``geo.free_run`` look at no unit
    whose bounds are further from the path's than its kept gap, at most 1"): with the table,
    they are all that ``u``'s straight moves depend on (``aims.straight_moves``)."""
    t = table_of(state)
    return tuple(t.placed[i][:2] for i in _placed_in(t, ahead_area(u, run), u.id))


def _placed_in(t: Table, area: tuple[float, float, float, float], uid: str) -> list[int]:
    """The indexes (in ``placed``) of the units other than ``uid`` whose bounds meet
    ``area``, in order."""
    x0, y0, x1, y1 = area
    # a unit whose left edge is more than the widest unit left of x0 ends before x0
    lo, hi = bisect_left(t.lefts, x0 - t.widest - 1e-9), bisect_right(t.lefts, x1)
    return sorted(i for i in t.by_left[lo:hi] if t.placed[i][0] != uid
                  and x0 <= t.placed[i][2][2] and t.placed[i][2][1] <= y1
                  and y0 <= t.placed[i][2][3])


def placed_near(t: Table, area: tuple[float, float, float, float], uid: str) -> set[str]:
    """The ids of the units on the table other than ``uid`` whose bounds meet ``area``."""
    return {t.placed[i][0] for i in _placed_in(t, area, uid)}


TROUBLE = {
    "off_table": ("it would leave the table on leg {leg}", "MOVE.SPACING"),
    "overlap": ("it would stand on {unit} on leg {leg}", "MOVE.SPACING"),
    "too_close": ("it would come within 1\" of {unit} on leg {leg}", "MOVE.SPACING"),
    "impassable": ("it would enter impassable terrain on leg {leg}", "MOVE.SPACING"),
}


def told_trouble(state: State, t: Trouble) -> Refusal:
    text, rule = TROUBLE[t.code]
    unit = state.units[t.unit].name if t.unit in state.units else t.unit
    return Refusal(tr(text, leg=t.leg, unit=unit), rule)


def reformed(u: UnitState, files: int, facing: float) -> geo.Box:
    """MOVE.REFORM: ``u`` re-formed ``files`` wide about its centre, facing ``facing``."""
    b = box(u)
    cx, cy = geo.centre(b)
    w, d = geo.unit_size(u.models + len(u.characters), files, u.base)
    (fx, fy), _ = geo.axes(facing)
    return geo.rounded(geo.Box(cx + fx * d / 2, cy + fy * d / 2, facing % 360.0, w, d))


def check(state: State, u: UnitState, kind: str, legs: tuple[Leg, ...], files: int,
          facing: float, end: tuple[float, float, float] | None) -> Plan | Refusal:
    """MOVE.FORWARD, MOVE.WHEEL, MOVE.TURN, MOVE.REFORM, MOVE.BACK, MOVE.MARCH, MOVE.SPACING:
    whether ``u`` may move so: the legs (or the end position, read into legs) within its
    allowance, and the whole path clear (MOVE.SPACING). In table mode the path is the
    players': only the reform's frontage is checked here."""
    if kind == "reform" and not 1 <= files <= u.models + len(u.characters):
        return Refusal(tr("{unit} can stand 1 to {n} wide, not {files}", unit=u.name,
                          n=u.models + len(u.characters), files=files), "MOVE.REFORM")
    if kind != "reform":
        files = 0
    if u.position is None:   # table mode (TABLE.POSITIONS)
        return Plan(kind, legs, files, facing, None, 0.0)
    start = reformed(u, files, facing) if kind == "reform" else box(u)
    if end is not None and not legs:
        found = reach(start, *end, kind) if kind != "reform" else ()
        if found is None:
            return Refusal(tr("no {kind} move of {unit} ends there: give its path", kind=kind,
                              unit=u.name), RULE_OF[kind])
        legs = found
    spent = used(u, legs, start.width)
    most = allowance(u, kind)
    if spent > most + (TOLERANCE if ruled(state, "budget_tolerance") else 1e-4):
        return Refusal(tr("that path uses {used}\" and {unit} may move {most}\"",
                          used=format(spent, "g"), unit=u.name, most=format(most, "g")),
                       RULE_OF[kind])
    # only the units the path can come within 1" of are measured (``reach_of``); a reform
    # stands the unit about its centre, within half the new shape's diagonal of it
    extent = math.hypot(start.width, start.depth) / 2 if kind == "reform" else 0.0
    clear = others_within(state, u, extent + reach_of(legs, start.width, start.depth) +
                          SPACING + 0.01)
    width, depth = state.table["width"], state.table["depth"]
    terrain = wall_polygons(walls(state))
    if kind == "reform":
        problem = (Trouble("off_table", 0) if not geo.on_table(start, width, depth) else
                   _standing(start, clear, terrain))
        if problem is not None:
            return told_trouble(state, problem)
    problem = trouble(start, legs, clear, terrain, width, depth)
    if problem is not None:
        return told_trouble(state, problem)
    return Plan(kind, legs, files, facing, walk(start, legs), spent)


def _standing(b: geo.Box, clear: Sequence[Other], terrain: Sequence[Any]) -> Trouble | None:
    """MOVE.REFORM: the re-formed unit on no unit, in its kept gap, clear of terrain."""
    here = geo.polygon(b)
    if any(here.intersects(w) for w in terrain):
        return Trouble("impassable", 0)
    for o in clear:
        gap = geo.gap(b, o.box)
        if geo.overlaps(b, o.box):
            return Trouble("overlap", 0, o.id)
        if gap < o.keep - 1e-4:
            return Trouble("too_close", 0, o.id)
    return None

