"""Who touches whom in a combat, and with how many models (CC.WHO_FIGHTS, GEO.ARCS).

Geometry reads it off the table each time it is needed. In table mode units have no
positions: when a charger lands, the players count the models in base contact (TABLE.ASK) and
``ContactMeasured`` keeps the counts on each unit (``UnitState.touch``). Casualties then take
models from the rear rank (ATK.SEQUENCE) and a side keeps its count while it has that
many; a side that grows shorter (a flank as ranks go) has the enemies on it counted again
(``recount``), as geometry would find fewer of them touching it.
"""

from __future__ import annotations

from regiment.core import geometry as geo
from regiment.core import measure
from regiment.core.events import Event
from regiment.core.measure import SIDES, Question
from regiment.phases.common.table import question

from .. import table
from ..events import CombatBegan, CombatJoined, ContactMeasured
from ..rulings import ruled
from ..state import State, UnitState
from ..units import along, box, touched_at_table
from .combat import models_in_contact, place_in_front, positions


def charged(state: State, unit: UnitState, target: UnitState, side: str | None,
            joined: CombatBegan | CombatJoined) -> list[Event]:
    """CC.WHO_FIGHTS: in table mode, the models of the charger and of each enemy it now
    touches that are in base contact, counted by the players (and the side of each enemy it
    touches, unless a declaration gave the target's: ``side``); geometry needs no count."""
    state_unit = state.units[unit.id]
    enemies = [target.id] + [u for u in joined.units if u not in (unit.id, target.id)
                             and state.units[u].player != unit.player]
    if not table.measured(state):
        if measure.heard:
            _tell(state, state_unit, enemies, side is None)
        return []
    out: list[Event] = []
    for eid in enemies:
        enemy = state.units[eid]
        their = side if eid == target.id and side else _side(state, unit, enemy)
        mine = measure.count(state, _count(state, state_unit, enemy, "front", their))
        theirs = measure.count(state, _count(state, enemy, state_unit, their, "front"))
        out += [ContactMeasured(unit=unit.id, enemy=eid, side="front", models=mine,
                                first=_first(state, state_unit, enemy, "front", mine)),
                ContactMeasured(unit=eid, enemy=unit.id, side=their, models=theirs,
                                first=_first(state, enemy, state_unit, their, theirs))]
    return out


def _first(state: State, u: UnitState, e: UnitState, side: str, models: int) -> int:
    """Where along ``side`` the ``models`` of ``u`` touching ``e`` begin: in the middle of the
    side (a charge lands centred), or after those another enemy touches; in a front rank with
    characters (CHAR.IN_UNIT), where each character the players say touches ``e`` is among them
    and each that does not is not, as far as can be."""
    start = _next(state, u, side, e.id) or max(0, along(u, side) - models) // 2
    if side != "front" or not u.characters:
        return start
    wanted = {place_in_front(u, c): measure.yes(state, _in_contact(state, c, e))
              for c in u.characters}
    room = max(0, along(u, side) - models)
    return min(range(room + 1), key=lambda f: (
        sum((f <= at < f + models) != touches for at, touches in wanted.items()),
        abs(f - start)))


def _in_contact(state: State, c: str, e: UnitState) -> Question:
    return question(state, "yes_no", measure.key("character", c, e.id), "CHAR.IN_UNIT",
                    state.units[c], e.id)


def faced(state: State, u: UnitState, face: str) -> list[Event]:
    """REF.CONTACT in table mode: a unit that turned to face the enemy in its flank or rear
    touches it with its front now, with as many models as it did."""
    t = touched_at_table(u, state.units[face]) if face else None
    if t is None:
        return []
    return [ContactMeasured(unit=u.id, enemy=face, side="front", models=len(t[1]),
                            first=_next(state, u, "front", face))]


def _side(state: State, unit: UnitState, enemy: UnitState) -> str:
    """The side of an enemy already fighting that the charger's front came to touch."""
    return measure.ask(state, question(state, "side", measure.key("side", unit.id, enemy.id),
                                       "CH.CHARGE_MOVE", unit, enemy.id, SIDES))


def _count(state: State, u: UnitState, e: UnitState, side: str, e_side: str) -> Question:
    most = along(u, side)
    if ruled(state, "counts_both_sides"):
        most = min(most, fit_along(e, e_side, u, side))
    return question(state, "count", measure.key("models", u.id, e.id), "CC.WHO_FIGHTS", u, e.id,
                    (side,), most=float(most))


