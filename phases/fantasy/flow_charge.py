"""The movement phase's flow: declarations, reactions, redirects, charge moves, rally, panic,
and off-table units coming back. Outcomes come from ``charge`` and ``units``; this module
only sequences them into events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from shapely.geometry import Polygon

from regiment.core import geometry as geo
from regiment.core.commands import Command
from regiment.core.events import Event, RollRequested
from regiment.core.fold import fold
from regiment.core.i18n import tr
from regiment.core.pending import Decision
from regiment.core.state import Awaiting

from . import attacks, charge, contacts, table
from .appliers import to_move
from .characters import unit_leadership
from .combat import combat_holding
from .commands import DeclareCharge, DeclineRedirect, EndCharges, MoveCharger, React, Redirect
from .events import (
    ChargeDeclared,
    ChargeReacted,
    ChargeRedirected,
    ChargeRolled,
    CombatBegan,
    CombatJoined,
    DangerousTerrainTested,
    InitiativeStepBegan,
    LeadershipTested,
    PanicCaused,
    RedirectTested,
    SideDrawn,
    UnitCaught,
    UnitDestroyed,
    UnitFled,
    UnitMoved,
    UnitRallied,
    UnitReturned,
)
from .faces import counted, dropped
from .flow import Flow
from .result import ld_test
from .rolls import FleeRoll, SideRoll, Toward, ask, read
from .rulings import ruled
from .specials import IMMUNE_TO_PSYCHOLOGY, has
from .state import State, UnitState
from .units import ALIVE, box, missile, stands_on_another, too_few_to_rally
from .why import CHARGE_FAILED, DESTROYED, PANIC, written

PANIC_RANGE = 6.0


def moved(uid: str, b: geo.Box | None, reason: str, dist: float = 0.0) -> UnitMoved:
    """A move to ``b``; in table mode (no ``b``) only how far, as the players made it."""
    if b is None:
        return UnitMoved(unit=uid, reason=reason, position=None, facing=None,
                         distance=round(dist, 4))
    return UnitMoved(unit=uid, reason=reason, position=(b.x, b.y), facing=b.facing,
                     distance=round(dist, 4))


DRAW = "draw"   # a side roll made before any declaration (CH.CHARGE_MOVE)


class Caught(NamedTuple):
    box: geo.Box
    run: float


class ChargeFlow:
    """The charge sub-phase, rally and compulsory moves, panic, and the flee moves the combat
    part asks for (CH.*, PANIC.*, RALLY.*, FP.FLEE_ROLL, FP.FLEE_THROUGH)."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow   # the machine, the fold and the other part: one engine a preset

    def handlers(self) -> dict[str, Any]:
        return {"declare_charge": self._declare_charge, "react": self._react,
                "redirect": self._redirect, "decline_redirect": self._decline_redirect,
                "end_charges": self._end_charges, "move_charger": self._move_charger}

    def rolls(self) -> dict[str, dict[str, Any]]:
        """Each step's rolls, and what each leads to: the step that asked goes on."""
        return {"declaration": {"random_side": self._side_rolled},
                "reactions": {"flee": self.flee_rolled},
                "redirect": {"redirect": self._redirect_rolled},
                "charge_moves": {"charge_range": self._range_rolled},
                "rally": {"rally": self._rally_rolled, "flee": self.flee_rolled}}

    def anywhere(self) -> dict[str, Any]:
        """Rolls of what may happen in any step: a panic test and the flight it may cause
        (PANIC.TRIGGERS), a flight through the enemy (FP.FLEE_THROUGH)."""
        return {"panic": self._panic_rolled, "flee": self.flee_rolled,
                "dangerous_terrain": self._dangerous_rolled}

    def guards(self) -> dict[str, Callable[[State], bool]]:
        return {}

    def drives(self) -> dict[str, Any]:
        # FP.OFF_TABLE: fantasy8 brings pursuers back in the remaining moves, as ambushers;
        # fantasy-classic at the start of the movement phase, as reinforcements
        drives: dict[str, Any] = {"rally": self._drive_rally, "declaration": self._drive_sides}
        returns_in = self.flow.variant.returns_in
        if returns_in in drives:   # both in one leaf: the pursuers come back, then the dice
            first = drives[returns_in]
            drives[returns_in] = lambda s: self._drive_returns(s) or first(s)
        else:
            drives[returns_in] = self._drive_returns
        return drives

    # --- declarations and reactions (CH.DECLARE, CH.REACT, CH.REDIRECT) ---------------------

    def _declare_charge(self, state: State, cmd: DeclareCharge) -> list[Event]:
        self.flow.check_turn(state, cmd, "CH.DECLARE")
        unit = self.flow.unit_of(state, cmd, cmd.unit, "CH.DECLARE")
        target = self.flow.unit_of(state, cmd, cmd.target, "CH.DECLARE")
        why = charge.why_cannot_charge(state, unit) or charge.eligible_target(state, unit, target)
        if not why and table.measured(state) and not charge.in_sight(state, unit, target):
            why = tr("{unit} cannot see {target}", unit=unit.name, target=target.name)
        if why:
            raise self.flow.illegal(state, cmd, why, "CH.DECLARE")
        return self._declared(state, unit, target, "declare_charge")

    def _declared(self, state: State, unit: UnitState, target: UnitState, trigger: str
                  ) -> list[Event]:
        sides = table.charge_sides(state, unit, target)
        drawn = state.context.drawn.get((unit.id, target.id))
        if len(sides) > 1 and drawn in sides:   # CH.CHARGE_MOVE: drawn before declaring
            sides = (drawn,)
        if len(sides) > 1:  # CH.CHARGE_MOVE: an even split is settled by a die first
            return [ask("random_side", unit.id, unit.player, 1,
                        SideRoll(target.id, trigger, (sides[0], sides[1])))]
        return self.flow.then(state, [ChargeDeclared(unit=unit.id, target=target.id,
                                                 side=sides[0])], trigger)

    def _side_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                     ) -> list[Event]:
        roll = read(SideRoll, aw)
        side = roll.sides[0] if faces[0] <= 3 else roll.sides[1]
        if roll.trigger == DRAW:   # before any declaration: kept for when it is declared
            return self.flow.finish(state, [SideDrawn(unit=aw.unit or "", target=roll.target,
                                                       side=side)])
        return self.flow.then(state, [ChargeDeclared(unit=aw.unit or "", target=roll.target,
                                                 side=side)], roll.trigger)

    def _drive_sides(self, state: State) -> list[Event]:
        """CH.CHARGE_MOVE (seed 003, games from engine 0.9.0): "если модели равномерно
        расположены по двум секторам, то вы должны случайным образом выбрать ту сторону ...
        до объявления всех нападений": before the active player declares any charge, a die
        for every unit that may charge a target with its front split evenly between two of
        that target's sides. (At a table the players see the split when they declare: the
        die is rolled then.)"""
        if not ruled(state, "sides_drawn_first") or table.measured(state) or \
                state.context.targets:   # a charge is declared already: too late to draw
            return []
        drawn = state.context.drawn
        for unit in state.units.values():
            if charge.why_cannot_charge(state, unit):
                continue
            for t in state.units.values():
                if (unit.id, t.id) in drawn or charge.eligible_target(state, unit, t):
                    continue
                sides = table.charge_sides(state, unit, t)
                if len(sides) > 1:
                    return [ask("random_side", unit.id, unit.player, 1,
                                SideRoll(t.id, DRAW, (sides[0], sides[1])))]
        return []

    def _react(self, state: State, cmd: React) -> list[Event]:
        charger_id, target_id = _declaring(state)
        target, charger = state.units[target_id], state.units[charger_id]
        if cmd.unit != target_id:
            raise self.flow.illegal(state, cmd, tr("{unit} must react first", unit=target.name),
                                     "CH.REACT")
        if cmd.by != target.player:
            raise self.flow.illegal(state, cmd, tr("{unit} is {player}'s unit",
                                                    unit=target.name, player=target.player),
                                     "CH.REACT")
        options = charge.reaction_options(state, target, charger)
        if cmd.reaction == "stand_and_shoot" and "stand_and_shoot" in options and \
                table.measured(state) and \
                charge.stand_and_shoot(state, target, charger, measure_now=True):
            # TABLE.ASK, CH.REACT: the tape says it may not shoot (too close, out of range):
            # it holds, as the players would at the table
            cmd = React(by=cmd.by, unit=cmd.unit, reaction="hold")
        if cmd.reaction not in options:
            why = (charge.stand_and_shoot(state, target, charger)
                   if cmd.reaction == "stand_and_shoot" else None)
            why = why or tr("{unit} may not {reaction}", unit=target.name,
                            reaction=cmd.reaction.replace("_", " "))
            raise self.flow.illegal(state, cmd, why, "CH.REACT")
        events: list[Event] = [ChargeReacted(unit=target.id, reaction=cmd.reaction,
                                             charger=charger_id)]
        if cmd.reaction == "flee":
            events.append(ask("flee", target.id, target.player, charge.movement_dice(target),
                              FleeRoll("charge_reaction", charger_id)))
        elif cmd.reaction == "stand_and_shoot":
            events.append(InitiativeStepBegan(combat=None, step="stand_and_shoot",
                                              strikes=(self._volley(state, target, charger),)))
        return self.flow.then(state, events, "react")

    def _volley(self, state: State, shooter: UnitState, charger: UnitState
                ) -> dict[str, Any]:
        """CH.REACT, ATK.TO_HIT_SHOOTING: the front rank shoots at -1 (and -1 more at long
        range, beyond half the weapon's range)."""
        weapon = missile(shooter)
        assert weapon is not None
        _, reach, s, piercing = weapon
        long_range = table.gap(state, shooter, charger, "CH.REACT") > reach / 2
        hit, hit2 = attacks.to_hit_shooting(shooter.profile["BS"], 1 + long_range)
        return {"unit": shooter.id, "target": charger.id, "attacks": min(shooter.files,
                                                                          shooter.models),
                "challenge": False, "shooting": True, "hit": hit, "hit2": hit2,
                "reroll": False, "wound": attacks.to_wound(s, charger.profile["T"]),
                "armour": attacks.armour_need(charger.armour, s, 0, piercing),
                "ward": attacks.ward_need(charger.ward), "rolls": {}}

    def _redirect(self, state: State, cmd: Redirect) -> list[Event]:
        """CH.REDIRECT: from engine 0.9.0 (seed 003) the charger takes its Leadership test
        first (``redirect`` with no target) and names the new target only once it passed;
        before, the target was named with the attempt."""
        if state.context.redirecting != cmd.unit:   # no test passed yet: this is the attempt
            if ruled(state, "redirect_test_first") and cmd.target:
                unit = self.flow.unit_of(state, cmd, cmd.unit, "CH.REDIRECT")   # (any unit)
                raise self.flow.illegal(state, cmd, tr(
                    "{unit} takes its Leadership test first; it names its new target once it "
                    "passes", unit=unit.name), "CH.REDIRECT")
            self.flow.check_offered(state, cmd, "CH.REDIRECT")
            unit = state.units[cmd.unit]
            return [ask("redirect", unit.id, unit.player, 2, Toward(cmd.target))]
        self.flow.check_offered(state, cmd, "CH.REDIRECT")   # the target, after a pass
        unit = state.units[cmd.unit]
        if table.measured(state) and not charge.in_sight(state, unit, state.units[cmd.target]):
            raise self.flow.illegal(state, cmd, tr("{unit} cannot see {target}",
                                                    unit=unit.name,
                                                    target=state.units[cmd.target].name),
                                     "CH.DECLARE")
        return self.flow.then(state, [ChargeRedirected(
            unit=unit.id, from_=unit.declared or "", to=cmd.target, passed=True,
            leadership=unit_leadership(state, unit))], "redirect")

    def _redirect_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                         ) -> list[Event]:
        """CH.REDIRECT: a Leadership test; on a pass the charger may declare again at once
        (engine 0.9.0 on), or (before) turns on the target it named, which reacts at once."""
        unit = state.units[aw.unit or ""]
        passed, _, _ = ld_test(unit_leadership(state, unit), 0, faces)
        if ruled(state, "redirect_test_first"):
            tested = RedirectTested(unit=unit.id, target=unit.declared or "", passed=passed,
                                    faces=faces, leadership=unit_leadership(state, unit))
            return self.flow.then(state, [tested], "redirect")
        event = ChargeRedirected(unit=unit.id, from_=unit.declared or "",
                                 to=read(Toward, aw).unit,
                                 passed=passed, faces=faces,
                                 leadership=unit_leadership(state, unit))
        return self.flow.then(state, [event], "redirect")

    def _decline_redirect(self, state: State, cmd: DeclineRedirect) -> list[Event]:
        self.flow.check_offered(state, cmd, "CH.REDIRECT")
        return self.flow.fire(state, "decline_redirect")

    def flee_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                    ) -> list[Event]:
        """CH.REACT, PANIC.TRIGGERS, RALLY.TEST: a unit flees its roll (a broken unit's
        flight is the pursuit's step, ``flee_rolls``)."""
        unit = state.units[aw.unit or ""]
        dist = sum(counted(faces))
        reason, source = (flee := read(FleeRoll, aw)).reason, flee.source
        away = state.units.get(source) or table.nearest_enemy(state, unit, "FP.FLEE_DIRECTION")
        events: list[Event] = [UnitFled(unit=unit.id, distance=dist, reason=reason, dice=faces,
                                        away_from=away.id if away else "")]
        if away is not None:
            events += self.flee_events(state, unit, away, dist, reason)
        return self.flow.finish(state, events)

    def flee_events(self, state: State, unit: UnitState, away: UnitState | None, dist: float,
                    reason: str) -> list[Event]:
        """The flee move, or the table edge that destroys a fleeing unit (FP.OFF_TABLE); a
        unit with no enemy to flee from turns about on its own centre."""
        end, off, through = table.flee(
            state, unit, away, dist,
            lambda: charge.flee_move(state, unit, geo.centre(box(away if away else unit)), dist))
        events: list[Event] = [moved(unit.id, end, "flee", dist)]
        if off:
            events.append(UnitDestroyed(unit=unit.id,
                                        reason=written(DESTROYED, state, "fled_off_table")))
            events += self.panic_after(fold(state, events, self.flow.fold_table), [unit.id],
                                       "was destroyed")
            return events
        foes = [u for u in through if state.units[u].player != unit.player]
        if foes:  # FP.FLEE_THROUGH: every model takes a dangerous terrain test
            events.append(ask("dangerous_terrain", unit.id, unit.player, unit.models,
                              Toward(foes[0])))
        return events

    def _dangerous_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                          ) -> list[Event]:
        """FP.FLEE_THROUGH: each 1 costs a model a wound, with no save."""
        u = state.units[aw.unit or ""]
        ones = sum(1 for f in faces if f == 1)
        lost = min(ones, u.models * u.profile["W"] - u.wounded)
        slain = (u.wounded + lost) // u.profile["W"]
        events: list[Event] = [DangerousTerrainTested(unit=u.id, faces=faces,
                                                      through=read(Toward, aw).unit,
                                                      lost=lost, slain=slain)]
        if slain >= u.models:
            events.append(UnitDestroyed(unit=u.id,
                                        reason=written(DESTROYED, state, "dangerous_terrain")))
        return self.flow.finish(state, events)

    def _end_charges(self, state: State, cmd: EndCharges) -> list[Event]:
        self.flow.check_turn(state, cmd, "CH.DECLARE")
        return self.flow.fire(state, "end_charges")

    # --- charge moves (CH.MOVE_ORDER, CH.RANGE, CH.CHARGE_MOVE, CH.FAILED) ---------------

    def _move_charger(self, state: State, cmd: MoveCharger) -> list[Event]:
        """CH.MOVE_ORDER: the active player picks the next charger; it rolls its range."""
        self.flow.check_turn(state, cmd, "CH.MOVE_ORDER")
        self.flow.check_offered(state, cmd, "CH.MOVE_ORDER")
        unit = state.units[cmd.unit]
        return [ask("charge_range", unit.id, unit.player, charge.movement_dice(unit),
                    Toward(cmd.target or unit.declared or ""))]

    def _range_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                      ) -> list[Event]:
        unit = state.units[aw.unit or ""]
        target = state.units[read(Toward, aw).unit]
        reach = charge.charge_range(unit, faces)
        gone = target.status not in ALIVE
        dist = 0.0 if gone and table.measured(state) else \
            table.gap(state, unit, target,
                      "CH.CATCH_FLEEING" if target.status == "fleeing" else "CH.RANGE")
        dice = counted(faces)
        base: dict[str, Any] = {"unit": unit.id, "target": target.id, "dice": dice,
                                "range": reach, "distance": dist}
        if ruled(state, "story_told_whole") and len(faces) > len(dice):
            base["dropped"] = dropped(faces)   # Swiftstride: told as dropped
        if gone:
            why = written(CHARGE_FAILED, state, "target_gone", target=target.id)
            events: list[Event] = [ChargeRolled(**base, success=False, why=why)]
            return self.flow.finish(state, events + self._failed(state, unit, target, faces))
        if target.status == "fleeing":  # CH.CATCH_FLEEING
            if reach < dist:
                events = [ChargeRolled(**base, success=False)]
                return self.flow.finish(state, events + self._failed(state, unit, target, faces))
            b = None if table.measured(state) else self._caught_at(state, unit, target, dist)
            events = [ChargeRolled(**base, success=True), UnitCaught(unit=target.id, by=unit.id),
                      UnitDestroyed(unit=target.id,
                                    reason=written(DESTROYED, state, "caught_fleeing")),
                      moved(unit.id, b.box if b else None, "charge",
                            b.run if b else dist)]
            events += self.panic_after(fold(state, events, self.flow.fold_table), [target.id],
                                       "was destroyed")
            return self.flow.finish(state, events)
        side = state.context.sides.get(unit.id) or "front"
        if reach < dist:   # out of range: where it would have landed does not matter
            events = [ChargeRolled(**base, success=False)]
            return self.flow.finish(state, events + self._failed(state, unit, target, faces))
        end, why = table.room(state, unit, target, side,
                              lambda: charge.plan_charge(state, unit, target, side))
        if why:
            events = [ChargeRolled(**base, success=False, why=why)]
            return self.flow.finish(state, events + self._failed(state, unit, target, faces))
        hill = self._down_hill(state, unit, end)
        events = [ChargeRolled(**base, success=True), moved(unit.id, end, "charge", dist)]
        joined = self._joined(state, unit, target, end, hill)
        events.append(joined)
        events += contacts.charged(fold(state, events, self.flow.fold_table), unit, target, side,
                                   joined)
        return self.flow.finish(state, events)

    def _caught_at(self, state: State, unit: UnitState, target: UnitState, dist: float
                   ) -> Caught:
        """CH.CATCH_FLEEING: the charger runs straight at the fleer it caught; from engine
        0.5.0 it stops at a unit in its way (GEO.NO_OVERLAP)."""
        heading = geo.bearing(box(unit).position, geo.centre(box(target)))
        if ruled(state, "no_overlap"):
            others = [box(o) for o in state.units.values() if o.id not in (unit.id,
                      target.id) and o.status in ALIVE]
            dist = round(geo.clear_run(box(unit), heading, dist, others), 4)
        return Caught(geo.rounded(geo.moved(box(unit), dist, heading)), dist)

    def _down_hill(self, state: State, unit: UnitState, end: geo.Box | None) -> bool:
        """CR.CHARGE: the charger came down off a hill: half on one before, less after."""
        def geometric() -> bool:
            hills = hill_regions(state)
            return end is not None and \
                geo.area_share(box(unit), hills) >= 0.5 > geo.area_share(end, hills)

        return table.down_hill(state, unit, geometric)

    def _joined(self, state: State, unit: UnitState, target: UnitState, end: geo.Box | None,
                hill: bool) -> CombatBegan | CombatJoined:
        """A new combat, or (the target or another enemy the charger now touches already
        fighting) the combat it joins, with any other combat it links to it."""
        touched = [target.id, *table.also_touched(state, unit, target, end)]
        linked = list(dict.fromkeys(c.id for uid in touched
                                    for c in (combat_holding(state, uid),) if c is not None))
        on_hill = (unit.id,) if hill else ()
        if not linked:
            return CombatBegan(combat=f"{state.turn}-{unit.id}-{target.id}",
                               units=(unit.id, target.id), chargers=(unit.id,), hill=on_hill)
        joining = (unit.id,) if target.status == "engaged" else (unit.id, target.id)
        return CombatJoined(combat=linked[0], units=joining, chargers=(unit.id,), hill=on_hill,
                            merged=tuple(linked[1:]))

    def _failed(self, state: State, unit: UnitState, target: UnitState,
                faces: tuple[int, ...]) -> list[Event]:
        if table.measured(state):   # CH.FAILED: the players move it; no position to record
            return [moved(unit.id, None, "failed_charge", float(max(faces)))]
        end, run = charge.failed_move(state, unit, target, faces)
        return [moved(unit.id, end, "failed_charge", run)]

    # --- panic, rally, returns ---------------------------------------------------------------

    def panic_after(self, state: State, causes: list[str], what: str) -> list[Event]:
        """PANIC.TRIGGERS: friends within 6" of a unit that broke or was destroyed test."""
        out: list[Event] = []
        queued = set(state.context.panic) | set(state.context.panicked)
        for cid in causes:
            cause = state.units[cid]
            near = table.within(state, cause, [
                u for u in state.units.values()
                if u.player == cause.player and u.id != cid and u.status == "ready"
                and u.id not in queued and not has(u, IMMUNE_TO_PSYCHOLOGY)],
                PANIC_RANGE, "PANIC.TRIGGERS")
            if near:
                queued |= set(near)
                code = "destroyed_near" if what == "was destroyed" else "broke_near"
                out.append(PanicCaused(units=tuple(near), cause=cid,
                                       reason=written(PANIC, state, code, unit=cid)))
        return out

    def drive_panic(self, state: State) -> list[Event]:
        uid = state.context.panic[0]
        u = state.units[uid]
        return [RollRequested(purpose="panic", unit=uid, player=u.player, dice=2)]

    def _panic_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                      ) -> list[Event]:
        return self._ld_then_flee(state, aw, faces, "panic")

    def _ld_then_flee(self, state: State, aw: Awaiting, faces: tuple[int, ...],
                      purpose: str) -> list[Event]:
        u = state.units[aw.unit or ""]
        passed, need, insane = ld_test(unit_leadership(state, u), 0, faces)
        if purpose == "rally" and too_few_to_rally(u):  # RALLY.TEST: 25 % or fewer left
            passed = insane = tuple(faces) == (1, 1)
            need = 1
        events: list[Event] = [LeadershipTested(unit=u.id, purpose=purpose,
                                                leadership=unit_leadership(state, u), penalty=0,
                                                faces=faces, passed=passed, needs=need,
                                                insane=insane)]
        if passed:
            if purpose == "rally":  # RALLY.TEST: it rallies and turns to face the nearest foe
                events.append(UnitRallied(unit=u.id))
                # the players turn it at the table; only geometry turns it here
                foe = None if table.measured(state) else charge.nearest_enemy(state, u)
                if foe is not None:
                    b = geo.pivoted(box(u), geo.bearing(geo.centre(box(u)),
                                                        geo.centre(box(foe))))
                    if not (stands_on_another(state, u, b) and
                            ruled(state, "no_overlap")):   # GEO.NO_OVERLAP
                        events.append(moved(u.id, geo.rounded(b), "rally"))
        else:
            events.append(ask("flee", u.id, u.player, charge.movement_dice(u),
                              FleeRoll(purpose)))
        return self.flow.finish(state, events)

    def _drive_rally(self, state: State) -> list[Event]:
        """RALLY.TEST: each fleeing unit of the active player tests, one after another."""
        done = state.context.rallied
        for u in state.units.values():
            if u.player == state.player and u.status == "fleeing" and u.id not in done:
                return [RollRequested(purpose="rally", unit=u.id, player=u.player, dice=2)]
        return []

    def _rally_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                      ) -> list[Event]:
        return self._ld_then_flee(state, aw, faces, "rally")

    def _drive_returns(self, state: State) -> list[Event]:
        """FP.OFF_TABLE: pursuers that left the table come back in their player's next
        movement phase, rear rank centred on the point they left by, facing the table."""
        for u in state.units.values():
            if u.player == state.player and u.status == "off_table" and (
                    u.left_at or table.measured(state)):   # at the table: where it left
                if table.measured(state):   # the players place it where it left
                    return [UnitReturned(unit=u.id, position=None, facing=None)]
                b = return_box(state, u)
                return [UnitReturned(unit=u.id, position=(b.x, b.y), facing=b.facing)]
        return []

    # --- what the movement phase waits for -----------------------------------------------

    def asks(self) -> dict[str, Callable[[State], Decision | None]]:
        """What the game asks in each leaf of the charge sub-phase."""
        return {"declaration": self._ask_declaration, "reactions": self._ask_reaction,
                "redirect": self._ask_redirect, "redirect_target": self._ask_redirect_target,
                "charge_moves": self._ask_charge_move}

    def _ask_declaration(self, state: State) -> Decision:
        """CH.DECLARE: every charge the active player may declare, or no more."""
        p = state.player
        legal: list[Command] = []
        for unit in state.units.values():
            if charge.why_cannot_charge(state, unit):
                continue
            legal += [DeclareCharge(by=p, unit=unit.id, target=t.id)
                      for t in state.units.values()
                      if not charge.eligible_target(state, unit, t)]
        return Decision(player=p, decision="declare_charge", legal=(*legal, EndCharges(by=p)))

    def _ask_reaction(self, state: State) -> Decision:
        """CH.REACT: the target's player answers the declaration at once."""
        charger_id, target_id = _declaring(state)
        target = state.units[target_id]
        return Decision(player=target.player, decision="react",
                        legal=tuple(React(by=target.player, unit=target.id, reaction=r)
                                    for r in charge.reaction_options(
                                        state, target, state.units[charger_id])))

    def _ask_redirect(self, state: State) -> Decision:
        """CH.REDIRECT: the charger of a unit that fled may try to redirect (from engine 0.9.0
        a Leadership test first; before, at a target named with the attempt)."""
        p = state.player
        unit = state.units[_last(state)[0]]
        options: list[Command] = [Redirect(by=p, unit=unit.id)] \
            if ruled(state, "redirect_test_first") else \
            [Redirect(by=p, unit=unit.id, target=t.id)
             for t in charge.redirect_targets(state, unit)]
        return Decision(player=p, decision="redirect",
                        legal=(*options, DeclineRedirect(by=p, unit=unit.id)))

    def _ask_redirect_target(self, state: State) -> Decision:
        """CH.REDIRECT: a charger that passed its test declares a charge at once at another
        eligible target, or keeps after its first."""
        p = state.player
        unit = state.units[state.context.redirecting or _last(state)[0]]
        return Decision(player=p, decision="redirect_target", legal=(
            *(Redirect(by=p, unit=unit.id, target=t.id)
              for t in charge.redirect_targets(state, unit)),
            DeclineRedirect(by=p, unit=unit.id)))

    def _ask_charge_move(self, state: State) -> Decision:
        """CH.MOVE_ORDER: the active player picks the next charger (and, CH.REDIRECT, which of
        two fleeing targets it goes after)."""
        p = state.player
        moves: list[Command] = []
        for uid in to_move(state):
            u = state.units[uid]
            if u.status != "ready":
                continue
            targets = state.context.targets.get(uid, ())
            fled = [t for t in targets if state.units[t].status == "fleeing"]
            if len(targets) > 1 and len(fled) == len(targets):
                moves += [MoveCharger(by=p, unit=uid, target=t) for t in targets]
            else:
                moves.append(MoveCharger(by=p, unit=uid))
        return Decision(player=p, decision="move_charger", legal=tuple(moves))

