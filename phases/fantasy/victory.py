"""VP.POINTS, VP.WIN: who won a fantasy game whose turns were all played, by victory points."""

from __future__ import annotations

from .state import State, UnitState

GONE = frozenset({"destroyed", "off_table", "fleeing"})   # full value (VP.POINTS)
GENERAL = 100     # the enemy general slain
STANDARD = 100    # each enemy standard captured


def unit_points(u: UnitState) -> int:
    """VP.POINTS: what an enemy unit is worth at the end: its points value when destroyed,
    fled off the table or fleeing; half when it has a quarter or fewer of its starting
    models left (rounded down); nothing otherwise. The general slain is worth 100 more."""
    if u.status in GONE:
        value = u.points
    elif 4 * u.models <= u.start_models:
        value = u.points // 2
    else:
        value = 0
    return value + (GENERAL if u.general and u.status == "destroyed" else 0)


def victory_points(state: State) -> dict[str, int]:
    """VP.POINTS: each player's victory points, in the order of the game's players: the
    enemy units' (``unit_points``), and 100 for each enemy standard captured by breaking its
    unit in close combat."""
    out = {}
    for p in state.players:
        units = sum(unit_points(u) for u in state.units.values() if u.player != p)
        standards = sum(n for taker, n in state.captured.values() if taker == p)
        out[p] = units + STANDARD * standards
    return out
