"""The fight of each combat (SK.ENGAGED, SK.ALLOCATE, SK.RESULT, SK.SWEEP, SK.FALL_BACK,
SK.CONSOLIDATE): its initiative steps, its result, the morale checks, the sweeping advances,
and the pile in and consolidation that close it."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from regiment.core import geometry as geo
from regiment.core import measure
from regiment.core.commands import Command, EndPhase
from regiment.core.events import Event, RollRequested
from regiment.core.fold import fold
from regiment.core.i18n import tr
from regiment.core.pending import Decision

from .. import moves, table
from ..appliers import APPLIERS
from ..attacks import to_hit
from ..commands import Consolidate, ResolveCombat, SplitAttacks
from ..events import (
    AttacksSplit,
    Consolidated,
    ConsolidationRolled,
    FellBack,
    FightBegan,
    FightEnded,
    MeleeResult,
    ModelsMoved,
    MoraleTested,
    StepStruck,
    SweepResolved,
    SweepRolled,
    VolleyBegan,
)
from ..models import attack_pools, morale_passed, result
from ..moves import spots
from ..rulings import ruled
from ..state import Fight, Melee, SkirmishState, Squad
from ..why import MOVED
from .sweep import caught, sweep_total

if TYPE_CHECKING:
    from ..preset import SkirmishPreset

S = SkirmishState


def fights_left(state: S) -> list[str]:
    return [m for m in state.melees if m not in state.fought]


def ask_combat(state: S) -> Decision:
    """The active player picks the next combat; the fight ends when none is left."""
    left = fights_left(state)
    legal: tuple[Command, ...] = tuple(ResolveCombat(by=state.player, combat=c) for c in left)
    return Decision(player=state.player, decision="resolve_combat",
                    legal=legal or (EndPhase(by=state.player),))


def begin(engine: SkirmishPreset, state: S, cmd: ResolveCombat) -> list[Event]:
    engine.check_offered(state, cmd, "SK.ENGAGED")
    melee = state.melees[cmd.combat]
    steps = tuple(sorted({state.squads[u].initiative for u in melee.units
                          if state.squads[u].on_table}, reverse=True))
    return engine.then(state, [FightBegan(combat=cmd.combat, steps=steps)], "resolve_combat")


def _fight(state: S) -> Fight:
    assert state.fight is not None
    return state.fight


def foes(state: S, melee: Melee, squad: Squad) -> dict[str, list[tuple[float, float, float]]]:
    return {u: list(state.squads[u].models) for u in melee.units
            if state.squads[u].player != squad.player and state.squads[u].on_table}


def sides(state: S, melee: Melee, squad: Squad) -> tuple[list[geo.Circle], list[geo.Circle]]:
    """The models of ``squad``'s enemies in the combat, and every other model on the table."""
    foe = foes(state, melee, squad)
    others = [c for o in state.squads.values() if o.on_table and o.id != squad.id
              and o.id not in foe for c in o.models]
    return [c for cs in foe.values() for c in cs], others


def pile_ins(state: S, melee: Melee, uids: list[str]) -> list[Event]:
    """SK.CONSOLIDATE (pile in): each squad's models not touching an enemy move up to 3"
    toward the nearest enemy model of the combat; only moves that change something."""
    out: list[Event] = []
    if table.measured(state):   # at the table the players pile in; they count who fights
        return out
    for uid in uids:
        s = state.squads[uid]
        enemy, others = sides(state, melee, s)
        if not s.on_table or not enemy:
            continue
        after = moves.pile_in(s.models, others, enemy)
        if spots(after) != spots(s.models):
            e = ModelsMoved(unit=uid, reason=MOVED.make("pile_in"), models=spots(after))
            out.append(e)
            state = fold(state, [e], APPLIERS)
    return out


def attacks_per_model(s: Squad) -> int:
    """SK.DECLARE: a squad that charged strikes with one more attack, unless disordered."""
    return s.profile["A"] + (1 if s.charged and not s.disordered else 0)


