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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from transitions.extensions.nesting import HierarchicalMachine, NestedState

from regiment.core.events import Event
from regiment.core.pending import Decision

SEPARATOR = "."


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


@dataclass(frozen=True)
class Compiled:
    """The machine read into dicts: what the hot paths look up instead of firing triggers."""

    leaves: tuple[str, ...]
    edges: dict[str, dict[str, tuple[Edge, ...]]]   # leaf -> trigger -> edges, in order
    autos: dict[str, tuple[Edge, ...]]              # leaf -> edges the engine takes itself
    initial: str

    def commands(self, leaf: str) -> tuple[str, ...]:
        """Triggers a player may send in ``leaf`` (guards aside)."""
        return tuple(t for t, es in self.edges.get(leaf, {}).items() if not es[0].auto)


def build_machine(states: list[Any], transitions: list[dict[str, Any]]) -> TurnMachine:
    rows = [{k: v for k, v in row.items() if k != "auto"} for row in transitions]
    return TurnMachine(model=None, states=states, transitions=rows, initial="turn",
                       auto_transitions=False, send_event=False, queued=False)


def _leaf(machine: TurnMachine, name: str) -> str:
    state = machine.get_state(name)
    while state.initial:
        name = f"{name}{SEPARATOR}{state.initial}"
        state = machine.get_state(name)
    return name


def compile_machine(machine: TurnMachine, transitions: list[dict[str, Any]]) -> Compiled:
    auto = {row["trigger"] for row in transitions if row.get("auto")}
    names = machine.get_nested_state_names()
    leaves = tuple(n for n in names if not machine.get_state(n).states)
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
                    found.append(Edge(trigger, _leaf(machine, str(t.dest)), conds,
                                      trigger in auto))
                if found:
                    break
            if found:
                table[trigger] = tuple(found)
        edges[leaf] = table
    autos = {leaf: tuple(e for es in t.values() for e in es if e.auto) for leaf, t in edges.items()}
    return Compiled(leaves, edges, autos, _leaf(machine, "turn"))


def leaf_named(table: Compiled, name: str) -> str:
    """The leaf a scenario's ``phase`` names: a full dotted path, or any state's own name."""
    for leaf in table.leaves:
        if leaf == name or name in leaf.split(SEPARATOR):
            return leaf
    raise ValueError(f"no phase {name!r} in the turn")


@dataclass(frozen=True)
class Leaf:
    """One leaf state of the turn, in one place: the commands the machine takes there and
    the function that decides each (``handles``), what the game asks a player there
    (``asks``: the decision, or None when nothing is open), and what the engine does there by
    itself (``drives``: the next automatic events)."""

    name: str
    path: str
    handles: dict[str, Callable[[Any, Any], list[Event]]]
    asks: Callable[[Any], Decision | None] | None = None
    drives: Callable[[Any], list[Event]] | None = None

    @property
    def commands(self) -> tuple[str, ...]:
        return tuple(self.handles)


def leaves(machine: Compiled, handlers: dict[str, Callable[[Any, Any], list[Event]]],
           asks: dict[str, Callable[[Any], Decision | None]],
           drives: dict[str, Callable[[Any], list[Event]]]) -> dict[str, Leaf]:
    """The table of leaves. A command of the machine with no handler, or a name in ``asks`` or
    ``drives`` that is no leaf, is an error when it is built: the flow can never disagree with
    the machine in silence."""
    table = {}
    for path in machine.leaves:
        name = path.rsplit(SEPARATOR, 1)[-1]
        if name in table:
            raise ValueError(f"two leaves are named {name!r}")
        missing = [c for c in machine.commands(path) if c not in handlers]
        if missing:
            raise ValueError(f"no handler for {missing} in leaf {name!r}")
        table[name] = Leaf(name, path, {c: handlers[c] for c in machine.commands(path)},
                           asks.get(name), drives.get(name))
    stray = (set(asks) | set(drives)) - set(table)
    if stray:
        raise ValueError(f"the flow names leaves the machine does not have: {sorted(stray)}")
    return table


def mermaid(table: Compiled) -> str:
    """The machine as a Mermaid state diagram (``regiment machine PRESET``, docs/machine.md):
    the nesting read from the leaves' paths, and each leaf's edges as the engine takes them
    (an edge a parent state holds is drawn from each leaf it applies to). A guard is shown in
    brackets; an edge the engine takes by itself is marked ``auto``; a command that leaves
    the game in the same leaf is drawn as a loop."""
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
    for leaf in table.leaves:
        for trigger, edges in table.edges[leaf].items():
            for e in edges:
                label = trigger + (f" [{', '.join(e.conditions)}]" if e.conditions else "") + \
                    (" (auto)" if e.auto else "")
                lines.append(f"  {ident(leaf)} --> {ident(e.dest)} : {label}")
    return "\n".join(lines) + "\n"
