"""CH.DECLARE, CH.REACT, CH.REDIRECT: the charge declarations, as the machine's
``declaration``, ``reactions``, ``redirect`` and ``redirect_target`` steps: the active player
declares each charge, its target reacts at once (holds, stands and shoots, or flees), and the
charger of a unit that fled may redirect. Outcomes come from ``rules``; this module only
sequences them into events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regiment.core.commands import Command
from regiment.core.events import Event
from regiment.core.i18n import tr
from regiment.core.pending import Decision
from regiment.core.state import Awaiting

from .. import charge, effects, table
from ..characters.rules import unit_leadership
from ..close_combat import attacks, blows
from ..commands import DeclareCharge, DeclineRedirect, EndCharges, React, Redirect
from ..events import (
    ChargeDeclared,
    ChargeReacted,
    ChargeRedirected,
    InitiativeStepBegan,
    RedirectTested,
    SideDrawn,
)
from ..flow import Flow
from ..result import ld_test
from ..rolls import FleeRoll, SideRoll, Toward, ask, read
from ..rulings import ruled
from ..state import State, UnitState
from ..units import missile

DRAW = "draw"   # a side roll made before any declaration (CH.CHARGE_MOVE)


class DeclarationFlow:
    """Charge declarations, the reactions to them and redirects (CH.DECLARE, CH.REACT,
    CH.REDIRECT), with the die for a front split evenly between two sides (CH.CHARGE_MOVE)."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow   # the machine, the fold and the other parts: one engine a preset

    def handlers(self) -> dict[str, Any]:
        return {"declare_charge": self._declare_charge, "react": self._react,
                "redirect": self._redirect, "decline_redirect": self._decline_redirect}

    def rolls(self) -> dict[str, dict[str, Any]]:
        """Each step's rolls, and what each leads to: the step that asked goes on."""
        return {"declaration": {"random_side": self._side_rolled},
                "redirect": {"redirect": self._redirect_rolled}}

    def guards(self) -> dict[str, Callable[[State], bool]]:
        return {}

    def drives(self) -> dict[str, Any]:
        return {"declaration": self._drive_sides}

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
            if charge.cannot_charge(state, unit):
                continue
            for t in charge.targets(state, unit):
                if (unit.id, t.id) in drawn:
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
            kept = effects.forbidden(target, "flee") if cmd.reaction == "flee" else None
            if kept is not None and target.status == "ready":   # SPECIAL.EFFECTS: Frenzy
                raise self.flow.illegal(state, cmd, tr("{unit} may not flee ({rule})",
                                                       unit=target.name,
                                                       rule=effects.told(kept)), kept.rule)
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
        s, piercing = weapon.strength_of(shooter), weapon.piercing
        long_range = table.gap(state, shooter, charger, "CH.REACT") > weapon.range / 2
        several = weapon.shots > 1   # SHOOT.HIT: -1 for a weapon with multiple shots
        hit, hit2 = attacks.to_hit_shooting(shooter.profile["BS"], 1 + long_range + several)
        return blows.volley(shooter, charger, {
            "unit": shooter.id, "target": charger.id,
            "attacks": min(shooter.files, shooter.models) * weapon.shots,
            "challenge": False, "shooting": True, "hit": hit, "hit2": hit2,
            "reroll": False, "wound": attacks.to_wound(s, charger.profile["T"]), "rolls": {}},
            s, piercing)

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

    # --- charge moves (CH.MOVE_ORDER, CH.RANGE, CH.CHARGE_MOVE, CH.FAILED) ---------------

    # --- what the movement phase waits for -----------------------------------------------

    def asks(self) -> dict[str, Callable[[State], Decision | None]]:
        """What the game asks in each step of the declarations."""
        return {"declaration": self._ask_declaration, "reactions": self._ask_reaction,
                "redirect": self._ask_redirect, "redirect_target": self._ask_redirect_target}

    def _ask_declaration(self, state: State) -> Decision:
        """CH.DECLARE: every charge the active player may declare, or no more."""
        p = state.player
        legal: list[Command] = []
        for unit in state.units.values():
            if charge.cannot_charge(state, unit):
                continue
            legal += _declarations(p, unit, charge.targets(state, unit))
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


def _declarations(p: str, unit: UnitState, targets: list[UnitState]
                  ) -> tuple[DeclareCharge, ...]:
    """CH.DECLARE: ``unit``'s declarations at ``targets``, kept with the unit's value while
    its targets are the same units (a command is a frozen value: the same one serves every
    ask, and a 32-unit table asks 16 chargers of up to 16 targets after each declaration)."""
    ids = tuple(t.id for t in targets)
    kept: tuple[str, tuple[str, ...], tuple[DeclareCharge, ...]] | None = \
        getattr(unit, "_declarations", None)
    if kept is not None and kept[0] == p and kept[1] == ids:
        return kept[2]
    made = tuple(DeclareCharge(by=p, unit=unit.id, target=t) for t in ids)
    object.__setattr__(unit, "_declarations", (p, ids, made))   # not a field: unchanged
    return made


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


# the flow's part: its place among the parts, its name (parts.py)
PART = (2, "declarations", DeclarationFlow)
