"""Scenarios: the TOML contract of DESIGN.md, validated into plain data.

``load_scenario`` reads a file, ``parse_scenario`` a dict. Either returns the scenario as a
plain, normalised dict (defaults filled in), which ``GameStarted`` records verbatim so that a
log carries everything needed to rebuild its game. Errors name the file, the field path
(``units[2].profile.Ld``) and what was expected.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any, cast

from .errors import InvalidScenario
from .geometry import Box, bounds, overlap, polygon, unit_size

PRESETS = ("fantasy8", "fantasy-classic", "skirmish40k")
DICE = ("seeded", "manual", "scripted")
UNDO = ("free", "consent", "off")
TROOPS = (
    "infantry", "cavalry", "monstrous_infantry", "monstrous_cavalry",
    "monstrous_beast", "monster", "chariot",
)
PROFILE = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
EQUIPMENT = (
    "hand_weapon", "shield", "spear", "halberd", "great_weapon", "bow", "crossbow", "handgun",
    "light_armour", "heavy_armour", "lance", "additional_hand_weapon",
)
COMMAND_GROUP = ("champion", "standard", "musician")
ID = re.compile(r"^[a-z0-9_-]{1,40}$")
HEX = re.compile(r"^[0-9a-fA-F]{1,128}$")
MAX_UNITS = 200


class _Reader:
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
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
            raise self.fail(path, f"expected [x, y] in inches, got {value!r}")
        return [float(value[0]), float(value[1])]


def _names(kinds: tuple[type, ...]) -> str:
    names = {float: "a number", int: "an integer", str: "a string", bool: "true or false",
             list: "a list", dict: "a table"}
    return " or ".join(dict.fromkeys(names.get(k, k.__name__) for k in kinds))


MAX_BYTES = 1 << 20   # a scenario of 200 units is about 60 KiB
MAX_DEPTH = 8         # the deepest real field is a hill's corner: table.hills[i][j][k]


def load_scenario(path: str | Path) -> dict[str, Any]:
    """Read and validate a scenario file (at most 1 MiB, nested at most 8 deep)."""
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
    return parse_scenario(data, source=source)


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


def parse_scenario(data: Any, *, source: str = "<scenario>") -> dict[str, Any]:
    """Validate a scenario given as a dict and return it normalised."""
    deep = _depth(data, "", MAX_DEPTH)
    if deep is not None:
        raise InvalidScenario(f"nested deeper than {MAX_DEPTH} levels", source=source,
                              path=deep)
    r = _Reader(source)
    top = r.table(data, "")
    r.known(top, "", ("preset", "first", "dice", "seed", "undo", "phase", "turns", "table",
                      "players", "units", "name", "description", "script"))
    out: dict[str, Any] = {
        "name": r.get(top, "name", "", str, ""),
        "preset": r.get(top, "preset", "", str, "fantasy8", PRESETS),
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
    out["table"] = _table(r, top.get("table", {}))
    players = r.get(top, "players", "", list)
    if len(players) != 2:
        raise r.fail("players", f"expected exactly two players, got {len(players)}")
    out["players"] = [_player(r, p, f"players[{i}]") for i, p in enumerate(players)]
    ids = [p["id"] for p in out["players"]]
    if ids[0] == ids[1]:
        raise r.fail("players[1].id", f"duplicate player id {ids[1]!r}")
    out["first"] = r.get(top, "first", "", str, ids[0], tuple(ids))
    units = r.get(top, "units", "", list)
    if not units or len(units) > MAX_UNITS:
        raise r.fail("units", f"expected 1 to {MAX_UNITS} units, got {len(units)}")
    out["units"] = []
    seen: set[str] = set()
    for i, u in enumerate(units):
        unit = _unit(r, u, f"units[{i}]", tuple(ids))
        if unit["id"] in seen:
            raise r.fail(f"units[{i}].id", f"duplicate unit id {unit['id']!r}")
        seen.add(unit["id"])
        out["units"].append(unit)
    _placed(r, out["units"], out["table"])
    return out


def _placed(r: _Reader, units: list[dict[str, Any]], table: dict[str, Any]) -> None:
    """Every unit on the table, and no two standing on each other (touching is allowed: such
    units start in combat)."""
    boxes: list[tuple[int, Box]] = []
    for i, u in enumerate(units):
        w, d = unit_size(u["models"], u["files"], tuple(u["base"]))
        b = Box(u["position"][0], u["position"][1], u["facing"], w, d)
        x0, y0, x1, y1 = bounds(b)
        if x0 < -1e-6 or y0 < -1e-6 or x1 > table["width"] + 1e-6 or y1 > table["depth"] + 1e-6:
            raise r.fail(f"units[{i}].position",
                         f"{u['id']} ({w:.1f}\" x {d:.1f}\") does not fit on the "
                         f"{table['width']:g}\" x {table['depth']:g}\" table there: it reaches "
                         f"x {x0:.1f} to {x1:.1f}, y {y0:.1f} to {y1:.1f}")
        for j, other in boxes:
            if overlap(bounds(b), bounds(other)) and \
                    polygon(b).intersection(polygon(other)).area > 1e-3:
                raise r.fail(f"units[{i}].position",
                             f"{u['id']} stands on {units[j]['id']} (units[{j}])")
        boxes.append((i, b))


def _table(r: _Reader, data: Any) -> dict[str, Any]:
    t = r.table(data, "table")
    r.known(t, "table", ("width", "depth", "hills"))
    hills = []
    for i, poly in enumerate(r.get(t, "hills", "table", list, [])):
        where = f"table.hills[{i}]"
        if not isinstance(poly, list) or len(poly) < 3:
            raise r.fail(where, "expected a polygon of at least three [x, y] points")
        hills.append([r.point(p, f"{where}[{j}]") for j, p in enumerate(poly)])
    return {
        "width": r.number(t, "width", "table", 72.0, 6, 1000),
        "depth": r.number(t, "depth", "table", 48.0, 6, 1000),
        "hills": hills,
    }


def _player(r: _Reader, data: Any, path: str) -> dict[str, Any]:
    p = r.table(data, path)
    r.known(p, path, ("id", "name"))
    pid = r.get(p, "id", path, str)
    if not ID.match(pid):
        raise r.fail(f"{path}.id", f"expected [a-z0-9_-], at most 40 characters, got {pid!r}")
    return {"id": pid, "name": r.get(p, "name", path, str, pid)}


@cache
def catalogue() -> dict[str, dict[str, Any]]:
    """The bundled catalogue of units the rule pages name (core/data/catalogue.toml)."""
    text = files("regiment.core").joinpath("data/catalogue.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _from_catalogue(r: _Reader, u: dict[str, Any], path: str) -> dict[str, Any]:
    """A unit entry with its ``catalogue`` entry's fields filled in underneath it."""
    name = u.get("catalogue")
    if name is None:
        return u
    known = catalogue()
    if name not in known:
        raise r.fail(f"{path}.catalogue",
                     f"expected one of {', '.join(sorted(known))}, got {name!r}")
    merged = {**known[name], **{k: v for k, v in u.items() if k != "catalogue"}}
    if isinstance(u.get("profile"), dict):
        merged["profile"] = {**known[name].get("profile", {}), **u["profile"]}
    return merged


