"""SHOOT.*: the shooting phase as a step of the machine's ``shooting`` state: the active
player's units shoot one at a time (``shoot``), each volley rolled through the attack sequence
(a batch of step ``shooting``, ATK.SEQUENCE) with the panic it may cause (PANIC.TRIGGERS), in
games begun under engine 0.12.0."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regiment.core.commands import EndPhase
from regiment.core.events import Event
from regiment.core.i18n import tr
from regiment.core.pending import Decision
from regiment.core.state import memo

from ..close_combat import attacks, blows
from ..commands import Shoot
from ..events import InitiativeStepBegan
from ..flow import Flow, Quiet
from ..rulings import ruled
from ..state import State, UnitState
from ..units import missile
from . import rules
from .events import ShotsFired

STEP = "shooting"   # the batch's step, and AttacksResolved's


class ShootingFlow(Quiet):
    """The shooting phase (SHOOT.WHO, SHOOT.HIT)."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow

    def handlers(self) -> dict[str, Any]:
        return {"shoot": self._shoot}

    def asks(self) -> dict[str, Callable[[State], Decision | None]]:
        return {"shooting": self._ask}

    def options(self, state: State) -> list[Shoot]:
        """SHOOT.WHO: every shot open now, kept with the state (the decision, the bot and the
        command ask of the same one). In table mode each target is offered: the players
        measure once it is chosen."""
        answers = memo(state)
        key = ("shots",)
        if key not in answers:
            answers[key] = self._options(state)
        return answers[key]  # type: ignore[no-any-return]  # what this function memoized

    def _options(self, state: State) -> list[Shoot]:
        if not ruled(state, "shooting"):
            return []
        out = []
        for u in state.units.values():
            if rules.why_not_shooter(state, u):
                continue
            for t in state.units.values():
                if t.player == u.player or t.joined is not None:
                    continue
                if not rules.why_not_target(state, u, t, measure_now=False):
                    out.append(Shoot(by=u.player, unit=u.id, target=t.id))
        return out

    def _ask(self, state: State) -> Decision | None:
        options = self.options(state)
        if not options:
            return None   # nothing can shoot: the host (or --auto-skip) ends the phase
        p = state.player
        return Decision(player=p, decision="shoot", legal=(*options, EndPhase(by=p)))

    def _shoot(self, state: State, cmd: Shoot) -> list[Event]:
        self.flow.check_turn(state, cmd, "SHOOT.WHO")
        if not ruled(state, "shooting"):
            raise self.flow.illegal(state, cmd, tr("units shoot in games begun under engine "
                                                    "0.12.0 or later"), "SHOOT.WHO")
        u = self.flow.unit_of(state, cmd, cmd.unit, "SHOOT.WHO")
        t = self.flow.unit_of(state, cmd, cmd.target, "SHOOT.WHO")
        why = rules.why_not_shooter(state, u) or rules.why_not_target(state, u, t)
        if why:
            raise self.flow.illegal(state, cmd, why, "SHOOT.WHO")
        fired = rules.aim(state, u, t)
        events: list[Event] = [fired]
        if fired.hit:
            events.append(InitiativeStepBegan(combat=None, step=STEP,
                                              strikes=(volley(u, t, fired),)))
        return self.flow.then(state, events, "shoot")


def volley(u: UnitState, t: UnitState, aim: ShotsFired) -> dict[str, Any]:
    """ATK.SEQUENCE: the volley as a group of attacks: the front rank's shots at the weapon's
    Strength, wounding, and saved as the attack sequence has it."""
    weapon = missile(u)
    assert weapon is not None
    s, piercing = weapon.strength_of(u), weapon.piercing   # SHOOT.WEAPONS
    return blows.volley(u, t, {
        "unit": u.id, "target": t.id, "attacks": aim.shots, "challenge": False,
        "shooting": True, "hit": aim.hit, "hit2": aim.hit2, "reroll": False,
        "wound": attacks.to_wound(s, t.profile["T"]), "rolls": {}}, s, piercing)


# the flow's part: its place among the parts, its name (parts.py)
PART = (11, "shooting", ShootingFlow)