def step_strikes(state: S, melee: Melee, step: int) -> StepStruck:
    """SK.ALLOCATE: who strikes whom in initiative step ``step``, and the pools a player must
    split first."""
    strikes, pools = [], []
    for uid in melee.units:
        s = state.squads[uid]
        if not s.on_table or s.initiative != step:
            continue
        per = attacks_per_model(s)
        foe = foes(state, melee, s)
        fighting = functools.partial(attack_pools, s.models, foe)
        shares = table.pools(state, s, list(foe), fighting)
        if ruled(state, "strikes_in_melee_order"):   # SK.ALLOCATE (engine 0.8.0)
            order = {u: i for i, u in enumerate(melee.units)}
            shares = dict(sorted(shares.items(), key=lambda kv: order[kv[0]]
                                 if isinstance(kv[0], str) else len(order)))
        for key, n in shares.items():
            if isinstance(key, str):
                strikes.append({"unit": uid, "target": key, "attacks": n * per})
            else:
                among = [u for u in melee.units if u in key]
                pools.append({"unit": uid, "among": among, "attacks": n * per})
    return StepStruck(step=step, strikes=tuple(strikes), pools=tuple(pools))


def drive_steps(state: S) -> list[Event]:
    if state.fight is None:
        return []
    f = _fight(state)
    melee = state.melees.get(f.combat)
    if state.volley is not None or f.pools or melee is None:
        return []
    if f.strikes:
        x = f.strikes[0]
        a, t = state.squads[x.unit], state.squads[x.target]
        w = a.melee
        return [VolleyBegan(kind="melee", unit=a.id, target=t.id,
                            dice=x.attacks if t.on_table else 0,
                            need=to_hit(a.profile["WS"], t.profile["WS"]), S=w.S, AP=w.AP)]
    if not f.steps:
        return []
    step = f.steps[0]
    events = pile_ins(state, melee, [u for u in melee.units
                                     if state.squads[u].initiative == step])
    after = fold(state, events, APPLIERS)
    return [*events, step_strikes(after, after.melees[f.combat], step)]


def splits(among: tuple[str, ...], attacks: int) -> Iterator[dict[str, int]]:
    """Every way to split ``attacks`` among the squads (when they are few; else each squad
    all of them, and an even split)."""
    if len(among) == 1:
        yield {among[0]: attacks}
        return
    if len(among) == 2 or attacks <= 6:
        for k in range(attacks, -1, -1):
            for rest in splits(among[1:], attacks - k):
                yield {among[0]: k, **rest}
        return
    for t in among:
        yield {u: attacks if u == t else 0 for u in among}
    even, extra = divmod(attacks, len(among))
    yield {u: even + (1 if i < extra else 0) for i, u in enumerate(among)}


def ask_split(state: S) -> Decision | None:
    f = state.fight
    if f is None or not f.pools:
        return None
    p = f.pools[0]
    owner = state.squads[p.unit].player
    return Decision(player=owner, decision="split_attacks",
                    legal=tuple(SplitAttacks(by=owner, unit=p.unit, split=s)
                                for s in splits(p.among, p.attacks)))


def split(engine: SkirmishPreset, state: S, cmd: SplitAttacks) -> list[Event]:
    """SK.ALLOCATE: any split of the pool among the squads its models touch, every attack
    given, declared before a die is rolled."""
    f = _fight(state)
    pool = next((p for p in f.pools if p.unit == cmd.unit), None)
    if pool is None or state.squads[pool.unit].player != cmd.by:
        raise engine.illegal(state, cmd, tr("{unit} has no attacks of yours to split now",
                                             unit=cmd.unit), "SK.ALLOCATE")
    given = {u: cmd.split.get(u, 0) for u in pool.among}
    if set(cmd.split) - set(pool.among) or any(type(n) is not int or n < 0
                                                 for n in cmd.split.values()) \
            or sum(given.values()) != pool.attacks:
        raise engine.illegal(state, cmd, tr("split all {n} attacks of {unit} among {among}, "
                                             "none below 0", n=pool.attacks, unit=cmd.unit,
                                             among=", ".join(pool.among)), "SK.ALLOCATE")
    return engine.then(state, [AttacksSplit(unit=cmd.unit, split=given)], "split_attacks")


# --- result, morale, sweeping advances --------------------------------------------------------


