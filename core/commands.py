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
from .schema import Schema, SchemaError, to_plain

C = TypeVar("C", bound="Command")

COMMANDS: dict[str, type[Command]] = {}


class Command:
    __slots__ = ()
    name: ClassVar[str]
    schema: ClassVar[Schema]
    by: str

    def args(self) -> dict[str, Any]:
        """The fields other than ``by``, as recorded in ``CommandIssued``."""
        data = to_plain(self)
        del data["by"]
        return data

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"cmd": self.name}
        data.update(to_plain(self))
        return {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}


@dataclass_transform(frozen_default=True, kw_only_default=True)
def command(name: str) -> Callable[[type[C]], type[C]]:
    def wrap(cls: type[C]) -> type[C]:
        dc = dataclasses.dataclass(frozen=True, kw_only=True, slots=True)(cls)
        dc.name = name
        dc.schema = Schema(dc)
        COMMANDS[name] = dc
        return dc

    return wrap


def parse_command(data: Any) -> Command:
    """Build a command from a plain dict (a JSON line); BadRequest says what is wrong."""
    if not isinstance(data, dict):
        raise BadRequest(f"a command must be a JSON object, got {type(data).__name__}")
    name = data.get("cmd")
    if not isinstance(name, str):
        raise BadRequest("a command needs a 'cmd' string naming it")
    cls = COMMANDS.get(name)
    if cls is None:
        raise BadRequest(f"unknown command {name!r}; known: {', '.join(sorted(COMMANDS))}")
    fields = {k: v for k, v in data.items() if k != "cmd"}
    try:
        built: Command = cls.schema.build(fields, name)
    except SchemaError as exc:
        raise BadRequest(str(exc)) from None
    return built


def command_from_record(by: str, name: str, args: dict[str, Any]) -> Command:
    """Rebuild the command a ``CommandIssued`` event recorded (for verify and game records)."""
    return parse_command({"cmd": name, "by": by, **args})


# --- Kernel commands -----------------------------------------------------------------------


@command("roll")
class Roll(Command):
    """Faces of real dice, entered for a pending roll (manual dice)."""

    by: str
    faces: tuple[int, ...]


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


META_COMMANDS = frozenset({"undo", "redo", "grant_undo", "refuse_undo"})


# --- Turn commands (their legality and outcomes belong to the preset) ----------------------


@command("end_phase")
class EndPhase(Command):
    """End a host-driven phase (movement's remaining moves, magic, shooting) or sub-phase."""

    by: str


@command("declare_charge")
class DeclareCharge(Command):
    by: str
    unit: str
    target: str


@command("end_charges")
class EndCharges(Command):
    by: str


@command("react")
class React(Command):
    by: str
    unit: str
    reaction: str


@command("redirect")
class Redirect(Command):
    by: str
    unit: str
    target: str


@command("decline_redirect")
class DeclineRedirect(Command):
    by: str
    unit: str


@command("move_charger")
class MoveCharger(Command):
    """Roll the next charger's range; ``target`` picks between two fleeing targets after a
    redirect (CH.REDIRECT), empty otherwise."""

    by: str
    unit: str
    target: str = ""


@command("fight")
class Fight(Command):
    by: str
    combat: str


@command("challenge")
class Challenge(Command):
    """Issue a challenge with ``unit``'s champion or character (CC.CHALLENGE)."""

    by: str
    unit: str


@command("decline_challenge")
class DeclineChallenge(Command):
    """Issue no challenge this round."""

    by: str


@command("accept_challenge")
class AcceptChallenge(Command):
    by: str
    unit: str


@command("refuse_challenge")
class RefuseChallenge(Command):
    by: str
    unit: str


@command("pursue")
class Pursue(Command):
    by: str
    unit: str
    target: str


@command("overrun")
class Overrun(Command):
    """A unit that destroyed its foes in the first round of its charge moves on (FP.OVERRUN)."""

    by: str
    unit: str


@command("restrain")
class Restrain(Command):
    by: str
    unit: str


@command("reform")
class Reform(Command):
    """Reform a unit: ``files`` is the new frontage, ``face`` an enemy to turn to face (combat
    reform), ``turn`` degrees to turn about its centre (a winner with no foe left)."""

    by: str
    unit: str
    files: int
    face: str = ""
    turn: int = 0


@command("allocate")
class Allocate(Command):
    """CC.ALLOCATE: split the attacks of models touching several enemy units among them:
    ``attacks`` maps each of those units to how many attacks it takes."""

    by: str
    unit: str
    attacks: dict[str, int]


@command("break_test_order")
class BreakTestOrder(Command):
    """BT.WHO: the losing player picks which of his units takes its break test next."""

    by: str
    unit: str


@command("flee_order")
class FleeOrder(Command):
    """FP.MULTI_ORDER: the losing player picks which of his broken units flees next."""

    by: str
    unit: str


@command("pursuit_order")
class PursuitOrder(Command):
    """FP.MULTI_ORDER: the winning player picks which of his pursuers moves next."""

    by: str
    unit: str


@command("reform_order")
class ReformOrder(Command):
    """REF.ORDER: when both players may reform, the active player says who goes first."""

    by: str
    first: str


@command("skip_reform")
class SkipReform(Command):
    by: str
    unit: str
