"""The game state: an immutable value that only ``apply`` (core.fold) produces.

States share structure: ``evolve`` copies one object's field dict and replaces what changed,
so a game can keep the state after every live step (undo and redo are O(1)) for a few hundred
bytes a step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from .about import tagged

T = TypeVar("T", bound="Value")


_new = object.__new__
_set = object.__setattr__


class Value:
    """A frozen value with a cheap ``evolve`` (one dict copy, no __init__ re-run)."""

    def evolve(self: T, **changes: Any) -> T:
        new = _new(type(self))
        # one merge: copy() then update() was faster alone (1.0 against 1.7 us for 27 fields)
        # but slower in real games (4 % slower, measured with bench/ab.py)
        _set(new, "__dict__", {**self.__dict__, **changes})  # frozen: on purpose
        return new

    @classmethod
    def make(cls: type[T], **fields: Any) -> T:
        """A value from all its fields at once, without the frozen dataclass's __init__ (which
        sets them one by one: 1.5 us for an Awaiting, measured). Every field must be given."""
        new = _new(cls)
        _set(new, "__dict__", fields)
        return new


@dataclass(frozen=True, kw_only=True)
class Awaiting(Value):
    """A roll a rule has asked for and not yet had."""

    purpose: str
    unit: str | None
    player: str
    dice: int
    about: Any = None   # what the roll is for: a continuation of core.about (None: nothing)


@dataclass(frozen=True, kw_only=True)
class GameState(Value):
    """What the kernel needs of any game's state: who plays, whose turn and phase it is, the
    dice stream's position and the roll awaited, and whether the game is over. A rulebook
    extends it with its own typed state (its pieces on the table, what it keeps of a turn)."""

    # answers a rulebook worked out for this very state (``memo``): a slot, not a field, so
    # that evolve, equality and summaries never see it
    __slots__ = ("_memo",)

    game_id: str
    preset: str
    players: tuple[str, ...]
    first: str
    turns: int
    turn: int = 0
    player: str = ""
    phase: str = ""
    dice_pos: int = 0
    awaiting: Awaiting | None = None
    over: bool = False
    winner: str | None = None
    # table mode (core.measure): the measurement awaited, and the answers given in the chain
    # of questions one step raised. Class attributes, not fields: a state that never asks
    # holds neither, so that every event's evolve copies no more than before (7 % of a load,
    # measured); evolve(asking=...) puts them on the states that do, and summary shows them.
    asking: ClassVar[Any] = None
    # how the game ended (core.endings: a code with its parameters), on the last state alone
    ending: ClassVar[dict[str, Any] | None] = None
    answers: ClassVar[tuple[tuple[str, str], ...]] = ()

    def let_go(self, newest: GameState) -> None:
        """Drop what this state's rulebook keeps with values of it that ``newest`` no longer
        holds (this state kept only for undo: ``forget``). None here."""
        return None

    def opponent(self, player: str) -> str:
        a, b = self.players
        return b if player == a else a

    def summary(self) -> dict[str, Any]:
        """A plain-data view (for --json output, snapshots and equality in tests)."""
        return {
            "turn": self.turn, "player": self.player, "phase": self.phase,
            "dice_pos": self.dice_pos, "over": self.over, "winner": self.winner,
            "awaiting": None if self.awaiting is None else {
                **self.awaiting.__dict__, "about": tagged(self.awaiting.about)},
            **({"asking": self.asking.question.fields()} if self.asking is not None else {}),
        }


def memo(state: GameState) -> dict[Any, Any]:
    """The answers kept for ``state`` (its pending decision, what its leaf drives): in a slot
    that ``evolve`` does not copy, so they die with the state and a new state starts with
    none."""
    # getattr with a default, not try/except: most states are asked once, and a raised
    # AttributeError caught in Python cost twice as much (1.5 against 0.9 us, measured)
    answers: dict[Any, Any] | None = getattr(state, "_memo", None)
    if answers is None:
        answers = {}
        object.__setattr__(state, "_memo", answers)   # not a field: the state is unchanged
    return answers


def forget(state: GameState, newest: GameState | None = None) -> None:
    """Drop the answers kept for a state the game moved on from. A game keeps every live
    step's state for undo, and their answers (decisions with their legal commands) were a
    sixth of its memory; a state that undo brings back works them out again. With the
    ``newest`` state, a rulebook's state drops too what it keeps with its own values that
    the newest no longer holds (``GameState.let_go``)."""
    try:
        object.__delattr__(state, "_memo")
    except AttributeError:
        pass
    if newest is not None:
        state.let_go(newest)
