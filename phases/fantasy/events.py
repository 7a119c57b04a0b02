"""The events of the turn's rules (fantasy presets). Data fields follow DESIGN's contracts;
fields beyond the contract carry each outcome's reasons for explanations and ``verify``."""

from __future__ import annotations

from typing import Any

from regiment.core.events import Event, TurnBegan, event

from .challenge.events import ChallengeAnswered, ChallengeIssued
from .pursuit.events import (
    FleeDirectionChosen,
    PursuitDeclared,
    PursuitRolled,
    PursuitsCompleted,
    UnitCaught,
)
from .reform.events import ReformOrderChosen, ReformSkipped, UnitReformed
from .result.events import BreakTestTaken, CombatResultDecided

# the kernel's, and those of the rules kept with their steps: imported from here by the
# rulebook's modules, which need not know where each is declared
__all__ = ["BreakTestTaken", "ChallengeAnswered", "ChallengeIssued", "CombatResultDecided",
           "FleeDirectionChosen", "PursuitDeclared", "PursuitRolled", "PursuitsCompleted",
           "ReformOrderChosen", "ReformSkipped", "TurnBegan", "UnitCaught", "UnitReformed"]


@event("ChargeDeclared", rules=("CH.DECLARE",))
class ChargeDeclared(Event):
    unit: str
    target: str
    side: str = ""          # the side of the target its front must contact (CH.CHARGE_MOVE)


@event("ChargeReacted", rules=("CH.REACT",))
class ChargeReacted(Event):
    unit: str
    reaction: str
    charger: str = ""


@event("SideDrawn", rules=("CH.CHARGE_MOVE",))
class SideDrawn(Event):
    """Before any charge is declared (games from engine 0.9.0), the die for a charger whose
    front is split evenly between two of a target's sides: the side it would charge."""

    unit: str
    target: str
    side: str


@event("RedirectTested", rules=("CH.REDIRECT",))
class RedirectTested(Event):
    """The charger's Leadership test to redirect (games from engine 0.9.0): on a pass it may
    declare a charge at another target at once; on a fail it keeps after its first."""

    unit: str
    target: str          # the target that fled
    passed: bool
    faces: tuple[int, ...]
    leadership: int


@event("ChargeRedirected", rules=("CH.REDIRECT",))
class ChargeRedirected(Event):
    """The charger's Leadership test to redirect from a fleeing target to another."""

    unit: str
    from_: str
    to: str
    passed: bool
    faces: tuple[int, ...] = ()
    leadership: int = 0


@event("ChargeRolled", rules=("CH.RANGE",), sparse=("dropped",))
class ChargeRolled(Event):
    """The charge range against the distance; ``dice`` are the faces counted (CH.RANGE)."""

    unit: str
    target: str
    dice: tuple[int, ...]
    range: float
    distance: float
    success: bool
    # why it failed when the range was enough (no room, the wheel): a code of
    # phases.fantasy.why.CHARGE_FAILED (English in games begun before 0.10.0)
    why: str | dict[str, Any] = ""
    dropped: tuple[int, ...] = ()   # the die Swiftstride dropped (games from engine 0.9.0)


@event("UnitFled", rules=("CH.REACT", "FP.FLEE_ROLL"))
class UnitFled(Event):
    unit: str
    distance: int
    reason: str = "charge_reaction"
    dice: tuple[int, ...] = ()
    away_from: str = ""


@event("UnitMoved", rules=("GEO.MOVE",), sparse=("stopped",))
class UnitMoved(Event):
    """Every move, with where the unit ends: ``position`` is its front centre (DESIGN)."""

    unit: str
    reason: str
    position: tuple[float, float] | None   # None in table mode: the players moved it
    facing: float | None
    distance: float = 0.0
    stopped: str = ""   # the unit that stopped it short, 1" away (games from engine 0.9.0)


@event("UnitDestroyed", rules=("ATK.CASUALTIES",))
class UnitDestroyed(Event):
    unit: str
    reason: str | dict[str, Any]


@event("UnitLeftTable", rules=("FP.OFF_TABLE",))
class UnitLeftTable(Event):
    unit: str
    point: tuple[float, float] | None   # None in table mode: the players saw where


@event("UnitReturned", rules=("FP.OFF_TABLE",))
class UnitReturned(Event):
    unit: str
    position: tuple[float, float] | None   # None in table mode: the players placed it
    facing: float | None = 0.0


@event("UnitRallied", rules=("RALLY.TEST",))
class UnitRallied(Event):
    unit: str


