"""What every part of the fantasy turn's flow shares: firing the machine, settling what needs
no player, the guards of the machine's edges, and refusing a command with what is legal."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from regiment.core.commands import Command
from regiment.core.events import Event
from regiment.core.i18n import tr
from regiment.core.pending import Decision
from regiment.phases.common.engine import Engine
from regiment.phases.common.machine import Leaf

from . import charge, victory
from .appliers import to_move
from .machine import Compiled
from .rulings import ruled
from .state import NO_FIGHT, ChallengeStatus, Fight, State, UnitState
from .units import ALIVE
from .variants import Variant
from .victory import victory_points

if TYPE_CHECKING:  # the parts import the engine; the engine names them for mypy only
    from .challenge.steps import ChallengeFlow
    from .characters.steps import CharacterFlow
    from .charge.declarations import DeclarationFlow
    from .charge.moves import ChargeMoveFlow
    from .close_combat.steps import CombatFlow
    from .flight.steps import FlightFlow
    from .moving.steps import MoveFlow
    from .psychology.steps import PsychologyFlow
    from .pursuit.steps import PursuitFlow
    from .reform.steps import ReformFlow
    from .result.steps import ResultFlow
    from .shooting.steps import ShootingFlow



def fight_of(s: State) -> Fight:
    """The combat being fought, or ``NO_FIGHT`` (false, every field at its default)."""
    fight = s.fight
    return fight if fight is not None else NO_FIGHT


Guard = Callable[[State], bool]


class Part(Protocol):
    """A part of the flow: its steps' command handlers, the rolls each step asks for and what
    they lead to, what each step does by itself, what it asks a player, and its guards."""

    def handlers(self) -> dict[str, Any]: ...
    def rolls(self) -> dict[str, dict[str, Any]]: ...
    def drives(self) -> dict[str, Any]: ...
    def asks(self) -> dict[str, Callable[[State], Decision | None]]: ...
    def guards(self) -> dict[str, Guard]: ...


class Quiet:
    """A part's steps that are only handlers and questions: no rolls, no drives, no guards of
    their own (each part overrides what it has)."""

    def handlers(self) -> dict[str, Any]:
        return {}

    def rolls(self) -> dict[str, dict[str, Any]]:
        return {}

    def drives(self) -> dict[str, Any]:
        return {}

    def asks(self) -> dict[str, Callable[[State], Decision | None]]:
        return {}

    def guards(self) -> dict[str, Guard]:
        return {}


def _may_redirect(s: State) -> bool:
    last = s.context.last
    if not last or last[2] != "flee":
        return False
    return bool(charge.redirect_targets(s, s.units[last[0]]))


# A unit that still counts for its side (GAME.END): alive, or off the table and able to come
# back.
_COUNTS = frozenset((*ALIVE, "off_table"))


def _one_side_left(s: State) -> bool:
    """GAME.END: a side has no unit that counts (asked at the end of every turn)."""
    sides = {u.player for u in s.units.values() if u.status in _COUNTS}
    return any(p not in sides for p in s.players)


GUARDS: dict[str, Guard] = {
    "may_redirect": _may_redirect,
    "redirect_passed": lambda s: s.context.declaring is not None,
    "redirect_test_passed": lambda s: s.context.redirecting is not None,
    "no_chargers_left": lambda s: not any(s.units[u].status == "ready" for u in to_move(s)),
    "no_combats_left": lambda s: all(c in s.context.fought for c in s.combats),
    "challenges_done": lambda s: fight_of(s).challenge == ChallengeStatus.DONE,
    "steps_done": lambda s: not fight_of(s).steps and s.batch is None,
    "result_decided": lambda s: fight_of(s).result is not None,
    "tests_done": lambda s: not fight_of(s).tests and not s.context.panic,
    "pursuits_done": lambda s: bool(fight_of(s).pursued),
    "reforms_done": lambda s: s.fight is None,
    "rallies_done": lambda s: not any(u.player == s.player and u.status == "fleeing"
                                      and u.id not in s.context.rallied
                                      for u in s.units.values()),
    "last_turn": lambda s: s.player != s.first and s.turn >= s.turns,
    "one_side_left": _one_side_left,
}


class Flow(Engine):
    """The engine of a preset: it fires the machine's triggers, settles what needs no player
    (each leaf's drive, the automatic edges), and says what the game waits for (each leaf's
    question). The rules' steps are its parts (``flights``, ``declarations``,
    ``charge_moves``, ``combats``, ``challenges``, ``results``, ``pursuits``, ``reforms``,
    ``characters``, ``moves``, ``shooting``), which reach the engine and each other through
    it: no part calls another through a stub. Each part gives its steps' handlers, rolls,
    drives, questions and guards (``Part``)."""

    name: str
    variant: Variant
    machine: Compiled
    fold_table: dict[type[Event], Any]
    guards = GUARDS
    leaves: dict[str, Leaf]
    at: dict[str, Leaf]     # the same leaves by their path, which is what a state's phase is
    flights: FlightFlow
    declarations: DeclarationFlow
    charge_moves: ChargeMoveFlow
    combats: CombatFlow
    challenges: ChallengeFlow
    results: ResultFlow
    pursuits: PursuitFlow
    reforms: ReformFlow
    characters: CharacterFlow
    moves: MoveFlow
    psychology: PsychologyFlow
    shooting: ShootingFlow

    def drive(self, state: State) -> list[Event]:
        if state.batch is not None:
            return self.combats.drive_batch(state)
        if state.context.panic:
            return self.flights.drive_panic(state)
        leaf = self.at.get(self.where(state))
        return leaf.drives(state) if leaf is not None and leaf.drives is not None else []

    def has_pieces(self, state: State, player: str) -> bool:
        return any(u.player == player and u.status in _COUNTS for u in state.units.values())

    def score(self, state: State) -> tuple[str, dict[str, int]] | None:
        """VP.WIN (games begun under 0.12.0): victory points decide a game played out."""
        return ("VP.WIN", victory_points(state)) if ruled(state, "victory_points") else None

    def itemised(self, state: State) -> list[dict[str, Any]]:
        """VP.POINTS (games from engine 0.13.0): the points unit by unit."""
        return victory.itemised(state) if ruled(state, "points_itemised") else []

    def unit_of(self, state: State, command: Command, uid: str, rule: str) -> UnitState:
        unit = state.units.get(uid)
        if unit is None:
            raise self.illegal(state, command, tr("there is no unit {unit}", unit=repr(uid)),
                                rule)
        return unit
