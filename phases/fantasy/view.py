"""What the tools show of a fantasy game (``Preset.view``): the units' names and roster, how
each ended, the table as the replay page draws it, the contacts, and the bots' choices. The
tools show every game through its rulebook's view, and know no rulebook themselves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from regiment.core import geometry as geo
from regiment.core.commands import Command
from regiment.core.errors import BadRequest
from regiment.core.pending import Decision
from regiment.core.record import Record
from regiment.phases.common.table import measured

from . import bot
from .close_combat.combat import contacts, place_in_front
from .details import charging_details, moving_details, shooting_details
from .state import fantasy
from .units import box, side_word, status_word

MOVES = ("charge", "failed_charge", "flee", "pursuit", "overrun", "return", "reform",
         "close_up", "rally", "forward", "march", "back", "sideways")   # (MOVE.*: the page
# draws a remaining move's path like any other)
COLUMNS = ("unit", "player", "models", "ranks", "status", "combat")


def formation(models: int, files: int) -> str:
    """Ranks as they stand: 23 models 5 wide are ``4 x 5 + 3`` (four full ranks and three)."""
    if models <= 0:
        return "-"
    full, rest = divmod(models, files)
    return (f"{full} x {files}" if full else "") + (" + " if full and rest else "") + \
        (str(rest) if rest else "")


def fled_off(u: Any) -> bool:
    """FP.OFF_TABLE: a unit that fled off the table is destroyed with its models kept."""
    return bool(u.status == "destroyed" and u.models > 0)


def _point(p: tuple[float, float]) -> list[float]:
    return [round(p[0], 3), round(p[1], 3)]


class FantasyView:
    columns = COLUMNS

    def names(self, state: Any) -> dict[str, str]:
        return {u.id: u.name for u in fantasy(state).units.values()}

    def roster(self, state: Any) -> list[tuple[str, ...]]:
        """One row a unit on the table's side (a character in a unit is shown with it)."""
        s = fantasy(state)
        where = {uid: cid for cid, c in s.combats.items() for uid in c.units}
        touching = contacts(s)
        rows: list[tuple[str, ...]] = []
        for u in s.units.values():
            if u.joined is not None:   # CHAR.IN_UNIT: shown with its unit
                continue
            fights = ", ".join(f"{s.units[c['enemy']].name} ({side_word(c['side'])})"
                               for c in touching.get(u.id, ()))
            fight = f"{where[u.id]}: {fights}" if u.id in where and fights else \
                where.get(u.id, "")
            name = u.name + (f" (with {', '.join(s.units[c].name for c in u.characters)})"
                             if u.characters else "")
            rows.append((name, u.player, str(u.models), formation(u.figures, u.files),
                         status_word(u.status), fight))
        return rows

    def losses(self, state: Any) -> list[tuple[str, str, int, int, str]]:
        return [(u.name, u.player, u.start_models, u.models, u.status)
                for u in fantasy(state).units.values()]

    def ends(self, state: Any) -> dict[str, str]:
        """How each unit ended, as ``simulate`` counts it."""
        return {uid: "off the table" if u.status == "off_table" or fled_off(u) else
                "destroyed" if u.status == "destroyed" else "fleeing"
                if u.status == "fleeing" else "standing"
                for uid, u in fantasy(state).units.items()}

    def contacts(self, state: Any) -> Any:
        return contacts(fantasy(state))

    def choose(self, state: Any, pending: Decision) -> Command:
        return bot.choose(fantasy(state), pending)

    def drawing(self, state: Any) -> list[dict[str, Any]]:
        """The units on the table as the replay page draws them: corners, front edge, centre,
        name, models in ranks and files."""
        s = fantasy(state)
        out: list[dict[str, Any]] = []
        if measured(s):   # table mode: the units stand on the players' table
            return out
        for u in s.units.values():
            if u.status in ("destroyed", "off_table", "joined") or u.models <= 0:
                continue   # a character in a unit is drawn in its front rank
            b = box(u)
            fl, fr, br, bl = geo.corners(b)
            out.append({"id": u.id, "name": u.name, "player": u.player, "status": u.status,
                        "models": u.figures, "files": u.files, "at": _point((b.x, b.y)),
                        "characters": [{"name": s.units[c].name,
                                        "file": place_in_front(u, c)} for c in u.characters],
                        "facing": round(b.facing, 3),
                        "base": [round(u.base[0] / geo.MM_PER_INCH, 4),
                                 round(u.base[1] / geo.MM_PER_INCH, 4)],
                        "corners": [_point(c) for c in (fl, fr, br, bl)],
                        "front": [_point(fl), _point(fr)], "centre": _point(geo.centre(b))})
        return out

    def paths(self, before: Any, after: Any, batch: Sequence[Record]) -> list[dict[str, Any]]:
        """The step's charge, flee and pursuit paths and its shots (``reason`` "shot"), centre
        to centre, each with the unit that moved or shot and its player (whose colour the
        page draws it in)."""
        b, a = fantasy(before), fantasy(after)
        out: list[dict[str, Any]] = []
        if measured(a):   # table mode: no positions, no paths
            return out
        for r in batch:
            if r.type == "ShotsFired":   # SHOOT.WHO: a line from the shooter to its target
                uid, target = r.data["unit"], r.data["target"]
                if uid in a.units and target in a.units and a.units[target].position and \
                        a.units[uid].position:
                    out.append({"reason": "shot", "unit": uid, "player": a.units[uid].player,
                                "from": _point(geo.centre(box(a.units[uid]))),
                                "to": _point(geo.centre(box(a.units[target])))})
                continue
            kind = r.now()["reason"]["code"] if r.type == "UnitMoved" else ""
            if kind in MOVES:
                uid = r.data["unit"]
                if uid in b.units and uid in a.units:
                    out.append({"reason": kind, "unit": uid,
                                "player": a.units[uid].player,
                                "from": _point(geo.centre(box(b.units[uid]))),
                                "to": _point(geo.centre(box(a.units[uid])))})
        return out

    def board(self, state: Any) -> dict[str, Any]:
        """The table and every unit, in the board's frame (``core.board``): each unit's
        formation, status and combat, and, where the table is mapped and the unit stands on
        it, its front's middle, facing, size and corners."""
        s = fantasy(state)
        t = s.table
        table: dict[str, Any] = {"mapped": not measured(s)}
        for key in ("width", "depth", "blocking", "soft_cover", "hard_cover", "hills"):
            if t.get(key) is not None:
                table[key] = t[key]
        combat_of = {uid: cid for cid, c in s.combats.items() for uid in c.units}
        touching = contacts(s)
        pieces = []
        for u in s.units.values():
            cid = combat_of.get(u.id)
            piece: dict[str, Any] = {
                "id": u.id, "name": u.name, "player": u.player, "kind": "unit",
                "troop": u.troop, "status": u.status, "models": u.models,
                "figures": u.figures, "files": u.files, "ranks": u.ranks if u.models else 0,
                "base": [u.base[0], u.base[1]], "characters": list(u.characters),
                "joined": u.joined, "combat": cid,
                "engaged_with": [x for x in s.combats[cid].units
                                 if s.units[x].player != u.player] if cid else [],
                "touching": [{"enemy": c["enemy"], "side": c["side"]}
                             for c in touching.get(u.id, ())],
                "position": None, "facing": round(u.facing, 4)}
            if u.position is not None and u.joined is None and u.status not in (
                    "destroyed", "off_table") and u.figures > 0:
                b = box(u)
                piece.update(position=_point((b.x, b.y)), facing=round(b.facing, 4),
                             width=round(b.width, 4), depth=round(b.depth, 4),
                             corners=[_point(c) for c in geo.corners(b)])
            pieces.append(piece)
        return {"table": table, "pieces": pieces}

    def details(self, state: Any, pending: Decision) -> dict[str, Any] | None:
        """What a screen needs to present a decision (``details`` of a pending decision): a
        move's allowances, what a wheel and a turn cost, and how far each unit reaches; a
        charge's distance; a shot's range, modifiers and need. On a mapped table only (at a
        table the players measure)."""
        s = fantasy(state)
        if measured(s):
            return None
        return moving_details(s, pending) or shooting_details(s, pending) or \
            charging_details(s, pending)

    def reach(self, state: Any, request: dict[str, Any]) -> dict[str, Any]:
        """MOVE.*: whether a move of ``unit`` (``kind``: forward or march) ending with its front
        centre at ``x``, ``y`` (``facing``, if given) is legal now, and if not the legal end
        nearest to it, with its path (``moving.nearest``)."""
        from .moving.nearest import reach_of

        s = fantasy(state)
        uid, kind = request.get("unit"), request.get("kind", "forward")
        x, y, facing = request.get("x"), request.get("y"), request.get("facing")
        if uid not in s.units:
            raise BadRequest(f"reach: no unit {str(uid)[:40]!r}", field="unit")
        if kind not in ("forward", "march"):
            raise BadRequest("reach: kind is forward or march", field="kind")
        for name, v in (("x", x), ("y", y), ("facing", facing)):
            if not (v is None and name == "facing") and (
                    not isinstance(v, int | float) or isinstance(v, bool)
                    or not -1e6 <= v <= 1e6):
                raise BadRequest(f"reach: {name} is a number", field=name)
        if measured(s) or s.units[uid].position is None:
            raise BadRequest("reach: at a table the players measure (table mode)",
                             field="query")
        assert isinstance(x, int | float) and isinstance(y, int | float)   # (checked above)
        return reach_of(s, s.units[uid], kind, float(x), float(y),
                        None if facing is None else float(facing))

    def final(self, state: Any) -> dict[str, Any]:
        """Where each unit ended (the golden replays' last line)."""
        return {uid: [u.models, u.status, list(u.position) if u.position else None, u.facing]
                for uid, u in fantasy(state).units.items()}


VIEW = FantasyView()