@event("CombatBegan", rules=("CH.CHARGE_MOVE", "CR.CHARGE"))
class CombatBegan(Event):
    """Units came into base contact: a combat, with who charged into it (and from a hill)."""

    combat: str
    units: tuple[str, ...]
    chargers: tuple[str, ...] = ()
    hill: tuple[str, ...] = ()
    reason: str = "charge"


@event("ContactMeasured", rules=("TABLE.ASK", "CC.WHO_FIGHTS"))
class ContactMeasured(Event):
    """Table mode: ``models`` of ``unit`` touch ``enemy`` on the unit's ``side``, from its
    ``first`` model along that side on (what geometry reads off the table otherwise)."""

    unit: str
    enemy: str
    side: str
    models: int
    first: int = 0


@event("CombatEnded", rules=("CR.NO_MORE_FOES",))
class CombatEnded(Event):
    combat: str
    reason: str | dict[str, Any]


@event("CombatRoundBegan", rules=("CC.ORDER", "CC.INITIATIVE"))
class CombatRoundBegan(Event):
    combat: str
    round: int
    steps: tuple[str, ...]
    challenges: bool = False    # whether both sides have a champion or character to fight


@event("InitiativeStepBegan", rules=("CC.INITIATIVE", "CC.WHO_FIGHTS", "ATK.SEQUENCE"))
class InitiativeStepBegan(Event):
    """The groups of attacks of one step (or a stand-and-shoot volley), with every need."""

    combat: str | None
    step: str
    strikes: tuple[dict[str, Any], ...]


@event("AttacksResolved", rules=("ATK.SEQUENCE", "ATK.CASUALTIES"))
class AttacksResolved(Event):
    combat: str | None
    step: str
    unit: str
    target: str
    attacks: int
    hits: int
    wounds: int
    saved: int
    unsaved: int
    needs: dict[str, Any]
    lost: int = 0           # unsaved wounds the target had to lose (the rest are lost)
    slain: int = 0          # models removed
    overkill: int = 0       # wounds beyond the fighter's in a challenge (CR.OVERKILL)
    challenge: bool = False


@event("LeadershipTested", rules=("LD.TEST",))
class LeadershipTested(Event):
    """Any other Leadership test: panic, rally, restraint, reform (``purpose``)."""

    unit: str
    purpose: str
    leadership: int
    penalty: int
    faces: tuple[int, ...]
    passed: bool
    needs: int = 0
    insane: bool = False


@event("PanicCaused", rules=("PANIC.TRIGGERS",))
class PanicCaused(Event):
    units: tuple[str, ...]
    cause: str
    reason: str | dict[str, Any]


@event("CombatRoundEnded", rules=("CC.ORDER",))
class CombatRoundEnded(Event):
    combat: str
    round: int


@event("DangerousTerrainTested", rules=("FP.FLEE_THROUGH",))
class DangerousTerrainTested(Event):
    """A fleeing unit passed through an enemy: each 1 rolled costs a wound, no save."""

    unit: str
    faces: tuple[int, ...]
    through: str
    lost: int
    slain: int


@event("CombatJoined", rules=("CH.CHARGE_MOVE", "CR.BOOKKEEPING"))
class CombatJoined(Event):
    """A unit charged (or pursued) into a unit already fighting: it joins that combat, which
    becomes a multiple combat. ``merged``: other combats it now touches, which become part of
    this one."""

    combat: str
    units: tuple[str, ...]
    chargers: tuple[str, ...] = ()
    hill: tuple[str, ...] = ()
    reason: str = "charge"
    merged: tuple[str, ...] = ()


@event("AttacksAllocated", rules=("CC.ALLOCATE",))
class AttacksAllocated(Event):
    """A player split the attacks of models touching several enemy units among them."""

    combat: str
    unit: str
    attacks: dict[str, int]


@event("OrderChosen", rules=("BT.WHO", "FP.MULTI_ORDER"))
class OrderChosen(Event):
    """A player chose which of his units goes next: ``what`` is ``break_test``, ``flee`` or
    ``pursuit``."""

    combat: str
    what: str
    unit: str


@event("CharacterJoined", rules=("CHAR.JOIN",))
class CharacterJoined(Event):
    character: str
    unit: str


@event("CharacterLeft", rules=("CHAR.LEAVE",))
class CharacterLeft(Event):
    """A character out of its unit, standing at ``position`` facing ``facing``: it left (in
    its remaining moves), or its unit was destroyed around it (``reason``)."""

    character: str
    unit: str
    position: tuple[float, float] | None   # None in table mode: the players placed it
    facing: float | None
    reason: str = "left"
