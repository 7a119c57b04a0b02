"""CC.INITIATIVE, CC.WHO_FIGHTS, CC.ALLOCATE, ATK.*: the initiative steps of a round and the
attacks each step makes: who strikes in which step, how many attacks each model makes and at
whom (a model touching several units splits them), the mounts' own, impact hits and stomps,
and every need of each group of attacks (to hit, to wound, the saves, a re-roll a special rule
grants)."""

from __future__ import annotations

from typing import Any

from regiment.core.i18n import tr
from regiment.core.state import memo

from .. import effects
from ..challenge.apart import duellists
from ..effects import Part
from ..psychology.rules import frightened
from ..rulings import ruled
from ..shields import FROM_THE_FRONT, NO_SHIELD, Guard, can_parry, saves
from ..state import Combat, Fight, State, UnitState
from ..units import attacks_of, has_champion, rank_sizes, strength
from . import attacks, blows
from .combat import (
    fighting_characters,
    model_contacts,
    place_in_front,
    positions,
    support_ranks,
    touched_models,
    touching,
)
from .shares_old import shares_by_side

IMPACT_STEP, STOMP_STEP = "impact_10", "stomp_0"   # before every blow, after every blow
Key = str | frozenset[str]   # one enemy, or the enemies a pool of attacks may be split among
TIERS = {3: "impact", 2: "asf", 1: "initiative", 0: "asl", -1: "stomp"}
STOMPED = ("infantry",)   # ATK.STOMP: what can be stomped on (our troop types)


def strike_order(u: UnitState) -> tuple[int, int]:
    """CC.INITIATIVE, CC.ASF: Always Strikes First before everyone, Always Strikes Last (and
    great weapons) after; both, or neither: by Initiative (their ``Strikes`` effects)."""
    first, last = effects.strikes(u)
    tier = 2 if first and not last else 0 if last and not first else 1
    return tier, u.profile["I"]


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
          shield: Guard = FROM_THE_FRONT, extra: int = 0) -> dict[str, Any]:
    """One group of close combat attacks from ``u`` at ``e``, with every need worked out
    (``shield``: what ``e``'s shield does, from ``guard``; by default the current rules, from
    the front), ``extra`` of them from ``u``'s special rules, which the group names with every
    other rule that acted on it (SPECIAL.EFFECTS)."""
    s = strength(u)
    g = {"unit": u.id, "target": e.id, "attacks": attacks_n, "challenge": challenge,
         "hit": attacks.to_hit(u.profile["WS"], e.profile["WS"]), "hit2": 0,
         "reroll": False, "wound": attacks.to_wound(s, e.profile["T"]),
         **saves(e, s, shield if can_parry(e) or shield.old else Guard(), u), "rolls": {}}
    return blows.struck(g, u, e, blows.attacks_parts(u, extra))


def special_group(u: UnitState, e: UnitState, models: int, special: attacks.SpecialHits,
                  shield: Guard = NO_SHIELD) -> dict[str, Any]:
    """ATK.SPECIAL, ATK.IMPACT, ATK.STOMP: special hits from ``models`` of ``u`` at ``e``: no
    roll to hit, the model's own Strength (no weapon's bonus), saves as usual (no parry)."""
    s = u.profile["S"]
    return {"unit": u.id, "target": e.id, "attacks": models, "challenge": False,
            "hit": 0, "hit2": 0, "reroll": False, "wound": attacks.to_wound(s, e.profile["T"]),
            **saves(e, s, Guard(old=shield.old)), "special": special.written(),
            "rolls": {}}


