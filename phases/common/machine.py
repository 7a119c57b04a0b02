"""A turn as a hierarchical state machine, defined as data, read into lookup tables.

A rulebook writes its turn as ``transitions`` states and rows (each row may say ``auto``: the
engine takes it itself when its guards hold). ``build_machine`` makes the live
``transitions`` HierarchicalMachine (state names joined with ``.``, so names such as
``break_tests`` keep their underscores); ``compile_machine`` reads it into plain tables: for
each leaf state, each trigger, the guarded edges to the leaf it leads to. Games never own a
machine: the phase is a string in the game state, commands are checked against the compiled
table, and replay sets the phase from ``PhaseChanged`` events without firing a callback.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from transitions.extensions.nesting import HierarchicalMachine, NestedState

from regiment.core.events import Event
from regiment.core.pending import Decision

SEPARATOR = "."
# what a row may say beyond ``transitions``' own keys: ``auto`` (the engine takes it itself
# when its guards hold) and ``queue`` (a step that takes the command again and again, once
# for each unit or player acting in turn, in the order the state keeps: the rule ID that
# says so)
ROW_NOTES = ("auto", "queue")
STEPS = "steps"   # a state's key: its children are the steps of the one phase the log records


class TurnState(NestedState):
    separator = SEPARATOR


class TurnMachine(HierarchicalMachine):
    state_cls = TurnState


@dataclass(frozen=True, slots=True)
class Edge:
    trigger: str
    dest: str                     # always a leaf
    conditions: tuple[str, ...]
    auto: bool
    step: bool = False            # from one step of a phase to the next: the log says nothing
    source: str = ""              # the state that holds it (a leaf, or a parent of the leaf)

    def holds(self, guards: Mapping[str, Callable[[Any], bool]], state: Any) -> bool:
        """Whether every guard of the edge holds in ``state``. A loop, not all() over a
        generator: it runs at every event the engine settles, and the generator was the top
        line of verify's profile (issue 29)."""
        for c in self.conditions:  # noqa: SIM110 - measured: see the docstring
            if not guards[c](state):
                return False
        return True


@dataclass(frozen=True)
class Compiled:
    """The machine read into dicts: what the hot paths look up instead of firing triggers."""

    leaves: tuple[str, ...]
    edges: dict[str, dict[str, tuple[Edge, ...]]]   # leaf -> trigger -> edges, in order
    autos: dict[str, tuple[Edge, ...]]              # leaf -> edges the engine takes itself
    initial: str
    recorded: dict[str, str]          # leaf -> the phase the log records while it is the step
    entry: dict[str, str]             # a phase of steps -> its first step
    steps: dict[str, tuple[Edge, ...]]  # leaf -> the edges to the next step of its phase

    def commands(self, leaf: str) -> tuple[str, ...]:
        """Triggers a player may send in ``leaf`` (guards aside)."""
        return tuple(t for t, es in self.edges.get(leaf, {}).items() if not es[0].auto)

    def locate(self, phase: str, guards: Mapping[str, Callable[[Any], bool]], state: Any
               ) -> str:
        """The step a game is at: in a phase of steps, its first step, then each next one
        whose guard holds (the guard says the step before is done); any other phase is its
        own step. The log records the phase; the step follows from the state, so logs of
        every engine carry the same events and the machine still names every step."""
        leaf = self.entry.get(phase)
        if leaf is None:
            return phase
        steps = self.steps
        while True:
            for e in steps[leaf]:
                if e.holds(guards, state):
                    leaf = e.dest
                    break
            else:
                return leaf


def _plain(states: list[Any]) -> list[Any]:
    """The states as ``transitions`` takes them (without the ``steps`` marks)."""
    return [{k: (_plain(v) if k == "children" else v) for k, v in s.items() if k != STEPS}
            if isinstance(s, dict) else s for s in states]


def stepped(states: Sequence[Any], prefix: str = "") -> set[str]:
    """The paths of the states marked ``steps``: phases whose children are its steps."""
    out: set[str] = set()
    for s in states:
        if isinstance(s, dict):
            path = prefix + s["name"]
            if s.get(STEPS):
                out.add(path)
            out |= stepped(s.get("children", []), path + SEPARATOR)
    return out


def build_machine(states: list[Any], transitions: list[dict[str, Any]]) -> TurnMachine:
    rows = [{k: v for k, v in row.items() if k not in ROW_NOTES} for row in transitions]
    return TurnMachine(model=None, states=_plain(states), transitions=rows, initial="turn",
                       auto_transitions=False, send_event=False, queued=False)


def _leaf(machine: TurnMachine, name: str) -> str:
    state = machine.get_state(name)
    while state.initial:
        name = f"{name}{SEPARATOR}{state.initial}"
        state = machine.get_state(name)
    return name


