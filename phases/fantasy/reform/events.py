"""The events of combat reform (REF.*)."""

from __future__ import annotations

from typing import Any

from regiment.core.events import Event, event


@event("ReformOrderChosen", rules=("REF.ORDER",))
class ReformOrderChosen(Event):
    combat: str
    first: str


@event("ReformSkipped", rules=("REF.WHO",))
class ReformSkipped(Event):
    unit: str
    why: str | dict[str, Any] = ""


@event("UnitReformed", rules=("REF.PLACEMENT", "REF.CONTACT"))
class UnitReformed(Event):
    unit: str
    files: int
    position: tuple[float, float] | None   # None in table mode: the players reformed it
    facing: float | None
    how: str | dict[str, Any] = ""
