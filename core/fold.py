"""Applying events: the only way a game state changes.

``apply`` trusts its events (validation happened when they were decided, or when a log was
read), so replay is a dict lookup and one call per event. Appliers are pure: state in, state out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .events import DiceRolled, Event, GameEnded, PhaseChanged, RollRequested
from .protocols import Applier
from .state import Awaiting, GameState


def _phase_changed(state: GameState, e: PhaseChanged) -> GameState:
    return state.evolve(phase=e.phase, turn=e.turn, player=e.player)


def _roll_requested(state: GameState, e: RollRequested) -> GameState:
    return state.evolve(awaiting=Awaiting(purpose=e.purpose, unit=e.unit, player=e.player,
                                          dice=e.dice, about=e.about))


def _dice_rolled(state: GameState, e: DiceRolled) -> GameState:
    return state.evolve(awaiting=None, dice_pos=e.index + len(e.faces))


def _game_ended(state: GameState, e: GameEnded) -> GameState:
    return state.evolve(over=True, winner=e.winner, phase="over")


def _nothing(state: GameState, e: Event) -> GameState:
    return state


KERNEL_APPLIERS: dict[str, Applier] = {
    "PhaseChanged": _phase_changed,
    "RollRequested": _roll_requested,
    "DiceRolled": _dice_rolled,
    "GameEnded": _game_ended,
    "CommandIssued": _nothing,
}


def appliers_for(preset_appliers: Mapping[str, Applier]) -> dict[str, Applier]:
    table = dict(KERNEL_APPLIERS)
    table.update(preset_appliers)
    return table


def fold(state: GameState, events: Iterable[Event], table: Mapping[str, Applier]) -> GameState:
    for e in events:
        state = table[e.type](state, e)
    return state
