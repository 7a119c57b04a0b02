"""VP.POINTS, VP.WIN: who won a fantasy game whose turns were all played, by victory points."""

from __future__ import annotations

from .rulings import ruled
from .state import State, UnitState

GONE = frozenset({"destroyed", "fleeing"})   # full value (VP.POINTS)
# before 0.13.0 a pursuer off the table, coming back (FP.OFF_TABLE), counted as gone too
GONE_BEFORE = frozenset({"destroyed", "off_table", "fleeing"})
GENERAL = 100     # the enemy general slain
STANDARD = 100    # each enemy standard captured


def unit_points(state: State, u: UnitState) -> int:
    """VP.POINTS: what an enemy unit is worth at the end: its points value when destroyed,
    fled off the table or fleeing; half when it has a quarter or fewer of its starting
    models left (rounded down); nothing otherwise. A pursuer off the table that will come back
    (FP.OFF_TABLE) is not lost. The general slain is worth 100 more; a general who fled off
    the table is not slain (it keeps its models, unit_destroyed)."""
    if u.status in (GONE if ruled(state, "pursuer_not_lost") else GONE_BEFORE):
        value = u.points
    elif 4 * u.models <= u.start_models:
        value = u.points // 2
    else:
        value = 0
    return value + (GENERAL if u.general and slain(state, u) else 0)


def slain(state: State, u: UnitState) -> bool:
    """VP.POINTS: the general slain (not fled off the table, in games from 0.13.0)."""
    if u.status != "destroyed":
        return False
    return u.models == 0 or not ruled(state, "general_slain_only")


def victory_points(state: State) -> dict[str, int]:
    """VP.POINTS: each player's victory points, in the order of the game's players: the
    enemy units' (``unit_points``), and 100 for each enemy standard captured by breaking its
    unit in close combat."""
    out = {}
    for p in state.players:
        units = sum(unit_points(state, u) for u in state.units.values() if u.player != p)
        standards = sum(n for taker, n in state.captured.values() if taker == p)
        out[p] = units + STANDARD * standards
    return out


def itemised(state: State) -> list[dict[str, object]]:
    """VP.POINTS: each player's points, item by item, as ``GameEnded.ending["scored"]`` keeps
    them (games from engine 0.13.0): ``{"player", "unit", "points", "why"}``, ``why`` one of
    ``destroyed``, ``fled`` (fled off the table), ``fleeing``, ``quarter`` (a quarter or fewer
    of its models left), ``general`` (the general slain) and ``standard`` (its standards
    captured); the items of a player add up to its points."""
    out: list[dict[str, object]] = []
    for p in state.players:
        for u in state.units.values():
            if u.player == p:
                continue
            value = unit_points(state, u)
            general = GENERAL if u.general and slain(state, u) else 0
            if value - general:
                out.append({"player": p, "unit": u.id, "points": value - general,
                            "why": _why(u)})
            if general:
                out.append({"player": p, "unit": u.id, "points": general, "why": "general"})
        for uid, (taker, n) in state.captured.items():
            if taker == p:
                out.append({"player": p, "unit": uid, "points": STANDARD * n,
                            "why": "standard"})
    return out


def _why(u: UnitState) -> str:
    if u.status == "destroyed":
        return "destroyed" if u.models == 0 else "fled"
    return "fleeing" if u.status == "fleeing" else "quarter"
