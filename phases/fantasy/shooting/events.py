"""The events of the shooting phase (SHOOT.*)."""

from __future__ import annotations

from regiment.core.events import Event, event


@event("ShotsFired", rules=("SHOOT.WHO", "SHOOT.HIT"))
class ShotsFired(Event):
    """A unit shoots at a target: its weapon, how far, the to-hit modifiers (codes: long_range,
    moved, soft_cover, hard_cover), the need (a 6 then ``hit2`` when it is 7+), and how many
    shots; the dice follow as the attack sequence's (``AttacksResolved``, step ``shooting``)."""

    unit: str
    target: str
    weapon: str
    distance: float
    modifiers: tuple[str, ...]
    hit: int
    hit2: int
    shots: int
