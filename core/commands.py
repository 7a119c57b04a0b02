"""Commands: what a player (or a program for them) asks the game to do, in the imperative.

A command never changes state. ``Game.submit`` checks it against the turn machine and the rules,
and only the events it causes change the state. On the wire a command is a JSON object with
``cmd`` (its name, as in DESIGN's protocol), ``by`` (the player sending it) and its fields.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, dataclass_transform

from .errors import BadRequest
from .schema import OutOfBounds, Schema, SchemaError, to_plain

C = TypeVar("C", bound="Command")

COMMANDS: dict[str, type[Command]] = {}


class Command:
    __slots__ = ()
    name: ClassVar[str]
    schema: ClassVar[Schema]
    stored: ClassVar[Schema]
    by: str

    def args(self) -> dict[str, Any]:
        """The fields other than ``by``, as recorded in ``CommandIssued``."""
        data = to_plain(self)
        del data["by"]
        return data

    def to_dict(self) -> dict[str, Any]:
        """Every field, as a log keeps a command (``MeasurementRequested.resume``)."""
        data: dict[str, Any] = {"cmd": self.name}
        data.update(to_plain(self))
        return {k: _listed(v) for k, v in data.items()}

    def wire(self) -> dict[str, Any]:
        """The command as a client is offered it: its name, who sends it and the fields that
        say something; a field at its default (``"x": null``, ``"files": 0``, ``"target":
        ""``: not given) is left out, and sending it back as it is takes the default."""
        defaults = _DEFAULTS.get(type(self))
        if defaults is None:
            defaults = _DEFAULTS[type(self)] = {
                f.name: f.default
                for f in dataclasses.fields(self)  # type: ignore[arg-type]  # (a dataclass)
                if f.default is not dataclasses.MISSING}
        return {k: v for k, v in self.to_dict().items()
                if k not in defaults or v != _listed(defaults[k])}


_DEFAULTS: dict[type, dict[str, Any]] = {}


def _listed(v: Any) -> Any:
    """Tuples as the lists JSON has (a move's path is a list of lists)."""
    return [_listed(x) for x in v] if isinstance(v, tuple) else v


@dataclass_transform(frozen_default=True, kw_only_default=True)
def command(name: str) -> Callable[[type[C]], type[C]]:
    def wrap(cls: type[C]) -> type[C]:
        dc = dataclasses.dataclass(frozen=True, kw_only=True, slots=True)(cls)
        dc.name = name
        dc.schema = Schema(dc, bounded=True)   # untrusted: every number, string, list bounded
        dc.stored = Schema(dc)   # a log's: what an older engine took, as it took it
        COMMANDS[name] = dc
        return dc

    return wrap


def parse_command(data: Any, logged: bool = False) -> Command:
    """Build a command from a plain dict (a JSON line); BadRequest says what is wrong.
    ``logged``: a command a log recorded (its chain checked), read as the engine that wrote
    it took it, not held to the bounds a client's command is held to now."""
    if not isinstance(data, dict):
        raise BadRequest(f"a command must be a JSON object, got {type(data).__name__}",
                         code="bad_command")
    name = data.get("cmd")
    if not isinstance(name, str):
        raise BadRequest("a command needs a 'cmd' string naming it", field="cmd",
                         code="bad_field")
    cls = COMMANDS.get(name)
    if cls is None:
        from .events import load_rulebooks  # a rulebook's commands load with it

        if load_rulebooks():
            cls = COMMANDS.get(name)
    if cls is None:
        raise BadRequest(f"unknown command {name!r}; known: {', '.join(sorted(COMMANDS))}",
                         field="cmd", code="unknown_command")
    fields = {k: v for k, v in data.items() if k != "cmd"}
    try:
        built: Command = (cls.stored if logged else cls.schema).build(fields, name)
    except SchemaError as exc:
        raise BadRequest(str(exc), field=exc.path.lstrip(".") or None,
                         code="out_of_bounds" if isinstance(exc, OutOfBounds) else "bad_field"
                         ) from None
    return built


def command_from_record(by: str, name: str, args: dict[str, Any]) -> Command:
    """Rebuild the command a ``CommandIssued`` event recorded (for verify and game records)."""
    return parse_command({"cmd": name, "by": by, **args}, logged=True)


# --- Kernel commands -----------------------------------------------------------------------


@command("roll")
class Roll(Command):
    """Faces of real dice, entered for a pending roll (manual dice)."""

    by: str
    faces: tuple[int, ...]


@command("commit_dice")
class CommitDice(Command):
    """Shared dice: every party's signed commitment to its chain (``party: {anchor, length,
    key, sig}``), written by the host once all are in (DICE.COMMIT); ``by`` is the seat whose
    commitment completed them."""

    by: str
    commitments: dict[str, Any]


@command("reveal")
class Reveal(Command):
    """Shared dice: every party's reveal for round ``round`` (``party: hex``), written by the
    host once all are in, in the name of the player whose roll it is (DICE.REVEAL)."""

    by: str
    round: int
    values: dict[str, str]


@command("withheld")
class Withheld(Command):
    """Shared dice: ``party`` (``by``) did not reveal round ``round`` within the scenario's
    ``reveal_timeout``: it concedes, or the game is frozen as contested, as the scenario's
    ``withheld`` says (DICE.WITHHELD). Written by the host."""

    by: str
    round: int


@command("measure")
class Measure(Command):
    """Table mode: the measurement the game asks for, as the players took it (TABLE.MEASURE):
    inches, a number of models, a side, yes or no (``"yes"``/``"no"``, or JSON ``true``/
    ``false``), a unit, or units."""

    by: str
    value: bool | str | int | float | tuple[str, ...]


@command("undo")
class Undo(Command):
    by: str


@command("redo")
class Redo(Command):
    by: str


@command("grant_undo")
class GrantUndo(Command):
    """The opponent agrees to a pending undo request (``consent`` policy)."""

    by: str


@command("refuse_undo")
class RefuseUndo(Command):
    by: str


# written by the game's host, never accepted from a seat (tools.server)
HOST_COMMANDS = frozenset({"commit_dice", "reveal", "withheld"})
META_COMMANDS = frozenset({"undo", "redo", "grant_undo", "refuse_undo"})


# --- A turn's host-driven phases (the rulebook says which phases the host ends) ------------


@command("end_phase")
class EndPhase(Command):
    """End a host-driven phase (movement's remaining moves, magic, shooting) or sub-phase."""

    by: str