def drive_result(state: S) -> list[Event]:
    """SK.RESULT: each side's unsaved wounds summed; every squad of the losing side tests its
    morale with the same penalty."""
    if state.fight is None:
        return []
    f = _fight(state)
    if f.decided:
        return []
    melee = state.melees.get(f.combat)
    units = [u for u in melee.units if state.squads[u].on_table] if melee else []
    totals = {p: sum(n for u, n in f.caused.items() if state.squads[u].player == p)
              for p in state.players}
    winner, penalty = result(totals)
    losers = tuple(u for u in units if winner is not None
                   and state.squads[u].player != winner)
    return [MeleeResult(combat=f.combat, totals=totals, winner=winner, penalty=penalty,
                        losers=losers)]


def drive_morale(state: S) -> list[Event]:
    """SK.RESULT: each loser's morale check, 2D6, one squad after another."""
    if state.fight is None:
        return []
    f = _fight(state)
    if not f.tests:
        return []
    s = state.squads[f.tests[0]]
    return [RollRequested(purpose="morale", unit=s.id, player=s.player, dice=2)]


def morale_rolled(state: S, uid: str, faces: tuple[int, ...]) -> list[Event]:
    """SK.RESULT: the check against Leadership less the common penalty."""
    f = _fight(state)
    ld = state.squads[uid].profile["Ld"]
    a, b = faces
    return [MoraleTested(unit=uid, faces=(a, b), leadership=ld, penalty=f.penalty,
                         passed=morale_passed(ld, f.penalty, (a, b)))]


def sweepers(state: S, loser: str) -> list[str]:
    """SK.SWEEP: the winners that fought ``loser`` and may sweep: every squad each of them
    fought was destroyed or failed its morale."""
    f = _fight(state)
    melee = state.melees.get(f.combat)
    out = []
    for w in melee.units if melee else ():
        s = state.squads[w]
        fought = f.fought.get(w, ())
        if s.player == f.winner and s.on_table and loser in fought and all(
                state.squads[x].status == "destroyed" or x in f.broken for x in fought):
            out.append(w)
    return out


def unswept(state: S) -> list[str]:
    """SK.SWEEP: the broken squads whose sweep is still to decide, in order."""
    f = _fight(state)
    return [b for b in f.broken if b not in f.resolved]


def drive_sweep_rolls(state: S) -> list[Event]:
    """SK.SWEEP: each broken squad rolls against the winners that may sweep it (each winner
    rolls once, against all of them); the caught are destroyed."""
    if state.fight is None:
        return []
    f = _fight(state)
    b = unswept(state)[0]
    ws = sweepers(state, b)
    for who, role in [(b, "escape")] * bool(ws) + [(w, "sweep") for w in ws]:
        if who not in f.rolls:
            s = state.squads[who]
            return [RollRequested(purpose=role, unit=who, player=s.player, dice=1)]
    by = next((w for w in ws if caught(f.rolls[w], f.rolls[b])), None)
    return [SweepResolved(unit=b, total=f.rolls.get(b, 0),
                          against={w: f.rolls[w] for w in ws}, caught=by is not None, by=by)]


def drive_fall_backs(state: S) -> list[Event]:
    """SK.FALL_BACK: the broken squads that got away fall back 2D6, one after another."""
    if state.fight is None:
        return []
    for b in _fight(state).broken:
        s = state.squads[b]
        if s.status == "locked":
            return [RollRequested(purpose="fall_back", unit=b, player=s.player, dice=2)]
    return []


def sweep_rolled(state: S, uid: str, role: str, faces: tuple[int, ...]) -> list[Event]:
    """SK.SWEEP: a winner's or a loser's D6 + Initiative."""
    i = state.squads[uid].profile["I"]
    return [SweepRolled(unit=uid, role=role, face=faces[0], initiative=i,
                        total=sweep_total(faces[0], i))]


def fall_back_rolled(state: S, uid: str, faces: tuple[int, ...]) -> list[Event]:
    """SK.FALL_BACK: the 2D6 a squad that got away falls back, from its combat's enemies."""
    def away() -> tuple[list[geo.Circle], list[geo.Circle]]:
        enemy, others = sides(state, state.melees[_fight(state).combat], state.squads[uid])
        return enemy or state.others(uid), others

    return fall_back(state, uid, faces, away)


