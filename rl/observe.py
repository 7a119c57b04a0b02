"""What a seat observes: a fixed-size float32 table, one row per unit, and the game's globals.

Everything is seen from the observing seat (``mine``: its own units), normalised to about
[-1, 1]: positions to the table's width and depth, characteristics to 10, models to the unit's
models at the start. The game has perfect information: both seats see every unit; only
``mine`` and the ``my_*`` globals differ between them. ``columns(layout)`` names every value,
in order (``observation[i]`` is ``columns(layout)[i]``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .layout import Layout
from .session import pieces

PROFILE = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
UNIT = ("present", "mine", "x", "y", "facing_sin", "facing_cos", "width", "depth", "models",
        "start_models", "files", "ranks", *PROFILE, "save", "ward", "range", "charged")
TERRAIN = {"fantasy": ("hills", "soft_cover", "hard_cover", "blocking"),
           "skirmish": ("difficult", "cover", "blocking")}


def unit_columns(layout: Layout) -> list[str]:
    book = layout.book
    return [*UNIT, *(f"status_{s}" for s in book.statuses),
            *(f"engaged_{u}" for u in layout.units)]


def global_columns(layout: Layout) -> list[str]:
    book = layout.book
    return ["turn", "my_turn", *(f"phase_{p}" for p in book.phases), "phase_other",
            *(f"decision_{d}" for d in book.decisions), "decision_other", "my_decision",
            "roll_awaited", "stage_order", "stage_object", "stage_amount",
            *(f"building_{v}" for v in (*book.verbs, *book.plain)),
            *(f"building_unit_{u}" for u in layout.units),
            *(f"building_object_{layout.label(layout.orders + i)}"
              for i in range(layout.objects)),
            "my_score", "their_score"]


def columns(layout: Layout) -> list[str]:
    """Every value of the flat observation: the unit table row by row, then the globals."""
    return [f"{u}.{c}" for u in layout.units for c in unit_columns(layout)] + \
        global_columns(layout)


def size(layout: Layout) -> int:
    return len(layout.units) * len(unit_columns(layout)) + len(global_columns(layout))


def observe(layout: Layout, state: Any, seat: str, partial: tuple[int, ...],
            decision: Any) -> np.ndarray:
    """The flat observation of ``seat`` (float32, ``size(layout)`` values)."""
    book = layout.book
    width = float(state.table["width"])
    depth = float(state.table["depth"])
    n = len(layout.units)
    ucols = len(unit_columns(layout))
    out = np.zeros(size(layout), dtype=np.float32)
    rows = out[: n * ucols].reshape(n, ucols)
    engaged = _engaged(state)
    status_at = len(UNIT)
    engaged_at = status_at + len(book.statuses)
    read = _fantasy if book.rulebook == "fantasy" else _skirmish
    for i, uid in enumerate(layout.units):
        row = read(state, uid, seat, width, depth)
        if row is None:
            continue
        values, status = row
        rows[i, : len(UNIT)] = values
        if status in book.statuses:
            rows[i, status_at + book.statuses.index(status)] = 1.0
        for other in engaged.get(uid, ()):
            if other in layout.index:
                rows[i, engaged_at + layout.index[other]] = 1.0
    g = out[n * ucols:]
    at = 0
    g[0] = state.turn / max(1, state.turns)
    g[1] = float(state.player == seat)
    at = 2
    phase = state.phase
    g[at + (book.phases.index(phase) if phase in book.phases else len(book.phases))] = 1.0
    at += len(book.phases) + 1
    if decision is not None:
        name = decision.decision
        g[at + (book.decisions.index(name) if name in book.decisions
                else len(book.decisions))] = 1.0
    at += len(book.decisions) + 1
    g[at] = float(decision is not None and decision.player == seat)
    g[at + 1] = float(state.awaiting is not None and not state.over)
    at += 2
    g[at + min(len(partial), 2)] = 1.0 if decision is not None else 0.0
    at += 3
    verbs = len(book.verbs) + len(book.plain)
    objects_at = at + verbs + n
    if partial:
        verb, unit = layout.verb_of(partial[0])
        g[at + (*book.verbs, *book.plain).index(verb)] = 1.0
        if unit is not None:
            g[at + verbs + layout.index[unit]] = 1.0
        if len(partial) > 1 and layout.stage(partial[1]) == 2:
            g[objects_at + partial[1] - layout.orders] = 1.0
    at = objects_at + layout.objects
    mine, theirs, scale = _score(state, seat)
    g[at], g[at + 1] = mine / scale, theirs / scale
    return out


def _engaged(state: Any) -> dict[str, set[str]]:
    """Each unit's enemies in a combat with it (fantasy ``combats``, skirmish ``melees``)."""
    by_id = pieces(state)
    out: dict[str, set[str]] = {}
    for name in ("combats", "melees"):
        for combat in getattr(state, name, {}).values():
            for a in combat.units:
                for b in combat.units:
                    if a in by_id and b in by_id and by_id[a].player != by_id[b].player:
                        out.setdefault(a, set()).add(b)
    return out


