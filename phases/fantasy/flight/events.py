"""The events of panic, flight, rally and returns (PANIC.*, FP.FLEE_ROLL, RALLY.TEST,
FP.OFF_TABLE)."""

from __future__ import annotations

from typing import Any

from regiment.core.events import Event, event

from ..effects import SparedData


@event("UnitFled", rules=("CH.REACT", "FP.FLEE_ROLL"))
class UnitFled(Event):
    unit: str
    distance: int
    reason: str = "charge_reaction"
    dice: tuple[int, ...] = ()
    away_from: str = ""


@event("UnitRallied", rules=("RALLY.TEST",))
class UnitRallied(Event):
    unit: str


@event("PanicCaused", v=2, rules=("PANIC.TRIGGERS",), sparse=("spared",))
class PanicCaused(Event):
    """``units`` must take a panic test; ``spared`` would have, but a special rule spares them
    (each ``{"unit", "rule", "special"}``, games from engine 0.14.0: SPECIAL.EFFECTS)."""

    units: tuple[str, ...]
    cause: str
    reason: dict[str, Any]
    spared: tuple[SparedData, ...] = ()


@event("DangerousTerrainTested", rules=("FP.FLEE_THROUGH",))
class DangerousTerrainTested(Event):
    """A fleeing unit passed through an enemy: each 1 rolled costs a wound, no save."""

    unit: str
    faces: tuple[int, ...]
    through: str
    lost: int
    slain: int


@event("UnitReturned", rules=("FP.OFF_TABLE",))
class UnitReturned(Event):
    unit: str
    position: tuple[float, float] | None   # None in table mode: the players placed it
    facing: float | None = 0.0
