"""What each roll is for: typed continuations (core.about), one kind a class.

A rule that needs dice asks with ``ask(...)``, giving a typed value that says what the roll is
for; the roll's answer comes back to the flow with the same value, read by ``read``. The log
keeps it in ``RollRequested.about`` as a map tagged with its kind; ``text`` and ``parse`` are
the form an engine before 0.13.0 wrote it in (read once where such a record is decoded, and
written by the games those engines began), and nothing else reads them.
"""

from __future__ import annotations

from typing import NamedTuple, TypeVar

from regiment.core.about import Toward, kind, of, tagged
from regiment.core.events import RollRequested
from regiment.core.state import Awaiting

C = TypeVar("C")

# ATK.SEQUENCE: the rolls of an attack's stages (attacks.purpose names them)
ATTACK_PURPOSES = ("to_hit", "stand_and_shoot_hit", "shooting_hit", "to_wound", "armour",
                   "ward", "special_hits", "multiple_wounds")

# the rolls that carry another unit (the charge's target, a redirect's new target, the unit
# pursued or overrun, the enemy fled through)
TOWARD_PURPOSES = ("charge_range", "redirect", "pursuit", "overrun", "dangerous_terrain")
kind("toward", *TOWARD_PURPOSES)(Toward)


class Nothing(NamedTuple):
    """A roll whose purpose says it all (a break test, a panic test, a restraint test)."""

    def text(self) -> str:
        return ""

    @classmethod
    def parse(cls, text: str) -> Nothing:
        return cls()


@kind("side_roll", "random_side")
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


@kind("flee_roll", "flee")
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


@kind("attack_roll", *ATTACK_PURPOSES)
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


@kind("flee_tie", "random_choice")
class FleeTie(NamedTuple):
    """FP.FLEE_DIRECTION: the enemy units tied for the one a broken unit flees from."""

    among: tuple[str, ...]

    def text(self) -> str:
        return "flee:" + "/".join(self.among)

    @classmethod
    def parse(cls, text: str) -> FleeTie:
        return cls(tuple(text.split(":", 1)[1].split("/")))


@kind("reform_to", "reform")
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


@kind("move_to", "march", "reform_move")
class MoveTo(NamedTuple):
    """MOVE.MARCH, MOVE.REFORM: the move a unit makes once its Leadership test is taken (its
    kind of move; the reform's frontage and facing; the legs, none in table mode). In an
    older engine's text each number was written by ``repr``, to read back the same float."""

    move: str
    files: int
    facing: float
    legs: tuple[tuple[str, float], ...]

    def text(self) -> str:
        legs = ";".join(f"{k}={a!r}" for k, a in self.legs)
        return f"{self.move}:{self.files}:{self.facing!r}:{legs}"

    @classmethod
    def parse(cls, text: str) -> MoveTo:
        kind, files, facing, legs = text.split(":")
        return cls(kind, int(files), float(facing),
                   tuple((k, float(a)) for k, a in (leg.split("=") for leg in legs.split(";")
                                                    if leg)))


def ask(purpose: str, unit: str | None, player: str, dice: int, about: object = None
        ) -> RollRequested:
    """The event that asks for a roll, with what it is for."""
    return RollRequested(purpose=purpose, unit=unit, player=player, dice=dice,
                         about=tagged(about))


def read(cls: type[C], aw: Awaiting) -> C:
    """What the awaited roll was for, as the value it was asked with."""
    return of(cls, aw.about)


__all__ = ["ATTACK_PURPOSES", "TOWARD_PURPOSES", "AttackRoll", "FleeRoll", "FleeTie",
           "MoveTo", "Nothing", "ReformTo", "SideRoll", "Toward", "ask", "read"]
