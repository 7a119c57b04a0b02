"""SK.VICTORY: who won a skirmish game whose turns were all played, by kill points."""

from __future__ import annotations

from .state import SkirmishState

# SK.VICTORY: an enemy squad scores when it is destroyed, falling back at the end, or fled
# off the table
SCORES = frozenset({"destroyed", "falling_back", "off_table"})


def kill_points(state: SkirmishState) -> dict[str, int]:
    """SK.VICTORY: each player's kill points, one for every enemy squad destroyed, falling
    back at the end, or fled off the table (in the order of the game's players)."""
    return {p: sum(1 for q in state.squads.values() if q.player != p and q.status in SCORES)
            for p in state.players}


def itemised(state: SkirmishState) -> list[dict[str, object]]:
    """SK.VICTORY: each player's kill points, squad by squad, as ``GameEnded.ending["scored"]``
    keeps them (games from engine 0.13.0): ``{"player", "unit", "points": 1, "why"}``, ``why``
    the squad's status (destroyed, falling_back, off_table)."""
    return [{"player": p, "unit": q.id, "points": 1, "why": q.status}
            for p in state.players for q in state.squads.values()
            if q.player != p and q.status in SCORES]
