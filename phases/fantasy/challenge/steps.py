"""CC.CHALLENGE: the challenges of a round, as the steps of the machine's ``challenge``
phase: each player in turn may issue one (``offers``), and one issued is answered
(``answer``): accepted by a fighter in contact, or refused, and the refusing unit's fighter
stands back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regiment.core.commands import Command
from regiment.core.events import Event
from regiment.core.pending import Decision

from ..close_combat import combat
from ..commands import AcceptChallenge, Challenge, DeclineChallenge, RefuseChallenge
from ..flow import Flow, fight_of
from ..state import ChallengeStatus, Combat, State, UnitState
from ..units import has_champion, is_character
from .events import ChallengeAnswered, ChallengeIssued


def fighters(state: State, cmb: Combat, player: str) -> list[UnitState]:
    """CC.CHALLENGE: units of ``player`` in the combat with a champion or a character, and
    the characters fighting in the front rank of its units (CHAR.IN_UNIT)."""
    units = [state.units[u] for u in cmb.units if state.units[u].player == player
             and state.units[u].status == "engaged"]
    return [u for u in units if has_champion(u) or is_character(u)] + [
        c for u in units if u.characters for c, _ in combat.fighting_characters(state, cmb, u)]


class ChallengeFlow:
    """The round's challenges (CC.CHALLENGE)."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow

    def handlers(self) -> dict[str, Any]:
        return {"challenge": self._challenge, "decline_challenge": self._decline_challenge,
                "accept_challenge": self._answer, "refuse_challenge": self._answer}

    def rolls(self) -> dict[str, dict[str, Any]]:
        return {}

    def drives(self) -> dict[str, Any]:
        return {"offers": self._drive_challenge}

    def asks(self) -> dict[str, Callable[[State], Decision | None]]:
        return {"offers": self._ask_offer, "answer": self._ask_answer}

    def guards(self) -> dict[str, Callable[[State], bool]]:
        return {"challenge_issued": lambda s: fight_of(s).challenge != ChallengeStatus.OPEN}

    def _offerer(self, state: State) -> str | None:
        offers = fight_of(state).offers
        return next((p for p in (state.player, state.opponent(state.player))
                     if p not in offers), None)

    def challengers(self, state: State, player: str, cmb: Combat | None = None
                     ) -> list[UnitState]:
        """CC.CHALLENGE: units of ``player`` whose champion or character could challenge an
        enemy fighter it touches."""
        cmb = cmb or state.combats[fight_of(state).combat]
        foes = fighters(state, cmb, state.opponent(player))
        return [u for u in fighters(state, cmb, player)
                if any(combat.in_contact_at_all(u, f, state) for f in foes)]

    def _drive_challenge(self, state: State) -> list[Event]:
        fight = fight_of(state)
        if fight.challenge != ChallengeStatus.OPEN:
            return []
        player = self._offerer(state)
        if player is None:
            return []
        if not self.challengers(state, player):  # no one to challenge with: pass it on
            return [ChallengeIssued(combat=fight.combat, unit="", player=player)]
        return []

    def _challenge(self, state: State, cmd: Challenge) -> list[Event]:
        self.flow.check_offered(state, cmd, "CC.CHALLENGE")
        return self.flow.then(state, [ChallengeIssued(combat=fight_of(state).combat,
                                                  unit=cmd.unit, player=cmd.by)], "challenge")

    def _decline_challenge(self, state: State, cmd: DeclineChallenge) -> list[Event]:
        self.flow.check_offered(state, cmd, "CC.CHALLENGE")
        return self.flow.then(state, [ChallengeIssued(combat=fight_of(state).combat, unit="",
                                                  player=cmd.by)], cmd.name)

    def _answer(self, state: State, cmd: AcceptChallenge | RefuseChallenge) -> list[Event]:
        self.flow.check_offered(state, cmd, "CC.CHALLENGE")
        answer = ChallengeAnswered(combat=fight_of(state).combat, unit=cmd.unit,
                                   accepted=cmd.name == "accept_challenge")
        return self.flow.then(state, [answer], cmd.name)

    def _ask_offer(self, state: State) -> Decision | None:
        """CC.CHALLENGE: a challenge to issue, each player in turn."""
        who = self._offerer(state)
        if who is None:
            return None
        offers: list[Command] = [Challenge(by=who, unit=u.id)
                                 for u in self.challengers(state, who)]
        return Decision(player=who, decision="challenge",
                        legal=(*offers, DeclineChallenge(by=who)))

    def _ask_answer(self, state: State) -> Decision | None:
        """CC.CHALLENGE: the challenged player accepts with a fighter in contact, or refuses."""
        fight = fight_of(state)
        if fight.challenge != ChallengeStatus.ANSWER:
            return None
        challenger = state.units[fight.challenger]
        who = state.opponent(challenger.player)
        cmb = state.combats[fight.combat]
        able_units = fighters(state, cmb, who)
        near = [u for u in cmb.units if state.units[u].player == who
                and state.units[u].status == "engaged"
                and combat.in_contact_at_all(state.units[u], challenger, state)]
        near += [c.id for c in able_units if c.joined is not None
                 and combat.in_contact_at_all(c, challenger, state)]
        able = {u.id for u in able_units}
        answers: list[Command] = [AcceptChallenge(by=who, unit=u) for u in near if u in able]
        answers += [RefuseChallenge(by=who, unit=u) for u in near]
        return Decision(player=who, decision="answer_challenge", legal=tuple(answers))


# the flow's part: its place among the parts, its name (parts.py)
PART = (5, "challenges", ChallengeFlow)