def _save(value: int | None) -> float:
    return (7 - value) / 6 if value else 0.0


def _fantasy(state: Any, uid: str, seat: str, width: float, depth: float
             ) -> tuple[list[float], str] | None:
    from regiment.phases.fantasy.units import box, missile

    u = state.units[uid]
    present = u.position is not None and u.status not in ("destroyed", "off_table")
    b = box(u) if u.position is not None else None
    rad = math.radians(u.facing)
    files = max(1, u.files)
    weapon = missile(u)
    values = [float(present), float(u.player == seat),
              b.x / width if b else 0.0, b.y / depth if b else 0.0,
              math.sin(rad), math.cos(rad),
              b.width / width if b else 0.0, b.depth / depth if b else 0.0,
              u.models / max(1, u.start_models or u.models), (u.start_models or u.models) / 50,
              u.files / 10, math.ceil(u.models / files) / 10,
              *(u.profile.get(k, 0) / 10 for k in PROFILE),
              _save(u.armour), _save(u.ward), (weapon.range if weapon else 0.0) / 48,
              float(u.charged)]
    return values, str(u.status)


def _skirmish(state: Any, uid: str, seat: str, width: float, depth: float
              ) -> tuple[list[float], str] | None:
    s = state.squads[uid]
    present = s.on_table
    xs = [m[0] for m in s.models] or [0.0]
    ys = [m[1] for m in s.models] or [0.0]
    profile = s.profile
    values = [float(present), float(s.player == seat),
              sum(xs) / len(xs) / width, sum(ys) / len(ys) / depth, 0.0, 0.0,
              (max(xs) - min(xs)) / width, (max(ys) - min(ys)) / depth,
              len(s.models) / max(1, s.start_models), s.start_models / 50, 0.0, 0.0,
              float(profile.get("M", 6)) / 10,
              *(profile.get(k, 0) / 10 for k in PROFILE[1:]),
              _save(profile.get("Sv")), 0.0,
              max((w.range for w in s.weapons), default=0.0) / 48, float(s.charged)]
    return values, str(s.status)


def _score(state: Any, seat: str) -> tuple[float, float, float]:
    """The points each side would score were the game to end now (VP.POINTS, SK.VICTORY),
    over the most there are to score."""
    other = state.opponent(seat)
    if hasattr(state, "units"):
        from regiment.phases.fantasy.victory import victory_points

        points = victory_points(state)
        scale = float(sum(u.points for u in state.units.values())) or 1.0
    else:
        from regiment.phases.skirmish.victory import kill_points

        points = kill_points(state)
        scale = float(len(state.squads)) or 1.0
    return float(points.get(seat, 0)), float(points.get(other, 0)), scale


def raster(layout: Layout, state: Any, seat: str, cells: int = 1) -> np.ndarray:
    """The table as channels of cells (``cells`` a inch): my units, the enemy's, then each
    kind of terrain of the rulebook (``TERRAIN``); 1 where a cell's centre is covered."""
    import shapely
    from shapely.geometry import Polygon

    width, depth = float(state.table["width"]), float(state.table["depth"])
    w, h = max(1, round(width * cells)), max(1, round(depth * cells))
    xs, ys = np.meshgrid((np.arange(w) + 0.5) / cells, (np.arange(h) + 0.5) / cells)
    kinds = TERRAIN.get(layout.book.rulebook, ())
    out = np.zeros((2 + len(kinds), h, w), dtype=np.float32)
    for shape, channel in _shapes(layout, state, seat):
        out[channel] = np.maximum(out[channel], shapely.contains_xy(shape, xs, ys))
    for k, kind in enumerate(kinds):
        for poly in state.table.get(kind) or []:
            if isinstance(poly, list) and len(poly) >= 3:
                out[2 + k] = np.maximum(out[2 + k], shapely.contains_xy(Polygon(poly), xs, ys))
    return out


def _shapes(layout: Layout, state: Any, seat: str) -> list[tuple[Any, int]]:
    from shapely.geometry import Point, Polygon

    from regiment.core import geometry as geo

    out: list[tuple[Any, int]] = []
    if layout.book.rulebook == "fantasy":
        from regiment.phases.fantasy.units import box

        for u in state.units.values():
            if u.position is None or u.status in ("destroyed", "off_table", "joined"):
                continue
            out.append((Polygon(geo.corners(box(u))), 0 if u.player == seat else 1))
    else:
        for s in state.squads.values():
            if s.on_table:
                for m in s.models:
                    out.append((Point(m[0], m[1]).buffer(m[2]), 0 if s.player == seat else 1))
    return out
