"""Close combat (CC.*): who is fighting whom, who fights, initiative steps, the attacks.

A combat is plain data kept in ``State.combats``: its id, its units, its round, and the
units that charged into it (with whether they charged down a hill). Who touches whom, and on
which side, is read from the table each time it is needed (GEO.ARCS), since casualties change
a unit's depth.
"""

from __future__ import annotations

from typing import Any

from regiment.core.geometry import EPS, MM_PER_INCH, Box, axes, contact
from regiment.core.i18n import tr
from regiment.core.state import memo

from . import attacks, rerolls
from .rulings import ruled
from .shields import FROM_THE_FRONT, NO_SHIELD, Guard, can_parry, saves
from .specials import (
    ALWAYS_STRIKES_FIRST,
    ALWAYS_STRIKES_LAST,
    GREAT_WEAPON,
    SPEAR,
    carries,
    has,
)
from .state import Combat, Fight, State, UnitState
from .units import (
    ON_FOOT,
    attacks_of,
    box,
    has_champion,
    horde,
    rank_sizes,
    strength,
    touched_at_table,
)


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


def strike_order(u: UnitState) -> tuple[int, int]:
    """CC.INITIATIVE, CC.ASF: Always Strikes First before everyone, Always Strikes Last (and
    great weapons) after; both, or neither: by Initiative."""
    first = has(u, ALWAYS_STRIKES_FIRST)
    last = has(u, ALWAYS_STRIKES_LAST) or carries(u, GREAT_WEAPON)
    tier = 2 if first and not last else 0 if last and not first else 1
    return tier, u.profile["I"]


TIERS = {3: "impact", 2: "asf", 1: "initiative", 0: "asl", -1: "stomp"}
IMPACT_STEP, STOMP_STEP = "impact_10", "stomp_0"   # before every blow, after every blow
STOMPED = ("infantry",)   # ATK.STOMP: what can be stomped on (our troop types)


def step_label(u: UnitState) -> str:
    """The name of the initiative step ``u`` strikes in: ``asf_4``, ``initiative_3``..."""
    tier, i = strike_order(u)
    return f"{TIERS[tier]}_{i}"


def step_order(label: str) -> tuple[int, int]:
    name, i = label.rsplit("_", 1)
    return {v: k for k, v in TIERS.items()}[name], int(i)


def steps(state: State, combat: Combat) -> list[str]:
    """CC.INITIATIVE, ATK.IMPACT, ATK.STOMP: the steps of a round, first to strike first:
    impact hits before every blow, stomps after every one."""
    engaged = [state.units[u] for u in combat.units if state.units[u].status == "engaged"]
    labels = {step_label(u) for u in engaged}
    labels |= {mount_step(u) for u in engaged if u.mount}
    for u in engaged:
        if u.characters:   # CHAR.IN_UNIT: characters in the front rank, and their mounts
            for c, _ in fighting_characters(state, combat, u):
                labels.add(step_label(c))
                if c.mount:
                    labels.add(mount_step(c))
    if any(impacts(state, combat, u) for u in engaged):
        labels.add(IMPACT_STEP)
    if any(stomps(state, combat, u) for u in engaged):
        labels.add(STOMP_STEP)
    return sorted(labels, key=step_order, reverse=True)


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


def mount_step(u: UnitState) -> str:
    """CC.MOUNT: a mount strikes at its own Initiative."""
    assert u.mount is not None
    return f"initiative_{u.mount['I']}"


def mount_strikes(state: State, combat: Combat, u: UnitState) -> list[dict[str, Any]]:
    """CC.MOUNT: the mounts of the models in base contact attack, with their own WS, S and A,
    no weapon of the rider's, no supporting rank; a mount whose rider touches several enemy
    units attacks the first of them the combat lists (each mount once)."""
    assert u.mount is not None
    order = {uid: i for i, uid in enumerate(combat.units)}
    count: dict[str, int] = {}
    for foes in touched_models(state, combat, u).values():
        first = min(foes, key=order.__getitem__)
        count[first] = count.get(first, 0) + 1
    return [mount_group(u, state.units[eid], count[eid], guard(state, state.units[eid], u))
            for eid in sorted(count, key=order.__getitem__)]


