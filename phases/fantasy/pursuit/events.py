"""The events of flee and pursuit (FP.*)."""

from __future__ import annotations

from regiment.core.events import Event, event

from ..effects import PartData


@event("PursuitDeclared", rules=("FP.CHOOSE_PURSUIT",), sparse=("forced",))
class PursuitDeclared(Event):
    """A winner's choice: pursue ``target``, overrun, or try to restrain (``kind``); ``forced``:
    the special rule that left it no other (``{"rule", "special"}``, SPECIAL.EFFECTS)."""

    unit: str
    target: str
    kind: str
    forced: PartData | None = None


@event("PursuitRolled", sparse=("dropped",), rules=("FP.PURSUE_ROLL", "FP.CAUGHT"))
class PursuitRolled(Event):
    unit: str
    target: str
    dice: tuple[int, ...]
    distance: int
    caught: bool
    dropped: tuple[int, ...] = ()   # the die Swiftstride dropped (games from engine 0.9.0)


@event("UnitCaught", rules=("FP.CAUGHT", "CH.CATCH_FLEEING"))
class UnitCaught(Event):
    unit: str
    by: str


@event("FleeDirectionChosen", rules=("FP.FLEE_DIRECTION",))
class FleeDirectionChosen(Event):
    """Several enemy units tied for the most ranks five wide: a die chose the one fled from."""

    unit: str
    away_from: str
    among: tuple[str, ...]
    faces: tuple[int, ...]


@event("PursuitsCompleted", rules=("FP.PURSUE_MOVE",))
class PursuitsCompleted(Event):
    """All flee and pursuit moves are made; ``left`` are units of the combat that no longer
    touch an enemy and leave it."""

    combat: str
    left: tuple[str, ...] = ()
