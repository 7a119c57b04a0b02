"""SK.MORALE after shooting: a squad that has lost a quarter of the models it had as the turn
began, to the shooting phase's volleys, takes a morale check (2D6 against its Leadership)
once the volley is done; a squad that fails falls back 2D6 from the enemy (SK.FALL_BACK)."""

from __future__ import annotations

from typing import Any

from regiment.core.events import Event, RollRequested

from ..fight.events import MoraleTested
from ..fight.steps import fall_back
from ..models import morale_passed
from ..rulings import ruled
from ..state import SkirmishState, Squad

S = SkirmishState


def shaken(state: S, s: Squad) -> bool:
    """SK.MORALE: ``s`` owes its check: a quarter or more of its turn's models lost, in this
    shooting phase (its first player's turn aside: squads from the scenario count as they
    began), and not yet tested."""
    start = s.turn_models or s.start_models
    return s.status == "ready" and bool(s.models) and not s.morale_checked and \
        4 * (start - len(s.models)) >= start > len(s.models)


def drive(state: S) -> list[Event]:
    """The next check or fall back the shooting owes, once no volley is being rolled."""
    if state.volley is not None or not ruled(state, "shooting_morale"):
        return []
    for s in state.squads.values():
        if s.player == state.player:
            continue
        if s.broken and s.status == "ready":
            return [RollRequested(purpose="fall_back", unit=s.id, player=s.player, dice=2)]
        if shaken(state, s):
            return [RollRequested(purpose="morale", unit=s.id, player=s.player, dice=2)]
    return []


def morale_rolled(state: S, uid: str, faces: tuple[int, ...]) -> list[Event]:
    s = state.squads[uid]
    a, b = faces
    ld = s.profile["Ld"]
    return [MoraleTested(unit=uid, faces=(a, b), leadership=ld, penalty=0,
                         passed=morale_passed(ld, 0, (a, b)), cause="shooting")]


def fall_back_rolled(state: S, uid: str, faces: tuple[int, ...]) -> list[Event]:
    """SK.FALL_BACK after shooting: 2D6 straight away from every enemy model."""
    s = state.squads[uid]

    def away() -> tuple[list[Any], list[Any]]:
        foes = [c for q in state.squads.values() if q.player != s.player and q.on_table
                for c in q.models]
        return foes, state.others(uid)

    return fall_back(state, uid, faces, away)
