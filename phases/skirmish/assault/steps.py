"""The shooting phase and the assault sub-phase (SK.SHOOT, SK.DECLARE, SK.OVERWATCH,
SK.CHARGE_MOVE, SK.TERRAIN): what a player may do, and what each decision and roll causes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from regiment.core import geometry as geo
from regiment.core import measure
from regiment.core.about import Toward, kind, tagged
from regiment.core.commands import Command, EndPhase
from regiment.core.events import Event, RollRequested
from regiment.core.i18n import tr
from regiment.core.pending import Decision
from regiment.phases.common import sight

from .. import table
from ..commands import DeclareAssault, FireOverwatch, HoldOverwatch, Shoot
from ..events import (
    AssaultDeclared,
    AssaultRolled,
    MeleeJoined,
    ModelsMoved,
    OverwatchChosen,
    SquadShot,
    VolleyBegan,
)
from ..models import in_base_contact, terrain_penalty
from ..moves import spots
from ..rulings import ruled
from ..state import SkirmishState, Squad
from ..volleys import shooting_need, shots
from ..why import ASSAULT_ENDED, MOVED, written
from . import rules

if TYPE_CHECKING:
    from ..preset import SkirmishPreset

S = SkirmishState

# SK.CHARGE_MOVE: the charge roll carries the squad charged (an engine before 0.13.0: its id)
kind("toward", "charge")(Toward)


def enemies(state: S, squad: Squad) -> list[Squad]:
    return [s for s in state.squads.values() if s.player != squad.player and s.on_table]


# --- shooting -------------------------------------------------------------------------------


def may_shoot(state: S) -> list[Command]:
    """SK.SHOOT: each squad of the active player that is not locked in combat, has not shot
    and has a gun may fire at an enemy squad with a model in the gun's range."""
    out: list[Command] = []
    for s in state.squads.values():
        if s.player == state.player and s.status == "ready" and s.shot_at is None:
            out += [Shoot(by=state.player, unit=s.id, target=t.id) for t in enemies(state, s)
                    if t.status != "locked" and _in_range(state, s, t)
                    and (table.measured(state) or _seen(state, s, t))]
    return out


def _seen(state: S, s: Squad, t: Squad) -> bool:
    """SK.SHOOT (games from 0.13.0): a squad shoots only at a squad at least one of its models
    can see (before: at any squad in range, walls or none)."""
    return not ruled(state, "shoot_in_sight") or in_sight(state, s, t, "SK.SHOOT")


def _in_range(state: S, s: Squad, t: Squad) -> bool:
    """Whether a model of ``s`` has ``t`` in its gun's range; in table mode the players see
    it for themselves: the choice to shoot says so, and they count the models (SK.SHOOT)."""
    if table.measured(state):
        return bool(s.guns)
    return shots(state, s, t) > 0


def ask_shooting(state: S) -> Decision:
    return Decision(player=state.player, decision="shoot",
                    legal=(*may_shoot(state), EndPhase(by=state.player)))


def shoot(engine: SkirmishPreset, state: S, cmd: Shoot) -> list[Event]:
    engine.check_offered(state, cmd, "SK.SHOOT")
    s, t = state.squads[cmd.unit], state.squads[cmd.target]
    if table.measured(state) and not _seen(state, s, t):   # at a table the players look
        raise engine.illegal(state, cmd, tr("{unit} cannot see {target}: terrain blocks the "
                                             "sight", unit=s.name, target=t.name), "SK.SHOOT")
    need = shooting_need(s.profile["BS"])
    gun = s.guns[0]
    n = shots(state, s, t)
    events: list[Event] = [SquadShot(unit=s.id, target=t.id, shots=n, need=need)]
    if n:   # at the table no model may be in range after all: no dice, its shot spent
        events.append(VolleyBegan(kind="shooting", unit=s.id, target=t.id, dice=n, need=need,
                                  S=gun.S, AP=gun.AP))
    return engine.then(state, events, "shoot")


# --- declarations ---------------------------------------------------------------------------


def distances(state: S, squad: Squad, asked: tuple[str, ...] = ()) -> dict[str, float]:
    """GEO.DISTANCE to every enemy squad; in table mode only to the ``asked`` ones, measured
    by the players (0 for the others: the players' choice says they are within reach)."""
    if table.measured(state):
        return {t.id: table.distance(state, squad, t, "SK.DECLARE", lambda: 0.0)
                if t.id in asked else 0.0 for t in enemies(state, squad)}
    far = {t.id: rules.gap(squad.models, t.models) for t in enemies(state, squad)}
    if measure.heard:
        for t in asked:
            if t in far:
                measure.tell(measure.key("distance", squad.id, t), format(round(far[t], 4), "g"))
    return far


