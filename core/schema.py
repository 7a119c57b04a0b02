"""Plain-data schemas for commands and events.

Both are frozen, keyword-only dataclasses whose fields hold plain data only (str, int, float,
bool, None, tuples, dicts). A class's checks are compiled once from its type hints, so
validating untrusted input (a JSON line, a log from an opponent) costs a few isinstance calls.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Any

Check = Callable[[Any, str], Any]


class SchemaError(ValueError):
    """A value does not match the field it is given for; the message names the field path."""


def _fail(path: str, expected: str, value: Any) -> SchemaError:
    return SchemaError(f"{path}: expected {expected}, got {type(value).__name__} {value!r:.60}")


def _checker(hint: Any) -> Check:
    """Build a function that checks (and normalises lists to tuples for) one field type."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return lambda v, p: v
    if hint is float:

        def check_float(v: Any, p: str) -> Any:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise _fail(p, "a number", v)
            return v

        return check_float
    if hint in (int, str, bool):

        def check_plain(v: Any, p: str, t: type = hint) -> Any:
            if type(v) is not t:
                raise _fail(p, t.__name__, v)
            return v

        return check_plain
    if hint is type(None):

        def check_none(v: Any, p: str) -> Any:
            if v is not None:
                raise _fail(p, "null", v)
            return v

        return check_none
    if origin in (typing.Union, types.UnionType):
        options = [_checker(a) for a in typing.get_args(hint)]
        names = " or ".join(getattr(a, "__name__", str(a)) for a in typing.get_args(hint))

        def check_union(v: Any, p: str) -> Any:
            for option in options:
                try:
                    return option(v, p)
                except SchemaError:
                    continue
            raise _fail(p, names, v)

        return check_union
    if origin is tuple:
        args = typing.get_args(hint)
        item = _checker(args[0]) if args else (lambda v, p: v)

        def check_tuple(v: Any, p: str) -> Any:
            if not isinstance(v, (list, tuple)):
                raise _fail(p, "a list", v)
            return tuple(item(x, f"{p}[{i}]") for i, x in enumerate(v))

        return check_tuple
    if origin is dict or hint is dict:

        def check_dict(v: Any, p: str) -> Any:
            if not isinstance(v, dict) or not all(type(k) is str for k in v):
                raise _fail(p, "a map with string keys", v)
            return v

        return check_dict
    raise TypeError(f"unsupported schema type {hint!r}")


class Schema:
    """The compiled checks of one dataclass: field names, which are required, and checks."""

    __slots__ = ("checks", "cls", "names", "required")

    def __init__(self, cls: type) -> None:
        hints = typing.get_type_hints(cls)
        self.cls = cls
        self.checks: dict[str, Check] = {}
        self.required: set[str] = set()
        for f in dataclasses.fields(cls):
            self.checks[f.name] = _checker(hints[f.name])
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                self.required.add(f.name)
        self.names = tuple(self.checks)

    def build(self, data: dict[str, Any], where: str) -> Any:
        """Construct the class from untrusted data, or raise SchemaError naming the field."""
        if not isinstance(data, dict):
            raise _fail(where, "a map", data)
        unknown = [k for k in data if k not in self.checks]
        if unknown:
            raise SchemaError(f"{where}: unknown field {unknown[0]!r}")
        missing = self.required.difference(data)
        if missing:
            raise SchemaError(f"{where}: missing field {sorted(missing)[0]!r}")
        return self.cls(**{k: self.checks[k](v, f"{where}.{k}") for k, v in data.items()})


def to_plain(obj: Any) -> dict[str, Any]:
    """A dataclass's fields as a dict (tuples stay tuples; the codec writes them as arrays)."""
    return {name: getattr(obj, name) for name in obj.__dataclass_fields__}
