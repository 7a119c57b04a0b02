"""How each rule event changes the state: small pure functions, no rules re-run, no dice.

Replay is these functions over the log; anything an applier needs was decided when the event
was made and is in its data.
"""

from __future__ import annotations

from typing import Any

from regiment.core.events import DiceRolled, Event, TurnBegan
from regiment.core.fold import KERNEL_APPLIERS

from . import events as ev
from .close_combat import attacks
from .close_combat.combat import combat_holding, place_in_front
from .evolve import leave, the_fight, with_context, with_fight, with_unit
from .moving import KINDS as REMAINING_MOVES
from .parts import gathered
from .rolls import ATTACK_PURPOSES
from .state import (
    NO_FIGHT,
    ChallengeStatus,
    Combat,
    State,
    Turn,
    UnitState,
)
from .values import Status
from .why import DESTROYED

# New values are made from these by ``evolve`` (one dict copy), not by a frozen dataclass's
# __init__, which sets every field one by one (5 us for a Fight: measured)
NEW_TURN = Turn()


def to_move(s: State) -> tuple[str, ...]:
    return s.context.to_move


def turn_began(s: State, e: ev.TurnBegan) -> State:
    if s.turn == 0:  # the opening keeps what the scenario set up (a charge already made)
        return s.evolve(context=NEW_TURN, fight=None, batch=None)
    units = {k: u.evolve(declared=None, reaction=None, charged=False, redirected=False)
             if (u.declared or u.reaction or u.charged or u.redirected) else u
             for k, u in s.units.items()}
    return s.evolve(units=units, context=NEW_TURN, fight=None, batch=None)


def unit_moved(s: State, e: ev.UnitMoved) -> State:
    if e.files:   # MOVE.REFORM
        s = with_unit(s, e.unit, files=e.files)
    if e.position is not None:
        s = with_unit(s, e.unit, position=tuple(e.position), facing=e.facing)
    kind = e.reason["code"]
    if kind in REMAINING_MOVES and e.unit not in s.context.moves:   # MOVE.REMAINING
        s = with_context(s, moves={**s.context.moves, e.unit: kind})
    if kind in ("pursuit", "overrun"):  # a pursuer leaves its combat (FP.PURSUE_MOVE)
        s = leave(s, e.unit)
    fight = s.fight
    if fight is not None and kind in ("flee", "pursuit", "overrun"):
        s = with_fight(s, moved=(*fight.moved, e.unit))
    return s


def unit_destroyed(s: State, e: ev.UnitDestroyed) -> State:
    """A unit destroyed takes the characters still in it along (CHAR.IN_UNIT: caught fleeing,
    fled off the table)."""
    u = s.units[e.unit]
    fled = DESTROYED.read(e.reason)["code"] == "fled_off_table"   # its models kept, gone
    s = with_unit(s, e.unit, status=Status.DESTROYED, models=u.models if fled else 0)
    for c in u.characters:   # fled off with it, not slain (VP.POINTS)
        s = with_unit(s, c, status=Status.DESTROYED, models=s.units[c].models if fled else 0)
    if u.joined is not None:   # a character slain in a challenge leaves its unit's ranks
        host = s.units[u.joined]
        s = with_unit(s, host.id, characters=tuple(c for c in host.characters if c != u.id))
    return s


def unit_left(s: State, e: ev.UnitLeftTable) -> State:
    return with_unit(s, e.unit, status=Status.OFF_TABLE,
                 left_at=tuple(e.point) if e.point is not None else None)


def contact_measured(s: State, e: ev.ContactMeasured) -> State:
    u = s.units[e.unit]
    touch = tuple(t for t in u.touch if t[0] != e.enemy)
    return with_unit(s, e.unit, touch=(*touch, (e.enemy, e.side, e.models, e.first)))


def combat_began(s: State, e: ev.CombatBegan) -> State:
    combats = dict(s.combats)
    combats[e.combat] = Combat(id=e.combat, units=tuple(e.units), chargers=tuple(e.chargers),
                               hill=tuple(e.hill))
    units = dict(s.units)
    for uid in e.units:
        units[uid] = units[uid].evolve(status=Status.ENGAGED)
    s = s.evolve(combats=combats, units=units)
    if s.phase.startswith("turn.close_combat"):  # FP.FRESH_ENEMY: fought next phase
        s = with_context(s, fought=(*s.context.fought, e.combat))
    return s


def combat_joined(s: State, e: ev.CombatJoined) -> State:
    combats = dict(s.combats)
    c = combats[e.combat]
    parts = [c, Combat(id=e.combat, units=tuple(e.units), chargers=tuple(e.chargers),
                       hill=tuple(e.hill)), *(combats.pop(m) for m in e.merged)]
    combats[e.combat] = c.evolve(  # each list in the order the units came, once
        units=tuple(dict.fromkeys(x for p in parts for x in p.units)),
        chargers=tuple(dict.fromkeys(x for p in parts for x in p.chargers)),
        hill=tuple(dict.fromkeys(x for p in parts for x in p.hill)))
    units = dict(s.units)
    for uid in e.units:
        units[uid] = units[uid].evolve(status=Status.ENGAGED)
    return s.evolve(combats=combats, units=units)