def fit_along(e: UnitState, e_side: str, u: UnitState, side: str) -> int:
    """TABLE.MEASURE, CC.WHO_FIGHTS (games from 0.13.0): the most models of ``u``, standing
    along its ``side``, that can touch ``e``'s ``e_side``: those whose bases lie along that
    side's length (its footprint's: a short rear rank leaves the rear edge as wide as the
    front), and one more at each corner (corner to corner counts)."""
    width, depth = geo.unit_size(e.figures, e.files, e.base)   # its footprint, inches
    length = width if e_side in ("front", "rear") else depth
    pitch = (u.base[0] if side in ("front", "rear") else u.base[1]) / geo.MM_PER_INCH
    return int(length / pitch + 1e-9) + 2


def _next(state: State, u: UnitState, side: str, enemy: str) -> int:
    """The first model along ``side`` that no other enemy of its combat touches (a unit fought
    on one side by two enemies has them side by side)."""
    mates = next((c.units for c in state.combats.values() if u.id in c.units), ())
    return sum(models for e, s, models, _ in u.touch if s == side and e != enemy
               and e in mates and state.units[e].status == "engaged")


def _tell(state: State, unit: UnitState, enemies: list[str], sides: bool) -> None:
    """What geometry answers to the counts table mode asks (for ``table.heard``)."""
    for i, eid in enumerate(enemies):
        enemy = state.units[eid]
        c = geo.contact(box(enemy), box(unit))
        if (i or sides) and c is not None:   # a declaration asked the target's side
            measure.tell(measure.key("side", unit.id, eid), c[0])
        measure.tell(measure.key("models", unit.id, eid), str(models_in_contact(unit, enemy)[0]))
        measure.tell(measure.key("models", eid, unit.id), str(models_in_contact(enemy, unit)[0]))
        for u, other in ((unit, enemy), (enemy, unit)):
            side, at = positions(u, other)
            for cid in u.characters if side == "front" else ():
                measure.tell(measure.key("character", cid, other.id),
                             "yes" if place_in_front(u, cid) in at else "no")


def recount(before: State, after: State, cid: str) -> list[Event]:
    """CC.WHO_FIGHTS in table mode: casualties shorten a unit's sides (its flanks as its ranks
    go, its front once a rank is short of its files), and an enemy on a side that grew
    shorter may touch it with fewer models now: the players count them again (never more
    than before). On a mapped table geometry reads it off, and tells the listener."""
    cmb = after.combats.get(cid)
    measured = table.measured(after)
    if cmb is None or not (measured or measure.heard):   # geometry reads contacts itself
        return []
    out: list[Event] = []
    for uid in cmb.units:
        old, new = before.units.get(uid), after.units[uid]
        if old is None or new.status != "engaged":
            continue
        for eid, side in _sides_touched(after, new, cmb.units):
            if side == "rear" and along(new, side) > along(old, side) and \
                    ruled(after, "rear_recounted"):
                out += _rear_again(after, new, after.units[eid], measured)
                continue
            if along(new, side) >= along(old, side):
                continue
            e = after.units[eid]
            key = measure.key("models", eid, uid, new.models)
            if not measured:
                if measure.heard:
                    measure.tell(key, str(models_in_contact(e, new)[0]))
                continue
            mine = touched_at_table(e, new)
            if mine is None:
                continue
            e_side, at = mine
            n = measure.count(after, question(after, "count", key, "CC.WHO_FIGHTS", e, uid,
                                              (e_side,), most=float(len(at))))
            if n != len(at):
                out.append(ContactMeasured(unit=eid, enemy=uid, side=e_side, models=n,
                                           first=at[0] if at else 0))
    return out


def _rear_again(state: State, u: UnitState, e: UnitState, measured: bool) -> list[Event]:
    """CC.WHO_FIGHTS, CC.CLOSE_UP (games from 0.13.0): a short rear rank wiped out leaves a
    fuller rank at the rear, which the enemy behind closes up to: the players count again
    how many of ``u``'s models touch it there (up to the new rear rank, and what fits along
    the enemy's side)."""
    key = measure.key("models", u.id, e.id, u.models)
    if not measured:
        if measure.heard:
            measure.tell(key, str(models_in_contact(u, e)[0]))
        return []
    mine = touched_at_table(e, u)
    e_side = mine[0] if mine is not None else "front"
    most = min(along(u, "rear"), fit_along(e, e_side, u, "rear"))
    n = measure.count(state, question(state, "count", key, "CC.WHO_FIGHTS", u, e.id,
                                      ("rear",), most=float(most)))
    return [ContactMeasured(unit=u.id, enemy=e.id, side="rear", models=n, first=0)]


def _sides_touched(state: State, u: UnitState, units: tuple[str, ...]
                   ) -> list[tuple[str, str]]:
    """(enemy, side of ``u`` it touches) for the enemies in ``units`` touching ``u``."""
    if table.measured(state):
        return [(e, side) for e, side, _, _ in u.touch if e in units]
    out = []
    for eid in units:
        e = state.units[eid]
        if e.player != u.player and e.status == "engaged":
            side, at = positions(u, e)
            if side and at:
                out.append((eid, side))
    return out