def in_sight(state: S, squad: Squad, target: Squad, rule: str) -> bool:
    """SK.DECLARE, SK.OVERWATCH, GEO.SIGHT (seed 004: "не может заявлять своей целью
    вражеский отряд, который он не видит"): at least one model of ``squad`` sees a model of
    ``target`` past the sight-blocking terrain; at a table with such terrain, the players
    say."""
    def geometric() -> bool:
        walls = geo.walls_of(sight.walls(state))
        return any(geo.clear_line((m[0], m[1]), (t[0], t[1]), walls)
                   for m in squad.models for t in target.models)
    return sight.sees(state, rule, squad, target.id, geometric)


def rapid_fired(state: S, s: Squad) -> bool:
    """SK.SHOOT: the squad fired a Rapid Fire gun this turn (games from engine 0.12.0)."""
    return s.shot_at is not None and bool(s.guns) and s.guns[0].type == "rapid_fire" and \
        ruled(state, "weapon_types")


def may_assault(state: S) -> list[Command]:
    """SK.DECLARE: every charge open to the active player's squads that are not locked and
    have not declared, a primary target and no secondary or one, each a squad it can see."""
    out: list[Command] = []
    for s in state.squads.values():
        if s.player != state.player or s.status != "ready" or s.declared:
            continue
        far = distances(state, s)
        if not table.measured(state):   # at a table, asked of the players as it declares
            far = {t: d for t, d in far.items() if in_sight(state, s, state.squads[t],
                                                            "SK.DECLARE")}
        for p in far:
            for sec in ("", *far):
                if sec != p and not rules.declare_problem(s.id, p, sec or None, s.shot_at,
                                                          far, rapid_fired(state, s)):
                    out.append(DeclareAssault(by=state.player, unit=s.id, primary=p,
                                              secondary=sec))
    return out


def ask_declaration(state: S) -> Decision:
    return Decision(player=state.player, decision="declare_assault",
                    legal=(*may_assault(state), EndPhase(by=state.player)))


def may_overwatch(state: S, target: Squad, charger: Squad) -> bool:
    """SK.OVERWATCH: a target fires overwatch once an assault phase, when it is free (not
    locked, not falling back) and its gun reaches the charger."""
    if target.status != "ready" or target.overwatched or not target.guns:
        return False
    if not in_sight(state, target, charger, "SK.OVERWATCH"):   # it must see its charger
        return False
    # at a table: can its gun reach? (how many of its models fire: asked when it fires)
    return table.yes_no(state, measure.key("reaches", target.id, charger.id), "SK.OVERWATCH",
                        target, charger.id,
                        lambda: shots(state, target, charger, "SK.OVERWATCH") > 0)


def declare(engine: SkirmishPreset, state: S, cmd: DeclareAssault) -> list[Event]:
    engine.check_turn(state, cmd, "SK.DECLARE")
    s = state.squads.get(cmd.unit)
    if s is None or s.player != cmd.by or s.status != "ready" or s.declared:
        raise engine.illegal(state, cmd, tr("{unit} may not declare an assault now: it must "
                                             "be a squad of yours, free, that has not declared",
                                             unit=cmd.unit), "SK.DECLARE")
    far = distances(state, s, (cmd.primary, cmd.secondary))
    for t in (cmd.primary, cmd.secondary):
        if t and t not in far:
            raise engine.illegal(state, cmd, tr("{unit} is not an enemy squad on the table",
                                                 unit=t), "SK.DECLARE")
    why = rules.declare_problem(s.id, cmd.primary, cmd.secondary or None, s.shot_at, far,
                                rapid_fired(state, s))
    hidden = next((t for t in (cmd.primary, cmd.secondary)
                   if t and not in_sight(state, s, state.squads[t], "SK.DECLARE")), None)
    if not why and hidden is not None:
        why = tr("{unit} cannot see {target}: terrain blocks the sight", unit=s.name,
                 target=state.squads[hidden].name)
    if why:
        raise engine.illegal(state, cmd, why, "SK.DECLARE")
    targets = tuple(t for t in (cmd.primary, cmd.secondary) if t)
    events: list[Event] = [AssaultDeclared(
        unit=s.id, primary=cmd.primary, secondary=cmd.secondary or None,
        disordered=rules.disordered(cmd.secondary or None),
        overwatch=tuple(t for t in targets if may_overwatch(state, state.squads[t], s)))]
    return engine.then(state, events, "declare_assault")


# --- overwatch ------------------------------------------------------------------------------


