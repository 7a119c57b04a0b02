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
    # SK.MOVE: a movement phase comes first in each turn (before: the turn began with the
    # shooting, and squads moved only to charge, pile in, consolidate or fall back)
    "movement_phase": (0, 12, 0),
    # SK.SHOOT: a gun fires as its type says (Rapid Fire, Assault, Heavy, Pistol), and a squad
    # that fired a Rapid Fire gun does not assault (before: every gun its listed shots)
    "weapon_types": (0, 12, 0),
    # SK.SHOOT: a squad shot at in cover saves on the better of its armour and a 4+ cover save
    # (before: its armour alone)
    "cover_saves": (0, 12, 0),
    # SK.MORALE: a squad that loses a quarter of its models to shooting tests its morale, and
    # falls back on a failure (before: only a fight's losers tested)
    "shooting_morale": (0, 12, 0),
    # SK.SHOOT: a squad shoots only at a squad one of its models can see (before: at any
    # squad in range, behind walls too)
    "shoot_in_sight": (0, 13, 0),
    # SK.VICTORY: a game won on points keeps them squad by squad in its ending (before: the
    # totals alone)
    "points_itemised": (0, 13, 0),
    # SK.MOVE: a move gives each model's place or the first model's x and y, not both, and
    # x with y (before: a path beside them was taken, an x without y moved nothing)
    "bounded_paths": (0, 13, 0),
}


def ruled(state: SkirmishState, ruling: str) -> bool:
    """Whether the game in ``state`` is played under ``ruling``."""
    return state.engine >= RULINGS[ruling]
