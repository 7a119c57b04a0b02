"""CC.CHALLENGE: who fights a challenge apart from the rest of a combat."""

from __future__ import annotations

from ..rulings import ruled
from ..state import Fight, State


def duellists(state: State, fight: Fight) -> frozenset[str]:
    """CC.CHALLENGE (games from 0.13.0): the fighters of a challenge that stand alone (a
    character on its own), whom no model but the rival attacks: models touching only one have
    no one to attack (the challenge's own blows are a group of their own). A champion fights
    from its unit's ranks, and the rest of that unit may still be attacked."""
    duel = fight.duel or {}
    if not duel or not ruled(state, "duel_apart"):
        return frozenset()
    return frozenset(uid for uid in duel if state.units[uid].figures == 1)
