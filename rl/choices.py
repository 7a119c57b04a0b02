"""What a decision offers, as actions of the layout: each a command the engine takes.

The engine's own decision lists its commands (``Decision.legal``); each is put under its
order, object and amount. A move is more than the engine lists (it offers a unit's straight
moves and turns; any path may be sent): its objects and amounts are worked out only when a
seat picks that unit's move (``moves``), and each is decided by the engine before it is
offered, so an offered action is never refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from regiment.core.commands import Command
from regiment.core.errors import RegimentError
from regiment.core.pending import Decision
from regiment.core.state import GameState, memo

from .layout import Layout


@dataclass(frozen=True, slots=True)
class Choice:
    """One command with its place in the space (object and amount: None where it has none)."""

    order: int
    object: int | None
    amount: int | None
    command: Command
    sure: bool = True   # decided by the engine already (else: when its object is picked)


# a command's unit field and its object field, by command name (None: it has none)
FIELDS: dict[str, tuple[str | None, str | None]] = {
    "declare_charge": ("unit", "target"), "shoot": ("unit", "target"),
    "react": ("unit", None), "redirect": ("unit", "target"),
    "decline_redirect": ("unit", None), "move_charger": ("unit", "target"),
    "challenge": ("unit", None), "accept_challenge": ("unit", None),
    "refuse_challenge": ("unit", None), "pursue": ("unit", "target"),
    "overrun": ("unit", None), "restrain": ("unit", None), "reform": ("unit", "face"),
    "skip_reform": ("unit", None), "allocate": ("unit", None),
    "break_test_order": ("unit", None), "flee_order": ("unit", None),
    "pursuit_order": ("unit", None), "join_unit": ("character", "unit"),
    "leave_unit": ("character", None), "fight": ("combat", None),
    "declare_assault": ("unit", "primary"), "fire_overwatch": ("unit", None),
    "hold_overwatch": ("unit", None), "split_attacks": ("unit", None),
    "consolidate": ("unit", "toward"), "resolve_combat": ("combat", None),
    "end_phase": (None, None), "end_charges": (None, None),
    "decline_challenge": (None, None), "reform_order": (None, None),
    "move": ("unit", None),
}
# the engine's offers told apart by the n-th place in its list
NTH = frozenset({"allocate", "split_attacks", "leave_unit"})


def combat_unit(state: GameState, combat: str) -> str | None:
    """The first unit of a combat (fantasy ``combats``, skirmish ``melees``)."""
    for name in ("combats", "melees"):
        found = getattr(state, name, {}).get(combat)
        if found is not None and found.units:
            return str(found.units[0])
    return None


def place(layout: Layout, state: GameState, cmd: Command, nth: int) -> Choice | None:
    """Where an offered command goes (None: the layout has no place for it, as a frontage of
    more files than it has bins; a move's straight runs and turns are under ``moves``)."""
    name = cmd.name
    fields = FIELDS.get(name)
    if fields is None:
        return None
    unit_field, object_field = fields
    verb = name
    if name == "react":
        verb = str(getattr(cmd, "reaction", ""))
    elif name == "move":
        verb = _verb(cmd)
    unit: str | None = None
    if unit_field is not None:
        raw = getattr(cmd, unit_field, "")
        unit = combat_unit(state, raw) if unit_field == "combat" else raw
        if unit not in layout.index:
            return None
    book = layout.book
    if verb not in (book.verbs if unit is not None else book.plain):
        return None
    order = layout.order(verb, unit)
    obj: int | None = None
    if object_field is not None:
        raw = getattr(cmd, object_field, "")
        if raw:
            if raw not in layout.index:
                return None
            obj = layout.target(raw)
        else:
            obj = layout.keep
    turn = float(getattr(cmd, "turn", 0) or 0)
    if name == "reform" and turn:
        obj = layout.turn(turn)
        if obj is None:
            return None
    if name == "move":
        path: tuple[Any, ...] = getattr(cmd, "path", ())
        if verb != "move" or len(path) != 1 or path[0][0] != "turn":
            return None if verb != "difficult" else Choice(order, None, None, cmd)
        obj = layout.turn(float(path[0][1]))
        return None if obj is None else Choice(order, obj, None, cmd)
    amount: int | None = None
    if name == "reform":
        amount = int(cmd.files) - 1  # type: ignore[attr-defined]  # (a Reform)
    elif name == "reform_order":
        amount = 0 if cmd.first == cmd.by else 1  # type: ignore[attr-defined]
    elif name == "declare_assault":
        second = getattr(cmd, "secondary", "")
        amount = 0 if not second else (layout.index.get(second, -2) + 1)
    elif name in NTH:
        amount = nth
    if amount is not None and not 0 <= amount < layout.bins:
        return None
    return Choice(order, obj, None if amount is None else layout.amount(amount), cmd)


class Options:
    """The actions a decision offers, block by block, with the command each makes."""

    def __init__(self, layout: Layout, state: GameState, decision: Decision,
                 preset: Any) -> None:
        self.layout, self.state, self.decision, self.preset = layout, state, decision, preset
        self.groups: dict[int, list[Choice]] = {}
        self._open: dict[int, bool] = {}    # a move's order: worked out when it is picked
        nth: dict[tuple[str, str], int] = {}
        for cmd in decision.legal:
            unit = str(getattr(cmd, "unit", ""))
            if cmd.name == "move" and _verb(cmd) in layout.book.moves:
                if unit in layout.index:
                    order = layout.order(_verb(cmd), unit)
                    self._open[order] = True
                    self.groups.setdefault(order, [])
                continue
            n = 0
            if cmd.name in NTH:
                k = (cmd.name, str(getattr(cmd, FIELDS[cmd.name][0] or "", "")))
                n = nth[k] = nth.get(k, -1) + 1
            choice = place(layout, state, cmd, n)
            if choice is not None:
                self.groups.setdefault(choice.order, []).append(choice)

    def orders(self) -> list[int]:
        return sorted(self.groups)

    def group(self, order: int) -> list[Choice]:
        """Every choice under ``order`` (a move's worked out now, once)."""
        if self._open.pop(order, False):
            from .moves import moves_of

            verb, unit = self.layout.verb_of(order)
            assert unit is not None
            offered = self.groups[order]
            offered.extend(moves_of(self.layout, self.state, self.decision, verb, unit,
                                    self.preset))
            # the engine's own turns; its own straight run only where nothing else was
            # found (``keep``), so that an order offered always has a choice
            straight: list[Choice] = []
            for cmd in self.decision.legal:
                if cmd.name != "move" or getattr(cmd, "unit", "") != unit or \
                        _verb(cmd) != verb:
                    continue
                c = place(self.layout, self.state, cmd, 0)
                if c is not None:
                    offered.append(c)
                elif not straight:
                    straight.append(Choice(order, self.layout.keep, None, cmd))
            if not offered:
                offered.extend(straight)
        return self.groups.get(order, [])

    def objects(self, order: int) -> list[int | None]:
        seen: list[int | None] = []
        for c in self.group(order):
            if c.object not in seen:
                seen.append(c.object)
        return seen

    def amounts(self, order: int, obj: int | None) -> list[int | None]:
        seen: list[int | None] = []
        for c in self._decided(order, obj):
            if c.amount not in seen:
                seen.append(c.amount)
        return seen

    def find(self, order: int, obj: int | None, amount: int | None) -> Command | None:
        for c in self._decided(order, obj):
            if c.amount == amount:
                return c.command
        return None

    def _decided(self, order: int, obj: int | None) -> list[Choice]:
        """The choices under ``order`` and ``obj``, each decided by the engine (those not yet
        decided are decided now, once; a refused one is dropped)."""
        group = self.group(order)
        if any(not c.sure and c.object == obj for c in group):
            group[:] = [c if c.sure or c.object != obj else
                        Choice(c.order, c.object, c.amount, c.command)
                        for c in group
                        if c.sure or c.object != obj or accepted(self.preset, self.state,
                                                                  c.command)]
        return [c for c in group if c.object == obj]


def _verb(cmd: Command) -> str:
    return "march" if getattr(cmd, "kind", "forward") == "march" else \
        ("difficult" if getattr(cmd, "kind", "") == "difficult" else "move")


def options(layout: Layout, state: GameState, decision: Decision, preset: Any) -> Options:
    """The options of ``decision``, kept with the state (a copy of a session shares them)."""
    answers = memo(state)
    key = ("regiment.rl", id(layout))
    found = answers.get(key)
    if found is None:
        found = answers[key] = Options(layout, state, decision, preset)
    return found  # type: ignore[no-any-return]


def accepted(preset: Any, state: GameState, cmd: Command) -> bool:
    """The engine takes ``cmd`` now (its decide, as ``Game.submit`` asks it)."""
    try:
        preset.decide(state, cmd)
    except RegimentError:
        return False
    return True
