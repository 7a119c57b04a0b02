"""How the events of challenges change the state (CC.CHALLENGE)."""

from __future__ import annotations

from typing import Any

from ..evolve import the_fight, with_fight
from ..state import ChallengeStatus, State
from . import events as ev


def challenge_issued(s: State, e: ev.ChallengeIssued) -> State:
    fight = the_fight(s)
    if not e.unit:
        offers = (*fight.offers, e.player)
        return with_fight(s, offers=offers, challenge=ChallengeStatus.DONE if len(offers) >= 2
                      else ChallengeStatus.OPEN)
    return with_fight(s, challenge=ChallengeStatus.ANSWER, challenger=e.unit)


def challenge_answered(s: State, e: ev.ChallengeAnswered) -> State:
    fight = the_fight(s)
    if e.accepted:
        duel = {fight.challenger: e.unit, e.unit: fight.challenger}
        return with_fight(s, challenge=ChallengeStatus.DONE, duel=duel)
    return with_fight(s, challenge=ChallengeStatus.DONE, stood_back=(e.unit,))


APPLIERS: dict[type[Any], Any] = {
    ev.ChallengeIssued: challenge_issued,
    ev.ChallengeAnswered: challenge_answered,
}
