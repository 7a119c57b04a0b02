"""The skirmish game's events. Each carries its outcome's reasons (the dice, what they needed),
so that explanations and ``verify`` need nothing else. Positions are the models' centres."""

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


@event("VolleyBegan", rules=("SK.ALLOCATE",))
class VolleyBegan(Event):
    kind: str
    unit: str
    target: str
    dice: int
    need: int
    S: int
    AP: int


@event("VolleyRolled", rules=("SK.TO_HIT", "SK.TO_WOUND", "SK.SAVE"))
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


@event("AssaultRolled", rules=("SK.CHARGE_MOVE", "SK.TERRAIN"))
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
    reason: str | dict[str, Any] = ""   # why it ended unreached: phases.skirmish.why


@event("ModelsMoved", rules=("SK.CHARGE_MOVE", "SK.CONSOLIDATE", "SK.FALL_BACK"))
class ModelsMoved(Event):
    unit: str
    reason: str                # charge, pile_in, consolidate, fall_back
    models: Spots
    off_table: bool = False


@event("MeleeJoined", rules=("SK.ENGAGED",))
class MeleeJoined(Event):
    """Squads lock in a combat (merging any combats they were already in)."""

    combat: str
    units: tuple[str, ...]
    since: int


@event("FightBegan", rules=("SK.ENGAGED",))
class FightBegan(Event):
    combat: str
    steps: tuple[int, ...]


@event("StepStruck", rules=("SK.ALLOCATE", "SK.ENGAGED"))
class StepStruck(Event):
    """An initiative step: who strikes whom with how many attacks, and the pools of attacks
    a player must split among several squads first."""

    step: int
    strikes: tuple[dict[str, Any], ...]
    pools: tuple[dict[str, Any], ...]


@event("AttacksSplit", rules=("SK.ALLOCATE",))
class AttacksSplit(Event):
    unit: str
    split: dict[str, int]


@event("MeleeResult", rules=("SK.RESULT",))
class MeleeResult(Event):
    """Each side's unsaved wounds in all; the winning side and the common penalty."""

    combat: str
    totals: dict[str, int]
    winner: str | None
    penalty: int
    losers: tuple[str, ...]


@event("MoraleTested", rules=("SK.RESULT",))
class MoraleTested(Event):
    unit: str
    faces: tuple[int, int]
    leadership: int
    penalty: int
    passed: bool


@event("SweepRolled", rules=("SK.SWEEP",))
class SweepRolled(Event):
    """A sweeping advance roll (``role`` sweep) or a fleeing squad's (``role`` escape)."""

    unit: str
    role: str
    face: int
    initiative: int
    total: int


@event("SweepResolved", rules=("SK.SWEEP",))
class SweepResolved(Event):
    """A squad that fell back against the sweeping advances of the winners that fought it:
    caught (destroyed) by ``by`` when that winner's total is equal or higher."""

    unit: str
    total: int
    against: dict[str, int]
    caught: bool
    by: str | None


@event("FellBack", rules=("SK.FALL_BACK",))
class FellBack(Event):
    unit: str
    faces: tuple[int, int]
    distance: float
    off_table: bool


@event("Consolidated", rules=("SK.CONSOLIDATE",))
class Consolidated(Event):
    unit: str
    face: int
    toward: str


@event("ConsolidationRolled", rules=("SK.CONSOLIDATE",))
class ConsolidationRolled(Event):
    unit: str
    face: int


@event("FightEnded", rules=("SK.CONSOLIDATE",))
class FightEnded(Event):
    """The combat's fight this turn is over; the squads still locked stay in it."""

    combat: str
    locked: tuple[str, ...]