def _unit(r: _Reader, data: Any, path: str, players: tuple[str, ...]) -> dict[str, Any]:
    u = _from_catalogue(r, r.table(data, path), path)
    r.known(u, path, ("id", "player", "name", "troop", "models", "files", "base", "profile",
                      "armour", "ward", "equipment", "command", "battle_standard", "rules",
                      "position", "facing", "charged"))
    uid = r.get(u, "id", path, str)
    if not ID.match(uid):
        raise r.fail(f"{path}.id", f"expected [a-z0-9_-], at most 40 characters, got {uid!r}")
    models = r.get(u, "models", path, int)
    if not 1 <= models <= 1000:
        raise r.fail(f"{path}.models", f"expected 1 to 1000 models, got {models}")
    files = r.get(u, "files", path, int, min(models, 5))
    if not 1 <= files <= models:
        raise r.fail(f"{path}.files", f"expected 1 to {models} files (the models), got {files}")
    base = r.get(u, "base", path, list, [25, 25])
    if (len(base) != 2 or not all(isinstance(b, (int, float)) and not isinstance(b, bool)
                                  and 5 <= b <= 300 for b in base)):
        raise r.fail(f"{path}.base", f"expected [width, depth] in mm (5-300), got {base!r}")
    prof = r.table(u.get("profile"), f"{path}.profile")
    r.known(prof, f"{path}.profile", PROFILE)
    profile = {}
    for key in PROFILE:
        value = r.get(prof, key, f"{path}.profile", int)
        if not 0 <= value <= 10:
            raise r.fail(f"{path}.profile.{key}", f"expected 0 to 10, got {value}")
        profile[key] = value
    saves = {}
    for key in ("armour", "ward"):
        value = r.get(u, key, path, int, None)
        if value is not None and not 2 <= value <= 6:
            raise r.fail(f"{path}.{key}", f"expected a save of 2 to 6 (2+ to 6+), got {value}")
        saves[key] = value
    lists = {}
    for key, allowed in (("equipment", EQUIPMENT), ("command", COMMAND_GROUP)):
        items = r.get(u, key, path, list, [])
        for i, item in enumerate(items):
            if item not in allowed:
                raise r.fail(f"{path}.{key}[{i}]",
                             f"expected one of {', '.join(allowed)}, got {item!r}")
        lists[key] = list(items)
    rules = r.get(u, "rules", path, list, [])
    for i, rule in enumerate(rules):
        if not isinstance(rule, str) or not ID.match(rule):
            raise r.fail(f"{path}.rules[{i}]", f"expected a special rule name, got {rule!r}")
    facing = r.number(u, "facing", path, 0.0, -360, 360) % 360.0
    return {
        "id": uid,
        "player": r.get(u, "player", path, str, choices=players),
        "name": r.get(u, "name", path, str, uid),
        "troop": r.get(u, "troop", path, str, "infantry", TROOPS),
        "models": models,
        "files": files,
        "base": [float(base[0]), float(base[1])],
        "profile": profile,
        **saves,
        **lists,
        "battle_standard": r.get(u, "battle_standard", path, bool, False),
        "rules": list(rules),
        "position": r.point(r.get(u, "position", path, list), f"{path}.position"),
        "facing": facing,
        "charged": r.get(u, "charged", path, bool, False),
    }