def mount_group(u: UnitState, e: UnitState, models: int, shield: Guard) -> dict[str, Any]:
    """CC.MOUNT: the attacks of ``models`` of ``u``'s mounts at ``e``."""
    assert u.mount is not None
    m = u.mount
    return {"unit": u.id, "target": e.id, "attacks": models * m["A"], "challenge": False,
            "hit": attacks.to_hit(m["WS"], e.profile["WS"]), "hit2": 0, "reroll": False,
            "wound": attacks.to_wound(m["S"], e.profile["T"]),
            **saves(e, m["S"], shield), "mount": m["name"], "rolls": {}}


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


def impacts(state: State, combat: Combat, u: UnitState) -> list[tuple[UnitState, int]]:
    """ATK.IMPACT: a unit with impact hits that charged into this round hits the enemy its
    front touches: (that enemy, its models in contact with it)."""
    if not u.impact_hits or not u.charged or u.id not in combat.chargers:
        return []
    for e, _ in touching(state, combat, u.id):
        side, at = positions(u, e)
        if side == "front" and at:
            return [(e, len(at))]
    return []


def stomps(state: State, combat: Combat, u: UnitState) -> list[tuple[UnitState, int]]:
    """ATK.STOMP: each model of a unit that stomps, touching infantry, stomps on it (the
    first such enemy it touches): (enemy, its models touching it)."""
    if not u.stomp:
        return []
    out = []
    for e, _ in touching(state, combat, u.id):
        _, at = positions(u, e)
        if e.troop in STOMPED and at:
            out.append((e, len(at)))
    return out[:1]


def describe_step(label: str) -> str:
    tier, i = step_order(label)
    if tier == 3:
        return tr("impact hits")
    if tier == -1:
        return tr("stomps")
    if tier == 2:
        return tr("Always Strikes First (I{i})", i=i)
    if tier == 0:
        return tr("Always Strikes Last (I{i})", i=i)
    return tr("Initiative {i}", i=i)


def guard(state: State, e: UnitState, by: UnitState) -> Guard:
    """ATK.PARRY: whether ``e`` parries the close combat attacks of ``by`` (a character's
    place is its unit's): only those from enemies in its front arc, that is, touching its
    front."""
    if not ruled(state, "parry_ward"):
        return Guard(old=True)
    if not can_parry(e):
        return Guard()
    answers = memo(state)   # each step's groups ask it again of the same state
    key = ("front", e.id, by.id)
    if key not in answers:
        d = state.units[e.joined] if e.joined else e
        a = state.units[by.joined] if by.joined else by
        answers[key] = positions(d, a)[0] == "front"
    return FROM_THE_FRONT if answers[key] else NO_SHIELD


def group(u: UnitState, e: UnitState, attacks_n: int, challenge: bool = False,
          shield: Guard = FROM_THE_FRONT) -> dict[str, Any]:
    """One group of close combat attacks from ``u`` at ``e``, with every need worked out
    (``shield``: what ``e``'s shield does, from ``guard``; by default the current rules, from
    the front)."""
    s = strength(u)
    return {"unit": u.id, "target": e.id, "attacks": attacks_n, "challenge": challenge,
            "hit": attacks.to_hit(u.profile["WS"], e.profile["WS"]), "hit2": 0,
            "reroll": False, "wound": attacks.to_wound(s, e.profile["T"]),
            **saves(e, s, shield if can_parry(e) or shield.old else Guard()), "rolls": {}}


def special_group(u: UnitState, e: UnitState, models: int, special: str,
                  shield: Guard = NO_SHIELD) -> dict[str, Any]:
    """ATK.SPECIAL, ATK.IMPACT, ATK.STOMP: special hits from ``models`` of ``u`` at ``e``: no
    roll to hit, the model's own Strength (no weapon's bonus), saves as usual (no parry)."""
    s = u.profile["S"]
    return {"unit": u.id, "target": e.id, "attacks": models, "challenge": False,
            "hit": 0, "hit2": 0, "reroll": False, "wound": attacks.to_wound(s, e.profile["T"]),
            **saves(e, s, Guard(old=shield.old)), "special": special, "rolls": {}}


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


