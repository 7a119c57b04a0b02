"""The events of the turn's rules (fantasy presets). Data fields follow DESIGN's contracts."""

from __future__ import annotations

from regiment.core.events import Event, event


@event("TurnBegan", rules=("TURN.ORDER",))
class TurnBegan(Event):
    """A player's turn starts: per-turn flags (declared, reacted, charged) are cleared."""

    turn: int
    player: str


@event("ChargeDeclared", rules=("CH.DECLARE",))
class ChargeDeclared(Event):
    unit: str
    target: str


@event("ChargeReacted", rules=("CH.REACT",))
class ChargeReacted(Event):
    unit: str
    reaction: str
    charger: str = ""


@event("ChargeRolled", rules=("CH.RANGE",))
class ChargeRolled(Event):
    """The charge range against the distance; ``dice`` are the faces counted (CH.RANGE)."""

    unit: str
    target: str
    dice: tuple[int, ...]
    range: float
    distance: float
    success: bool


@event("UnitFled", rules=("CH.REACT",))
class UnitFled(Event):
    unit: str
    distance: int
    reason: str = "charge_reaction"