def combat_ended(s: State, e: ev.CombatEnded) -> State:
    combats = dict(s.combats)
    combat = combats.pop(e.combat)
    units = dict(s.units)
    for uid in combat.units:
        if units[uid].status == "engaged":
            units[uid] = units[uid].evolve(status=Status.READY)
    return s.evolve(combats=combats, units=units)


def combat_round_began(s: State, e: ev.CombatRoundBegan) -> State:
    units = tuple(s.combats[e.combat].units) if e.combat in s.combats else ()
    fight = NO_FIGHT.evolve(combat=e.combat, round=e.round, steps=tuple(e.steps), units=units,
                            challenge=ChallengeStatus.OPEN if e.challenges
                            else ChallengeStatus.DONE)
    return s.evolve(fight=fight, context=s.context.evolve(fought=(*s.context.fought, e.combat)))


def step_began(s: State, e: ev.InitiativeStepBegan) -> State:
    if e.combat is not None:
        fight = the_fight(s)
        s = with_fight(s, steps=tuple([x for x in fight.steps if x != e.step]))
    if not e.strikes:
        return s
    of = attacks.Group.of
    return s.evolve(batch=attacks.Batch._make((e.combat, e.step,
                                               tuple([of(g) for g in e.strikes]), None, 0)))


def dice_rolled(s: State, e: DiceRolled) -> State:
    batch = s.batch
    if batch is None or e.purpose not in BATCH_PURPOSES:
        kernel: State = KERNEL_APPLIERS[DiceRolled](s, e)   # (a kernel applier: any state)
        return kernel
    at = s.awaiting.about if s.awaiting is not None else None
    groups = attacks.record(batch.groups, e.faces, at)
    # what the kernel's DiceRolled does, and the faces filed, in one new state
    return s.evolve(awaiting=None, dice_pos=e.index + len(e.faces),
                    batch=attacks.Batch._make((batch.combat, batch.step, groups, at, batch.done)))


BATCH_PURPOSES = frozenset(ATTACK_PURPOSES)


