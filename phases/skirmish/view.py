"""What the tools show of a skirmish game (``Preset.view``): squads by name, the roster, how
each ended, each model as a circle on the replay page, who touches whom, and the plain bot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from regiment.core.commands import Command
from regiment.core.pending import Decision
from regiment.core.record import Record
from regiment.phases.common.table import measured

from .assault import gap
from .commands import Consolidate, DeclareAssault, Move, Shoot
from .models import in_base_contact
from .state import SkirmishState, Squad, skirmish
from .volleys import expected_unsaved

COLUMNS = ("unit", "player", "models", "wounds", "status", "combat")
STATUS = {"destroyed": "destroyed", "off_table": "off the table",
          "falling_back": "falling back"}
CHARGE_REACH = 7.0   # the bot charges what two dice reach more often than not


def _centre(models: Sequence[tuple[float, float, float]]) -> list[float]:
    return [round(sum(m[0] for m in models) / len(models), 3),
            round(sum(m[1] for m in models) / len(models), 3)]


class SkirmishView:
    columns = COLUMNS

    def names(self, state: Any) -> dict[str, str]:
        return {s.id: s.name for s in skirmish(state).squads.values()}

    def roster(self, state: Any) -> list[tuple[str, ...]]:
        s = skirmish(state)
        touching = self.contacts(s)
        rows: list[tuple[str, ...]] = []
        for q in s.squads.values():
            melee = s.melee_of(q.id)
            foes = ", ".join(s.squads[u].name for u in touching.get(q.id, ()))
            fight = f"{melee.id}: {foes}" if melee and foes else melee.id if melee else ""
            rows.append((q.name, q.player, str(len(q.models)), str(sum(q.wounds)), q.status,
                         fight))
        return rows

    def losses(self, state: Any) -> list[tuple[str, str, int, int, str]]:
        return [(q.name, q.player, q.start_models, len(q.models), q.status)
                for q in skirmish(state).squads.values()]

    def ends(self, state: Any) -> dict[str, str]:
        return {q.id: STATUS.get(q.status, "standing") for q in skirmish(state).squads.values()}

    def contacts(self, state: Any) -> dict[str, list[str]]:
        """Each squad on the table and the enemy squads its models touch."""
        s = skirmish(state)
        on = [q for q in s.squads.values() if q.on_table]
        if measured(s):   # table mode: the squads locked together in each melee
            return {q.id: [o.id for o in on if o.player != q.player and (m := s.melee_of(q.id))
                           is not None and o.id in m.units] for q in on}
        return {q.id: [o.id for o in on if o.player != q.player and any(
            in_base_contact(m, o.models) for m in q.models)] for q in on}

    def choose(self, state: Any, pending: Decision) -> Command:
        return choose(skirmish(state), pending)

    def drawing(self, state: Any) -> list[dict[str, Any]]:
        """Each squad on the table as its models' circles (and the box around them, which
        the page frames its view with)."""
        out: list[dict[str, Any]] = []
        if measured(skirmish(state)):   # table mode: nothing to draw
            return out
        for q in skirmish(state).squads.values():
            if not q.on_table:
                continue
            xs = [m[0] for m in q.models]
            ys = [m[1] for m in q.models]
            r = q.radius
            box = [[min(xs) - r, min(ys) - r], [max(xs) + r, min(ys) - r],
                   [max(xs) + r, max(ys) + r], [min(xs) - r, max(ys) + r]]
            out.append({"id": q.id, "name": q.name, "player": q.player, "status": q.status,
                        "models": len(q.models), "characters": [],
                        "circles": [[round(m[0], 3), round(m[1], 3), round(r, 4)]
                                    for m in q.models],
                        "wounds": list(q.wounds),
                        "corners": [[round(x, 3), round(y, 3)] for x, y in box],
                        "centre": _centre(q.models)})
        return out

    def paths(self, before: Any, after: Any, batch: Sequence[Record]) -> list[dict[str, Any]]:
        """Each squad's charge, fall back and consolidation, from its models' centre."""
        b, a = skirmish(before), skirmish(after)
        out: list[dict[str, Any]] = []
        for r in batch:
            moved = r.type == "SquadMoved" and r.data["models"] is not None   # SK.MOVE
            kind = r.now()["reason"]["code"] if r.type == "ModelsMoved" else "move"
            if moved or (r.type == "ModelsMoved" and kind != "pile_in"):
                uid = r.data["unit"]
                if b.squads[uid].models and a.squads[uid].models:
                    out.append({"reason": kind, "unit": uid,
                                "player": a.squads[uid].player,
                                "from": _centre(b.squads[uid].models),
                                "to": _centre(a.squads[uid].models)})
        return out

    def board(self, state: Any) -> dict[str, Any]:
        """The table and every squad, in the board's frame (``core.board``): each squad's
        status, melee and the enemy squads its models touch, and, where the table is mapped
        and it stands on it, each model as a circle (centre and radius) with its wounds."""
        s = skirmish(state)
        t = s.table
        table: dict[str, Any] = {"mapped": not measured(s)}
        for key in ("width", "depth", "blocking", "cover", "difficult"):
            if t.get(key) is not None:
                table[key] = t[key]
        touching = self.contacts(s)
        pieces = []
        for q in s.squads.values():
            melee = s.melee_of(q.id)
            piece: dict[str, Any] = {
                "id": q.id, "name": q.name, "player": q.player, "kind": "squad",
                "status": q.status, "models": len(q.models), "base": [q.base, q.base],
                "combat": melee.id if melee else None,
                "engaged_with": [x for x in melee.units if s.squads[x].player != q.player]
                if melee else [],
                "touching": [{"enemy": e, "side": ""} for e in touching.get(q.id, ())],
                "circles": None}
            if not measured(s) and q.on_table:
                piece["circles"] = [[round(m[0], 4), round(m[1], 4), round(m[2], 4)]
                                    for m in q.models]
                piece["wounds"] = list(q.wounds)
            pieces.append(piece)
        return {"table": table, "pieces": pieces}

    def final(self, state: Any) -> dict[str, Any]:
        at_table = measured(skirmish(state))
        return {q.id: [len(q.models), q.status, None if at_table else
                       [[round(m[0], 3), round(m[1], 3)] for m in q.models]]
                for q in skirmish(state).squads.values()}


def choose(state: SkirmishState, pending: Decision) -> Command:
    """The plain bot: move toward the nearest enemy (rolling for difficult terrain only when
    no clear move is offered); shoot the squad it expects to hurt most (the nearest of
    equals); charge what it will probably reach (both of two such targets when it can: a
    disordered charge); always fire overwatch; split attacks evenly; consolidate toward the
    nearest enemy."""
    legal = list(pending.legal)
    kind = pending.decision
    gaps: dict[tuple[str, str], float] = {}

    def _near(state: SkirmishState, squad: Squad, target: str) -> float:
        if measured(state):   # no positions at a table: the squads in the order offered
            return 0.0
        if (squad.id, target) not in gaps:
            gaps[squad.id, target] = gap(squad.models, state.squads[target].models)
        return gaps[squad.id, target]

    if kind == "move":   # SK.MOVE
        offered = [c for c in legal if isinstance(c, Move)]
        made = [c for c in offered if c.kind != "difficult"]
        return (made or offered)[0] if offered else legal[-1]
    if kind == "shoot":   # SK.SHOOT: the squad it expects to hurt most, the nearest of equals
        shots = [c for c in legal if isinstance(c, Shoot)]
        if measured(state):   # at a table how much it would hurt is the players' to measure
            return min(shots, key=lambda c: _near(state, state.squads[c.unit], c.target),
                       default=legal[-1])
        return max(shots, key=lambda c: (
            expected_unsaved(state, state.squads[c.unit], state.squads[c.target]),
            -_near(state, state.squads[c.unit], c.target)), default=legal[-1])
    if kind == "declare_assault":
        near = [c for c in legal if isinstance(c, DeclareAssault) and all(
            _near(state, state.squads[c.unit], t) <= CHARGE_REACH
            for t in (c.primary, c.secondary) if t)]
        near.sort(key=lambda c: (not c.secondary,
                                 _near(state, state.squads[c.unit], c.primary)))
        return near[0] if near else legal[-1]
    if kind == "overwatch":
        return next(c for c in legal if c.name == "fire_overwatch")
    if kind == "split_attacks":
        return legal[len(legal) // 2]
    if kind == "consolidate":
        moves = [c for c in legal if isinstance(c, Consolidate)]
        uid = moves[0].unit
        toward = [c for c in moves if c.toward]
        return min(toward, key=lambda c: _near(state, state.squads[uid], c.toward or ""),
                   default=legal[0])
    return legal[0]


VIEW = SkirmishView()
