"""Who may act in the active player's turn, beyond the charges: the checks a remaining move
(MOVE.REMAINING) and a shot (SHOOT.WHO) share."""

from __future__ import annotations

from regiment.core.i18n import tr

from .combat import combat_holding
from .state import State, UnitState
from .units import status_word


def why_idle(state: State, u: UnitState) -> str:
    """MOVE.REMAINING, SHOOT.WHO: why ``u`` may not act now ("" when it may): the active
    player's, no character inside a unit (it moves and shoots with its unit), ready and out
    of combat, and it did not charge, fail a charge or rally this turn."""
    if u.player != state.player:
        return tr("{unit} is not {player}'s", unit=u.name, player=state.player)
    if u.joined is not None:
        return tr("{unit} moves with the unit it has joined", unit=u.name)
    if u.status != "ready" or combat_holding(state, u.id):
        return tr("{unit} is {status}", unit=u.name, status=status_word(u.status))
    if u.charged or u.declared:
        return tr("{unit} charged this turn", unit=u.name)
    if u.id in state.context.rallied:
        return tr("{unit} rallied this turn", unit=u.name)
    return ""


def standing_enemies(state: State, u: UnitState) -> list[UnitState]:
    """The enemy units on the table that do not flee, no character inside a unit: what a
    march is tested near (MOVE.MARCH) and what the bot moves toward."""
    return [e for e in state.units.values() if e.player != u.player and e.joined is None
            and e.status in ("ready", "engaged")]
