"""Plain-data schemas for commands and events.

Both are frozen, keyword-only dataclasses whose fields hold plain data only (str, int, float,
bool, None, tuples, dicts). A class's checks are compiled once from its type hints. Checking
runs for every command and, when a record is refused by the C decoder on the read path (see
store.codec), says exactly which field is wrong; a field path is formatted only on failure.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], Any]  # returns the value (lists made tuples) or raises SchemaError


class SchemaError(ValueError):
    """A value does not match the field it is given for; the message names the field path."""

    def __init__(self, message: str, path: str = "") -> None:
        self.message = message
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)

    def under(self, prefix: str) -> SchemaError:
        return SchemaError(self.message, f"{prefix}{self.path}")


class OutOfBounds(SchemaError):
    """The right kind of value, beyond what a command may carry (said as it is, not as the
    other types a union allows)."""


def _fail(expected: str, value: Any) -> SchemaError:
    return SchemaError(f"expected {expected}, got {type(value).__name__} {value!r:.60}")


def _any(v: Any) -> Any:
    return v


# What a command may carry (``Schema(cls, bounded=True)``): numbers a table can hold and a
# program can do arithmetic on, strings and lists no longer than any real command needs. A
# client's 400-digit integer, a NaN facing or a million-leg path is refused here, naming the
# field, before any rule or geometry sees it.
BIGGEST = 1e6          # inches or degrees: far beyond any table (a table's diagonal is < 1000)
MOST_INT = 2**31 - 1
LONGEST_STR = 4096
LONGEST_LIST = 1000


def _bounded_float(v: Any) -> Any:
    if type(v) is int:
        if -MOST_INT <= v <= MOST_INT:
            return v
    elif type(v) is float:
        if v == v and -BIGGEST <= v <= BIGGEST:   # (v == v: not NaN)
            return v
    else:
        raise _fail("a number", v)
    raise OutOfBounds(f"expected a finite number from {-BIGGEST:g} to {BIGGEST:g}, got "
                      f"{str(v)[:24]}")


def _bounded_int(v: Any) -> Any:
    if type(v) is not int:
        raise _fail("int", v)
    if not -MOST_INT <= v <= MOST_INT:
        raise OutOfBounds(f"expected an integer from {-MOST_INT} to {MOST_INT}, got "
                          f"{str(v)[:24]}...")
    return v


def _bounded_str(v: Any) -> Any:
    if type(v) is not str:
        raise _fail("str", v)
    if len(v) > LONGEST_STR:
        raise OutOfBounds(f"expected a string of at most {LONGEST_STR} characters, got "
                          f"{len(v)}")
    return v


def _float(v: Any) -> Any:
    if type(v) is float or type(v) is int:
        return v
    raise _fail("a number", v)


def _exact(t: type) -> Check:
    def check(v: Any) -> Any:
        if type(v) is not t:
            raise _fail(t.__name__, v)
        return v

    return check


def _none(v: Any) -> Any:
    if v is not None:
        raise _fail("null", v)
    return v


def _dict(v: Any) -> Any:
    if type(v) is not dict or (v and not all(type(k) is str for k in v)):
        raise _fail("a map with string keys", v)
    return v


def _checker(hint: Any, bounded: bool = False) -> Check:
    """Build the check of one field type (``bounded``: a command's, BIGGEST and the rest)."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return _any
    if hint is float:
        return _bounded_float if bounded else _float
    if bounded and hint is int:
        return _bounded_int
    if bounded and hint is str:
        return _bounded_str
    if hint in (int, str, bool):
        return _exact(hint)
    if hint is type(None):
        return _none
    if origin in (typing.Union, types.UnionType):
        options = [_checker(a, bounded) for a in typing.get_args(hint)]
        names = " or ".join(getattr(a, "__name__", str(a)) for a in typing.get_args(hint))

        def check_union(v: Any) -> Any:
            for option in options:
                try:
                    return option(v)
                except OutOfBounds:
                    raise
                except SchemaError:
                    continue
            raise _fail(names, v)

        return check_union
    if origin is tuple:
        args = typing.get_args(hint)
        item = _checker(args[0], bounded) if args else _any
        longest = LONGEST_LIST if bounded else None

        def check_tuple(v: Any) -> Any:
            if type(v) is not list and type(v) is not tuple:
                raise _fail("a list", v)
            if longest is not None and len(v) > longest:
                raise OutOfBounds(f"expected a list of at most {longest} items, got {len(v)}")
            out = []
            for i, x in enumerate(v):
                try:
                    out.append(item(x))
                except SchemaError as exc:
                    raise exc.under(f"[{i}]") from None
            return tuple(out)

        return check_tuple
    if origin is dict or hint is dict or typing.is_typeddict(hint):
        return _dict   # a TypedDict names its keys for readers and mypy; stored as a map
    raise TypeError(f"unsupported schema type {hint!r}")


class Schema:
    """The compiled checks of one dataclass: field names, which are required, and checks."""

    __slots__ = ("aliases", "bounded", "checks", "cls", "exact", "keys", "n", "names", "plan",
                 "required")

    def __init__(self, cls: type, bounded: bool = False) -> None:
        self.cls = cls   # the checks are compiled when first needed (_compile)
        self.bounded = bounded   # a command's: numbers, strings and lists within bounds

    def __getattr__(self, name: str) -> Any:
        """A slot not yet filled: compile the checks, then answer. Reading type hints for
        every event and command class took most of the library's import time; a command
        line run uses a few of them."""
        if name in ("cls", "bounded") or name not in Schema.__slots__:
            raise AttributeError(name)
        self._compile()
        return object.__getattribute__(self, name)

    def _compile(self) -> None:
        cls = self.cls
        hints = typing.get_type_hints(cls)
        self.checks: dict[str, Check] = {}
        self.exact: dict[str, type] = {}
        self.required: set[str] = set()
        # a field named like a keyword (``from_``) is ``from`` on the wire
        self.aliases: dict[str, str] = {}
        for f in dataclasses.fields(cls):
            wire = f.name[:-1] if f.name.endswith("_") else f.name
            if wire != f.name:
                self.aliases[f.name] = wire
            self.checks[wire] = _checker(hints[f.name], self.bounded)
            if hints[f.name] in ((bool,) if self.bounded else (int, str, bool)):
                self.exact[wire] = hints[f.name]
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                self.required.add(wire)
        self.names = tuple(self.checks)
        self.keys = frozenset(self.names)
        self.plan = tuple((n, self.exact.get(n), self.checks[n]) for n in self.names)
        self.n = len(self.plan)

    def build(self, data: Any, where: str) -> Any:
        """Construct the class from untrusted data, or raise SchemaError naming the field."""
        if type(data) is not dict:
            raise _fail("a map", data).under(where)
        if len(data) == self.n:  # every field given: one pass, no set arithmetic
            fields = {}
            name = ""
            try:
                for name, exact, check in self.plan:
                    v = data[name]
                    fields[name] = v if exact is not None and type(v) is exact else check(v)
            except KeyError:
                pass  # a field is missing and another is unknown: said below
            except SchemaError as exc:
                raise exc.under(f"{where}.{name}") from None
            else:
                return self._make(fields)
        unknown = [k for k in data if k not in self.checks]
        if unknown:
            raise SchemaError(f"unknown field {unknown[0]!r}", where)
        missing = self.required.difference(data)
        if missing:
            raise SchemaError(f"missing field {sorted(missing)[0]!r}", where)
        fields = {}
        for k, v in data.items():
            try:
                fields[k] = self.checks[k](v)
            except SchemaError as exc:
                raise exc.under(f"{where}.{k}") from None
        return self._make(fields)  # defaults fill the rest

    def _make(self, fields: dict[str, Any]) -> Any:
        if self.aliases:
            back = {w: n for n, w in self.aliases.items()}
            fields = {back.get(k, k): v for k, v in fields.items()}
        return self.cls(**fields)


def to_plain(obj: Any) -> dict[str, Any]:
    """A dataclass's fields as a dict (tuples stay tuples; the codec writes them as arrays)."""
    schema = getattr(obj, "schema", None)
    if schema is not None and schema.aliases:
        names = schema.aliases
        return {names.get(n, n): getattr(obj, n) for n in obj.__dataclass_fields__}
    return {name: getattr(obj, name) for name in obj.__dataclass_fields__}
