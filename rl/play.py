"""A session played by actions of the layout: the one adapter both faces step.

``Play`` holds a ``Session`` and the command a seat is building (its actions so far). Who
acts is the seat whose decision the game waits on (its reactions to a charge, its answer to a
challenge); while the game waits for dice there is no seat to act (``to_move`` is None, and
the OpenSpiel face makes each die a chance node). ``legal()`` are the actions open now, sorted,
each one the engine takes; ``act`` takes one, and submits the command once it is whole.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from regiment.core.commands import Command
from regiment.core.dice import SeededDice
from regiment.core.pending import Decision

from .choices import Options, options
from .layout import Layout
from .observe import observe
from .session import Rules, Session, pieces


class IllegalAction(ValueError):
    """An action the mask does not offer now (the game is unchanged)."""


class Play:
    __slots__ = ("last", "layout", "partial", "session")

    def __init__(self, session: Session, layout: Layout) -> None:
        self.session = session
        self.layout = layout
        self.partial: tuple[int, ...] = ()
        self.last: Command | None = None   # the last command submitted

    @classmethod
    def new(cls, rules: Rules, seed: str | None) -> Play:
        """``seed``: the dice's seed (hex); None: every die waits for its face (``give``)."""
        state = rules.opening
        layout = layout_of(rules, tuple(pieces(state)), state.players)
        dice = SeededDice(seed) if seed is not None else None
        return cls(Session(rules, dice), layout)

    def copy(self) -> Play:
        new = object.__new__(Play)
        new.session, new.layout = self.session.copy(), self.layout
        new.partial, new.last = self.partial, self.last
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Play:
        return self.copy()   # (OpenSpiel's clone deep-copies a state's attributes)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as plain data (OpenSpiel's serialisation pickles a state's attributes):
        the scenario's name, the commands as the wire sends them, the dice's faces."""
        name = self.session.rules.name
        if not name or self.session.dice is not None:
            raise TypeError("only a game of a named scenario with its dice given is pickled")
        record = [c.to_dict() if isinstance(c, Command) else list(c)
                  for c in self.session.record()]
        return rebuilt, (name, record, list(self.session.faces), list(self.partial))

    # --- who acts, and what is open ------------------------------------------------------

    def decision(self) -> Decision | None:
        return self.session.decision()

    def to_move(self) -> str | None:
        d = self.session.decision()
        return None if d is None else d.player

    def _options(self) -> Options | None:
        d = self.session.decision()
        if d is None:
            return None
        return options(self.layout, self.session.state, d, self.session.rules.preset)

    def legal(self) -> list[int]:
        """The actions open now (sorted): the next block of the command being built."""
        opts = self._options()
        if opts is None:
            return []
        stage, order, obj = self._where(opts)
        if stage == 1:
            return opts.orders()
        if stage == 2:
            return sorted(o for o in opts.objects(order) if o is not None)
        return sorted(a for a in opts.amounts(order, obj) if a is not None)

    def mask(self) -> np.ndarray:
        out = np.zeros(self.layout.size, dtype=np.int8)
        out[self.legal()] = 1
        return out

    def _where(self, opts: Options) -> tuple[int, int, int | None]:
        """The block the next action comes from, the order chosen and its object."""
        if not self.partial:
            return 1, -1, None
        order = self.partial[0]
        objects = opts.objects(order)
        if len(self.partial) > 1:
            return 3, order, self.partial[1]
        if len(objects) > 1:
            return 2, order, None
        return 3, order, objects[0]

    def stage(self) -> int:
        opts = self._options()
        return 0 if opts is None else self._where(opts)[0]

    # --- acting --------------------------------------------------------------------------

    def act(self, action: int) -> Command | None:
        """Take one action; the command it completes, once submitted (None: more to come).
        IllegalAction: it is not open now."""
        action = int(action)
        opts = self._options()
        if opts is None or action not in self.legal():
            raise IllegalAction(f"action {action} ({self._label(action)}) is not open now")
        stage, order, obj = self._where(opts)
        if stage == 1:
            order, obj = action, None
            group = opts.group(order)
            if len(group) == 1:
                return self._submit(group[0].command)
            objects = opts.objects(order)
            if len(objects) == 1 and len(opts.amounts(order, objects[0])) == 1:
                return self._submit(group[0].command)
            self.partial = (action,)
            return None
        if stage == 2:
            amounts = opts.amounts(order, action)
            if len(amounts) == 1:
                found = opts.find(order, action, amounts[0])
                assert found is not None
                return self._submit(found)
            self.partial = (order, action)
            return None
        found = opts.find(order, obj, action)
        assert found is not None
        return self._submit(found)

    def _submit(self, command: Command) -> Command:
        self.session.submit(command)
        self.partial = ()
        self.last = command
        return command

    def give(self, face: int) -> None:
        self.session.give(face)

    def _label(self, action: int) -> str:
        try:
            return self.layout.label(action)
        except ValueError:
            return "out of range"

    def observe(self, seat: str) -> np.ndarray:
        return observe(self.layout, self.session.state, seat, self.partial,
                       self.session.decision())


_LAYOUTS: dict[tuple[str, tuple[str, ...], tuple[str, ...]], Layout] = {}


def layout_of(rules: Rules, units: tuple[str, ...], seats: tuple[str, ...]) -> Layout:
    """One layout object for a scenario's units (the options are kept by its identity)."""
    key = (rules.preset.name, units, seats)
    found = _LAYOUTS.get(key)
    if found is None:
        a, b = seats
        found = _LAYOUTS[key] = Layout.of(rules.preset.name, units, (a, b))
    return found


def rebuilt(name: str, record: list[Any], faces: list[int], partial: list[int]) -> Play:
    """A play from its plain record (``Play.__reduce__``): every command decided again, every
    face given again, by the engine's own checks."""
    from regiment.core.commands import parse_command

    from . import rules_of

    play = Play.new(rules_of(name), None)
    for item in record:
        if isinstance(item, dict):
            play.session.submit(parse_command(item))
        else:
            for face in item:
                play.give(int(face))
    for face in faces:
        play.give(int(face))
    play.partial = tuple(int(a) for a in partial)
    return play