Key = str | frozenset[str]   # one enemy, or the enemies a pool of attacks may be split among


def attack_shares(state: State, combat: Combat, uid: str, fight: Fight
                  ) -> dict[Key, int]:
    """CC.WHO_FIGHTS, CC.ALLOCATE: ``uid``'s attacks this round (challenges aside), by the
    enemy they must go to, or by the set of enemies a model touching several may split them
    among (a pool, split by its player before any die is rolled).

    Each model attacks once (CC.ONE_ATTACKER): a model touching enemies on two sides (a
    front corner against a foe in front and one in the flank) counts once, toward all of
    them, and a model in contact supports no one. Games begun before engine 0.5.0 counted
    each side on its own (``_shares_by_side``)."""
    if not ruled(state, "one_attack_a_model"):
        return _shares_by_side(state, combat, uid, fight)
    u = state.units[uid]
    sizes = rank_sizes(u)
    placed = [(e.id, *positions(u, e)) for e, _ in touching(state, combat, uid)]
    a = attacks_of(u)
    if len(placed) == 1 and placed[0][1] == "front":
        # the common case, one enemy in front: its models in contact and those behind them
        eid, _, at = placed[0]
        ranks, each = support_ranks(u, u.charged)
        own = len(at) - sum(1 for c in u.characters if place_in_front(u, c) in at)
        n = own * a + sum(each * sum(1 for i in at if i < size)
                          for size in sizes[1:1 + ranks])
        if at:
            champion = has_champion(u)
            n += 1 if champion else 0
            if uid in (fight.duel or {}) or uid in fight.stood_back:
                n -= a + 1 if champion else a
        return {eid: n} if n > 0 else {}
    touched, front = model_contacts(u, placed)
    for c in u.characters:   # CHAR.IN_UNIT: a character's place fights with its own attacks
        touched.pop((0, place_in_front(u, c)), None)
    out: dict[Key, int] = {}
    keys: dict[frozenset[str], Key] = {}

    def key_of(foes: set[str]) -> Key:
        fs = frozenset(foes)
        k = keys.get(fs)
        if k is None:
            k = keys[fs] = next(iter(fs)) if len(fs) == 1 else fs
        return k

    for foes in touched.values():
        k = key_of(foes)
        out[k] = out.get(k, 0) + a
    ranks, each = support_ranks(u, u.charged)
    behind_ranks = sizes[1:1 + ranks]
    for i, foes in front.items():   # the ranks behind a model fighting to the front support
        behind = sum(each for r, size in enumerate(behind_ranks, 1)
                     if i < size and (r, i) not in touched)
        if behind:
            k = key_of(foes)
            out[k] = out.get(k, 0) + behind
    firsts = [i for i in sorted(front) if (0, i) in touched]
    if firsts:
        # a champion stands in the front rank: one attack more when that rank fights;
        # the fighter in a challenge attacks only the foe, or (refused) not at all
        k = key_of(touched[(0, firsts[0])])
        champion = has_champion(u)
        out[k] = out.get(k, 0) + (1 if champion else 0)
        if uid in (fight.duel or {}) or uid in fight.stood_back:
            out[k] -= a + 1 if champion else a
    return {k: n for k, n in out.items() if n > 0}


def _shares_by_side(state: State, combat: Combat, uid: str, fight: Fight) -> dict[Key, int]:
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


def pools(state: State, combat: Combat, uid: str, fight: Fight
          ) -> list[tuple[tuple[str, ...], int]]:
    """CC.ALLOCATE: the attacks of ``uid`` its player must split, as (enemies, attacks)."""
    return sorted((tuple(sorted(k)), n) for k, n in
                  attack_shares(state, combat, uid, fight).items() if not isinstance(k, str))


