"""What a roll is for: its continuation, a typed value in the game and a tagged map in the log.

A rule that needs dice says what the roll is for with a small immutable value (a NamedTuple
of a registered kind: the piece a roll is against, the attack stage of a group, the move a
piece makes once its test is taken). The log keeps it in ``RollRequested.about`` as a map
tagged with its kind, ``{"kind": "move_to", "move": "march", "files": 5, ...}``; applying
the event makes the value again, and the flow that goes on once the dice are in reads the
value, never a string.

Engines before 0.13.0 wrote the same value as one string with separators (``"0:hit"``,
``"march:5:90.0:forward=4.0"``), its kind given by the roll's purpose. That text is read into
the tagged map once, where the record is decoded (an upcaster, ``core.upcast``); and a game
begun by such an engine still writes it so (``legacy_text``), so that its records are played
again hash for hash. Nothing else knows the text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, NamedTuple, Protocol, TypeVar

from .errors import CorruptLog

TAGGED_SINCE = (0, 13, 0)   # the first engine that writes a continuation as a tagged map

About = dict[str, Any]      # {"kind": ..., **fields}


class Continuation(Protocol):
    """A kind of continuation: a NamedTuple with its ``KIND``, its fields plain data, and the
    text an engine before 0.13.0 wrote for it (``text``, ``parse``)."""

    KIND: ClassVar[str]
    _fields: ClassVar[tuple[str, ...]]

    def text(self) -> str: ...

    def _asdict(self) -> dict[str, Any]: ...


C = TypeVar("C")

KINDS: dict[str, Any] = {}          # kind -> its class
BY_PURPOSE: dict[str, Any] = {}     # a roll's purpose -> the kind an older engine wrote for it


def kind(name: str, *purposes: str) -> Any:
    """Register a continuation class under ``name``, and as the kind whose text the rolls of
    ``purposes`` carried before 0.13.0 (a purpose is one rulebook's: two kinds for one
    purpose would make old text ambiguous, refused here)."""

    def wrap(cls: Any) -> Any:
        if KINDS.get(name, cls) is not cls:
            raise TypeError(f"continuation kind {name!r} registered twice")
        if "kind" in cls._fields:   # (the tag's own key)
            raise TypeError(f"{cls.__name__} has a field named 'kind'")
        cls.KIND = name
        KINDS[name] = cls
        for p in purposes:
            if BY_PURPOSE.get(p, cls) is not cls:
                raise TypeError(f"roll purpose {p!r} has two continuation kinds")
            BY_PURPOSE[p] = cls
        return cls

    return wrap


def _plain(v: Any) -> Any:
    return [_plain(x) for x in v] if isinstance(v, tuple) else v


def _frozen(v: Any) -> Any:
    return tuple(_frozen(x) for x in v) if isinstance(v, list | tuple) else v


def tagged(value: Any) -> About | None:
    """A continuation as the log keeps it: a map tagged with its kind, or None when there is
    none (a roll whose purpose says it all, or a value that stands for none: no target)."""
    if value is None or value.text() == "":
        return None
    return {"kind": value.KIND, **{k: _plain(v) for k, v in value._asdict().items()}}


def typed(about: Mapping[str, Any] | None) -> Any:
    """The value a tagged map stands for (None for none); a map of a kind no rulebook
    registered, or without its fields, is a corrupt log."""
    if about is None:
        return None
    cls = KINDS.get(about.get("kind", ""))
    if cls is None:
        from .events import load_rulebooks

        if load_rulebooks():
            cls = KINDS.get(about.get("kind", ""))
        if cls is None:
            raise CorruptLog(f"a roll's continuation of unknown kind {about.get('kind')!r}")
    try:
        return cls._make(_frozen(about[f]) for f in cls._fields)
    except (KeyError, TypeError, ValueError):
        raise CorruptLog(f"a {cls.KIND} continuation needs {list(cls._fields)}, got "
                         f"{sorted(about)}") from None


def of(cls: type[C], value: Any) -> C:
    """The awaited roll's continuation as a value of ``cls``: a roll asked with none reads as
    the value none stands for (``cls.parse("")``); one of another kind is a corrupt log."""
    if isinstance(value, cls):
        return value
    if value is None:
        return cls.parse("")  # type: ignore[attr-defined, no-any-return]  # every kind has it
    raise CorruptLog(f"the roll awaited is for {tagged(value)}, not a "
                     f"{getattr(cls, 'KIND', cls.__name__)}")


# --- Older engines' text: read once, on decoding, and written for their own games ----------


def from_legacy_text(purpose: str, text: str) -> About | None:
    """The tagged map for the text an engine before 0.13.0 wrote in ``about``."""
    if not text:
        return None
    cls = BY_PURPOSE.get(purpose)
    if cls is None:
        from .events import load_rulebooks

        if load_rulebooks():
            cls = BY_PURPOSE.get(purpose)
    if cls is None:
        raise CorruptLog(f"a {purpose!r} roll's continuation {text[:40]!r}: no rulebook knows "
                         "what it is for")
    try:
        return tagged(cls.parse(text))
    except (ValueError, TypeError, IndexError):
        raise CorruptLog(f"a {purpose!r} roll's continuation {text[:40]!r} does not read as "
                         f"a {cls.KIND}") from None


def legacy_text(about: Mapping[str, Any] | None) -> str:
    """The text an engine before 0.13.0 wrote for ``about`` (its games still write it)."""
    value = typed(about)
    return "" if value is None else str(value.text())


class Toward(NamedTuple):
    """A roll about one other piece (the one it is against or toward; ``""``: none)."""

    unit: str

    def text(self) -> str:
        return self.unit

    @classmethod
    def parse(cls, text: str) -> Toward:
        return cls(text)


kind("toward")(Toward)
