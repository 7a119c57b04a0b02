"""What a screen needs to present a pending decision of the fantasy game (a decision's
``details``): for the remaining moves, each unit's allowance by kind of move, what a wheel and
a turn cost (MOVE.WHEEL, MOVE.TURN), the tolerance on a budget, and the farthest it goes
straight; for a charge, how far each target is (CH.RANGE); for a shot, its range, modifiers
and need (SHOOT.HIT). Worked out from the same rules the commands are checked by."""

from __future__ import annotations

from typing import Any

from regiment.core import geometry as geo
from regiment.core.pending import Decision

from .charge import gap
from .commands import DeclareCharge, Move, Shoot
from .moving import rules as moving
from .shooting.rules import aim
from .state import State
from .units import box


def moving_details(s: State, pending: Decision) -> dict[str, Any] | None:
    """MOVE.WHEEL, MOVE.TURN, MOVE.BACK: each unit's allowances and how far it reaches."""
    if pending.decision != "remaining_moves":
        return None
    units: dict[str, Any] = {}
    for c in pending.legal:
        if not isinstance(c, Move):
            continue
        u = s.units[c.unit]
        entry = units.setdefault(u.id, {
            "allowance": {kind: moving.allowance(u, kind) for kind in ("forward", "march")
                          if kind == "forward" or u.id not in s.context.march_failed},
            "back": moving.allowance(u, "forward") / 2,   # MOVE.BACK: half rate
            "turn": u.profile["M"] / 4,                   # MOVE.TURN: a quarter of M
            "width": round(box(u).width, 4), "reach": {}})
        if c.path and len(c.path) == 1 and c.path[0][0] == "forward":
            entry["reach"][c.kind] = c.path[0][1]
    return {"moves": units, "tolerance": moving.TOLERANCE,
            "wheel": "the outer front corner's arc: the unit's width times the angle in "
                     "radians (MOVE.WHEEL)"}


def shooting_details(s: State, pending: Decision) -> dict[str, Any] | None:
    """SHOOT.HIT: each shot's range, modifiers and the roll it needs."""
    if pending.decision != "shoot":
        return None
    shots = []
    for c in pending.legal:
        if isinstance(c, Shoot):
            fired = aim(s, s.units[c.unit], s.units[c.target])
            shots.append({"unit": c.unit, "target": c.target, "distance": fired.distance,
                          "modifiers": list(fired.modifiers), "hit": fired.hit,
                          "hit2": fired.hit2, "shots": fired.shots})
    return {"shots": shots}


def charging_details(s: State, pending: Decision) -> dict[str, Any] | None:
    """CH.RANGE: how far each target of a charge is; GEO.ARCS, CH.DECLARE: the charger's
    front arc (its centre and two points through its front corners, 100" out: what a screen
    shades), and CH.CHARGE_MOVE: the side of the target its front's middle stands in the arc
    of now (where the charge would land; an even split is settled by a die)."""
    if pending.decision != "declare_charge":
        return None
    out, arcs = [], {}
    for c in pending.legal:
        if not isinstance(c, DeclareCharge):
            continue
        u, t = s.units[c.unit], s.units[c.target]
        b = box(u)
        if u.id not in arcs:
            arcs[u.id] = [[round(x, 4), round(y, 4)] for x, y in geo.wedge(b, "front", 100.0)]
        out.append({"unit": c.unit, "target": c.target, "distance": round(gap(u, t), 4),
                    "side": geo.arc(box(t), b.position)})
    return {"charges": out, "front_arcs": arcs}
