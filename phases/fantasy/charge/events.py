"""The events of the charge sub-phase (CH.*)."""

from __future__ import annotations

from typing import Any

from regiment.core.events import Event, event


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


@event("ChargeRolled", v=2, rules=("CH.RANGE",), sparse=("dropped", "why"))
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
    why: dict[str, Any] | None = None
    dropped: tuple[int, ...] = ()   # the die Swiftstride dropped (games from engine 0.9.0)