def compile_machine(machine: TurnMachine, transitions: list[dict[str, Any]],
                    states: Sequence[Any] = ()) -> Compiled:
    auto = {row["trigger"] for row in transitions if row.get("auto")}
    names = machine.get_nested_state_names()
    leaves = tuple(n for n in names if not machine.get_state(n).states)
    phases = stepped(states)
    recorded = {leaf: next((p for p in phases if leaf.startswith(p + SEPARATOR)), leaf)
                for leaf in leaves}
    edges: dict[str, dict[str, tuple[Edge, ...]]] = {}
    for leaf in leaves:
        table: dict[str, tuple[Edge, ...]] = {}
        for trigger, event in machine.events.items():
            found: list[Edge] = []
            parts = leaf.split(SEPARATOR)
            for depth in range(len(parts), 0, -1):  # the innermost state handles it first
                source = SEPARATOR.join(parts[:depth])
                for t in event.transitions.get(source, ()):
                    conds = tuple(str(c.func) for c in t.conditions)  # guards are named
                    dest = _leaf(machine, str(t.dest))
                    step = trigger in auto and recorded[leaf] == recorded[dest] != leaf
                    found.append(Edge(trigger, dest, conds, trigger in auto, step, source))
                if found:
                    break
            if found:
                table[trigger] = tuple(found)
        edges[leaf] = table
    autos = {leaf: tuple(e for es in t.values() for e in es if e.auto and not e.step)
             for leaf, t in edges.items()}
    steps = {leaf: tuple(e for es in t.values() for e in es if e.step)
             for leaf, t in edges.items()}
    entry = {p: _leaf(machine, p) for p in phases}
    return Compiled(leaves, edges, autos, _leaf(machine, "turn"), recorded, entry, steps)


def leaf_named(table: Compiled, name: str) -> str:
    """The phase a scenario's ``phase`` names: a full dotted path, or any state's own name
    (a step names the phase it is a step of)."""
    for leaf in table.leaves:
        if leaf == name or name in leaf.split(SEPARATOR):
            return table.recorded[leaf]
    raise ValueError(f"no phase {name!r} in the turn")


@dataclass(frozen=True)
class Leaf:
    """One step of the turn, in one place: the commands the machine takes there and the
    function that decides each (``handles``), what the game asks a player there (``asks``:
    the decision, or None when nothing is open), what the engine does there by itself
    (``drives``: the next automatic events), and what the rolls it asks for lead to
    (``rolls``: the step is the roll's continuation)."""

    name: str
    path: str
    handles: dict[str, Callable[[Any, Any], list[Event]]]
    asks: Callable[[Any], Decision | None] | None = None
    drives: Callable[[Any], list[Event]] | None = None
    rolls: dict[str, Callable[[Any, Any, tuple[int, ...]], list[Event]]] = field(
        default_factory=dict)

    @property
    def commands(self) -> tuple[str, ...]:
        return tuple(self.handles)


Rolled = Callable[[Any, Any, tuple[int, ...]], list[Event]]


def leaves(machine: Compiled, handlers: dict[str, Callable[[Any, Any], list[Event]]],
           asks: dict[str, Callable[[Any], Decision | None]],
           drives: dict[str, Callable[[Any], list[Event]]],
           rolls: dict[str, dict[str, Rolled]] | None = None) -> dict[str, Leaf]:
    """The table of steps. A command of the machine with no handler, or a name in ``asks``,
    ``drives`` or ``rolls`` that is no step, is an error when it is built: the flow can never
    disagree with the machine in silence."""
    rolls = rolls or {}
    table = {}
    for path in machine.leaves:
        name = path.rsplit(SEPARATOR, 1)[-1]
        if name in table:
            raise ValueError(f"two leaves are named {name!r}")
        missing = [c for c in machine.commands(path) if c not in handlers]
        if missing:
            raise ValueError(f"no handler for {missing} in leaf {name!r}")
        table[name] = Leaf(name, path, {c: handlers[c] for c in machine.commands(path)},
                           asks.get(name), drives.get(name), rolls.get(name, {}))
    stray = (set(asks) | set(drives) | set(rolls)) - set(table)
    if stray:
        raise ValueError(f"the flow names leaves the machine does not have: {sorted(stray)}")
    return table


def mermaid(table: Compiled) -> str:
    """The machine as a Mermaid state diagram (``regiment machine PRESET``, docs/machine.md):
    the nesting read from the leaves' paths, and each leaf's edges as the engine takes them
    (an edge a parent state holds is drawn once, from the parent: it leaves whichever of its
    steps the game is at). A guard is shown in
    brackets; an edge the engine takes by itself is marked ``auto``, and the way to the next
    step of a phase ``step``; a command that leaves the game in the same step (the next in its
    queue acts) is drawn as a loop."""
    def ident(path: str) -> str:
        return path.replace(SEPARATOR, "__")

    lines = ["stateDiagram-v2", f"  [*] --> {ident(table.initial)}"]
    children: dict[str, list[str]] = {}
    for leaf in table.leaves:
        parts = leaf.split(SEPARATOR)
        for depth in range(1, len(parts) + 1):
            parent, child = SEPARATOR.join(parts[:depth - 1]), SEPARATOR.join(parts[:depth])
            if child not in children.setdefault(parent, []):
                children[parent].append(child)

    def nest(path: str, indent: str) -> None:
        name = path.rsplit(SEPARATOR, 1)[-1].replace("_", " ")
        lines.append(f'{indent}state "{name}" as {ident(path)}')
        if path in children:
            lines.append(f"{indent}state {ident(path)} {{")
            for child in children[path]:
                nest(child, indent + "  ")
            lines.append(f"{indent}}}")

    for top in children[""]:
        nest(top, "  ")
    drawn: set[str] = set()
    for leaf in table.leaves:
        for trigger, edges in table.edges[leaf].items():
            for e in edges:
                label = trigger + (f" [{', '.join(e.conditions)}]" if e.conditions else "") + \
                    (" (step)" if e.step else " (auto)" if e.auto else "")
                line = f"  {ident(e.source or leaf)} --> {ident(e.dest)} : {label}"
                if line not in drawn:   # a parent's edge once, from the parent
                    drawn.add(line)
                    lines.append(line)
    return "\n".join(lines) + "\n"
