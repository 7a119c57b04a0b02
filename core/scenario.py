"""Scenarios: reading and checking the TOML a game starts from, for any rulebook.

``load_scenario`` reads a file (at most 1 MiB, UTF-8, TOML nested at most 8 deep) and
``parse_scenario`` checks a dict: the kernel reads what every turn-based game has (the preset,
the players, the dice and their seed, the undo policy, the number of turns) and hands the rest
to the schema the preset's rulebook registered (``register_schema``). Either returns the
scenario as a plain, normalised dict (defaults filled in), which ``GameStarted`` records (less
its secret seed) so that a log carries everything needed to rebuild its game. Errors name the
file, the field path (``units[2].profile.Ld``) and what was expected.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from .errors import InvalidScenario
from .registry import Registry

DICE = ("seeded", "manual", "scripted", "shared")
UNDO = ("free", "consent", "off", "solo")
ID = re.compile(r"^[a-z0-9_-]{1,40}$")
HEX = re.compile(r"^[0-9a-fA-F]{1,128}$")
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")   # how the replay page draws a player's units
COMMON = ("preset", "first", "dice", "seed", "undo", "phase", "turns", "players", "name",
          "description", "script", "reveal_timeout", "withheld")


class Reader:
    """Pulls typed fields out of nested tables, raising with the full field path."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, message: str) -> InvalidScenario:
        return InvalidScenario(message, source=self.source, path=path)

    def table(self, data: Any, path: str) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.fail(path, f"expected a table, got {type(data).__name__}")
        return data

    def known(self, data: dict[str, Any], path: str, allowed: tuple[str, ...]) -> None:
        for key in data:
            if key not in allowed:
                where = f"{path}.{key}" if path else key
                raise self.fail(where, f"unknown field; expected one of {', '.join(allowed)}")

    def get(self, data: dict[str, Any], key: str, path: str, kind: type | tuple[type, ...],
            default: Any = ..., choices: tuple[Any, ...] | None = None) -> Any:
        where = f"{path}.{key}" if path else key
        if key not in data or (data[key] is None and default is not ...):
            if default is ...:
                raise self.fail(where, "missing")
            return default
        value: Any = data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            raise self.fail(where, f"expected {_names(kinds)}, got {value!r}")
        if not isinstance(value, kinds):
            raise self.fail(where, f"expected {_names(kinds)}, got {value!r}")
        if choices is not None and value not in choices:
            raise self.fail(where, f"expected one of {', '.join(map(str, choices))}, got {value!r}")
        if isinstance(value, (float, int)) and not isinstance(value, bool) and \
                not _finite(value):   # NaN passes every range check; 10**400 fails floats
            raise self.fail(where, f"expected a finite number up to {BIGGEST:g}, got "
                            f"{str(value)[:24]}")
        return float(cast(float, value)) if kinds == (float, int) else value

    def number(self, data: dict[str, Any], key: str, path: str, default: Any = ...,
               low: float | None = None, high: float | None = None) -> Any:
        value = self.get(data, key, path, (float, int), default)
        if value is None:
            return value
        where = f"{path}.{key}"
        if (low is not None and value < low) or (high is not None and value > high):
            raise self.fail(where, f"expected a number from {low} to {high}, got {value!r}")
        return float(value)

    def point(self, value: Any, path: str) -> list[float]:
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                           and _finite(v) for v in value)):
            raise self.fail(path, f"expected [x, y] in inches (finite numbers), got "
                            f"{str(value)[:60]}")
        return [float(value[0]), float(value[1])]


BIGGEST = 1e6   # no number of a scenario is larger: a table is a few feet


def _finite(v: float | int) -> bool:
    """A number a table can hold: not NaN nor infinite, and no larger than BIGGEST."""
    if isinstance(v, int):
        return -BIGGEST <= v <= BIGGEST
    return math.isfinite(v) and -BIGGEST <= v <= BIGGEST


def _names(kinds: tuple[type, ...]) -> str:
    names = {float: "a number", int: "an integer", str: "a string", bool: "true or false",
             list: "a list", dict: "a table"}
    return " or ".join(dict.fromkeys(names.get(k, k.__name__) for k in kinds))


MAX_BYTES = 1 << 20   # a scenario of 200 units is about 60 KiB
MAX_DEPTH = 8         # the deepest real field is a hill's corner: table.hills[i][j][k]


