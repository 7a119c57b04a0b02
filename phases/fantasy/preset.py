"""The fantasy presets: turn flow from the compiled machine, outcomes from rule functions.

Flow has three kinds of move. A player's command fires its trigger on the machine. A roll's
faces come back through ``on_roll``. Everything else the engine does by itself in ``_settle``:
each phase's ``drive`` function asks for the next roll or makes the next automatic event, and
automatic edges of the machine are taken when their guards hold, until the game waits for a
player or a die.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from regiment.core.commands import Command
from regiment.core.events import Event, GameStarted, PhaseChanged
from regiment.core.fold import appliers_for, fold
from regiment.core.geometry import apart, contact
from regiment.core.i18n import tr
from regiment.core.state import Awaiting
from regiment.phases.common.machine import Rolled, leaf_named, leaves

from . import measures, narrate, needs, rulings, table
from .appliers import APPLIERS
from .events import CharacterJoined, CombatBegan, TurnBegan
from .flow import GUARDS, Flow, Part
from .machine import Compiled, turn_table
from .parts import flows
from .specials import SPECIALS
from .state import State, Turn, UnitState
from .units import box
from .variants import VARIANTS
from .view import VIEW
from .why import ENGAGED

Drive = Callable[[State], list[Event]]


class FantasyPreset(Flow):
    """The ``fantasy8`` rules (and ``fantasy-classic``, which differs in a few bonuses)."""

    def __init__(self, name: str = "fantasy8", table: Compiled | None = None) -> None:
        self.name = name
        self.variant = VARIANTS[name]
        self.machine = table or turn_table()
        self.appliers = APPLIERS
        self.view = VIEW
        self.fold_table = appliers_for(APPLIERS)
        # each concept's part, found by the registry (parts.py), in its order
        found = []
        for name, cls in flows():
            setattr(self, name, cls(self))
            found.append(getattr(self, name))
        parts: tuple[Part, ...] = tuple(found)
        self.handlers: dict[str, Callable[[State, Any], list[Event]]] = {
            k: v for part in parts for k, v in part.handlers().items()}
        self.handlers["end_phase"] = self._end_phase
        self.anywhere = self.flights.anywhere()
        self.guards = {**GUARDS, **{k: v for part in parts for k, v in part.guards().items()}}
        self.leaves = leaves(self.machine, self.handlers,
                             {k: v for part in parts for k, v in part.asks().items()},
                             merged_drives(p.drives() for p in parts),
                             merged_rolls(p.rolls() for p in parts))
        self.at = {leaf.path: leaf for leaf in self.leaves.values()}

    def __repr__(self) -> str:
        return f"FantasyPreset({self.name!r})"

    # --- set-up ----------------------------------------------------------------------------

    def initial_state(self, started: GameStarted) -> State:
        sc = started.scenario
        units = {u["id"]: UnitState.from_scenario(u) for u in sc["units"]}
        return State(game_id=started.game_id, preset=started.preset,
                         players=tuple(p["id"] for p in sc["players"]), first=sc["first"],
                         turns=sc["turns"], units=units, table=sc["table"],
                         context=Turn(start_phase=sc.get("phase") or "start"),
                         engine=rulings.version(started.engine_version))

    def opening(self, state: State) -> list[Event]:
        """TURN.ORDER: the first player's turn 1 begins, or the scenario's ``phase``; units
        already touching an enemy form combats (the ones marked ``charged`` charged)."""
        events: list[Event] = [TurnBegan(turn=1, player=state.first)]
        # CHAR.JOIN: characters that begin the game in a unit stand in its front rank
        events += [CharacterJoined(character=u.id, unit=u.joined)
                   for u in state.units.values() if u.joined is not None]
        events += self._touching_at_start(fold(state, events, self.fold_table))
        phase = state_phase(self.machine, _scenario_phase(state))
        events.append(PhaseChanged(phase=phase, turn=1, player=state.first))
        return events + self.settle(fold(state, events, self.fold_table))

    def _touching_at_start(self, state: State) -> list[Event]:
        """Units touching an enemy form combats; units linked through the enemies they touch
        are one (multiple) combat, named after its first unit and that unit's first enemy.
        Every pair is asked, most of them at a look at their bounding rectangles (sides in
        contact lie within 1/10000 inch of each other)."""
        units = [u for u in state.units.values() if u.joined is None]   # not in a unit
        links: dict[str, set[str]] = {u.id: set() for u in units}
        measured = table.measured(state)   # table mode: as the scenario's positions said
        for i, a in enumerate(units):
            for b in units[i + 1:]:
                if a.player != b.player and (
                        any(t[0] == b.id for t in a.touch) or any(t[0] == a.id for t in b.touch)
                        if measured else not apart(box(a), box(b), 1e-3) and (
                            contact(box(a), box(b)) is not None
                            or contact(box(b), box(a)) is not None)):
                    links[a.id].add(b.id)
                    links[b.id].add(a.id)
        out: list[Event] = []
        seen: set[str] = set()
        for u in units:
            if u.id in seen or not links[u.id]:
                continue
            group, todo = [], [u.id]
            while todo:
                uid = todo.pop()
                if uid not in seen:
                    seen.add(uid)
                    group.append(uid)
                    todo.extend(sorted(links[uid] - seen))
            members = tuple(x.id for x in units if x.id in group)  # the scenario's order
            chargers = tuple(x for x in members if state.units[x].charged)
            foe = next(x for x in members if state.units[x].player != u.player)
            out.append(CombatBegan(combat=f"0-{members[0]}-{foe}", units=members,
                                   chargers=chargers, reason=ENGAGED.make("scenario")))
        return out

    # --- commands --------------------------------------------------------------------------

    def _end_phase(self, state: State, cmd: Command) -> list[Event]:
        self.check_turn(state, cmd, "TURN.ORDER")
        if state.phase.endswith("choose_combat") and not GUARDS["no_combats_left"](state):
            raise self.illegal(state, cmd, tr("every combat must be fought first"), "CC.ORDER")
        return self.fire(state, "end_phase")

    # --- dice ------------------------------------------------------------------------------

    def on_roll(self, state: State, roll: Awaiting, faces: tuple[int, ...]) -> list[Event]:
        if state.batch is not None:   # attack dice: the batch has filed them (appliers)
            return self.settle(state)
        return self.rolled(state, roll, faces)

    # --- narration -------------------------------------------------------------------------

    def roll_need(self, state: State) -> str | None:
        return needs.roll_need(state)

    def roll_numbers(self, state: State) -> dict[str, int | bool] | None:
        return needs.roll_numbers(state)

    def question(self, state: State, pending: Any) -> str:
        """The prompt of a pending measurement (table mode, TABLE.ASK)."""
        return measures.question(state, pending)

    def sentence(self, event_type: str, data: Mapping[str, Any], state: State) -> str | None:
        return narrate.sentence(event_type, data, state)

    def specials_cited(self, state: State, units: list[str], cited: list[str]) -> list[str]:
        """``explain``: the special rules and equipment of ``units`` that act in the rules
        cited (SPECIAL.REGISTRY: each declaration says where it acts), as lines."""
        out: list[str] = []
        for uid in dict.fromkeys(units):
            u = state.units.get(uid)
            if u is None:
                continue
            for name in (*u.rules, *u.equipment):
                sp = SPECIALS.get(name)
                acts = [r for r in sp.rules if r in cited] if sp is not None else []
                if sp is not None and acts:
                    out.append(f"{tr(sp.told)} ({u.name}; {', '.join(acts)}): {sp.changes}")
        return out


def merged_drives(tables: Iterable[dict[str, Drive]]) -> dict[str, Drive]:
    """Each step's drive; two parts that drive one step act in the order of the parts (the
    first that has something to do)."""
    out: dict[str, Drive] = {}
    for part in tables:
        for step, drive in part.items():
            first = out.get(step)
            out[step] = drive if first is None else \
                (lambda s, a=first, b=drive: a(s) or b(s))   # type: ignore[misc]  # bound now
    return out


def merged_rolls(tables: Iterable[dict[str, dict[str, Rolled]]]) -> dict[str, dict[str, Rolled]]:
    """Each step's rolls, from every part that asks for one there."""
    out: dict[str, dict[str, Rolled]] = {}
    for part in tables:
        for step, rolls in part.items():
            out[step] = {**out.get(step, {}), **rolls}
    return out


def _scenario_phase(state: State) -> str:
    return state.context.start_phase


def state_phase(table: Compiled, name: str) -> str:
    """The leaf a scenario's ``phase`` names: a full dotted path, or any state's own name."""
    return leaf_named(table, name)
