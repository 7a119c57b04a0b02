"""CC.WHO_FIGHTS as engines before 0.5.0 counted it (LOG.RULINGS): each side a unit touches
on its own, a corner model counted on both (``strikes.attack_shares`` for games begun since)."""

from __future__ import annotations

from ..state import Combat, Fight, State, UnitState
from ..units import attacks_of, has_champion, rank_sizes
from .combat import positions, support_ranks, supporting, touching

Key = str | frozenset[str]


def shares_by_side(state: State, combat: Combat, uid: str, fight: Fight) -> dict[Key, int]:
    """``attack_shares`` as engines before 0.5.0 counted it: each side on its own (a corner
    model touching two sides counted twice), supporters behind a fighting front."""
    u = state.units[uid]
    by_side: dict[str, list[tuple[str, list[int]]]] = {}
    for e, _ in touching(state, combat, uid):
        side, at = positions(u, e)
        if at:
            by_side.setdefault(side, []).append((e.id, at))
    a = attacks_of(u)
    out: dict[Key, int] = {}
    duel = fight.duel or {}
    for side, foes in by_side.items():
        front = side == "front"
        if len(foes) == 1:
            (eid, at), = foes
            shares: dict[Key, int] = {eid: len(at) * a + (supporting(u, len(at), u.charged)
                                                          if front else 0)}
            first: Key = eid
        else:
            touched: dict[int, set[str]] = {}
            for eid, at in foes:
                for i in at:
                    touched.setdefault(i, set()).add(eid)
            shares = {}
            for i in sorted(touched):
                key: Key = next(iter(touched[i])) if len(touched[i]) == 1 else \
                    frozenset(touched[i])
                shares[key] = shares.get(key, 0) + a + (support_at(u, i) if front else 0)
            ids = touched[min(touched)]
            first = next(iter(ids)) if len(ids) == 1 else frozenset(ids)
        if front:
            # a champion stands in the front rank: one attack more when that rank fights;
            # the fighter in a challenge attacks only the foe, or (refused) not at all
            champion = has_champion(u)
            shares[first] += 1 if champion else 0
            if uid in duel or uid in fight.stood_back:
                shares[first] -= a + 1 if champion else a
        for key, n in shares.items():
            out[key] = out.get(key, 0) + n
    return {k: n for k, n in out.items() if n > 0}


def support_at(u: UnitState, i: int) -> int:
    """CC.WHO_FIGHTS: the supporting attacks behind the front-rank model at file ``i``."""
    ranks, each = support_ranks(u, u.charged)
    sizes = rank_sizes(u)
    return sum(each for r in range(1, 1 + ranks) if r < len(sizes) and i < sizes[r])
