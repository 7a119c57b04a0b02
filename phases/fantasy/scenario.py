"""The fantasy rulebook's scenario schema: the table (size, hills) and the units (profile,
troop type, models and files, bases, saves, equipment, command group, special rules, position
and facing). The kernel (``core.scenario``) reads the rest and calls ``parse_fantasy``, which
``phases`` registers for ``fantasy8`` and ``fantasy-classic``. Equipment and special rules are
the registry's (``phases.specials``): an unknown name is refused with the known ones.
"""

from __future__ import annotations

import difflib
import tomllib
from functools import cache
from importlib.resources import files
from typing import Any

from regiment.core.geometry import Box, bounds, stands_on, unit_size
from regiment.core.scenario import ID, Reader
from regiment.phases.common.sight import parse_blocking, parse_polygons

from .characters.rules import JOINS
from .close_combat.combat import positions
from .specials import VALUES, known, written
from .state import UnitState

TROOPS = (
    "infantry", "cavalry", "monstrous_infantry", "monstrous_cavalry",
    "monstrous_beast", "monster", "chariot",
)
PROFILE = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
COMMAND_GROUP = ("champion", "standard", "musician")
SPECIAL_HITS = ("1", "2", "3", "D3", "D6")   # ATK.IMPACT, ATK.STOMP: hits a model makes
MOUNT = ("WS", "S", "I", "A")   # CC.MOUNT: what a mount attacks with
MAX_UNITS = 200
FIELDS = ("table", "units")