def attack_shares(state: State, combat: Combat, uid: str, fight: Fight, effects_on: bool = True
                  ) -> dict[Key, int]:
    """CC.WHO_FIGHTS, CC.ALLOCATE: ``uid``'s attacks this round (challenges aside), by the
    enemy they must go to, or by the set of enemies a model touching several may split them
    among (a pool, split by its player before any die is rolled).

    Each model attacks once (CC.ONE_ATTACKER): a model touching enemies on two sides (a
    front corner against a foe in front and one in the flank) counts once, toward all of
    them, and a model in contact supports no one. Games begun before engine 0.5.0 counted
    each side on its own (``shares_old``). ``effects_on`` False: without the Attacks
    special rules add (what they add is the difference, ``extras``)."""
    if not ruled(state, "one_attack_a_model"):
        return shares_by_side(state, combat, uid, fight)
    u = state.units[uid]
    sizes = rank_sizes(u)
    apart = duellists(state, fight)
    placed = [(e.id, *positions(u, e)) for e, _ in touching(state, combat, uid)
              if e.id not in apart]
    a = attacks_of(u, effects_on)
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
    scared = frightened(state, fight) if fight.fear else {}
    if scared:   # SR.FEAR: Weapon Skill 1 this round, named in each group it changes
        return [afraid(state, scared, g)
                for g in strikes(at_ws_one(state, scared), combat, step, fight.evolve(fear={}))]
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
                out.append(special_group(u, e, models, attacks.SpecialHits(kind, str(value)),
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
                extra = attacks_of(c) - attacks_of(c, False)   # SPECIAL.EFFECTS
                if c.id in duel:   # CC.CHALLENGE: it fights the foe it challenged, alone
                    rival = state.units[duel[c.id]]
                    out.append(group(c, rival, attacks_of(c), True, guard(state, rival, c),
                                     extra))
                else:
                    e = state.units[foe]
                    out.append(group(c, e, attacks_of(c), shield=guard(state, e, c),
                                     extra=extra))
        if u.status != "engaged" or step_label(u) != step:
            continue
        shares = attack_shares(state, combat, uid, fight)
        at: dict[str, int] = {k: n for k, n in shares.items() if isinstance(k, str)}
        for split in fight.allocations.get(uid, ()):
            for eid, n in split.items():
                at[eid] = at.get(eid, 0) + n
        more = extras(state, combat, uid, fight, shares, at)
        for eid, n in at.items():
            if n > 0:
                e = state.units[eid]
                out.append(group(u, e, n, shield=guard(state, e, u), extra=more.get(eid, 0)))
        if uid in duel:
            rival = state.units[duel[uid]]
            a = attacks_of(u)
            out.append(group(u, rival, a + (1 if has_champion(u) else 0),
                             True, guard(state, rival, u), a - attacks_of(u, False)))
    if ruled(state, "effects_named"):   # SPECIAL.EFFECTS: the weapon's Strength, named
        out = [blows.armed(state.units[g["unit"]], g) for g in out]
    return [rerolled(state, fight, g) for g in out]


def at_ws_one(state: State, scared: dict[str, Part]) -> State:
    """SR.FEAR: the state as this round's blows see it: the frightened at Weapon Skill 1."""
    units = dict(state.units)
    for uid in scared:
        units[uid] = units[uid].evolve(profile={**units[uid].profile, "WS": 1})
    return state.evolve(units=units)


def afraid(state: State, scared: dict[str, Part], g: dict[str, Any]) -> dict[str, Any]:
    """SR.FEAR: a group names the fear that set its attacker's or its target's WS to 1."""
    parts = []
    for uid, of in ((g["unit"], "WS"), (g["target"], "foe_WS")):
        if uid in scared and not g.get("mount") and not g.get("special"):
            was = state.units[uid].profile["WS"]
            parts.append(Part(scared[uid].rule, scared[uid].special, 1 - was, of).written())
    return {**g, "parts": [*g.get("parts", ()), *parts]} if parts else g


def extras(state: State, combat: Combat, uid: str, fight: Fight, shares: dict[Key, int],
           at: dict[str, int]) -> dict[str, int]:
    """SPECIAL.EFFECTS: of ``uid``'s attacks at each enemy (``at``), how many its special rules
    added: its shares less those it would have without them; a pool its player split shares
    what it added in proportion to the split (what is left to the first enemy)."""
    u = state.units[uid]
    if attacks_of(u) == attacks_of(u, False):
        return {}
    base = attack_shares(state, combat, uid, fight, False)
    out = {k: n - base.get(k, 0) for k, n in shares.items() if isinstance(k, str)}
    for key, split in zip((k for k, _ in pools(state, combat, uid, fight)),
                          fight.allocations.get(uid, ()), strict=False):
        pool = frozenset(key)
        added = shares.get(pool, 0) - base.get(pool, 0)
        total = sum(split.values()) or 1
        given = {eid: added * n // total for eid, n in split.items()}
        first = next(iter(split), None)
        if first is not None:
            given[first] += added - sum(given.values())
        for eid, n in given.items():
            out[eid] = out.get(eid, 0) + n
    return out


def rerolled(state: State, fight: Fight, g: dict[str, Any]) -> dict[str, Any]:
    """CC.ASF, CC.HATRED: a group whose attacker re-rolls its misses, by the special rule
    that grants it (its ``Reroll`` effect); from engine 0.10.0 the group names that rule (a
    mount's attacks are the mount's own: no rider's rule re-rolls them)."""
    if g.get("mount"):
        return g
    u = state.units[g["unit"]]
    if not effects.named(u.rules, u.equipment):
        return g
    part = effects.reroll(u, "to_hit", effects.Ask(u, state.units[g["target"]], fight.round))
    if part is None:
        return g
    rule = part.rule
    named = {"reroll_by": rule} if ruled(state, "reroll_named") else {}
    return {**g, "reroll": True, **named}
