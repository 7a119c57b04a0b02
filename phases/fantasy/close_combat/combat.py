"""Close combat (CC.*): who is fighting whom, and who fights: the units touching each enemy,
on which side, with which models, and the characters in their front ranks (the initiative
steps and the attacks each makes are ``strikes``).

A combat is plain data kept in ``State.combats``: its id, its units, its round, and the
units that charged into it (with whether they charged down a hill). Who touches whom, and on
which side, is read from the table each time it is needed (GEO.ARCS), since casualties change
a unit's depth.
"""

from __future__ import annotations

from typing import Any

from regiment.core.geometry import EPS, MM_PER_INCH, Box, axes, contact

from ..specials import SPEAR, carries
from ..state import Combat, State, UnitState
from ..units import ON_FOOT, box, horde, rank_sizes, touched_at_table


def combat_holding(state: State, uid: str) -> Combat | None:
    """The combat ``uid`` is in, if any."""
    return next((c for c in state.combats.values() if uid in c.units), None)


def enemies(state: State, combat: Combat, uid: str) -> list[UnitState]:
    """The enemy units of ``uid`` in its combat that are still on the table, fighting."""
    me = state.units[uid]
    return [state.units[o] for o in combat.units
            if state.units[o].player != me.player and state.units[o].status == "engaged"]


def touching(state: State, combat: Combat, uid: str) -> list[tuple[UnitState, str]]:
    """Enemies in base contact with ``uid`` and the side of ``uid`` each touches."""
    me = state.units[uid]
    out = []
    for e in enemies(state, combat, uid):
        side = side_touched(me, e)
        if side is not None:
            out.append((e, side))
    return out


def side_touched(u: UnitState, e: UnitState) -> str | None:
    """GEO.ARCS: the side of ``u`` that ``e`` touches, if it does: off the table, or as the
    players measured it (table mode, ``contacts``)."""
    if u.position is None:
        t = touched_at_table(u, e)
        return None if t is None else t[0]
    c = contact(box(u), box(e))
    return None if c is None else c[0]