def hill_regions(state: State) -> list[Any]:
    return [Polygon(h) for h in state.table.get("hills", ())]


def return_box(state: State, u: UnitState) -> geo.Box:
    """FP.OFF_TABLE: the unit's box with its rear rank centred on the point it left by, or as
    close to it along the edge as it can stand: on the table and, from engine 0.5.0, on no
    other unit (GEO.NO_OVERLAP)."""
    x, y = u.left_at or (0.0, 0.0)
    w, d = state.table["width"], state.table["depth"]
    edges = {0.0: abs(y), 90.0: abs(x), 180.0: abs(d - y), 270.0: abs(w - x)}
    facing = min(edges, key=lambda k: edges[k])  # face away from the nearest edge
    size = box(u)
    (fx, fy), _ = geo.axes(facing)
    b = geo.Box(x + fx * size.depth, y + fy * size.depth, facing, size.width, size.depth)
    # slide along the edge until the whole unit is on the table
    (_, _), (rx, ry) = geo.axes(facing)
    others = [box(o) for o in state.units.values() if o.id != u.id and o.status in ALIVE] \
        if ruled(state, "no_overlap") else []
    first: geo.Box | None = None
    for shift in (0.0, *[s * k for k in range(1, 200) for s in (0.5, -0.5)]):
        c = b._replace(x=b.x + rx * shift, y=b.y + ry * shift)
        if geo.on_table(c, w, d):
            first = first or c
            if not any(geo.overlaps(c, o) for o in others):
                return geo.rounded(c)
    return geo.rounded(first or b)


def _declaring(state: State) -> tuple[str, str]:
    """The charger and the target whose reaction the game waits for (CH.REACT)."""
    if state.context.declaring is None:
        raise KeyError("no charge waits for a reaction")
    return state.context.declaring


def _last(state: State) -> tuple[str, str, str]:
    """The last reaction: charger, target, reaction (CH.REDIRECT)."""
    if state.context.last is None:
        raise KeyError("no charge was reacted to")
    return state.context.last
