"""What each roll is for: typed continuations, and their one written form in the log.

A rule that needs dice asks with ``ask(...)``, giving a typed value that says what the roll is
for; the roll's answer comes back to the flow with the same value, read by ``read``. The log
keeps it in ``RollRequested.about`` as a string (a contract of saved logs), and only this module
writes or splits that string, so the flow never packs ``"unit:trigger:side/side"`` by hand.
Each ``text()`` writes exactly what the engine always wrote: logs hash the same.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol, TypeVar

from regiment.core.events import RollRequested
from regiment.core.state import Awaiting


class Continuation(Protocol):
    """What a roll is for: an immutable value (a NamedTuple, made and read at every roll, so
    cheap to build) with its written form and the way back from it."""

    def text(self) -> str: ...


C = TypeVar("C")
C_co = TypeVar("C_co", covariant=True)


class Nothing(NamedTuple):
    """A roll whose purpose says it all (a break test, a panic test, a restraint test)."""

    def text(self) -> str:
        return ""

    @classmethod
    def parse(cls, text: str) -> Nothing:
        return cls()


class SideRoll(NamedTuple):
    """CH.CHARGE_MOVE: which of two sides, split evenly, the charger meets (the declaration
    ``trigger`` it came from goes on once it is known)."""

    target: str
    trigger: str
    sides: tuple[str, str]

    def text(self) -> str:
        return f"{self.target}:{self.trigger}:{'/'.join(self.sides)}"

    @classmethod
    def parse(cls, text: str) -> SideRoll:
        target, trigger, sides = text.split(":")
        first, second = sides.split("/")[:2]
        return cls(target, trigger, (first, second))


class FleeRoll(NamedTuple):
    """FP.FLEE_ROLL: why a unit flees (``charge_reaction``, ``panic``, ``rally``, ``combat``)
    and, for a charge reaction, from whom."""

    reason: str
    source: str = ""

    def text(self) -> str:
        return f"{self.reason}:{self.source}" if self.source else self.reason

    @classmethod
    def parse(cls, text: str) -> FleeRoll:
        reason, _, source = text.partition(":")
        return cls(reason, source)


class Toward(NamedTuple):
    """A roll about one other unit: the charge's target, a redirect's new target, the unit
    pursued or overrun, the enemy fled through (or none: ``""``)."""

    unit: str

    def text(self) -> str:
        return self.unit

    @classmethod
    def parse(cls, text: str) -> Toward:
        return cls(text)


class AttackRoll(NamedTuple):
    """ATK.SEQUENCE: the stage (``hit``, ``wound``, ...) of the batch's group ``group``."""

    group: int
    stage: str

    def text(self) -> str:
        return f"{self.group}:{self.stage}"

    @classmethod
    def parse(cls, text: str) -> AttackRoll:
        group, stage = text.split(":")
        return cls._make((int(group), stage))


class FleeTie(NamedTuple):
    """FP.FLEE_DIRECTION: the enemy units tied for the one a broken unit flees from."""

    among: tuple[str, ...]

    def text(self) -> str:
        return "flee:" + "/".join(self.among)

    @classmethod
    def parse(cls, text: str) -> FleeTie:
        return cls(tuple(text.split(":", 1)[1].split("/")))


class ReformTo(NamedTuple):
    """REF.TEST: the reform a unit asked for (files, a foe to face, or degrees to turn)."""

    files: int
    face: str
    turn: int

    def text(self) -> str:
        return f"{self.files}:{self.face}:{self.turn}"

    @classmethod
    def parse(cls, text: str) -> ReformTo:
        files, face, turn = text.split(":")
        return cls(int(files), face, int(turn))


class MoveTo(NamedTuple):
    """MOVE.MARCH, MOVE.REFORM: the move a unit makes once its Leadership test is taken (its
    kind; the reform's frontage and facing; the legs, none in table mode), each number
    written by ``repr`` so that it reads back to the same float."""

    kind: str
    files: int
    facing: float
    legs: tuple[tuple[str, float], ...]

    def text(self) -> str:
        legs = ";".join(f"{k}={a!r}" for k, a in self.legs)
        return f"{self.kind}:{self.files}:{self.facing!r}:{legs}"

    @classmethod
    def parse(cls, text: str) -> MoveTo:
        kind, files, facing, legs = text.split(":")
        return cls(kind, int(files), float(facing),
                   tuple((k, float(a)) for k, a in (leg.split("=") for leg in legs.split(";")
                                                    if leg)))


def ask(purpose: str, unit: str | None, player: str, dice: int,
        about: Continuation | None = None) -> RollRequested:
    """The event that asks for a roll, with what it is for."""
    return RollRequested(purpose=purpose, unit=unit, player=player, dice=dice,
                         about=about.text() if about is not None else "")


class Readable(Protocol[C_co]):
    """A continuation's class: it reads the written form back."""

    def parse(self, text: str) -> C_co: ...


def read(kind: Readable[C], aw: Awaiting) -> C:
    """What the awaited roll was for, as the value it was asked with."""
    return parsed(kind, aw.about)


_PARSED: dict[tuple[Any, str], Any] = {}


def parsed(kind: Readable[C], text: str) -> C:
    """``kind.parse(text)``, kept: the same few texts come back at every die (``0:hit``), and
    the values are immutable, so one may serve every game."""
    key = (kind, text)
    value = _PARSED.get(key)
    if value is None:
        if len(_PARSED) > 4096:
            _PARSED.clear()
        value = _PARSED[key] = kind.parse(text)
    return value
