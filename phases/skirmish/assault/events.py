"""The events of the shooting phase and the assault sub-phase (SK.SHOOT, SK.DECLARE, SK.OVERWATCH,
SK.CHARGE_MOVE)."""

from __future__ import annotations

from typing import Any

from regiment.core.events import Event, event

Spots = tuple[tuple[float, float], ...]


@event("SquadShot", rules=("SK.SHOOT",))
class SquadShot(Event):
    """A squad opens fire at an enemy squad: its shots, hitting on ``need``+ by its BS."""

    unit: str
    target: str
    shots: int
    need: int


@event("AssaultDeclared", rules=("SK.DECLARE",))
class AssaultDeclared(Event):
    unit: str
    primary: str
    secondary: str | None
    disordered: bool
    overwatch: tuple[str, ...]       # the targets that may fire overwatch (SK.OVERWATCH)


@event("OverwatchChosen", rules=("SK.OVERWATCH",))
class OverwatchChosen(Event):
    """A target's owner fires its overwatch, snap shots hitting on 6s, or holds it."""

    unit: str
    against: str
    fire: bool
    shots: int


@event("AssaultRolled", v=2, rules=("SK.CHARGE_MOVE", "SK.TERRAIN"), sparse=("reason",))
class AssaultRolled(Event):
    """The 2D6 charge range; whether the first model reaches the primary target; whether the
    charge went through difficult terrain, and whether that costs it initiative."""

    unit: str
    faces: tuple[int, ...]     # none when overwatch left no charger
    first: int                 # the first model (its index)
    gap: float                 # its distance to the primary target
    reached: bool
    difficult: bool = False
    slowed: bool = False
    reason: dict[str, Any] | None = None   # why it ended unreached: phases.skirmish.why
