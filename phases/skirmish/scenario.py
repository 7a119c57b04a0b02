"""The skirmish game's scenario (issue 14): units of models, each on its own round base.

A unit gives its models as a list of positions (``models = [[x, y], ...]``), or as a
formation the loader expands (``formation = {centre, facing, count, per_row, spacing}``:
rows of ``per_row`` models ``spacing`` inches apart edge to edge, the first row centred on
``centre``, the others behind it). Every model must stand on the table, on no other model,
and in coherency with its unit (SK.UNITS: each within 2" of another, one group). Profiles are
WS BS S T W I A Ld Sv; weapons have a Strength, an AP, a range and shots. Errors name the
field, as the fantasy scenarios' do.
"""

from __future__ import annotations

import difflib
import tomllib
from importlib.resources import files
from typing import Any

from regiment.core import geometry as geo
from regiment.core.scenario import ID, Reader
from regiment.phases.common.sight import parse_blocking, parse_polygons

from .models import in_base_contact

PROFILE = ("WS", "BS", "S", "T", "W", "I", "A", "Ld", "Sv")
MOVEMENT = "M"   # SK.MOVE: a profile may give its Movement
BASES = (25.0, 32.0, 40.0)   # the usual round bases, mm (any 10-200 may be given)
COHERENCY = 2.0              # inches, edge to edge (SK.UNITS)
WEAPON_TYPES = ("rapid_fire", "assault", "heavy", "pistol")   # SK.SHOOT
FIELDS = ("table", "units")
MAX_MODELS = 400