def ask_overwatch(state: S) -> Decision | None:
    """SK.OVERWATCH: the targets' owner picks the order: each target fires or holds."""
    a = state.assault
    if a is None or not a.overwatch or state.volley is not None:
        return None
    owner = state.squads[a.overwatch[0]].player
    legal: list[Command] = []
    for t in a.overwatch:
        legal += [FireOverwatch(by=owner, unit=t), HoldOverwatch(by=owner, unit=t)]
    return Decision(player=owner, decision="overwatch", legal=tuple(legal))


def overwatch(engine: SkirmishPreset, state: S, cmd: FireOverwatch | HoldOverwatch
              ) -> list[Event]:
    engine.check_offered(state, cmd, "SK.OVERWATCH")
    a = state.assault
    assert a is not None
    t, charger = state.squads[cmd.unit], state.squads[a.unit]
    fire = isinstance(cmd, FireOverwatch)
    n = shots(state, t, charger, "SK.OVERWATCH") if fire else 0
    events: list[Event] = [OverwatchChosen(unit=t.id, against=charger.id, fire=fire, shots=n)]
    if fire:
        gun = t.guns[0]
        events.append(VolleyBegan(kind="overwatch", unit=t.id, target=charger.id, dice=n,
                                  need=rules.SNAP_SHOT, S=gun.S, AP=gun.AP))
    return engine.then(state, events, cmd.name)


# --- the charge move ------------------------------------------------------------------------


def drive_charge(state: S) -> list[Event]:
    """SK.CHARGE_MOVE: roll the charge range, unless overwatch left no charger."""
    a = state.assault
    if a is None:
        return []
    if not state.squads[a.unit].on_table:
        return [AssaultRolled(unit=a.unit, faces=(), first=-1, gap=0.0, reached=False,
                              reason=written(ASSAULT_ENDED, state, "none_left"))]
    return [RollRequested(purpose="charge", unit=a.unit, player=state.player, dice=2,
                          about=tagged(Toward(a.primary)))]


def charge_rolled(state: S, faces: tuple[int, ...]) -> list[Event]:
    """SK.CHARGE_MOVE, SK.TERRAIN: where the models go, if the first one reaches."""
    a = state.assault
    assert a is not None
    s, p = state.squads[a.unit], state.squads[a.primary]
    sec = state.squads[a.secondary] if a.secondary else None
    reach = float(sum(faces))
    at_table = table.measured(state)
    first = 0 if at_table else rules.first_charger(s.models, p.models)
    gap = table.distance(state, s, p, "SK.CHARGE_MOVE",
                         lambda: min(geo.circle_gap(s.models[first], t) for t in p.models))
    if gap > reach + geo.EPS:
        return [AssaultRolled(unit=s.id, faces=faces, first=first, gap=round(gap, 4),
                              reached=False, reason=written(
                                  ASSAULT_ENDED, state, "beyond_reach", gap=round(gap, 1),
                                  target=p.id, reach=int(reach)))]
    moved = None if at_table else rules.charge_moves(
        s.models, p.models, sec.models if sec and sec.on_table else (), state.others(s.id),
        [c for o in state.squads.values() if o.player == s.player and o.on_table
         and o.id != s.id for c in o.models], reach)
    if not table.yes_no(state, measure.key("room", s.id, p.id), "SK.CHARGE_MOVE", s, p.id,
                        lambda: moved is not None):   # in reach, but every spot is taken
        return [AssaultRolled(unit=s.id, faces=faces, first=first, gap=round(gap, 4),
                              reached=False, reason=written(
                                  ASSAULT_ENDED, state, "no_spot", target=p.id,
                                  reach=int(reach)))]
    difficult = table.terrain(state, s, lambda: rules.through(
        list(zip(s.models, moved or (), strict=True)), state.table.get("difficult", ())))
    melee = state.melee_of(p.id)
    locked_before = melee is not None and melee.since < state.round
    slowed = terrain_penalty(difficult, locked_before)
    # SK.CHARGE_MOVE (seed 004): the models move "к первичной и вторичной целям", to the
    # primary and secondary targets only: no other squad can be touched by the charge
    others = [t for t in enemies(state, s) if t.id != p.id and sec is not None
              and t.id == sec.id]
    also = set(table.touched(state, s, p.id, others, lambda: [
        t.id for t in others if any(in_base_contact(m, t.models) for m in moved or ())]))
    foes = [t for t in enemies(state, s) if t.id == p.id or t.id in also]
    events: list[Event] = [
        AssaultRolled(unit=s.id, faces=faces, first=first, gap=round(gap, 4), reached=True,
                      difficult=difficult, slowed=slowed)]
    if moved is not None:   # at the table the players move them: no positions to record
        events.append(ModelsMoved(unit=s.id, reason=MOVED.make("charge"), models=spots(moved)))
    events.append(MeleeJoined(combat=f"{state.round}-{s.id}",
                              units=(s.id, *(t.id for t in foes)), since=state.round))
    return events