def contacts(state: State) -> dict[str, list[dict[str, Any]]]:
    """GEO.ARCS, CC.WHO_FIGHTS: for every unit in a combat, each enemy it touches, the side of
    the unit that enemy is on, and how many of the unit's models touch it (what a host draws,
    and what ``regiment serve`` answers to ``{"query": "contacts"}``)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for c in state.combats.values():
        for uid in c.units:
            if state.units[uid].status != "engaged":
                continue
            out[uid] = [{"enemy": e.id, "side": side,
                         "models": models_in_contact(state.units[uid], e)[0]}
                        for e, side in touching(state, c, uid)]
    return out


def side_fought(state: State, uid: str, enemy: str) -> str | None:
    """GEO.ARCS: the side of ``uid`` (front, left, right, rear) that ``enemy`` fights."""
    return side_touched(state.units[uid], state.units[enemy])


def models_in_contact(u: UnitState, e: UnitState) -> tuple[int, str]:
    """CC.WHO_FIGHTS: how many of ``u``'s models touch ``e`` (corner to corner counts), and
    the side of ``u`` they are on."""
    side, at = positions(u, e)
    return len(at), side


def supporting(u: UnitState, fighting: int, charged: bool) -> int:
    """CC.WHO_FIGHTS: supporting attacks from the ranks behind a unit fighting to its front:
    one rank, one more for a horde, one more for infantry with spears (not in a turn they
    charged); each model one attack (monstrous infantry up to 3)."""
    ranks, each = support_ranks(u, charged)
    sizes = rank_sizes(u)
    return sum(min(fighting, sizes[r]) * each for r in range(1, 1 + ranks) if r < len(sizes))


def support_ranks(u: UnitState, charged: bool) -> tuple[int, int]:
    """CC.WHO_FIGHTS: how many ranks behind the front support, and with how many attacks a
    model."""
    ranks = 1 + horde(u) + (carries(u, SPEAR) and u.troop in ON_FOOT and not charged)
    return ranks, min(3, u.profile["A"]) if u.troop == "monstrous_infantry" else 1


def place_in_front(host: UnitState, character: str) -> int:
    """CHAR.JOIN: the file of the front rank a character stands in: the centre, then out to
    either side for a second or third (our reading: the player's choice, fixed here)."""
    k = host.characters.index(character)
    centre = host.files // 2
    return max(0, min(host.files - 1, centre + (k + 1) // 2 * (1 if k % 2 else -1)))


def fighting_characters(state: State, combat: Combat, host: UnitState
                        ) -> list[tuple[UnitState, str]]:
    """CHAR.IN_UNIT: each character of ``host`` whose place in the front rank touches an
    enemy, with that enemy (the first the combat lists, when it touches two)."""
    out = []
    front = [(e.id, at) for e, _ in touching(state, combat, host.id)
             for side, at in (positions(host, e),) if side == "front"]
    for cid in host.characters:
        file = place_in_front(host, cid)
        foe = next((eid for eid, at in front if file in at), None)
        if foe is not None:
            out.append((state.units[cid], foe))
    return out


def touched_models(state: State, combat: Combat, u: UnitState
                   ) -> dict[tuple[int, int], set[str]]:
    """CC.ONE_ATTACKER: each model of ``u`` in base contact, as (rank, file), with the enemy
    units it touches (a corner model may touch two)."""
    placed = [(e.id, *positions(u, e)) for e, _ in touching(state, combat, u.id)]
    return model_contacts(u, placed)[0]


def model_contacts(u: UnitState, placed: list[tuple[str, str, list[int]]]
                   ) -> tuple[dict[tuple[int, int], set[str]], dict[int, set[str]]]:
    """CC.ONE_ATTACKER: from each enemy's (id, side, places along that side), the enemy units
    each model of ``u`` touches, by (rank, file), and those each front-rank file touches in
    front (whom the ranks behind it support)."""
    last = len(rank_sizes(u)) - 1
    touched: dict[tuple[int, int], set[str]] = {}
    front: dict[int, set[str]] = {}
    for eid, side, at in placed:
        for i in at:
            model = (0, i) if side == "front" else (last, i) if side == "rear" else \
                (i, 0) if side == "left" else (i, u.files - 1)
            touched.setdefault(model, set()).add(eid)
            if side == "front":
                front.setdefault(i, set()).add(eid)
    return touched, front


def positions(u: UnitState, e: UnitState) -> tuple[str, list[int]]:
    """CC.WHO_FIGHTS: the side of ``u`` that ``e`` touches and which of the models along that
    side touch it (corner to corner counts), counted from the side's first corner."""
    if u.position is None:   # table mode: as the players counted them
        return touched_at_table(u, e) or ("", [])
    c = contact(box(u), box(e))
    if c is None:
        return "", []
    side, lo, hi = c
    along = (u.base[0] if side in ("front", "rear") else u.base[1]) / MM_PER_INCH
    sizes = rank_sizes(u)
    if side == "front":
        present = sizes[0] if sizes else 0
    elif side == "rear":
        present = sizes[-1] if sizes else 0
    else:
        present = len(sizes)
    return side, [i for i in range(present)
                  if i * along <= hi + 1e-3 and (i + 1) * along >= lo - 1e-3]


def in_contact_at_all(a: UnitState, b: UnitState, state: State | None = None) -> bool:
    """Whether ``a`` touches ``b``; a character in a unit (``state`` given) by its place in
    the unit's front rank."""
    if a.position is None:   # table mode: as the players measured it
        return _touch_at_table(a, b, state)
    c = contact(footprint(a, state), footprint(b, state))
    return c is not None and c[2] - c[1] > EPS


def _touch_at_table(a: UnitState, b: UnitState, state: State | None) -> bool:
    """Table mode: whether ``a`` touches ``b``, from what was measured; a character in a unit
    when its file of the front rank is among the unit's models touching (CHAR.IN_UNIT)."""
    def stands(u: UnitState) -> UnitState:
        return state.units[u.joined] if state is not None and u.joined else u

    ha, hb = stands(a), stands(b)
    if touched_at_table(ha, hb) is None and touched_at_table(hb, ha) is None:
        return False
    for me, host, other in ((a, ha, hb), (b, hb, ha)):
        if me is host:
            continue
        t = touched_at_table(host, other)
        if t is None or t[0] != "front" or place_in_front(host, me.id) not in t[1]:
            return False
    return True


def footprint(u: UnitState, state: State | None = None) -> Box:
    """A unit's rectangle; a character in a unit stands at its file of the front rank
    (CHAR.JOIN)."""
    if state is None or u.joined is None:
        return box(u)
    host = state.units[u.joined]
    hb = box(host)
    bw = host.base[0] / MM_PER_INCH
    aside = -hb.width / 2 + (place_in_front(host, u.id) + 0.5) * bw
    _, (rx, ry) = axes(hb.facing)
    return Box(hb.x + rx * aside, hb.y + ry * aside, hb.facing, bw, u.base[1] / MM_PER_INCH)
