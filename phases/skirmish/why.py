"""Why things happened in the skirmish game, as codes (``core.reasons``): each field's closed
set, the English a game begun before engine 0.10.0 wrote for it, and how narration tells it."""

from __future__ import annotations

from typing import Any

from regiment.core.i18n import mark
from regiment.core.reasons import Code, Reason, Reasons, in_codes, in_fields, plain

from .state import SkirmishState

# AssaultRolled.reason: why an assault ended without reaching (SK.CHARGE_MOVE)
ASSAULT_ENDED = Reasons(
    Code("none_left", "no model of it is left after the overwatch",
         mark("no model of it is left after the overwatch")),
    Code("beyond_reach", "its nearest model is {gap:.1f}\" from {target}, beyond the "
         "{reach:g}\" rolled",
         mark("its nearest model is {gap}\" from {target}, beyond the {reach}\" rolled")),
    Code("no_spot", "no spot touching {target} is free within the {reach:g}\" rolled for its "
         "nearest model", mark("no spot touching {target} is free within the {reach}\" rolled "
                               "for its nearest model")),
    pieces=("target",),
    rule="SK.CHARGE_MOVE", rules={"none_left": "SK.OVERWATCH"},
)


def written(reasons: Reasons, state: SkirmishState, code: str, **params: Any) -> Reason:
    """A reason: its code, its rule, its parameters (a game begun by an older engine writes
    it as that engine did: ``core.reasons.in_fields``)."""
    return reasons.make(code, **params)


in_fields("AssaultRolled", 2, reason=ASSAULT_ENDED)

# ModelsMoved.reason: the kind of move, with the rule that moved the models
MOVED = plain("SK.CHARGE_MOVE", "charge", "pile_in", "consolidate", "fall_back",
              rules={"pile_in": "SK.CONSOLIDATE", "consolidate": "SK.CONSOLIDATE",
                     "fall_back": "SK.FALL_BACK"})
in_codes("ModelsMoved", 2, reason=MOVED)
