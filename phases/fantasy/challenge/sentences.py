"""The story of challenges (CC.CHALLENGE): a sentence for each of their events."""

from __future__ import annotations

from collections.abc import Callable

from regiment.core.i18n import ntr, tr

from ..state import State
from ..telling import D, because, name_of, verb_count


def _challenge(d: D, s: State | None) -> str | None:
    if not d["unit"]:
        return tr("{player} issue no challenge.", player=d["player"]) + because("CC.CHALLENGE")
    return ntr("{unit} issues a challenge.", "{unit} issue a challenge.", verb_count(s, d["unit"]),
               unit=name_of(s, d["unit"])) + because("CC.CHALLENGE")


SENTENCES: dict[str, Callable[[D, State | None], str | None]] = {
    "ChallengeIssued": _challenge,
    "ChallengeAnswered": lambda d, s: (
        ntr("{unit} accepts the challenge.", "{unit} accept the challenge.",
            verb_count(s, d["unit"]),
            unit=name_of(s, d["unit"])) if d["accepted"] else
        ntr("{unit} refuses the challenge.", "{unit} refuse the challenge.",
            verb_count(s, d["unit"]),
            unit=name_of(s, d["unit"]))) + because("CC.CHALLENGE"),
}
