"""Who may act in the active player's turn, beyond the charges: the checks a remaining move
(MOVE.REMAINING) and a shot (SHOOT.WHO) share."""

from __future__ import annotations

from regiment.core.i18n import mark, tr

from .close_combat.combat import combat_holding
from .state import State, UnitState
from .units import status_word

IDLE = {"not_active": mark("{unit} is not {player}'s"),
        "joined": mark("{unit} moves with the unit it has joined"),
        "status": mark("{unit} is {status}"),
        "charged": mark("{unit} charged this turn"),
        "rallied": mark("{unit} rallied this turn")}


def idle(state: State, u: UnitState) -> str:
    """MOVE.REMAINING, SHOOT.WHO: why ``u`` may not act now, as a key of ``IDLE`` ("" when
    it may): the active player's, no character inside a unit (it moves and shoots with its
    unit), ready and out of combat, and it did not charge, fail a charge or rally this
    turn."""
    if u.player != state.player:
        return "not_active"
    if u.joined is not None:
        return "joined"
    if u.status != "ready" or combat_holding(state, u.id):
        return "status"
    if u.charged or u.declared:
        return "charged"
    if u.id in state.context.rallied:
        return "rallied"
    return ""


def why_idle(state: State, u: UnitState) -> str:
    """``idle``, told ("" when ``u`` may act)."""
    return told_idle(state, u, idle(state, u))


def told_idle(state: State, u: UnitState, code: str) -> str:
    """MOVE.REMAINING, SHOOT.WHO: an ``idle`` code of ``u`` as its sentence ("" for none)."""
    if not code:
        return ""
    return tr(IDLE[code], unit=u.name, player=state.player, status=status_word(u.status))


def standing_enemies(state: State, u: UnitState) -> list[UnitState]:
    """The enemy units on the table that do not flee, no character inside a unit: what a
    march is tested near (MOVE.MARCH) and what the bot moves toward."""
    return [e for e in state.units.values() if e.player != u.player and e.joined is None
            and e.status in ("ready", "engaged")]