def to_allocate(state: State, combat: Combat, step: str, fight: Fight
                ) -> tuple[str, tuple[str, ...], int] | None:
    """CC.ALLOCATE: the next unit striking in ``step`` with attacks to split and not yet split,
    the active player's units first: (unit, enemies, attacks)."""
    done = fight.allocations
    units = [state.units[u] for u in combat.units]
    for u in sorted(units, key=lambda x: x.player != state.player):
        if u.status != "engaged" or step_label(u) != step or \
                len(touching(state, combat, u.id)) < 2:  # one foe: nothing to split
            continue
        left = pools(state, combat, u.id, fight)[len(done.get(u.id, ())):]
        if left:
            return u.id, *left[0]
    return None


def strikes(state: State, combat: Combat, step: str, fight: Fight
            ) -> list[dict[str, Any]]:
    """CC.WHO_FIGHTS, CC.ALLOCATE, CC.CHALLENGE: the groups of attacks made in one initiative
    step: one per attacking unit and target, split pools added as their player chose."""
    out = []
    duel = fight.duel or {}
    if step in (IMPACT_STEP, STOMP_STEP):
        for uid in combat.units:
            u = state.units[uid]
            if u.status != "engaged":
                continue
            kind, value = ("impact", u.impact_hits) if step == IMPACT_STEP else \
                ("stomp", u.stomp)
            for e, models in (impacts if step == IMPACT_STEP else stomps)(state, combat, u):
                out.append(special_group(u, e, models, f"{kind}:{value}",
                                         Guard(old=not ruled(state, "parry_ward"))))
        return out
    for uid in combat.units:
        u = state.units[uid]
        if u.status == "engaged" and u.mount and mount_step(u) == step and uid not in duel:
            out += mount_strikes(state, combat, u)
        if u.status == "engaged" and u.characters:   # CHAR.IN_UNIT: with their own attacks
            for c, foe in fighting_characters(state, combat, u):
                if c.mount and mount_step(c) == step and c.id not in duel:
                    out.append(mount_group(c, state.units[foe], 1,   # CC.MOUNT
                                           guard(state, state.units[foe], c)))
                if step_label(c) != step or c.id in fight.stood_back:
                    continue
                if c.id in duel:   # CC.CHALLENGE: it fights the foe it challenged, alone
                    rival = state.units[duel[c.id]]
                    out.append(group(c, rival, attacks_of(c), True, guard(state, rival, c)))
                else:
                    e = state.units[foe]
                    out.append(group(c, e, attacks_of(c), shield=guard(state, e, c)))
        if u.status != "engaged" or step_label(u) != step:
            continue
        shares = attack_shares(state, combat, uid, fight)
        at: dict[str, int] = {k: n for k, n in shares.items() if isinstance(k, str)}
        for split in fight.allocations.get(uid, ()):
            for eid, n in split.items():
                at[eid] = at.get(eid, 0) + n
        for eid, n in at.items():
            if n > 0:
                e = state.units[eid]
                out.append(group(u, e, n, shield=guard(state, e, u)))
        if uid in duel:
            rival = state.units[duel[uid]]
            out.append(group(u, rival, attacks_of(u) + (1 if has_champion(u) else 0),
                             True, guard(state, rival, u)))
    return [rerolled(state, fight, g) for g in out]


def rerolled(state: State, fight: Fight, g: dict[str, Any]) -> dict[str, Any]:
    """CC.ASF, CC.HATRED: a group whose attacker re-rolls its misses, by the special rule
    that grants it (``rerolls``); from engine 0.10.0 the group names that rule (a mount's
    attacks are the mount's own: no rider's rule re-rolls them)."""
    if g.get("mount"):
        return g
    rule = rerolls.reroll(fight, state.units[g["unit"]], state.units[g["target"]])
    if not rule:
        return g
    named = {"reroll_by": rule} if ruled(state, "reroll_named") else {}
    return {**g, "reroll": True, **named}


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