def parse_fantasy(r: Reader, top: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
    """The fantasy rulebook's part of a scenario: the table and the units."""
    out["table"] = _table(r, top.get("table", {}))
    ids = tuple(p["id"] for p in out["players"])
    units = r.get(top, "units", "", list)
    if not units or len(units) > MAX_UNITS:
        raise r.fail("units", f"expected 1 to {MAX_UNITS} units, got {len(units)}")
    out["units"] = []
    seen: set[str] = set()
    measured = bool(out["table"].get("measured"))
    for i, u in enumerate(units):
        unit = _unit(r, u, f"units[{i}]", ids)
        if unit["position"] is None and not measured and "joined" not in unit:
            raise r.fail(f"units[{i}].position", "missing (a battle without positions is "
                         "played in table mode: table.measured = true, or play --table)")
        if unit["id"] in seen:
            raise r.fail(f"units[{i}].id", f"duplicate unit id {unit['id']!r}")
        seen.add(unit["id"])
        out["units"].append(unit)
    _joined(r, out["units"])
    if all(u["position"] is not None for u in out["units"] if "joined" not in u):
        _placed(r, [u for u in out["units"] if "joined" not in u], out["table"])
    if measured:
        _unplace(r, out["units"])
    return out


def _unplace(r: Reader, units: list[dict[str, Any]]) -> None:
    """TABLE.POSITIONS: a battle played at a table drops its units' positions. Units that the
    positions put in base contact begin in combat, and what the positions said of it is kept:
    the side each touches and its models in contact (``touch``, as ``ContactMeasured`` keeps
    it in play). A unit that charged must begin touching an enemy."""
    if all(u["position"] is not None for u in units if "joined" not in u):
        placed = {u["id"]: UnitState.from_scenario(u) for u in units if "joined" not in u}
        for u in units:   # CHAR.JOIN: a character that begins in a unit stands in its ranks
            if "joined" in u:
                host = placed[u["joined"]]
                placed[host.id] = host.evolve(characters=(*host.characters, u["id"]))
        for u in units:
            if "joined" in u:
                continue
            me = placed[u["id"]]
            u["touch"] = [[e.id, side, len(at), min(at)] for e in placed.values()
                          if e.player != me.player
                          for side, at in (positions(me, e),) if at]
    for i, u in enumerate(units):
        u["position"] = None
        if u["charged"] and not u.get("touch"):
            raise r.fail(f"units[{i}].charged", f"{u['id']} begins touching no enemy: give "
                         "the positions that put it in contact (they are dropped in table mode)")


def _joined(r: Reader, units: list[dict[str, Any]]) -> None:
    """CHAR.JOIN: a character that begins in a unit names a unit of its own side, of its kind
    of troops, that is no character itself; where it stands is the unit's front rank."""
    by_id = {u["id"]: u for u in units}
    for i, u in enumerate(units):
        host_id = u.get("joined")
        if host_id is None:
            continue
        host = by_id.get(host_id)
        if "character" not in u["rules"] or u["models"] != 1:
            raise r.fail(f"units[{i}].joined", f"{u['id']} is not a character (one model "
                         "with the character rule)")
        if host is None or host["player"] != u["player"] or "character" in host["rules"] \
                or "joined" in host:
            raise r.fail(f"units[{i}].joined", f"expected a unit of {u['player']} that is no "
                         f"character, got {host_id!r}")
        if host["troop"] not in JOINS.get(u["troop"], ()):
            raise r.fail(f"units[{i}].joined", f"a {u['troop']} character cannot join "
                         f"{host['troop']}")


def _placed(r: Reader, units: list[dict[str, Any]], table: dict[str, Any]) -> None:
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
            if stands_on(b, other):
                raise r.fail(f"units[{i}].position",
                             f"{u['id']} stands on {units[j]['id']} (units[{j}])")
        boxes.append((i, b))


def _table(r: Reader, data: Any) -> dict[str, Any]:
    t = r.table(data, "table")
    r.known(t, "table", ("width", "depth", "hills", "blocking", "measured", "soft_cover",
                         "hard_cover"))
    measured = r.get(t, "measured", "table", bool, False)
    hills = _polygons(r, t, "hills", measured)
    out: dict[str, Any] = {
        "width": r.number(t, "width", "table", 72.0, 6, 1000),
        "depth": r.number(t, "depth", "table", 48.0, 6, 1000),
        "hills": hills,
    }
    parse_blocking(r, t, out, measured)   # GEO.SIGHT: walls, buildings
    cover = {k: _polygons(r, t, k, measured) for k in ("soft_cover", "hard_cover")}
    out.update({k: v for k, v in cover.items() if v and not measured})   # SHOOT.HIT
    if measured:   # TABLE.POSITIONS: table mode, on the players' own table
        out["measured"] = True
        if hills:   # where they are is the players' to see: the rules ask (TABLE.ASK)
            out["hills"] = []
            out["hills_at_table"] = True
        if any(cover.values()):
            out["cover_at_table"] = True
    return out


def _polygons(r: Reader, t: dict[str, Any], key: str, measured: bool) -> list[Any]:
    """``table.KEY``: polygons (``parse_polygons``; in table mode ``true``: the table has
    some, unmapped)."""
    if measured and t.get(key) is True:
        return [[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]]
    return parse_polygons(r, t, key)


@cache
def catalogue() -> dict[str, dict[str, Any]]:
    """The bundled catalogue of units the rule pages name (phases/fantasy/data/catalogue.toml)."""
    text = files("regiment.phases.fantasy").joinpath("data/catalogue.toml").read_text(
        encoding="utf-8")
    return tomllib.loads(text)


def _from_catalogue(r: Reader, u: dict[str, Any], path: str) -> dict[str, Any]:
    """A unit entry with its ``catalogue`` entry's fields filled in underneath it."""
    name = u.get("catalogue")
    if name is None:
        return u
    known = catalogue()
    if name not in known:
        near = difflib.get_close_matches(str(name), list(known), n=1, cutoff=0.6)
        raise r.fail(f"{path}.catalogue",
                     f"expected one of {', '.join(sorted(known))}, got {name!r}"
                     + (f"; did you mean {near[0]!r}?" if near else ""))
    entry = {k: v for k, v in known[name].items() if k != "points"}
    merged = {**entry, **{k: v for k, v in u.items() if k != "catalogue"}}
    if isinstance(u.get("profile"), dict):
        merged["profile"] = {**known[name].get("profile", {}), **u["profile"]}
    each = known[name].get("points")   # VP.POINTS: a model's value, the unit's unless it says
    if "points" not in u and isinstance(each, int) and isinstance(merged.get("models"), int):
        merged["points"] = each * merged["models"]
    return merged


def _unit(r: Reader, data: Any, path: str, players: tuple[str, ...]) -> dict[str, Any]:
    u = _from_catalogue(r, r.table(data, path), path)
    r.known(u, path, ("id", "player", "name", "troop", "models", "files", "base", "profile",
                      "armour", "ward", "equipment", "command", "battle_standard", "rules",
                      "position", "facing", "charged", "impact_hits", "stomp", "mount",
                      "joined", "points", "general"))
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
    for key, allowed in (("equipment", known("equipment")), ("command", COMMAND_GROUP)):
        items = r.get(u, key, path, list, [])
        for i, item in enumerate(items):
            if item not in allowed:
                raise r.fail(f"{path}.{key}[{i}]",
                             f"expected one of {', '.join(allowed)}, got {item!r}")
        lists[key] = list(items)
    rules = r.get(u, "rules", path, list, [])
    allowed_rules = known("rule")
    for i, rule in enumerate(rules):   # SPECIAL.REGISTRY: a misspelt rule is refused
        found, value = written(rule) if isinstance(rule, str) else (None, "")
        if found is None or found.name not in allowed_rules:
            names = ", ".join(allowed_rules)
            raise r.fail(f"{path}.rules[{i}]",
                         f"expected a special rule (one of {names}), got {rule!r}")
        if value and value not in VALUES.get(found.takes, ()):
            takes = (f"one of {', '.join(VALUES[found.takes])}" if found.takes
                     else "nothing after its name")
            raise r.fail(f"{path}.rules[{i}]", f"{found.name} takes {takes}, got {value!r}")
    facing = r.number(u, "facing", path, 0.0, -360, 360) % 360.0
    special = {}   # ATK.IMPACT, ATK.STOMP: only when given, so that older scenarios read the same
    for key in ("impact_hits", "stomp"):
        if key in u:
            value = r.get(u, key, path, str)
            if value not in SPECIAL_HITS:
                raise r.fail(f"{path}.{key}", f"expected one of {', '.join(SPECIAL_HITS)} "
                             f"(hits a model), got {value!r}")
            special[key] = value
    if "joined" in u:   # CHAR.JOIN: a character that begins the game in a unit
        special["joined"] = r.get(u, "joined", path, str)
    if "points" in u:   # VP.POINTS: the unit's points value
        special["points"] = r.get(u, "points", path, int)
        if not 0 <= special["points"] <= 100_000:
            raise r.fail(f"{path}.points", f"expected 0 to 100000 points, got "
                         f"{special['points']}")
    if u.get("general"):   # VP.POINTS: the army's general
        special["general"] = r.get(u, "general", path, bool)
    if "mount" in u:   # CC.MOUNT: the mount's own profile for its attacks
        m = r.table(u["mount"], f"{path}.mount")
        r.known(m, f"{path}.mount", ("name", *MOUNT))
        mount: dict[str, Any] = {"name": r.get(m, "name", f"{path}.mount", str)}
        for key in MOUNT:
            value = r.get(m, key, f"{path}.mount", int)
            if not 0 <= value <= 10:
                raise r.fail(f"{path}.mount.{key}", f"expected 0 to 10, got {value}")
            mount[key] = value
        special["mount"] = mount
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
        "position": (r.point(u["position"], f"{path}.position")
                     if u.get("position") is not None else None),
        "facing": facing,
        "charged": r.get(u, "charged", path, bool, False),
        **special,
    }
