"""Rulings of the skirmish rulebook that changed between engine versions, and the version each
took effect in (see ``phases.common.rulings``). Each names the rule ID it settles."""

from __future__ import annotations

from regiment.phases.common.rulings import Version

from .state import SkirmishState

RULINGS: dict[str, Version] = {
    # SK.ALLOCATE: a step's strikes are made squad by squad, each squad's at its foes in the
    # order the squads joined the combat (before: in the order of the first model touching
    # each foe, which only a table of positions knows; table mode has none)
    "strikes_in_melee_order": (0, 8, 0),
    # SK.VICTORY: a game whose turns were all played is won by kill points (before: no one
    # won unless a side had no squad left)
    "kill_points": (0, 11, 0),
}


def ruled(state: SkirmishState, ruling: str) -> bool:
    """Whether the game in ``state`` is played under ``ruling``."""
    return state.engine >= RULINGS[ruling]