def fall_back(state: S, uid: str, faces: tuple[int, ...],
              away: Callable[[], tuple[list[geo.Circle], list[geo.Circle]]]) -> list[Event]:
    """SK.FALL_BACK: a squad falls back its 2D6 straight away from the enemy models ``away``
    gives (with the other models it may not end on); at a table: does it reach the edge?"""
    s = state.squads[uid]
    distance = float(sum(faces))
    a, b = faces
    if table.measured(state):   # SK.FALL_BACK at the table: does it reach the edge?
        off = table.yes_no(state, measure.key("fall_back_edge", uid), "SK.FALL_BACK", s, "",
                           lambda: False, extra=distance)
        return [FellBack(unit=uid, faces=(a, b), distance=distance, off_table=off)]
    enemy, others = away()
    moved, off = moves.fall_back(s.models, enemy, others, distance,
                                 state.table["width"], state.table["depth"])
    if measure.heard:
        measure.tell(measure.key("fall_back_edge", uid), "yes" if off else "no")
    return [FellBack(unit=uid, faces=(a, b), distance=distance, off_table=off),
            ModelsMoved(unit=uid, reason=MOVED.make("fall_back"), models=spots(moved),
                        off_table=off)]


# --- pile in and consolidation ---------------------------------------------------------------


def drive_consolidation_rolls(state: S) -> list[Event]:
    """SK.CONSOLIDATE: a combat with both sides left goes on: every squad piles in and stays
    locked into the next turn. Otherwise each squad left rolls its D6 and consolidates."""
    if state.fight is None:
        return []
    f = _fight(state)
    melee = state.melees.get(f.combat)
    units = [u for u in melee.units if state.squads[u].on_table] if melee else []
    if len({state.squads[u].player for u in units}) > 1:
        assert melee is not None
        return [*pile_ins(state, melee, units), FightEnded(combat=f.combat, locked=tuple(units))]
    if f.consolidating is not None:
        return []
    todo = [u for u in units if u not in f.moved]
    if todo:
        s = state.squads[todo[0]]
        return [RollRequested(purpose="consolidate", unit=s.id, player=s.player, dice=1)]
    return [FightEnded(combat=f.combat, locked=())]


def consolidation_rolled(uid: str, faces: tuple[int, ...]) -> list[Event]:
    """SK.CONSOLIDATE: the D6 a squad left alone may consolidate."""
    return [ConsolidationRolled(unit=uid, face=faces[0])]


def ask_consolidate(state: S) -> Decision | None:
    """SK.CONSOLIDATE: where the squad that rolled moves (toward an enemy, or nowhere)."""
    f = state.fight
    if f is None or f.consolidating is None:
        return None
    uid, _ = f.consolidating
    s = state.squads[uid]
    toward = [o.id for o in state.squads.values() if o.player != s.player and o.on_table]
    return Decision(player=s.player, decision="consolidate",
                    legal=tuple(Consolidate(by=s.player, unit=uid, toward=t)
                                for t in ("", *toward)))


def consolidate(engine: SkirmishPreset, state: S, cmd: Consolidate) -> list[Event]:
    engine.check_offered(state, cmd, "SK.CONSOLIDATE")
    f = _fight(state)
    assert f.consolidating is not None
    uid, distance = f.consolidating
    s = state.squads[uid]
    events: list[Event] = [Consolidated(unit=uid, face=int(distance), toward=cmd.toward)]
    if cmd.toward and not table.measured(state):   # at the table the players move it
        enemy = [c for o in state.squads.values() if o.player != s.player and o.on_table
                 for c in o.models]
        others = [c for o in state.squads.values() if o.player == s.player and o.on_table
                  and o.id != uid for c in o.models]
        after = moves.consolidate_toward(s.models, others, enemy,
                                         state.squads[cmd.toward].models, distance)
        why = moves.consolidate_problem(s.models, after, others, enemy, distance)
        if why:   # the move above is built to pass; this is the rule's own check
            raise engine.illegal(state, cmd, why, "SK.CONSOLIDATE")
        if spots(after) != spots(s.models):
            events.append(ModelsMoved(unit=uid, reason=MOVED.make("consolidate"),
                                      models=spots(after)))
    return engine.then(state, events, "consolidate")
