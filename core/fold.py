"""Applying events: the only way a game state changes.

``apply`` trusts its events (validation happened when they were decided, or when a log was
read), so replay is a dict lookup and one call per event. Appliers are pure: state in, state out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar, cast

from .about import typed
from .endings import ending_of
from .events import (
    CommandIssued,
    CommandWithdrawn,
    DiceCommitted,
    DiceRevealed,
    DiceRolled,
    Event,
    GameEnded,
    Measured,
    MeasurementRequested,
    PhaseChanged,
    RollRequested,
    TurnBegan,
    event_class,
)
from .measure import Asking, Question, indexed, resumed
from .protocols import Applier
from .state import Awaiting, GameState

S = TypeVar("S", bound=GameState)


def _phase_changed(state: GameState, e: PhaseChanged) -> GameState:
    return state.evolve(phase=e.phase, turn=e.turn, player=e.player)


def _turn_began(state: GameState, e: TurnBegan) -> GameState:
    """TURN.ORDER: a player's turn begins. The kernel keeps nothing of a turn: the turn and the
    player come with the ``PhaseChanged`` that follows (a rulebook's set-up still reads turn
    0 after the first ``TurnBegan``); a rulebook that resets what lasts a turn replaces this."""
    return state


def _roll_requested(state: GameState, e: RollRequested) -> GameState:
    return state.evolve(awaiting=Awaiting.make(purpose=e.purpose, unit=e.unit, player=e.player,
                                               dice=e.dice, about=typed(e.about)))


def _dice_rolled(state: GameState, e: DiceRolled) -> GameState:
    return state.evolve(awaiting=None, dice_pos=e.index + len(e.faces))


def _unchanged(state: GameState, e: Event) -> GameState:
    """Shared dice's commitments and reveals: the timeline keeps the chains (they hold across
    undos: a round is never revealed twice), the state keeps nothing of them."""
    return state


def _game_ended(state: GameState, e: GameEnded) -> GameState:
    return state.evolve(over=True, winner=e.winner, phase="over", ending=ending_of(e.to_data()))


def _command_issued(state: GameState, e: CommandIssued) -> GameState:
    """A player's command starts with no measurements; a measurement keeps the ones before it
    in the same chain (TABLE.ASK)."""
    if state.answers and e.command != "measure":
        return state.evolve(answers=())
    return state


def _measurement_requested(state: GameState, e: MeasurementRequested) -> GameState:
    return state.evolve(asking=Asking.make(question=Question.of(e), resume=resumed(e.resume)))


def _withdrawn(state: GameState, e: CommandWithdrawn) -> GameState:
    return state.evolve(asking=None, answers=())


def _measured(state: GameState, e: Measured) -> GameState:
    return state.evolve(asking=None, answers=(*state.answers, (indexed(e.key), e.value)))


KERNEL_APPLIERS: dict[type[Event], Applier] = {
    PhaseChanged: _phase_changed,
    TurnBegan: _turn_began,
    RollRequested: _roll_requested,
    DiceRolled: _dice_rolled,
    GameEnded: _game_ended,
    DiceCommitted: _unchanged,
    DiceRevealed: _unchanged,
    CommandIssued: _command_issued,
    MeasurementRequested: _measurement_requested,
    Measured: _measured,
    CommandWithdrawn: _withdrawn,
}


# Each rulebook's table, made once: every game of it reads the same one (a table a game
# was 2.2 KiB of a held game's memory, issue 29 item 2). Kept with the appliers it was made
# from, so an id is never mistaken for another mapping's.
_TABLES: dict[int, tuple[Mapping[Any, Applier], dict[type[Event], Applier]]] = {}


def appliers_for(preset_appliers: Mapping[Any, Applier]
                 ) -> dict[type[Event], Applier]:
    """The kernel's appliers and a rulebook's, by event class (a rulebook may still name an
    event by its type name): the rulebook's replace the kernel's. The table is shared by
    every caller given the same appliers: read it, never change it (a rulebook's appliers
    are fixed once it is loaded)."""
    kept = _TABLES.get(id(preset_appliers))
    if kept is not None and kept[0] is preset_appliers:
        return kept[1]
    table = dict(KERNEL_APPLIERS)
    for key, applier in preset_appliers.items():
        table[event_class(key) if isinstance(key, str) else key] = applier
    _TABLES[id(preset_appliers)] = (preset_appliers, table)
    return table


def fold(state: S, events: Iterable[Event], table: Mapping[type[Event], Applier]) -> S:
    for e in events:
        state = table[type(e)](state, e)
    return state


class Folded(list[Event]):
    """Events that carry the state they lead to from the state they were decided on.

    A preset folds its events as it decides them (its rules look at the state as it goes);
    returning them as ``Folded`` spares the kernel folding them a second time. Nothing may be
    added to a ``Folded`` list after it is made; code that extends one makes a plain list.
    """

    __slots__ = ("state",)

    def __init__(self, events: Iterable[Event], state: GameState) -> None:
        super().__init__(events)
        self.state = state


def folded(state: S, events: list[Event], table: Mapping[type[Event], Applier]) -> S:
    """The state ``events`` lead to from ``state``: the one they carry, or a fold."""
    if type(events) is Folded:
        return cast(S, events.state)   # a preset folds its own state type
    return fold(state, events, table)
