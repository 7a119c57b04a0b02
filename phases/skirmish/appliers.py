"""The skirmish game's appliers: the only code that makes a new state. Each takes the state and
one event and returns the state after it; none decides anything (the flow did)."""

from __future__ import annotations

from typing import Any

from regiment.core.events import Event, TurnBegan
from regiment.core.protocols import Applier

from . import events as ev
from .state import Assault, Fight, Melee, Pool, SkirmishState, Strike, Volley

S = SkirmishState


def _squad(state: S, uid: str, **changes: Any) -> S:
    squads = dict(state.squads)
    squads[uid] = squads[uid].evolve(**changes)
    return state.evolve(squads=squads)


def _fight(state: S, **changes: Any) -> S:
    assert state.fight is not None
    return state.evolve(fight=state.fight.evolve(**changes))


def turn_began(state: S, e: TurnBegan) -> S:
    squads = {uid: s.evolve(shot_at=None, declared=False, overwatched=False, charged=False,
                            disordered=False, slowed=False) for uid, s in state.squads.items()}
    return state.evolve(squads=squads, round=state.round + 1, fought=())


def squad_shot(state: S, e: ev.SquadShot) -> S:
    return _squad(state, e.unit, shot_at=e.target)


def assault_declared(state: S, e: ev.AssaultDeclared) -> S:
    state = _squad(state, e.unit, declared=True)
    return state.evolve(assault=Assault(unit=e.unit, primary=e.primary, secondary=e.secondary,
                                        overwatch=e.overwatch))


def overwatch_chosen(state: S, e: ev.OverwatchChosen) -> S:
    assert state.assault is not None
    left = tuple(u for u in state.assault.overwatch if u != e.unit)
    state = state.evolve(assault=state.assault.evolve(overwatch=left))
    return _squad(state, e.unit, overwatched=True) if e.fire else state


def volley_began(state: S, e: ev.VolleyBegan) -> S:
    """A volley opens (none when it has no dice: a strike at a squad already gone); a
    strike of a fight leaves the step's queue."""
    if e.kind == "melee" and state.fight is not None:
        state = _fight(state, strikes=state.fight.strikes[1:])
    if e.dice <= 0:
        return state
    return state.evolve(volley=Volley(kind=e.kind, unit=e.unit, target=e.target, dice=e.dice,
                                      need=e.need, S=e.S, AP=e.AP))


def volley_rolled(state: S, e: ev.VolleyRolled) -> S:
    if not e.then or state.volley is None:
        return state.evolve(volley=None)
    return state.evolve(volley=state.volley.evolve(stage=e.then, need=e.then_need,
                                                   dice=e.successes))


def wounds_taken(state: S, e: ev.WoundsTaken) -> S:
    s = state.squads[e.unit]
    gone = set(e.removed)
    models = tuple(c for i, c in enumerate(s.models) if i not in gone)
    state = _squad(state, e.unit, models=models, wounds=e.left,
                   status=s.status if models else "destroyed")
    if state.fight is not None:
        caused = dict(state.fight.caused)
        caused[e.by] = caused.get(e.by, 0) + e.wounds - e.lost
        state = _fight(state, caused=caused)
    if not models:
        state = _leave_melee(state, e.unit)
    return state


def _leave_melee(state: S, uid: str) -> S:
    melee = state.melee_of(uid)
    if melee is None:
        return state
    melees = dict(state.melees)
    melees[melee.id] = melee.evolve(units=tuple(u for u in melee.units if u != uid))
    return state.evolve(melees=melees)


def assault_rolled(state: S, e: ev.AssaultRolled) -> S:
    assert state.assault is not None
    disordered = state.assault.secondary is not None
    state = state.evolve(assault=None)
    if not e.reached:
        return state
    return _squad(state, e.unit, charged=True, disordered=disordered, slowed=e.slowed)


def models_moved(state: S, e: ev.ModelsMoved) -> S:
    """The models where they now stand (a squad that fell back off the table left it by its
    FellBack, which comes first)."""
    radius = state.squads[e.unit].radius
    return _squad(state, e.unit, models=tuple((x, y, radius) for x, y in e.models))


def melee_joined(state: S, e: ev.MeleeJoined) -> S:
    """Squads lock together; any combat one of them was in becomes part of this one."""
    melees = dict(state.melees)
    merged = [m for m in melees.values() if set(m.units) & set(e.units)]
    units = list(e.units)
    for m in merged:
        del melees[m.id]
        units += [u for u in m.units if u not in units]
    since = min([e.since, *(m.since for m in merged)])
    melees[e.combat] = Melee(id=e.combat, units=tuple(units), since=since)
    squads = dict(state.squads)
    for uid in units:
        squads[uid] = squads[uid].evolve(status="locked")
    return state.evolve(melees=melees, squads=squads)


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
    return _fight(state, step=e.step, steps=tuple(s for s in state.fight.steps if s != e.step),
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
    return _fight(state, pools=pools, strikes=strikes)


def melee_result(state: S, e: ev.MeleeResult) -> S:
    return _fight(state, winner=e.winner, penalty=e.penalty, decided=True, tests=e.losers)


def morale_tested(state: S, e: ev.MoraleTested) -> S:
    assert state.fight is not None
    f = state.fight
    return _fight(state, tests=tuple(u for u in f.tests if u != e.unit),
                  broken=f.broken if e.passed else (*f.broken, e.unit))


def sweep_rolled(state: S, e: ev.SweepRolled) -> S:
    assert state.fight is not None
    return _fight(state, rolls={**state.fight.rolls, e.unit: e.total})


def sweep_resolved(state: S, e: ev.SweepResolved) -> S:
    assert state.fight is not None
    state = _fight(state, resolved=(*state.fight.resolved, e.unit))
    if not e.caught:
        return state
    state = _squad(state, e.unit, status="destroyed", models=(), wounds=())
    return _leave_melee(state, e.unit)


def fell_back(state: S, e: ev.FellBack) -> S:
    state = _squad(state, e.unit, status="off_table" if e.off_table else "falling_back")
    return _leave_melee(state, e.unit)


def consolidation_rolled(state: S, e: ev.ConsolidationRolled) -> S:
    return _fight(state, consolidating=(e.unit, float(e.face)))


def consolidated(state: S, e: ev.Consolidated) -> S:
    assert state.fight is not None
    return _fight(state, consolidating=None, moved=(*state.fight.moved, e.unit))


def fight_ended(state: S, e: ev.FightEnded) -> S:
    melees = dict(state.melees)
    squads = dict(state.squads)
    melee = melees.pop(e.combat, None)
    for uid in melee.units if melee is not None else ():
        if uid not in e.locked and squads[uid].status == "locked":
            squads[uid] = squads[uid].evolve(status="ready")
    if e.locked:
        melees[e.combat] = Melee(id=e.combat, units=e.locked,
                                 since=melee.since if melee is not None else state.round)
    return state.evolve(melees=melees, squads=squads, fight=None,
                        fought=(*state.fought, e.combat))


APPLIERS: dict[type[Event], Applier] = {
    TurnBegan: turn_began,
    ev.SquadShot: squad_shot,
    ev.AssaultDeclared: assault_declared,
    ev.OverwatchChosen: overwatch_chosen,
    ev.VolleyBegan: volley_began,
    ev.VolleyRolled: volley_rolled,
    ev.WoundsTaken: wounds_taken,
    ev.AssaultRolled: assault_rolled,
    ev.ModelsMoved: models_moved,
    ev.MeleeJoined: melee_joined,
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
