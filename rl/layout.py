"""The action space of a scenario: one flat ``Discrete(N)``, the same for both seats.

A command is built in at most three actions of the same seat, each from its own block of the
space (so an action's number always means the same thing):

1. **order** (``[0, A)``): a verb with its unit (``move boyz``, ``shoot crossbows``), or a verb
   of no unit (``end_phase``);
2. **object** (``[A, A + B)``): a unit as the target (``dwarfs``), an anchor the engine
   resolves (``toward dwarfs``: as far straight at it as the move allows; ``edge dwarfs``: to
   where it is just within my missile range; fantasy's ``flank dwarfs`` and ``rear dwarfs``:
   toward a place beside its nearer flank or behind its rear, where a charge next turn would
   strike there), a heading (fantasy: a wheel of so many degrees
   before going straight; skirmish: a bearing on the table), a turn, or ``keep`` (no object,
   where the same verb has others);
3. **amount** (``[A + B, N)``): a bin: the fraction of the run (``FRACTIONS``) for a move,
   the frontage in files for a reform, who goes first for ``reform_order``, the second target
   of an assault (0 none, 1 + j unit j), or the n-th of the splits or places the engine
   offers (``allocate``, ``split_attacks``, ``leave_unit``).

A step is skipped when it has nothing to choose: ``end_phase`` is one action, ``shoot
crossbows`` then ``goblins`` two. The layout is a published contract (``ENCODING``): a change
to it is a new number, and a policy trained on one number reads only that number's spaces.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ENCODING = 1

FRACTIONS = (0.25, 0.5, 0.75, 1.0)


@dataclass(frozen=True)
class Book:
    """What one rulebook's spaces name: its verbs, headings, phases, decisions, statuses."""

    rulebook: str                   # "fantasy" or "skirmish"
    verbs: tuple[str, ...]          # with a unit: one action per unit
    plain: tuple[str, ...]          # of no unit: one action each
    heading: str                    # "wheel" (degrees from its facing) or "bearing" (table)
    headings: tuple[float, ...]
    turns: tuple[float, ...]
    phases: tuple[str, ...]
    decisions: tuple[str, ...]
    statuses: tuple[str, ...]
    moves: tuple[str, ...]          # verbs whose objects and amounts are worked out
    anchors: tuple[str, ...]        # a move's anchors, each one object a unit


FANTASY = Book(
    rulebook="fantasy",
    verbs=("move", "march", "shoot", "declare_charge", "hold", "stand_and_shoot", "flee",
           "redirect", "decline_redirect", "move_charger", "challenge", "accept_challenge",
           "refuse_challenge", "pursue", "overrun", "restrain", "reform", "skip_reform",
           "allocate", "break_test_order", "flee_order", "pursuit_order", "join_unit",
           "leave_unit", "fight"),
    plain=("end_phase", "end_charges", "decline_challenge", "reform_order"),
    heading="wheel", headings=(-90.0, -45.0, -20.0, 0.0, 20.0, 45.0, 90.0),
    turns=(90.0, -90.0, 180.0),
    phases=("turn.start", "turn.movement.charge.declaration", "turn.movement.charge.reactions",
            "turn.movement.charge.redirect", "turn.movement.charge.redirect_target",
            "turn.movement.charge.charge_moves", "turn.movement.rally",
            "turn.movement.compulsory", "turn.movement.remaining", "turn.magic",
            "turn.shooting", "turn.close_combat.choose_combat",
            "turn.close_combat.combat.challenge", "turn.close_combat.combat.initiative_steps",
            "turn.close_combat.combat.result", "turn.close_combat.combat.break_tests",
            "turn.close_combat.combat.pursuit", "turn.close_combat.combat.reform", "turn.end",
            "over"),
    decisions=("declare_charge", "react", "redirect", "redirect_target", "move_charger",
               "remaining_moves", "end_phase", "shoot", "fight", "challenge",
               "answer_challenge", "allocate", "break_test_order", "flee_order", "pursue",
               "pursuit_order", "reform_order", "reform"),
    statuses=("ready", "fleeing", "engaged", "destroyed", "off_table", "joined"),
    moves=("move", "march"),
    anchors=("toward", "edge", "flank", "rear"),
)

SKIRMISH = Book(
    rulebook="skirmish",
    verbs=("move", "difficult", "shoot", "declare_assault", "fire_overwatch", "hold_overwatch",
           "split_attacks", "consolidate", "resolve_combat"),
    plain=("end_phase",),
    heading="bearing", headings=(0.0, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0),
    turns=(),
    phases=("turn.start", "turn.movement", "turn.shooting", "turn.assault.declaration",
            "turn.assault.overwatch", "turn.assault.charge_move", "turn.fight.choose_combat",
            "turn.fight.combat.steps", "turn.fight.combat.result", "turn.fight.combat.morale",
            "turn.fight.combat.sweep", "turn.fight.combat.consolidate", "turn.end", "over"),
    decisions=("move", "shoot", "declare_assault", "overwatch", "resolve_combat",
               "split_attacks", "consolidate"),
    statuses=("ready", "locked", "falling_back", "destroyed", "off_table"),
    moves=("move",),
    anchors=("toward", "edge"),
)