def parse_skirmish(r: Reader, top: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
    """The skirmish part of a scenario: the table and the units of models."""
    t = r.table(top.get("table", {}), "table")
    r.known(t, "table", ("width", "depth", "difficult", "blocking", "measured", "cover"))
    measured = r.get(t, "measured", "table", bool, False)
    for key in ("difficult", "cover"):
        if measured and t.get(key) is True:   # table mode: terrain the players see
            t = {**t, key: [[[0, 0], [1, 0], [0, 1]]]}
    out["table"] = {"width": r.number(t, "width", "table", 72.0, 6, 1000),
                    "depth": r.number(t, "depth", "table", 48.0, 6, 1000),
                    "difficult": _areas(r, t)}
    cover = _areas(r, t, "cover")   # SK.SHOOT: only when given (older scenarios read the same)
    if cover and measured:
        out["table"]["cover_at_table"] = True
    elif cover:
        out["table"]["cover"] = cover
    parse_blocking(r, t, out["table"], measured)   # GEO.SIGHT: walls, buildings
    if measured:   # TABLE.POSITIONS: on the players' own table; its terrain is theirs to see
        out["table"]["measured"] = True
        if out["table"]["difficult"]:
            out["table"]["difficult"] = []
            out["table"]["difficult_at_table"] = True
    players = tuple(p["id"] for p in out["players"])
    units = r.get(top, "units", "", list)
    if not units or len(units) > 100:
        raise r.fail("units", f"expected 1 to 100 units, got {len(units)}")
    out["units"] = []
    seen: set[str] = set()
    for i, data in enumerate(units):
        placed = isinstance(data, dict) and ("models" in data or "formation" in data)
        u = _unit(r, data, f"units[{i}]", players, out["table"], measured and not placed)
        if u["id"] in seen:
            raise r.fail(f"units[{i}].id", f"duplicate unit id {u['id']!r}")
        seen.add(u["id"])
        out["units"].append(u)
    _apart(r, [u for u in out["units"] if u["models"] is not None])
    if measured:
        _unplace(r, out["units"], units)
    return out


def _unplace(r: Reader, units: list[dict[str, Any]], raw: list[Any]) -> None:
    """TABLE.POSITIONS: squads given with positions lose them, keeping how many models they
    have and which enemy squads they begin touching (``touching``, which a table-mode squad
    may also give itself)."""
    ids = {u["id"] for u in units}
    for i, u in enumerate(units):
        given = raw[i].get("touching") if isinstance(raw[i], dict) else None
        if given is not None:
            if not isinstance(given, list) or not all(t in ids for t in given):
                raise r.fail(f"units[{i}].touching", "expected a list of the ids of enemy "
                             "squads it begins touching")
            u["touching"] = list(given)
    for u in units:
        if u["models"] is None:
            continue
        radius = u["base"] / geo.MM_PER_INCH / 2
        mine = [(x, y, radius) for x, y in u["models"]]
        u.setdefault("touching", [])
        for o in units:
            if o["player"] == u["player"] or o["models"] is None or o["id"] in u["touching"]:
                continue
            theirs = [(x, y, o["base"] / geo.MM_PER_INCH / 2) for x, y in o["models"]]
            if any(in_base_contact(m, theirs) for m in mine):
                u["touching"].append(o["id"])
    for u in units:
        if u["models"] is not None:
            u["count"], u["models"] = len(u["models"]), None


def _areas(r: Reader, t: dict[str, Any], key: str = "difficult") -> list[list[list[float]]]:
    """Areas of difficult terrain (SK.TERRAIN, SK.MOVE) or of cover (SK.SHOOT): polygons of
    three or more corners."""
    return parse_polygons(r, t, key)


def catalogue() -> dict[str, dict[str, Any]]:
    """The bundled squads (phases/skirmish/data/catalogue.toml)."""
    text = files("regiment.phases.skirmish").joinpath("data/catalogue.toml").read_text(
        encoding="utf-8")
    return tomllib.loads(text)


def _unit(r: Reader, data: Any, path: str, players: tuple[str, ...],
          table: dict[str, float], measured: bool = False) -> dict[str, Any]:
    u = r.table(data, path)
    name = u.get("catalogue")
    if name is not None:
        known = catalogue()
        if name not in known:
            near = difflib.get_close_matches(str(name), list(known), n=1, cutoff=0.6)
            raise r.fail(f"{path}.catalogue",
                         f"expected one of {', '.join(sorted(known))}, got {name!r}"
                         + (f"; did you mean {near[0]!r}?" if near else ""))
        u = {**known[name], **{k: v for k, v in u.items() if k != "catalogue"}}
    r.known(u, path, ("id", "player", "name", "base", "profile", "weapons", "models",
                      "formation", "count", "touching"))
    uid = r.get(u, "id", path, str)
    if not ID.match(uid):
        raise r.fail(f"{path}.id", f"expected [a-z0-9_-], at most 40 characters, got {uid!r}")
    base = r.number(u, "base", path, 25.0, 10, 200)
    prof = r.table(u.get("profile"), f"{path}.profile")
    r.known(prof, f"{path}.profile", (MOVEMENT, *PROFILE))
    profile = {}
    if MOVEMENT in prof:   # SK.MOVE: jump infantry, bikes... (6" where it is not given)
        m = r.get(prof, MOVEMENT, f"{path}.profile", int)
        if not 1 <= m <= 24:
            raise r.fail(f"{path}.profile.{MOVEMENT}", f"expected 1 to 24, got {m}")
        profile[MOVEMENT] = m
    for key in PROFILE:
        value = r.get(prof, key, f"{path}.profile", int)
        low = 2 if key == "Sv" else 0
        if not low <= value <= 10:
            raise r.fail(f"{path}.profile.{key}", f"expected {low} to 10, got {value}")
        profile[key] = value
    weapons = [_weapon(r, w, f"{path}.weapons[{j}]")
               for j, w in enumerate(r.get(u, "weapons", path, list, []))]
    if measured:   # TABLE.POSITIONS: how many models; where they stand is the players' table
        return {"id": uid, "player": r.get(u, "player", path, str, choices=players),
                "name": r.get(u, "name", path, str, uid), "base": base, "profile": profile,
                "weapons": weapons, "models": None, "count": _count(r, u, path)}
    if ("models" in u) == ("formation" in u):
        raise r.fail(f"{path}.models", "give the models' positions or a formation, one of "
                     "them (or their count, in table mode: table.measured = true)")
    radius = base / geo.MM_PER_INCH / 2
    if "models" in u:
        spots = [r.point(p, f"{path}.models[{j}]")
                 for j, p in enumerate(r.get(u, "models", path, list))]
        where = f"{path}.models"
    else:
        spots = _formation(r, u["formation"], f"{path}.formation", radius)
        where = f"{path}.formation"
    if not 1 <= len(spots) <= MAX_MODELS:
        raise r.fail(where, f"expected 1 to {MAX_MODELS} models, got {len(spots)}")
    circles = [(x, y, radius) for x, y in spots]
    for j, c in enumerate(circles):
        if not geo.circle_on_table(c, table["width"], table["depth"]):
            raise r.fail(f"{where}[{j}]" if "models" in u else where,
                         f"model {j + 1} of {uid} at ({c[0]:g}, {c[1]:g}) is off the table")
    if not geo.chained(circles, COHERENCY):
        raise r.fail(where, f"{uid} is not in coherency: each model must stand within "
                     f"{COHERENCY:g}\" of another, all in one group (SK.UNITS)")
    return {"id": uid, "player": r.get(u, "player", path, str, choices=players),
            "name": r.get(u, "name", path, str, uid), "base": base, "profile": profile,
            "weapons": weapons, "models": [[round(x, 4), round(y, 4)] for x, y in spots]}


def _count(r: Reader, u: dict[str, Any], path: str) -> int:
    """How many models a squad has in table mode: its ``count``, or as many as the positions
    or the formation it gives (which are dropped)."""
    if "count" in u:
        n = r.get(u, "count", path, int)
    elif "models" in u:
        n = len(r.get(u, "models", path, list))
    elif "formation" in u:
        n = r.get(r.table(u["formation"], f"{path}.formation"), "count", f"{path}.formation",
                  int)
    else:
        raise r.fail(f"{path}.count", "missing: how many models the squad has")
    if not 1 <= n <= MAX_MODELS:
        raise r.fail(f"{path}.count", f"expected 1 to {MAX_MODELS} models, got {n}")
    return int(n)


def _weapon(r: Reader, data: Any, path: str) -> dict[str, Any]:
    w = r.table(data, path)
    r.known(w, path, ("name", "S", "AP", "range", "shots", "type"))
    out = {"name": r.get(w, "name", path, str),
           "S": r.get(w, "S", path, int), "AP": r.get(w, "AP", path, int, 0),
           "range": r.number(w, "range", path, 0.0, 0, 200),
           "shots": r.get(w, "shots", path, int, 1)}
    if not 1 <= out["S"] <= 10 or not 0 <= out["AP"] <= 6 or not 0 <= out["shots"] <= 20:
        raise r.fail(path, "expected S 1-10, AP 0-6 (0: none) and 0-20 shots")
    if "type" in w:   # SK.SHOOT: only when given, so that older scenarios read the same
        out["type"] = r.get(w, "type", path, str, choices=WEAPON_TYPES)
    return out


def _formation(r: Reader, data: Any, path: str, radius: float) -> list[list[float]]:
    """Rows of models behind a first row centred on ``centre``, facing ``facing``."""
    f = r.table(data, path)
    r.known(f, path, ("centre", "facing", "count", "per_row", "spacing"))
    cx, cy = r.point(r.get(f, "centre", path, list), f"{path}.centre")
    facing = r.number(f, "facing", path, 0.0, -360, 360)
    count = r.get(f, "count", path, int)
    per_row = r.get(f, "per_row", path, int, min(count, 5) if count > 0 else 1)
    spacing = r.number(f, "spacing", path, 1.0, 0, COHERENCY)
    if not 1 <= count <= MAX_MODELS or not 1 <= per_row <= count:
        raise r.fail(path, f"expected 1 to {MAX_MODELS} models, 1 to all of them a row")
    (fx, fy), (rx, ry) = geo.axes(facing)
    step = 2 * radius + spacing
    out = []
    for k in range(count):
        row, col = divmod(k, per_row)
        in_row = min(per_row, count - row * per_row)
        aside = (col - (in_row - 1) / 2) * step
        back = row * step
        out.append([cx + rx * aside - fx * back, cy + ry * aside - fy * back])
    return out


def _apart(r: Reader, units: list[dict[str, Any]]) -> None:
    """No model stands on another, of its unit or any other (SK.UNITS)."""
    placed: list[tuple[str, int, geo.Circle]] = []
    for i, u in enumerate(units):
        radius = u["base"] / geo.MM_PER_INCH / 2
        for j, (x, y) in enumerate(u["models"]):
            c = (x, y, radius)
            for oid, k, o in placed:
                if abs(o[0] - x) <= o[2] + radius and abs(o[1] - y) <= o[2] + radius and \
                        geo.circles_overlap(c, o):
                    raise r.fail(f"units[{i}].models",
                                 f"model {j + 1} of {u['id']} stands on model {k + 1} of {oid}")
            placed.append((u["id"], j, c))

