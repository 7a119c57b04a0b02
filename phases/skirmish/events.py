"""The skirmish game's events. Each carries its outcome's reasons (the dice, what they needed),
so that explanations and ``verify`` need nothing else. Positions are the models' centres."""

from __future__ import annotations

from typing import Any

from regiment.core.events import Event, event

from .assault.events import AssaultDeclared, AssaultRolled, OverwatchChosen, SquadShot
from .fight.events import (
    AttacksSplit,
    Consolidated,
    ConsolidationRolled,
    FellBack,
    FightBegan,
    FightEnded,
    MeleeResult,
    MoraleTested,
    StepStruck,
    SweepResolved,
    SweepRolled,
)

Spots = tuple[tuple[float, float], ...]


# (those of the assault and the fight are kept with their steps; imported from here)
__all__ = ["AssaultDeclared", "AssaultRolled", "AttacksSplit", "Consolidated",
           "ConsolidationRolled", "FellBack", "FightBegan", "FightEnded", "MeleeResult",
           "MoraleTested", "OverwatchChosen", "SquadShot", "StepStruck", "SweepResolved",
           "SweepRolled"]


@event("VolleyBegan", rules=("SK.ALLOCATE",))
class VolleyBegan(Event):
    kind: str
    unit: str
    target: str
    dice: int
    need: int
    S: int
    AP: int


@event("VolleyRolled", rules=("SK.TO_HIT", "SK.TO_WOUND", "SK.SAVE"), sparse=("cover",))
class VolleyRolled(Event):
    """One stage of a volley: the faces, what each needed, how many succeeded, and what comes
    next (``then``: the next stage and its need, or "" when the volley is over and
    ``unsaved`` wounds go through)."""

    kind: str
    unit: str
    target: str
    stage: str
    need: int
    faces: tuple[int, ...]
    successes: int
    then: str
    then_need: int
    unsaved: int
    cover: bool = False   # SK.SHOOT: the save is the target's cover save (games from 0.12.0)


@event("WoundsTaken", rules=("SK.CASUALTIES", "SK.ALLOCATE"))
class WoundsTaken(Event):
    """Wounds on a squad, the models nearest the enemy first: the models removed (their
    indexes before removal), the wounds each model left has, and the wounds lost because no
    model was left to take them (never carried to another squad)."""

    unit: str
    by: str
    wounds: int
    removed: tuple[int, ...]
    left: tuple[int, ...]
    lost: int


@event("ModelsMoved", v=2, rules=("SK.CHARGE_MOVE", "SK.CONSOLIDATE", "SK.FALL_BACK"))
class ModelsMoved(Event):
    """Models placed by a move: ``reason`` is its kind and rule, ``{"code": "charge",
    "pile_in", "consolidate" or "fall_back", "rule"}`` (``why.MOVED``; v1: the code alone)."""

    unit: str
    reason: dict[str, Any]
    models: Spots
    off_table: bool = False


@event("MeleeJoined", rules=("SK.ENGAGED",))
class MeleeJoined(Event):
    """Squads lock in a combat (merging any combats they were already in)."""

    combat: str
    units: tuple[str, ...]
    since: int

