"""The fantasy rulebook's state: its units and its combats, on the kernel's ``GameState``.

Values, like the kernel's: only the appliers make new ones (``evolve`` shares structure).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from regiment.core.state import GameState, Value

from .close_combat.attacks import Batch
from .values import EMPTY, Reaction, Status, Troop, plain


@dataclass(frozen=True, kw_only=True)
class UnitState(Value):
    """One unit as the rules see it; static parts (profile, equipment) come from the scenario."""

    # its rectangle on the table and its models' places, worked out once (units.box,
    # units.model_centres), which enemies it may charge (charge.targeting.chargeable, one by
    # one and all of them) and the declarations at them (charge.declarations), its straight
    # moves (moving.aims.straight_moves) and its entry in a state's table of units
    # (moving.rules.table_of): slots, not fields, so that evolve starts a changed unit
    # without them and equality never sees them
    __slots__ = ("_all_targets", "_box", "_centres", "_declarations", "_moves", "_placed",
                 "_targets", "_turns")

    id: str
    player: str
    name: str
    troop: Troop
    models: int
    files: int
    base: tuple[float, float]
    profile: dict[str, int]
    position: tuple[float, float] | None   # None in table mode (TABLE.POSITIONS)
    facing: float
    armour: int | None = None
    ward: int | None = None
    equipment: tuple[str, ...] = ()
    command: tuple[str, ...] = ()
    battle_standard: bool = False
    rules: tuple[str, ...] = ()
    status: Status = Status.READY  # ready | fleeing | engaged | destroyed | off_table | joined
    charged: bool = False          # it charged this turn
    declared: str | None = None    # the target of its charge this turn
    reaction: Reaction | None = None   # its reaction to a charge this turn
    wounded: int = 0               # wounds taken by its one wounded model
    start_models: int = 0          # models at the start of the game (RALLY.TEST)
    left_at: tuple[float, float] | None = None  # where it left the table (FP.OFF_TABLE)
    redirected: bool = False       # it redirected a charge this turn (CH.REDIRECT)
    impact_hits: str = ""          # hits a model makes when it charged (ATK.IMPACT): "D3"...
    stomp: str = ""                # stomps a model makes (ATK.STOMP): "1", "D6"...
    mount: dict[str, Any] | None = None  # a mount's name, WS, S, I and A (CC.MOUNT)
    joined: str | None = None      # a character: the unit it has joined (CHAR.JOIN)
    points: int = 0                # its points value (VP.POINTS)
    general: bool = False          # the army's general (VP.POINTS)
    characters: tuple[str, ...] = ()  # a unit: the characters that joined it, in its front rank
    # table mode: the enemies it touches, as measured: (enemy, its side, models, first model);
    # a class attribute, not a field, so that a unit on a mapped table copies nothing more
    # at each evolve (core.state.GameState.asking says why)
    touch: ClassVar[tuple[tuple[str, str, int, int], ...]] = ()

    @property
    def figures(self) -> int:
        """The models standing in its ranks: its own and the characters that joined it."""
        return self.models + len(self.characters)

    @property
    def ranks(self) -> int:
        return -(-self.figures // self.files)

    @classmethod
    def from_scenario(cls, u: dict[str, Any]) -> UnitState:
        return cls(
            id=u["id"], player=u["player"], name=u["name"], troop=Troop(u["troop"]),
            models=u["models"], files=u["files"], base=tuple(u["base"]),
            profile=dict(u["profile"]), facing=u.get("facing", 0.0),
            position=tuple(u["position"]) if u.get("position") else None,
            armour=u.get("armour"), ward=u.get("ward"),
            equipment=tuple(u.get("equipment", ())), command=tuple(u.get("command", ())),
            battle_standard=u.get("battle_standard", False), rules=tuple(u.get("rules", ())),
            charged=u.get("charged", False), start_models=u["models"],
            impact_hits=u.get("impact_hits", ""), stomp=u.get("stomp", ""),
            mount=dict(u["mount"]) if u.get("mount") else None, joined=u.get("joined"),
            points=u.get("points", 0), general=u.get("general", False),
        )._touching(u.get("touch", ()))

    def _touching(self, touch: Any) -> UnitState:
        """A unit of a table-mode scenario that begins in contact (TABLE.POSITIONS)."""
        # always evolved, even with nothing to add: evolve's one dict is 0.8 KiB where the
        # frozen dataclass's __init__ left 1.6, and the opening's units are kept all game
        # (the state after step 0 always is): 3 KiB of a held game's 41 (issue 29 item 2)
        if not touch:
            return self.evolve()
        return self.evolve(touch=tuple((e, side, n, first) for e, side, n, first in touch))


@dataclass(frozen=True, kw_only=True)
class Combat(Value):
    """A combat, kept across turns until it ends: its units (linked through the enemies they
    touch), its round, and who charged into it this round (CR.CHARGE), down a hill."""

    id: str
    units: tuple[str, ...]
    round: int = 1
    chargers: tuple[str, ...] = ()
    hill: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Result(Value):
    """CR.WINNER: a round's combat result, as the fight keeps it."""

    winner: str | None = None
    margin: int = 0
    totals: Mapping[str, int] = EMPTY
    free: tuple[str, ...] = ()          # winners left with no foe (CR.NO_MORE_FOES)