def load_scenario(path: str | Path, measured: bool = False) -> dict[str, Any]:
    """Read and validate a scenario file (at most 1 MiB, nested at most 8 deep); with
    ``measured``, as a table-mode battle (TABLE.POSITIONS: ``play --table``)."""
    source = str(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InvalidScenario(f"cannot read the file: {exc.strerror}", source=source) from None
    if len(raw) > MAX_BYTES:
        raise InvalidScenario(f"the file is larger than {MAX_BYTES // 1024} KiB",
                              source=source)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidScenario(f"the file is not UTF-8 text (byte {exc.start})",
                              source=source) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidScenario(f"not valid TOML: {exc}", source=source) from None
    except RecursionError:
        raise InvalidScenario(f"arrays or tables nested deeper than {MAX_DEPTH}",
                              source=source) from None
    return parse_scenario(data, source=source, measured=measured)


def _depth(value: Any, path: str, limit: int) -> str | None:
    """The path of the first value nested deeper than ``limit`` (iteratively: no recursion
    for a hostile input to exhaust)."""
    todo: list[tuple[Any, str, int]] = [(value, path, 0)]
    while todo:
        item, where, depth = todo.pop()
        if depth > limit:
            return where
        if isinstance(item, dict):
            todo.extend((v, f"{where}.{k}" if where else str(k), depth + 1)
                        for k, v in item.items())
        elif isinstance(item, list):
            todo.extend((v, f"{where}[{i}]", depth + 1) for i, v in enumerate(item))
    return None


Schema = Callable[["Reader", dict[str, Any], dict[str, Any]], dict[str, Any]]
SCHEMAS: Registry[tuple[Schema, tuple[str, ...]]] = Registry()
MEASURED: set[str] = set()   # the presets a table-mode battle can be played with (TABLE.ASK)


def register_schema(presets: tuple[str, ...], schema: Schema | Callable[[], Schema],
                    fields: tuple[str, ...], later: bool = False, measured: bool = False
                    ) -> None:
    """A rulebook's scenario schema: ``schema(reader, top, common)`` checks the top-level
    ``fields`` it adds to the kernel's and returns the whole scenario. With ``later``,
    ``schema`` is a function that gives it when a scenario first needs it; ``measured``: its
    battles can be played in table mode (``table.measured``)."""
    for name in presets:
        if measured:
            MEASURED.add(name)
        if later:
            # (schema is the function that gives it; mypy types the lambda as schema itself)
            SCHEMAS.later(name, lambda make=schema: (make(), fields))  # type: ignore[misc]
        else:
            SCHEMAS[name] = (schema, fields)  # type: ignore[assignment]  # not later: a schema


def parse_scenario(data: Any, *, source: str = "<scenario>", measured: bool = False
                   ) -> dict[str, Any]:
    """Validate a scenario given as a dict and return it normalised; with ``measured``, as a
    table-mode battle: the units' positions are dropped, the players measure (TABLE.ASK)."""
    deep = _depth(data, "", MAX_DEPTH)
    if deep is not None:
        raise InvalidScenario(f"nested deeper than {MAX_DEPTH} levels", source=source,
                              path=deep)
    r = Reader(source)
    top = r.table(data, "")
    registered = ", ".join(sorted(SCHEMAS)) or "none (import regiment.phases)"
    preset = r.get(top, "preset", "", str, next(iter(SCHEMAS), ""))
    if preset not in SCHEMAS:
        raise r.fail("preset", f"the preset {preset!r} is not available; registered: "
                     f"{registered}")
    schema, fields = SCHEMAS[preset]
    r.known(top, "", COMMON + fields)
    table = top.get("table")
    if measured:
        top = {**top, "table": {**(table if isinstance(table, dict) else {}), "measured": True}}
    if isinstance(top.get("table"), dict) and top["table"].get("measured") is not None \
            and preset not in MEASURED:
        raise r.fail("table.measured", f"the {preset} rulebook is not played in table mode "
                     "yet: it places its models by geometry (TABLE.POSITIONS)")
    return schema(r, top, common(r, top, preset))


def common(r: Reader, top: dict[str, Any], preset: str) -> dict[str, Any]:
    """What every turn-based game's scenario says: who plays, with what dice, how long."""
    out: dict[str, Any] = {
        "name": r.get(top, "name", "", str, ""),
        "preset": preset,
        "dice": r.get(top, "dice", "", str, "seeded", DICE),
        "undo": r.get(top, "undo", "", str, "free", UNDO),
        "turns": r.get(top, "turns", "", int, 6),
        "phase": r.get(top, "phase", "", str, None),
    }
    if not 1 <= out["turns"] <= 10_000:
        raise r.fail("turns", f"expected 1 to 10000 game turns, got {out['turns']}")
    seed = r.get(top, "seed", "", str, None)
    if seed is not None and not HEX.match(seed):
        raise r.fail("seed", f"expected a hex string, got {seed!r}")
    out["seed"] = seed
    script = r.get(top, "script", "", list, [])
    for i, face in enumerate(script):
        if type(face) is not int or not 1 <= face <= 6:
            raise r.fail(f"script[{i}]", f"expected a die face 1-6, got {face!r}")
    out["script"] = script
    # shared dice (DICE.WITHHELD): how long a party has to reveal, and what follows if it
    # does not; recorded only where given (a scenario without them records what it did)
    timeout = r.get(top, "reveal_timeout", "", (float, int), None)
    if timeout is not None:
        if not 1 <= timeout <= 86_400:
            raise r.fail("reveal_timeout", f"expected 1 to 86400 seconds, got {timeout}")
        out["reveal_timeout"] = timeout
    how = r.get(top, "withheld", "", str, None, ("concede", "contested"))
    if how is not None:
        out["withheld"] = how
    players = r.get(top, "players", "", list)
    if len(players) != 2:
        raise r.fail("players", f"expected exactly two players, got {len(players)}")
    out["players"] = [_player(r, p, f"players[{i}]") for i, p in enumerate(players)]
    ids = [p["id"] for p in out["players"]]
    if ids[0] == ids[1]:
        raise r.fail("players[1].id", f"duplicate player id {ids[1]!r}")
    out["first"] = r.get(top, "first", "", str, ids[0], tuple(ids))
    return out


def _player(r: Reader, data: Any, path: str) -> dict[str, Any]:
    p = r.table(data, path)
    r.known(p, path, ("id", "name", "colour"))
    pid = r.get(p, "id", path, str)
    if not ID.match(pid):
        raise r.fail(f"{path}.id", f"expected [a-z0-9_-], at most 40 characters, got {pid!r}")
    out = {"id": pid, "name": r.get(p, "name", path, str, pid)}
    if "colour" in p:   # only when given: a scenario without it records what it always did
        colour = r.get(p, "colour", path, str)
        if not COLOUR.match(colour):
            raise r.fail(f"{path}.colour", f"expected a colour such as \"#2b5fc0\", got "
                         f"{colour!r}")
        out["colour"] = colour.lower()
    return out
