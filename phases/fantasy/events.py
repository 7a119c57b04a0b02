"""The events of the turn's rules (fantasy presets). Data fields follow DESIGN's contracts;
fields beyond the contract carry each outcome's reasons for explanations and ``verify``."""

from __future__ import annotations

from typing import Any

from regiment.core.events import Event, TurnBegan, event

from .challenge.events import ChallengeAnswered, ChallengeIssued
from .charge.events import (
    ChargeDeclared,
    ChargeReacted,
    ChargeRedirected,
    ChargeRolled,
    RedirectTested,
    SideDrawn,
)
from .flight.events import DangerousTerrainTested, PanicCaused, UnitFled, UnitRallied, UnitReturned
from .pursuit.events import (
    FleeDirectionChosen,
    PursuitDeclared,
    PursuitRolled,
    PursuitsCompleted,
    UnitCaught,
)
from .reform.events import ReformOrderChosen, ReformSkipped, UnitReformed
from .result.events import BreakTestTaken, CombatResultDecided
from .shooting.events import ShotsFired

# the kernel's, and those of the rules kept with their steps: imported from here by the
# rulebook's modules, which need not know where each is declared
__all__ = ["BreakTestTaken", "ChallengeAnswered", "ChallengeIssued", "ChargeDeclared",
           "ChargeReacted", "ChargeRedirected", "ChargeRolled", "CombatResultDecided",
           "DangerousTerrainTested", "FleeDirectionChosen", "PanicCaused", "PursuitDeclared",
           "PursuitRolled", "PursuitsCompleted", "RedirectTested", "ReformOrderChosen",
           "ReformSkipped", "ShotsFired", "SideDrawn", "TurnBegan", "UnitCaught", "UnitFled",
           "UnitRallied", "UnitReformed", "UnitReturned"]


@event("UnitMoved", v=2, rules=("GEO.MOVE",), sparse=("stopped", "files"))
class UnitMoved(Event):
    """Every move, with where the unit ends: ``position`` is its front centre (docs/board.md).
    ``reason`` is the kind of move and the rule that moved it, ``{"code": "march", "rule":
    "MOVE.MARCH"}`` (``why.MOVED``; v1: the code alone)."""

    unit: str
    reason: dict[str, Any]
    position: tuple[float, float] | None   # None in table mode: the players moved it
    facing: float | None
    distance: float = 0.0
    stopped: str = ""   # the unit that stopped it short, 1" away (games from engine 0.9.0)
    files: int = 0      # MOVE.REFORM: its new frontage (0: unchanged)


@event("UnitDestroyed", v=2, rules=("ATK.CASUALTIES",))
class UnitDestroyed(Event):
    unit: str
    reason: dict[str, Any]


@event("UnitLeftTable", rules=("FP.OFF_TABLE",))
class UnitLeftTable(Event):
    unit: str
    point: tuple[float, float] | None   # None in table mode: the players saw where


@event("CombatBegan", v=2, rules=("CH.CHARGE_MOVE", "CR.CHARGE"))
class CombatBegan(Event):
    """Units came into base contact: a combat, with who charged into it (and from a hill).
    ``reason``: how, ``{"code": "charge", "pursue", "overrun" or "scenario", "rule"}``
    (``why.ENGAGED``; v1: the code alone)."""

    combat: str
    units: tuple[str, ...]
    chargers: tuple[str, ...] = ()
    hill: tuple[str, ...] = ()
    reason: dict[str, Any]


@event("ContactMeasured", rules=("TABLE.ASK", "CC.WHO_FIGHTS"))
class ContactMeasured(Event):
    """Table mode: ``models`` of ``unit`` touch ``enemy`` on the unit's ``side``, from its
    ``first`` model along that side on (what geometry reads off the table otherwise)."""

    unit: str
    enemy: str
    side: str
    models: int
    first: int = 0


@event("CombatEnded", v=2, rules=("CR.NO_MORE_FOES",))
class CombatEnded(Event):
    combat: str
    reason: dict[str, Any]


@event("CombatRoundBegan", rules=("CC.ORDER", "CC.INITIATIVE"))
class CombatRoundBegan(Event):
    combat: str
    round: int
    steps: tuple[str, ...]
    challenges: bool = False    # whether both sides have a champion or character to fight


@event("InitiativeStepBegan", v=2, rules=("CC.INITIATIVE", "CC.WHO_FIGHTS", "ATK.SEQUENCE"))
class InitiativeStepBegan(Event):
    """The groups of attacks of one step (or a stand-and-shoot volley), with every need;
    a group of special hits has ``special``: ``{"kind", "hits"}`` (v1: ``"impact:D3"``)."""

    combat: str | None
    step: str
    strikes: tuple[dict[str, Any], ...]


@event("AttacksResolved", v=2, rules=("ATK.SEQUENCE", "ATK.CASUALTIES"))
class AttacksResolved(Event):
    """A group's attacks counted (ATK.SEQUENCE): ``needs`` holds what each roll needed, and
    where they were special hits, ``special``: ``{"kind", "hits"}`` (v1: ``"impact:D3"``)."""

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


@event("CombatRoundEnded", rules=("CC.ORDER",))
class CombatRoundEnded(Event):
    combat: str
    round: int


@event("CombatJoined", v=2, rules=("CH.CHARGE_MOVE", "CR.BOOKKEEPING"))
class CombatJoined(Event):
    """A unit charged (or pursued) into a unit already fighting: it joins that combat, which
    becomes a multiple combat. ``merged``: other combats it now touches, which become part of
    this one. ``reason`` as ``CombatBegan``'s."""

    combat: str
    units: tuple[str, ...]
    chargers: tuple[str, ...] = ()
    hill: tuple[str, ...] = ()
    reason: dict[str, Any]
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


@event("CharacterLeft", v=2, rules=("CHAR.LEAVE",))
class CharacterLeft(Event):
    """A character out of its unit, standing at ``position`` facing ``facing``: it left (in
    its remaining moves), or its unit was destroyed around it (``reason``: ``{"code": "left"
    or "alone", "rule"}``, ``why.LEFT``; v1: the code alone)."""

    character: str
    unit: str
    position: tuple[float, float] | None   # None in table mode: the players placed it
    facing: float | None
    reason: dict[str, Any]