# by preset: the presets of one rulebook share its spaces
BOOKS = {"fantasy8": FANTASY, "fantasy-classic": FANTASY, "skirmish40k": SKIRMISH}


@dataclass(frozen=True)
class Layout:
    """The spaces of one scenario: its units in the scenario's order, its seats, and where
    each block of the action space begins."""

    book: Book
    units: tuple[str, ...]
    seats: tuple[str, str]
    bins: int
    index: dict[str, int] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, preset: str, units: tuple[str, ...], seats: tuple[str, str]) -> Layout:
        book = BOOKS.get(preset)
        if book is None:
            raise ValueError(f"no action layout for the preset {preset!r}")
        # bins: fractions, frontages up to 12 files, a second target of any unit, the n-th
        # of what the engine offers
        return cls(book, units, seats, max(len(FRACTIONS), 12, len(units) + 1),
                   {u: i for i, u in enumerate(units)})

    # --- sizes ---------------------------------------------------------------------------

    @property
    def orders(self) -> int:
        return len(self.book.verbs) * len(self.units) + len(self.book.plain)

    @property
    def objects(self) -> int:
        return (1 + len(self.book.anchors)) * len(self.units) + len(self.book.headings) + \
            len(self.book.turns) + 1

    @property
    def size(self) -> int:
        """N: the number of actions."""
        return self.orders + self.objects + self.bins

    # --- numbering -----------------------------------------------------------------------

    def order(self, verb: str, unit: str | None) -> int:
        if unit is None:
            return len(self.book.verbs) * len(self.units) + self.book.plain.index(verb)
        return self.book.verbs.index(verb) * len(self.units) + self.index[unit]

    def target(self, unit: str) -> int:
        return self.orders + self.index[unit]

    def anchor(self, kind: str, unit: str) -> int:
        """``toward j``, ``edge j`` (and in fantasy ``flank j``, ``rear j``)."""
        return self.orders + (1 + self.book.anchors.index(kind)) * len(self.units) + \
            self.index[unit]

    def toward(self, unit: str) -> int:
        return self.anchor("toward", unit)

    def edge(self, unit: str) -> int:
        return self.anchor("edge", unit)

    def heading(self, i: int) -> int:
        return self.orders + (1 + len(self.book.anchors)) * len(self.units) + i

    def turn(self, degrees: float) -> int | None:
        turns = self.book.turns
        for i, t in enumerate(turns):
            if abs(t - degrees) < 1e-6:
                return self.heading(len(self.book.headings)) + i
        return None

    @property
    def keep(self) -> int:
        return self.orders + self.objects - 1

    def amount(self, i: int) -> int:
        return self.orders + self.objects + i

    def stage(self, action: int) -> int:
        """1, 2 or 3: the block an action is in."""
        if action < self.orders:
            return 1
        return 2 if action < self.orders + self.objects else 3

    def verb_of(self, order: int) -> tuple[str, str | None]:
        n = len(self.units)
        if order < len(self.book.verbs) * n:
            return self.book.verbs[order // n], self.units[order % n]
        return self.book.plain[order - len(self.book.verbs) * n], None

    def label(self, action: int) -> str:
        """An action's name: ``move boyz``, ``toward dwarfs``, ``wheel -20``, ``amount 3``."""
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} is not in 0..{self.size - 1}")
        n = len(self.units)
        if action < self.orders:
            verb, unit = self.verb_of(action)
            return verb if unit is None else f"{verb} {unit}"
        i = action - self.orders
        kinds = ("target", *self.book.anchors)
        if i < len(kinds) * n:
            return f"{kinds[i // n]} {self.units[i % n]}"
        i -= len(kinds) * n
        if i < len(self.book.headings):
            return f"{self.book.heading} {self.book.headings[i]:g}"
        i -= len(self.book.headings)
        if i < len(self.book.turns):
            return f"turn {self.book.turns[i]:g}"
        if i == len(self.book.turns):
            return "keep"
        return f"amount {i - len(self.book.turns) - 1}"

    def describe(self) -> dict[str, Any]:
        """The layout as plain data (the docs' table, a client in another language)."""
        return {"encoding": ENCODING, "rulebook": self.book.rulebook, "units": list(self.units),
                "seats": list(self.seats), "size": self.size,
                "blocks": {"order": [0, self.orders],
                           "object": [self.orders, self.orders + self.objects],
                           "amount": [self.orders + self.objects, self.size]},
                "fractions": list(FRACTIONS),
                "actions": [self.label(a) for a in range(self.size)]}
