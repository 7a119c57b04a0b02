"""The events of the fight of each combat (SK.ENGAGED, SK.ALLOCATE, SK.RESULT, SK.SWEEP,
SK.FALL_BACK, SK.CONSOLIDATE)."""

from __future__ import annotations

from typing import Any

from regiment.core.events import Event, event

Spots = tuple[tuple[float, float], ...]


@event("FightBegan", rules=("SK.ENGAGED",))
class FightBegan(Event):
    combat: str
    steps: tuple[int, ...]


@event("StepStruck", rules=("SK.ALLOCATE", "SK.ENGAGED"))
class StepStruck(Event):
    """An initiative step: who strikes whom with how many attacks, and the pools of attacks
    a player must split among several squads first."""

    step: int
    strikes: tuple[dict[str, Any], ...]
    pools: tuple[dict[str, Any], ...]


@event("AttacksSplit", rules=("SK.ALLOCATE",))
class AttacksSplit(Event):
    unit: str
    split: dict[str, int]


@event("MeleeResult", rules=("SK.RESULT",))
class MeleeResult(Event):
    """Each side's unsaved wounds in all; the winning side and the common penalty."""

    combat: str
    totals: dict[str, int]
    winner: str | None
    penalty: int
    losers: tuple[str, ...]


@event("MoraleTested", rules=("SK.RESULT",), sparse=("cause",))
class MoraleTested(Event):
    unit: str
    faces: tuple[int, int]
    leadership: int
    penalty: int
    passed: bool
    cause: str = ""   # "shooting": a quarter of its models lost to shooting (SK.MORALE)


@event("SweepRolled", rules=("SK.SWEEP",))
class SweepRolled(Event):
    """A sweeping advance roll (``role`` sweep) or a fleeing squad's (``role`` escape)."""

    unit: str
    role: str
    face: int
    initiative: int
    total: int


@event("SweepResolved", rules=("SK.SWEEP",))
class SweepResolved(Event):
    """A squad that fell back against the sweeping advances of the winners that fought it:
    caught (destroyed) by ``by`` when that winner's total is equal or higher."""

    unit: str
    total: int
    against: dict[str, int]
    caught: bool
    by: str | None


@event("FellBack", rules=("SK.FALL_BACK",))
class FellBack(Event):
    unit: str
    faces: tuple[int, int]
    distance: float
    off_table: bool


@event("Consolidated", rules=("SK.CONSOLIDATE",))
class Consolidated(Event):
    unit: str
    face: int
    toward: str


@event("ConsolidationRolled", rules=("SK.CONSOLIDATE",))
class ConsolidationRolled(Event):
    unit: str
    face: int


@event("FightEnded", rules=("SK.CONSOLIDATE",))
class FightEnded(Event):
    """The combat's fight this turn is over; the squads still locked stay in it."""

    combat: str
    locked: tuple[str, ...]