def attacks_resolved(s: State, e: ev.AttacksResolved) -> State:
    t = s.units[e.target]
    w = t.profile["W"]
    if e.challenge and "champion" in t.command and t.models > 1:
        command = tuple(c for c in t.command if c != "champion") if e.slain else t.command
        t = t.evolve(models=t.models - e.slain, command=command)
    else:
        total = t.wounded + e.lost
        t = t.evolve(models=t.models - total // w, wounded=total % w)
    units = {**s.units, t.id: t}
    changes: dict[str, Any] = {"units": units}    # one new state for all of it
    if e.combat is None:   # PANIC.TRIGGERS: what shooting took from it in this phase
        changes["context"] = shot_lost(s, e.target, s.units[e.target].models - t.models)
    fight = s.fight
    if e.combat is not None and fight is not None:
        caused = {**fight.caused, e.unit: fight.caused.get(e.unit, 0) + e.lost}
        over = {**fight.overkill, e.unit: fight.overkill.get(e.unit, 0) + e.overkill}
        changes["fight"] = fight.evolve(caused=caused, overkill=over)
    batch = s.batch
    if batch is None:
        raise KeyError("AttacksResolved with no attacks being rolled")
    done = batch.done + 1
    changes["batch"] = None if done >= len(batch.groups) else attacks.Batch._make(
        (batch.combat, batch.step, batch.groups, batch.last, done))
    return s.evolve(**changes)


def shot_lost(s: State, unit: str, lost: int) -> Turn:
    """PANIC.TRIGGERS: the models ``unit`` has lost to shooting in this phase, counted
    for the panic test a quarter of the models lost to shooting calls for (from the phase's
    start)."""
    ctx = s.context
    before = ctx.shot_lost if ctx.shot_in == s.phase else {}
    return ctx.evolve(shot_lost={**before, unit: before.get(unit, 0) + lost}, shot_in=s.phase)


def order_chosen(s: State, e: ev.OrderChosen) -> State:
    fight = the_fight(s)
    changes: dict[str, Any] = {"next": {**fight.next, e.what: e.unit}}
    if e.what == "break_test":
        changes["tests"] = (e.unit, *(u for u in fight.tests if u != e.unit))
    return with_fight(s, **changes)


def allocated(s: State, e: ev.AttacksAllocated) -> State:
    fight = the_fight(s)
    done = fight.allocations
    return with_fight(s, allocations={**done, e.unit: (*done.get(e.unit, ()), dict(e.attacks))})


def leadership_tested(s: State, e: ev.LeadershipTested) -> State:
    if e.purpose == "panic":
        return with_context(s, panic=tuple(u for u in s.context.panic if u != e.unit),
                    panicked=(*s.context.panicked, e.unit))
    if e.purpose == "rally":
        return with_context(s, rallied=(*s.context.rallied, e.unit))
    if e.purpose == "restrain":   # what the unit does then is the rule's (state.intent)
        fight = the_fight(s)
        return with_fight(s, restraint={**fight.restraint, e.unit: e.passed})
    if e.purpose == "march" and not e.passed:   # MOVE.MARCH: it keeps its normal move
        return with_context(s, march_failed=(*s.context.march_failed, e.unit))
    if e.purpose == "reform":
        fight = the_fight(s)
        return with_fight(s, reform_tests={**fight.reform_tests, e.unit: e.passed})
    if e.purpose == "fear":   # SR.FEAR: failed, Weapon Skill 1 this round
        return with_fight(s, fear={**the_fight(s).fear, e.unit: e.passed})
    if e.purpose == "terror":   # SR.TERROR: failed, it may only flee
        return with_context(s, terror={**s.context.terror, e.unit: e.passed})
    return s


def round_ended(s: State, e: ev.CombatRoundEnded) -> State:
    combats = dict(s.combats)
    if e.combat in combats:  # the charge bonus (CR.CHARGE) lasts one round
        combats[e.combat] = combats[e.combat].evolve(round=combats[e.combat].round + 1,
                                                     chargers=(), hill=())
    return s.evolve(combats=combats, fight=None)


def character_joined(s: State, e: ev.CharacterJoined) -> State:
    """CHAR.JOIN: the character stands in its unit (no place of its own on the table)."""
    host = s.units[e.unit]
    c = s.units[e.character].evolve(status=Status.JOINED, joined=host.id, position=host.position,
                                    facing=host.facing)
    s = s.evolve(units={**s.units, c.id: c,
                        host.id: host.evolve(characters=(*host.characters, c.id))})
    if s.turn == 0:   # began the game in the unit
        return s
    return with_context(s, characters_moved=(*s.context.characters_moved, c.id))


def _alone_at_table(s: State, host: UnitState, c: UnitState) -> State:
    """CHAR.ALONE in table mode: the character alone touches the enemies its place in the
    front rank touched, as one model, each on the side that touched its unit."""
    units = dict(s.units)
    file = place_in_front(host, c.id)
    mine = []
    for enemy, side, models, first in host.touch:
        if side != "front" or not first <= file < first + models or enemy not in units:
            continue
        mine.append((enemy, "front", 1, 0))
        e = units[enemy]
        theirs = next(((sd, f) for x, sd, _, f in e.touch if x == host.id), None)
        if theirs is not None:
            units[enemy] = e.evolve(touch=(*e.touch, (c.id, theirs[0], 1, theirs[1])))
    units[c.id] = units[c.id].evolve(touch=tuple(mine))
    return s.evolve(units=units)


def character_left(s: State, e: ev.CharacterLeft) -> State:
    """CHAR.LEAVE, CHAR.ALONE: the character stands on its own again; alone in its unit's
    combat when the unit was destroyed around it."""
    host = s.units[e.unit]
    cmb = combat_holding(s, host.id)
    left = e.reason["code"] == "left"
    fighting = not left and cmb is not None
    where = {} if e.position is None else {"position": tuple(e.position), "facing": e.facing}
    c = s.units[e.character].evolve(status=Status.ENGAGED if fighting else Status.READY,
                                    joined=None, **where)
    out = s.evolve(units={**s.units, c.id: c, host.id: host.evolve(
        characters=tuple(x for x in host.characters if x != c.id))})
    if fighting and e.position is None:   # table mode: it fights on where it stood
        out = _alone_at_table(out, host, c)
    if fighting and cmb is not None:
        out = out.evolve(combats={**out.combats,
                                  cmb.id: cmb.evolve(units=(*cmb.units, c.id))})
    if left:
        out = with_context(out, characters_moved=(*out.context.characters_moved, c.id))
    return out


# every concept folder's own (parts.py), and those of the events kept here
APPLIERS: dict[type[Event], Any] = {
    **gathered("appliers", "APPLIERS"),
    ev.CharacterJoined: character_joined,
    ev.CharacterLeft: character_left,
    TurnBegan: turn_began,
    ev.UnitMoved: unit_moved,
    ev.UnitDestroyed: unit_destroyed,
    ev.UnitLeftTable: unit_left,
    ev.CombatBegan: combat_began,
    ev.CombatEnded: combat_ended,
    ev.ContactMeasured: contact_measured,
    ev.CombatJoined: combat_joined,
    ev.AttacksAllocated: allocated,
    ev.OrderChosen: order_chosen,
    ev.CombatRoundBegan: combat_round_began,
    ev.CombatRoundEnded: round_ended,
    ev.InitiativeStepBegan: step_began,
    DiceRolled: dice_rolled,
    ev.AttacksResolved: attacks_resolved,
    ev.LeadershipTested: leadership_tested,
}