NO_RESULT = Result()


class ChallengeStatus(StrEnum):
    """CC.CHALLENGE: where the round's challenges stand."""

    OPEN = "open"        # a player may still issue one
    ANSWER = "answer"    # one was issued: the other player answers it
    DONE = "done"        # settled, or none possible


class Pursuit(StrEnum):
    """FP.CHOOSE_PURSUIT: what a winner that may pursue chose; a unit that chose to restrain
    takes a Leadership test, and what it then does follows from the test
    (``pursuit.rules.intent``)."""

    PURSUE = "pursue"
    OVERRUN = "overrun"
    RESTRAINING = "restraining"   # chose to stay: its test is still to take
    HELD = "held"                 # passed that test: it stays


MOVES_ON = (Pursuit.PURSUE, Pursuit.OVERRUN)   # the units that move after the broken


@dataclass(frozen=True, kw_only=True)
class Fight(Value):
    """One round of the combat being fought: what happened so far and what is still to do.

    Initiative steps and challenges (CC.*), the wounds each unit caused (CR.WOUNDS), the
    result, break tests (BT.*), flee and pursuit (FP.*) and reforms (REF.*). ``NO_FIGHT`` is
    the fight when no combat is being fought: every field at its default, and false.
    """

    combat: str = ""
    round: int = 0
    steps: tuple[str, ...] = ()                    # initiative steps still to strike
    units: tuple[str, ...] = ()                    # the combat's units when the round began
    caused: Mapping[str, int] = EMPTY      # wounds each unit caused
    overkill: Mapping[str, int] = EMPTY    # overkill in challenges
    challenge: ChallengeStatus = ChallengeStatus.DONE   # CC.CHALLENGE
    offers: tuple[str, ...] = ()                   # players who passed on issuing one
    challenger: str = ""
    duel: Mapping[str, str] = EMPTY        # who fights whom in a challenge
    stood_back: tuple[str, ...] = ()               # a refused challenge's champion
    allocations: dict[str, tuple[dict[str, int], ...]] = field(default_factory=dict)
    result: Result | None = None
    tests: tuple[str, ...] = ()                    # losers still to take their break test
    next: Mapping[str, str] = EMPTY        # chosen orders: what -> unit
    penalties: Mapping[str, int] = EMPTY   # each break test's penalty
    broken: tuple[str, ...] = ()
    fled: Mapping[str, int] = EMPTY        # flee rolls of broken units
    away: Mapping[str, str] = EMPTY        # whom each flees from
    decided: Mapping[str, tuple[Pursuit, str]] = EMPTY  # what each chose, at whom
    restraint: Mapping[str, bool] = EMPTY  # each restraint test: passed
    rolled: Mapping[str, int] = EMPTY      # pursuit rolls
    moved: tuple[str, ...] = ()                    # fleers and pursuers that have moved
    fear: Mapping[str, bool] = EMPTY       # each fear test this round: passed (SR.FEAR)
    pursued: bool = False                          # every pursuit is done
    reform_first: str | None = None                # the player who reforms first (REF.ORDER)
    reform_tests: Mapping[str, bool] = EMPTY
    reformed: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.combat)

    @property
    def outcome(self) -> Result:
        """The round's result, for the rules that come after it (an error before)."""
        if self.result is None:
            raise KeyError("the combat result is not decided yet")
        return self.result


