"""The events of the skirmish movement phase (SK.MOVE)."""

from __future__ import annotations

from regiment.core.events import Event, event

Spots = tuple[tuple[float, float], ...]   # models' centres, as every move records them


@event("DifficultTerrainRolled", rules=("SK.MOVE",))
class DifficultTerrainRolled(Event):
    """A squad's 2D6 for moving through difficult terrain: each model may go the highest."""

    unit: str
    faces: tuple[int, ...]
    most: int


@event("SquadMoved", rules=("SK.MOVE", "SK.COHERENCY"))
class SquadMoved(Event):
    """A squad's move: how far its farthest model went, and where each model ends (None in
    table mode: the players moved them)."""

    unit: str
    distance: float
    models: Spots | None
