"""The events of combat reform (REF.*)."""

from __future__ import annotations

from typing import Any

from regiment.core.events import Event, event


@event("ReformOrderChosen", rules=("REF.ORDER",))
class ReformOrderChosen(Event):
    combat: str
    first: str


@event("ReformSkipped", v=2, rules=("REF.WHO",), sparse=("why",))
class ReformSkipped(Event):
    unit: str
    why: dict[str, Any] | None = None


@event("UnitReformed", v=2, rules=("REF.PLACEMENT", "REF.CONTACT"), sparse=("how",))
class UnitReformed(Event):
    unit: str
    files: int
    position: tuple[float, float] | None   # None in table mode: the players reformed it
    facing: float | None
    how: dict[str, Any] | None = None
