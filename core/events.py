"""Events: facts in the past tense, the only things that change a game's state.

Each event class has a stable type name and a schema version; both are stored with every
record, and a registry maps them back to the class when a log is read. Rule events cite the
rule IDs that produced them in the class attribute ``rules``. The kernel's own events are here;
each preset adds the events of its rules with the same ``event`` decorator.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, dataclass_transform

from .schema import Schema, SchemaError, to_plain

E = TypeVar("E", bound="Event")

EVENTS: dict[str, type[Event]] = {}


class Event:
    """Base of all events. Subclasses are made with the ``event`` decorator: frozen,
    keyword-only dataclasses with slots (one object an event, no ``__dict__``: a replay keeps
    one per record)."""

    __slots__ = ()
    type: ClassVar[str]
    v: ClassVar[int]
    rules: ClassVar[tuple[str, ...]] = ()
    schema: ClassVar[Schema]
    # Fields added to an event after logs of it were written, left out of the data while they
    # hold their default: a step played again (a record imported, a log re-derived) then
    # writes the very bytes an earlier engine wrote, and hashes the same.
    sparse: ClassVar[dict[str, Any]] = {}

    def to_data(self) -> dict[str, Any]:
        data = to_plain(self)
        for name, default in self.sparse.items():
            if data.get(name) == default:
                del data[name]
        return data


@dataclass_transform(frozen_default=True, kw_only_default=True)
def event(name: str, v: int = 1, rules: tuple[str, ...] = (), sparse: tuple[str, ...] = ()
          ) -> Callable[[type[E]], type[E]]:
    """Make a class a frozen, keyword-only event dataclass and register it under ``name``;
    ``sparse`` names the fields left out of its data at their default (``Event.sparse``)."""

    def wrap(cls: type[E]) -> type[E]:
        if name in EVENTS and EVENTS[name].__qualname__ != cls.__qualname__:
            raise TypeError(f"event type {name!r} registered twice")
        dc = dataclasses.dataclass(frozen=True, kw_only=True, slots=True)(cls)
        dc.type = name
        dc.v = v
        dc.rules = rules
        fields = {f.name: f for f in dataclasses.fields(dc)}  # type: ignore[arg-type]  # (a dataclass now)
        dc.sparse = {n: fields[n].default for n in sparse}
        dc.schema = Schema(dc)
        EVENTS[name] = dc
        return dc

    return wrap


def event_class(name: str) -> type[Event]:
    cls = EVENTS.get(name)
    if cls is None and load_rulebooks():
        cls = EVENTS.get(name)
    if cls is None:
        raise SchemaError(f"unknown event type {name!r}")
    return cls


def load_rulebook(name: str) -> None:
    """Load the rulebook of preset ``name``, if one is registered under that name."""
    from .protocols import PRESETS

    if name in PRESETS:
        PRESETS[name]


def load_rulebooks() -> bool:
    """Import the rulebooks registered for later (their events register as they load): a log
    may be read before any game of its rulebook was made. Whether any was still waiting."""
    from .protocols import PRESETS

    return PRESETS.load_all()


# --- The kernel's events -------------------------------------------------------------------


@event("GameStarted")
class GameStarted(Event):
    """The first record of every game: what was set up, and a commitment to the dice seed."""

    game_id: str
    scenario: dict[str, Any]
    preset: str
    engine_version: str
    dice_commitment: str
    dice: str = "seeded"
    undo: str = "free"

    def __post_init__(self) -> None:
        # a log names its rulebook in its first record: reading that record loads the
        # rulebook (registered for later), so that its events decode from the next record on
        load_rulebook(self.preset)


@event("CommandIssued")
class CommandIssued(Event):
    """The command that opened a step, as the player sent it; ``verify`` re-derives from it."""

    by: str
    command: str
    args: dict[str, Any]


@event("PhaseChanged", rules=("TURN.ORDER",))
class PhaseChanged(Event):
    """The turn machine entered ``phase`` (a leaf state of the turn, dotted)."""

    phase: str
    turn: int
    player: str


@event("TurnBegan", rules=("TURN.ORDER",))
class TurnBegan(Event):
    """A player's turn starts; each rulebook clears what it keeps of a turn (its appliers)."""

    turn: int
    player: str


@event("RollRequested", v=2, sparse=("about",))
class RollRequested(Event):
    """A rule needs dice: ``dice`` D6 for ``purpose``, rolled by ``player`` for ``unit``;
    ``about`` is what the roll is for when its purpose alone does not say (a target, an attack
    stage): a map tagged with its kind (core.about), left out when there is none. (v1 held it
    as text: read by an upcaster.)"""

    purpose: str
    unit: str | None
    player: str
    dice: int
    about: dict[str, Any] | None = None


