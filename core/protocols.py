"""The two things a game is given when it is made: its preset (the rules) and its store."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from .registry import Registry
from .state import GameState

if TYPE_CHECKING:   # names in signatures only: the registry is imported by every command
    from .commands import Command
    from .events import Event, GameStarted
    from .pending import Decision, Over
    from .record import Draft, Record
    from .state import Awaiting

# An applier folds one event into a state. Each rulebook's appliers take and give its own state
# type (a subclass of GameState), so the kernel's tables hold them as plain callables.
Applier = Callable[[Any, Any], Any]
S = TypeVar("S", bound=GameState)


class Preset(Protocol[S]):
    """A rule set over its own state type ``S``: its turn machine, its rule functions, what is
    legal and pending. The kernel only hands a preset back the states it made."""

    @property
    def name(self) -> str: ...

    @property
    def appliers(self) -> Mapping[Any, Applier]: ...   # by event class (or type name)

    def initial_state(self, started: GameStarted) -> S: ...

    def opening(self, state: S) -> list[Event]:
        """Events that follow GameStarted in step 0 (entering the first phase)."""
        ...

    def decide(self, state: S, command: Command) -> list[Event]:
        """The events a legal command causes; IllegalCommand (with the rule ID) otherwise."""
        ...

    def on_roll(self, state: S, roll: Awaiting, faces: tuple[int, ...]) -> list[Event]:
        """The outcome of a requested roll, once its faces are known."""
        ...

    def pending(self, state: S) -> Decision | Over: ...

    def legal(self, state: S) -> list[Command]: ...

    def roll_need(self, state: S) -> str | None:
        """What the awaited roll needs, as a player reads it ("each die 4+ hits"), for the
        prompt that asks for real dice; None when nothing needs saying."""
        ...

    def sentence(self, event_type: str, data: Mapping[str, Any], state: S) -> str | None:
        """An event of this rulebook told as a sentence that cites its rule IDs (None: a
        bookkeeping event, not told). The tools tell every game through this."""
        ...


class View(Protocol):
    """What the tools show of a rulebook's pieces, given as the preset's ``view`` (optional: a
    rulebook without one, such as the duel, is told in words alone). ``columns`` names the
    roster's columns."""

    columns: tuple[str, ...]

    def names(self, state: Any) -> dict[str, str]:
        """Each piece's id and the name players know it by."""
        ...

    def roster(self, state: Any) -> list[tuple[str, ...]]:
        """One row a piece on the table, under ``columns``."""
        ...

    def losses(self, state: Any) -> list[tuple[str, str, int, int, str]]:
        """Each piece: name, player, models at the start, models left, status."""
        ...

    def ends(self, state: Any) -> dict[str, str]:
        """How each piece ended, in a word ``simulate`` counts ("destroyed", "standing")."""
        ...

    def contacts(self, state: Any) -> Any: ...

    def choose(self, state: Any, pending: Decision) -> Command:
        """A plain bot's choice among the pending decision's legal commands."""
        ...

    def drawing(self, state: Any) -> list[dict[str, Any]]:
        """The pieces as the replay page draws them."""
        ...

    def paths(self, before: Any, after: Any, batch: Sequence[Record]) -> list[dict[str, Any]]:
        """The moves of a step the replay page draws as arrows."""
        ...

    def final(self, state: Any) -> dict[str, Any]:
        """Where each piece ended, as plain data."""
        ...

    def board(self, state: Any) -> dict[str, Any]:
        """The table and every piece on it, in the board's frame (``core.board``)."""
        ...


def view_of(preset: Preset[Any]) -> View | None:
    return getattr(preset, "view", None)


class EventStore(Protocol):
    """Where logs live. ``append`` is atomic per step and seals drafts into the hash chain."""

    def append(self, game_id: str, drafts: Sequence[Draft], expected_version: int
               ) -> Sequence[Record]: ...

    def read(self, game_id: str, start: int = 0) -> Iterator[Record]: ...

    def version(self, game_id: str) -> int: ...

    def games(self) -> list[str]: ...

    def save_snapshot(self, game_id: str, seq: int, data: dict[str, Any]) -> None: ...

    def load_snapshot(self, game_id: str) -> tuple[int, dict[str, Any]] | None: ...

    def put_secret(self, game_id: str, seed: bytes) -> None: ...

    def get_secret(self, game_id: str) -> bytes | None: ...

    def close(self) -> None: ...


PRESETS: Registry[Preset[Any]] = Registry()


def register_preset(preset: Preset[Any] | Callable[[], Preset[Any]], name: str = "") -> None:
    """A preset, or (with its ``name``) a function that makes it when a game first needs it."""
    if name:   # with a name: the function that makes it
        PRESETS.later(name, cast("Callable[[], Preset[Any]]", preset))
    else:
        made = cast("Preset[Any]", preset)
        PRESETS[made.name] = made
