"""Table mode (TABLE.*): the players measure, the engine asks.

A rulebook's rules ask their table questions (a distance, which side of a unit, how many
models touch) through one interface. On a table the engine knows (geometry), the answer is
computed. On a real table, the answer is asked of the players: the rule raises ``Need`` with
the ``Question``; the game records a ``MeasurementRequested`` event and waits; the player's
``measure`` command records a ``Measured`` event and the interrupted step (a command, or what a
roll leads to) is decided again, now with the answer. Rules are pure, so deciding again gives
the same events as deciding once with every answer known; answers are events, so undo, replay,
explanations and ``verify`` work as for dice.

An answer holds for the chain of questions one step raised (``GameState.answers``); the next
player command starts with none, so a distance measured before a move is never reused after it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from .about import tagged, typed
from .i18n import tr
from .schema import SchemaError
from .state import Awaiting, GameState, Value

KINDS = ("distance", "count", "number", "side", "yes_no", "unit", "units")
# count: models touching, 1 or more; number: models doing something, 0 or more
SIDES = ("front", "left", "right", "rear")
NONE = "none"   # the answer of a ``unit`` question when no unit is meant


@dataclass(frozen=True, kw_only=True)
class Question(Value):
    """What the rules need measured, and who answers it.

    ``key`` names the question (``distance:spearmen:orcs``): an answer is kept under it.
    ``most`` bounds a distance (the table's diagonal) or a count (the models that can touch);
    ``options`` are a ``side``, ``unit`` or ``units`` question's possible answers."""

    key: str
    kind: str
    rule: str
    player: str
    unit: str
    other: str = ""
    options: tuple[str, ...] = ()
    most: float = 0.0
    extra: float = 0.0      # a number the question is about (how far a move went)

    def fields(self) -> dict[str, Any]:
        """The question as ``MeasurementRequested`` records it (the same fields, its key
        tagged)."""
        return {**self.__dict__, "key": logged(self.key)}

    @classmethod
    def of(cls, recorded: Any) -> Question:
        """The question a ``MeasurementRequested`` recorded."""
        fields = {name: getattr(recorded, name) for name in cls.__dataclass_fields__}
        return cls.make(**{**fields, "key": indexed(fields["key"])})


class Again(NamedTuple):
    """TABLE.MEASURE: the command to decide again once the answer is in (as the log holds it:
    parsed when it is decided, as any command is)."""

    command: dict[str, Any]


class RollAgain(NamedTuple):
    """TABLE.MEASURE: the roll whose outcome to decide again once the answer is in."""

    roll: Awaiting
    faces: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class Asking(Value):
    """The question the game waits on, and the step it interrupted, which goes on once it is
    answered (read from the log's ``MeasurementRequested.resume`` once, when it is applied)."""

    question: Question
    resume: Again | RollAgain


def resume_written(again: Again | RollAgain) -> dict[str, Any]:
    """What is decided again, as ``MeasurementRequested.resume`` holds it (a contract of saved
    logs: ``{"command": ...}`` or ``{"roll": {...the awaited roll, "faces": [...]}}``)."""
    if isinstance(again, Again):
        return {"command": again.command}
    return {"roll": {**again.roll.__dict__, "about": tagged(again.roll.about),
                     "faces": list(again.faces)}}


def resumed(written: dict[str, Any]) -> Again | RollAgain:
    """``resume_written`` read back: the one place that knows the log's form of it."""
    if "command" in written:
        return Again(written["command"])
    roll = written["roll"]
    aw = Awaiting.make(purpose=roll["purpose"], unit=roll["unit"], player=roll["player"],
                       dice=roll["dice"], about=typed(roll.get("about")))
    return RollAgain(aw, tuple(roll["faces"]))


# listeners of the answers geometry gives, under the keys table mode asks them by: a test
# plays a battle on geometry and again in table mode with those answers (tests/tabletop.py)
heard: list[Callable[[str, str], None]] = []


def tell(key: str, answer: str) -> None:
    """Geometry answered ``key`` with ``answer`` (for the listeners, if any)."""
    for listen in heard:
        listen(key, answer)


class Key(NamedTuple):
    """TABLE.ASK: a question's name (``Question.key``, kept in the log): what it asks, of
    which pieces (the unit, the other, and more where the question needs them: a range, a
    count)."""

    kind: str
    parts: tuple[str, ...]

    def text(self) -> str:
        """The key as the log holds it: its parts joined by ``:`` (``side:boyz:spears``)."""
        return ":".join((self.kind, *self.parts))

    @classmethod
    def parse(cls, text: str) -> Key:
        kind, *rest = text.split(":")
        return cls(kind, tuple(rest))

    def part(self, i: int) -> str:
        return self.parts[i] if i < len(self.parts) else ""

    def tagged(self) -> dict[str, Any]:
        """The key as the log holds it since 0.13.0: ``{"kind": "side", "of": ["boyz",
        "spears"]}`` (what it asks, of which pieces), never packed text."""
        return {"kind": self.kind, "of": list(self.parts)}

    @classmethod
    def of_tagged(cls, written: Any) -> Key:
        """``tagged`` read back (the log's map); ``SchemaError`` if it is not one."""
        if not isinstance(written, dict) or not isinstance(written.get("kind"), str) \
                or not isinstance(written.get("of"), list | tuple):
            raise SchemaError(f"a question's key is a map of its kind and pieces, "
                              f"not {type(written).__name__}")
        return cls(written["kind"], tuple(str(p) for p in written["of"]))


def logged(text: str) -> dict[str, Any]:
    """A question's key (text, as the game indexes its answers) as the log writes it."""
    return Key.parse(text).tagged()


def indexed(written: Any) -> str:
    """A key the log wrote (a map) as the game indexes its answers (its text)."""
    return Key.of_tagged(written).text()


def key(kind: str, *parts: object) -> str:
    """A question's key, written in the one way the log holds it (``Key.text``)."""
    return Key(kind, tuple(str(p) for p in parts)).text()


class Need(Exception):
    """Raised by a rule whose table question has no answer yet (table mode)."""

    def __init__(self, question: Question) -> None:
        super().__init__(question.key)
        self.question = question


def answered(state: GameState, key: str) -> str | None:
    for k, value in state.answers:
        if k == key:
            return value
    return None


def ask(state: GameState, question: Question) -> str:
    """The answer to ``question`` (TABLE.ASK), or ``Need``: the game asks the players."""
    value = answered(state, question.key)
    if value is None:
        raise Need(question)
    return value


def distance(state: GameState, question: Question) -> float:
    return float(ask(state, question))


def count(state: GameState, question: Question) -> int:
    return int(ask(state, question))


def yes(state: GameState, question: Question) -> bool:
    return ask(state, question) == "yes"


def units(state: GameState, question: Question) -> tuple[str, ...]:
    value = ask(state, question)
    return tuple(value.split(",")) if value else ()


def _shown(value: Any) -> str:
    """A value as a refusal quotes it: whole when short (a hostile line may be long)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def read(question: Question, value: Any) -> str:
    """TABLE.MEASURE: the answer as it is kept (a distance to 1/10000 inch, a count, a side,
    yes or no, a unit or ``none``, units joined by commas); ValueError says why it cannot be."""
    kind = question.kind
    if kind == "distance":
        if type(value) is str:
            try:
                value = float(value.strip().rstrip('"'))
            except ValueError:
                raise ValueError(tr("a distance is a number of inches, not {value}",
                                    value=_shown(value))) from None
        if type(value) not in (int, float) or not math.isfinite(value):
            raise ValueError(tr("a distance is a number of inches, not {value}",
                                value=_shown(value)))
        if value < 0:
            raise ValueError(tr("a distance cannot be negative ({value}\")",
                                value=format(value, "g")))
        if value > question.most and question.extra and question.most == question.extra:
            raise ValueError(tr("{value}\" is beyond the {most}\" of the move, which then does "
                                "not reach {other}: undo to answer again what it meets",
                                value=format(value, "g"), most=format(question.most, "g"),
                                other=question.other))
        if value > question.most and question.key.startswith("moved:"):
            # how much of a move was used (MOVE.*): at most what the move allows
            raise ValueError(tr("{value}\" is more than the move allows ({most}\")",
                                value=format(value, "g"), most=format(question.most, "g")))
        if value > question.most:
            raise ValueError(tr("{value}\" is farther than two points of this table can be "
                                "({most}\")", value=format(value, "g"),
                                most=format(question.most, ".1f")))
        return format(round(float(value), 4), "g")
    if kind in ("count", "number"):
        if type(value) is str and value.strip().isdigit():
            value = int(value.strip())
        if type(value) is not int:
            raise ValueError(tr("a number of models is a whole number, not {value}",
                                value=_shown(value)))
        least = 1 if kind == "count" else 0
        if not least <= value <= question.most:
            raise ValueError(tr("{unit} has {least} to {most} models that can be counted "
                                "there, not {value}", unit=question.unit, least=least,
                                most=int(question.most), value=value))
        return str(value)
    if kind == "yes_no":
        if type(value) is bool:
            return "yes" if value else "no"
        text = str(value).strip().lower()
        if text in ("yes", "y", "true", "да", "д"):
            return "yes"
        if text in ("no", "n", "false", "нет", "н"):
            return "no"
        raise ValueError(tr("answer yes or no, not {value}", value=_shown(value)))
    if kind == "units":
        chosen = value if isinstance(value, (list, tuple)) else \
            [v for v in str(value).replace(" ", ",").split(",") if v]
        if chosen in (["none"], ["-"]):
            chosen = []
        wrong = [c for c in chosen if c not in question.options]
        if wrong:
            raise ValueError(tr("{unit} is not one of {options}", unit=_shown(wrong[0]),
                                options=", ".join(question.options)))
        return ",".join(sorted(set(chosen), key=question.options.index))
    text = str(value).strip()
    if text not in question.options:
        raise ValueError(tr("{value} is not one of {options}", value=_shown(text),
                            options=", ".join(question.options)))
    return text


def choices(pending: Any) -> list[Any]:
    """The answers a measurement can take, when they are few (for ``legal`` and bots): every
    option, yes and no, every count; a distance has none."""
    kind = pending.measure
    if kind == "yes_no":
        return ["yes", "no"]
    if kind in ("count", "number"):
        return list(range(kind == "count", int(pending.most) + 1))
    if kind in ("unit", "side"):
        return list(pending.options)
    return []