@event("DiceRolled")
class DiceRolled(Event):
    """Faces of a requested roll; ``index`` is the position in the game's dice stream."""

    purpose: str
    unit: str | None
    faces: tuple[int, ...]
    index: int


@event("DiceCommitted", rules=("DICE.COMMIT",))
class DiceCommitted(Event):
    """Shared dice: ``party`` (a seat, or ``@server`` for the host) is bound to the hash chain
    whose anchor is ``anchor``, ``length`` rounds long; ``sig`` is its Ed25519 signature with
    ``key`` (both hex) of ``regiment-dice/1 commit GAME PARTY ANCHOR LENGTH``. Every party's
    is in one step, written once all were in and before any shared die (core.shared)."""

    party: str
    anchor: str
    length: int
    key: str
    sig: str


@event("DiceRevealed", rules=("DICE.REVEAL", "DICE.SHARED"))
class DiceRevealed(Event):
    """Shared dice, round ``round``: every party's reveal (``values``, party to hex; each
    hashes to its previous one), bound to ``head``, the log's head when the roll was called
    for; the ``dice`` new faces they make follow in ``DiceRolled`` (core.shared)."""

    round: int
    values: dict[str, str]
    head: str
    dice: int


@event("MeasurementRequested", v=3, rules=("TABLE.ASK",))
class MeasurementRequested(Event):
    """Table mode: a rule needs a measurement the players take (see core.measure.Question);
    ``resume`` is what is decided again once it is answered: a command, or a roll's outcome
    (``{"command": ...}`` or ``{"roll": {purpose, unit, player, dice, about, faces}}``, its
    ``about`` tagged as ``RollRequested``'s; v1 held it as text). ``key`` names the question:
    ``{"kind": "side", "of": [unit, other, ...]}`` (v1 and v2: ``side:unit:other``)."""

    key: dict[str, Any]
    kind: str
    rule: str
    player: str
    unit: str
    other: str = ""
    options: tuple[str, ...] = ()
    most: float = 0.0
    extra: float = 0.0
    resume: dict[str, Any]


@event("Measured", v=2, rules=("TABLE.MEASURE",))
class Measured(Event):
    """The players' answer to the measurement asked under ``key`` (the question's, a map as
    ``MeasurementRequested`` writes it; v1: text), as it is kept."""

    key: dict[str, Any]
    kind: str
    rule: str
    value: str


@event("CommandWithdrawn", v=2, rules=("TABLE.MEASURE",))
class CommandWithdrawn(Event):
    """Table mode: the measurement a command asked for rules the command out (a character
    beyond its Movement of the unit it would join): the command is withdrawn as if it had
    not been given, and the log keeps what was measured. ``why`` is the refusal's reason,
    ``{"code", "rule", ...}`` (``core.reasons``); a refusal with no code of its own is
    ``{"code": "told", "rule", "text"}``, its English words. (v1: a code without its rule,
    or English.)"""

    command: str
    by: str
    rule: str
    why: dict[str, Any]


@event("StepUndone")
class StepUndone(Event):
    """Takes live step ``step`` out of the timeline. ``consent`` names who agreed, if needed."""

    step: int
    by: str
    consent: str | None = None


@event("StepRedone")
class StepRedone(Event):
    """Puts undone step ``step`` back by re-applying its recorded events."""

    step: int
    by: str


@event("UndoRequested")
class UndoRequested(Event):
    """Under the ``consent`` policy: ``by`` asks to undo a step that rolled dice."""

    step: int
    by: str


@event("UndoRefused")
class UndoRefused(Event):
    """The opponent refused an undo request; the step stays."""

    step: int
    by: str


@event("GameEnded", sparse=("reason", "ending"))
class GameEnded(Event):
    """No more turns: the scenario's turns were played, or a side has no pieces left (GAME.END).
    ``ending`` is how, as a code with its parameters (``core.endings``); a game begun before
    engine 0.10.0 writes an English ``reason`` instead, as it did then."""

    reason: str = ""
    winner: str | None = None
    ending: dict[str, Any] | None = None


SHARED_EVENTS = frozenset({"DiceCommitted", "DiceRevealed"})
META_EVENTS = frozenset({"StepUndone", "StepRedone", "UndoRequested", "UndoRefused"})
