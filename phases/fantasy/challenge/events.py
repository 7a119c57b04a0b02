"""The events of challenges (CC.CHALLENGE)."""

from __future__ import annotations

from regiment.core.events import Event, event


@event("ChallengeIssued", rules=("CC.CHALLENGE",))
class ChallengeIssued(Event):
    combat: str
    unit: str          # the unit whose champion or character issues it; "" if none does
    player: str


@event("ChallengeAnswered", rules=("CC.CHALLENGE",))
class ChallengeAnswered(Event):
    combat: str
    unit: str
    accepted: bool