NO_FIGHT = Fight()


@dataclass(frozen=True, kw_only=True)
class Turn(Value):
    """What the rules keep of the turn under way, named and typed; a new turn starts a new one.

    The combat being fought and the attacks being rolled are the state's own ``fight`` and
    ``batch`` (``attacks.Batch``): they change at every blow, and one value less to copy each
    time is measured (the replay of whole combats went 8 % slower with them in here).
    """

    start_phase: str = "start"                        # where the first turn starts
    declaring: tuple[str, str] | None = None          # charger, target: awaiting a reaction
    last: tuple[str, str, str] | None = None          # charger, target, reaction (CH.REDIRECT)
    redirecting: str | None = None                    # a charger that passed its redirect test
    to_move: tuple[str, ...] = ()                      # chargers still to move (CH.MOVE_ORDER)
    targets: Mapping[str, tuple[str, ...]] = EMPTY  # declared, redirected
    sides: Mapping[str, str] = EMPTY  # the side each charger meets
    drawn: Mapping[tuple[str, str], str] = EMPTY  # (charger, target): its side, drawn first
    volleys: tuple[str, ...] = ()                      # units that stood and shot (CH.REACT)
    returned: tuple[str, ...] = ()                     # pursuers back on the table (FP.OFF_TABLE)
    fought: tuple[str, ...] = ()                       # combats fought this phase (CC.ORDER)
    panic: tuple[str, ...] = ()                        # units owing a panic test
    panicked: tuple[str, ...] = ()                     # units that took one (PANIC.TRIGGERS)
    rallied: tuple[str, ...] = ()                      # fleeing units that tested (RALLY.TEST)
    characters_moved: tuple[str, ...] = ()             # joined or left a unit (CHAR.JOIN)
    moves: Mapping[str, str] = EMPTY  # each unit's remaining move: its kind (MOVE.REMAINING)
    march_failed: tuple[str, ...] = ()                 # failed the test to march (MOVE.MARCH)
    shot: tuple[str, ...] = ()                         # units that shot this phase (SHOOT.WHO)
    # PANIC.TRIGGERS: the models each unit lost to shooting in the phase ``shot_in`` names
    shot_lost: Mapping[str, int] = EMPTY
    shot_in: str = ""
    terror: Mapping[str, bool] = EMPTY  # each terror test this turn: passed (SR.TERROR)


@dataclass(frozen=True, kw_only=True)
class State(GameState):
    """The game as the fantasy rules see it."""

    units: dict[str, UnitState]
    table: dict[str, Any]
    context: Turn = field(default_factory=Turn)              # the turn's bookkeeping
    fight: Fight | None = None                               # the combat being fought
    batch: Batch | None = None                               # attacks being rolled
    combats: dict[str, Combat] = field(default_factory=dict)  # combats lasting across turns
    # VP.POINTS: each unit broken in close combat with its standards: who took how many
    captured: Mapping[str, tuple[str, int]] = EMPTY
    engine: tuple[int, int, int] = (0, 0, 0)   # the engine that began the game (rulings.py)

    def let_go(self, newest: GameState) -> None:
        """A state kept for undo: the unit values of it that ``newest`` no longer holds drop
        what they keep of their charges and moves (worked out again if undo brings them
        back), so that a long game keeps no such answers but its newest units'."""
        held = newest.units if isinstance(newest, State) else {}
        for u in self.units.values():
            if held.get(u.id) is not u:
                for name in ("_targets", "_all_targets", "_moves", "_declarations", "_turns"):
                    try:
                        object.__delattr__(u, name)
                    except AttributeError:
                        pass

    def with_unit(self, unit: UnitState) -> State:
        units = dict(self.units)
        units[unit.id] = unit
        return self.evolve(units=units)

    def summary(self) -> dict[str, Any]:
        return {**super().summary(), "context": plain(self.context),
                "fight": plain(self.fight), "batch": plain(self.batch),
                "combats": plain(self.combats), "captured": dict(self.captured),
                "units": {k: {**u.__dict__} for k, u in self.units.items()}}


def fantasy(state: GameState) -> State:
    """A kernel state known to be this rulebook's (a game played under a fantasy preset)."""
    if not isinstance(state, State):
        raise TypeError(f"not a fantasy game's state: {type(state).__name__}")
    return state
