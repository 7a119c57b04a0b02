"""How the events of the fight of each combat (SK.ENGAGED, SK.ALLOCATE, SK.RESULT, SK.SWEEP,
SK.FALL_BACK, SK.CONSOLIDATE) change the state."""

from __future__ import annotations

from typing import Any

from ..evolve import leave_melee, with_fight, with_squad
from ..state import Fight, Melee, Pool, SkirmishState, SquadStatus, Strike
from . import events as ev

S = SkirmishState


def fight_began(state: S, e: ev.FightBegan) -> S:
    return state.evolve(fight=Fight(combat=e.combat, steps=e.steps))


def step_struck(state: S, e: ev.StepStruck) -> S:
    assert state.fight is not None
    fought = {k: tuple(v) for k, v in state.fight.fought.items()}
    for x in e.strikes:
        for a, b in ((x["unit"], x["target"]), (x["target"], x["unit"])):
            if b not in fought.get(a, ()):
                fought[a] = (*fought.get(a, ()), b)
    for p in e.pools:
        for t in p["among"]:
            for a, b in ((p["unit"], t), (t, p["unit"])):
                if b not in fought.get(a, ()):
                    fought[a] = (*fought.get(a, ()), b)
    return with_fight(state, step=e.step, steps=tuple(s for s in state.fight.steps if s != e.step),
                  strikes=tuple(Strike(unit=x["unit"], target=x["target"], attacks=x["attacks"])
                                for x in e.strikes),
                  pools=tuple(Pool(unit=p["unit"], among=tuple(p["among"]),
                                   attacks=p["attacks"]) for p in e.pools), fought=fought)


def attacks_split(state: S, e: ev.AttacksSplit) -> S:
    """The split's strikes in the order the pool names its squads: a log stores a dict's keys
    sorted, so the dict's own order would differ between live play and a replay."""
    assert state.fight is not None
    pool = next(p for p in state.fight.pools if p.unit == e.unit)
    pools = tuple(p for p in state.fight.pools if p.unit != e.unit)
    strikes = state.fight.strikes + tuple(Strike(unit=e.unit, target=t, attacks=e.split[t])
                                          for t in pool.among if e.split.get(t, 0) > 0)
    return with_fight(state, pools=pools, strikes=strikes)


def melee_result(state: S, e: ev.MeleeResult) -> S:
    return with_fight(state, winner=e.winner, penalty=e.penalty, decided=True, tests=e.losers)


def morale_tested(state: S, e: ev.MoraleTested) -> S:
    if e.cause == "shooting":   # SK.MORALE: once a turn; a failure falls back (its roll next)
        return with_squad(state, e.unit, morale_checked=True, broken=not e.passed)
    assert state.fight is not None
    f = state.fight
    return with_fight(state, tests=tuple(u for u in f.tests if u != e.unit),
                  broken=f.broken if e.passed else (*f.broken, e.unit))


def sweep_rolled(state: S, e: ev.SweepRolled) -> S:
    assert state.fight is not None
    return with_fight(state, rolls={**state.fight.rolls, e.unit: e.total})


def sweep_resolved(state: S, e: ev.SweepResolved) -> S:
    assert state.fight is not None
    state = with_fight(state, resolved=(*state.fight.resolved, e.unit))
    if not e.caught:
        return state
    state = with_squad(state, e.unit, status=SquadStatus.DESTROYED, models=(), wounds=())
    return leave_melee(state, e.unit)


def fell_back(state: S, e: ev.FellBack) -> S:
    gone = SquadStatus.OFF_TABLE if e.off_table else SquadStatus.FALLING_BACK
    state = with_squad(state, e.unit, status=gone, broken=False)
    return leave_melee(state, e.unit)


def consolidation_rolled(state: S, e: ev.ConsolidationRolled) -> S:
    return with_fight(state, consolidating=(e.unit, float(e.face)))


def consolidated(state: S, e: ev.Consolidated) -> S:
    assert state.fight is not None
    return with_fight(state, consolidating=None, moved=(*state.fight.moved, e.unit))


def fight_ended(state: S, e: ev.FightEnded) -> S:
    melees = dict(state.melees)
    squads = dict(state.squads)
    melee = melees.pop(e.combat, None)
    for uid in melee.units if melee is not None else ():
        if uid not in e.locked and squads[uid].status == "locked":
            squads[uid] = squads[uid].evolve(status=SquadStatus.READY)
    if e.locked:
        melees[e.combat] = Melee(id=e.combat, units=e.locked,
                                 since=melee.since if melee is not None else state.round)
    return state.evolve(melees=melees, squads=squads, fight=None,
                        fought=(*state.fought, e.combat))


APPLIERS: dict[type[Any], Any] = {
    ev.FightBegan: fight_began,
    ev.StepStruck: step_struck,
    ev.AttacksSplit: attacks_split,
    ev.MeleeResult: melee_result,
    ev.MoraleTested: morale_tested,
    ev.SweepRolled: sweep_rolled,
    ev.SweepResolved: sweep_resolved,
    ev.FellBack: fell_back,
    ev.ConsolidationRolled: consolidation_rolled,
    ev.Consolidated: consolidated,
    ev.FightEnded: fight_ended,
}
