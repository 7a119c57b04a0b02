"""Why things happened in the skirmish game, as codes (``core.reasons``): each field's closed
set, the English a game begun before engine 0.10.0 wrote for it, and how narration tells it."""

from __future__ import annotations

from typing import Any

from regiment.core.i18n import mark
from regiment.core.reasons import REASONS_AS_CODES, Code, Reason, Reasons

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
)


def written(reasons: Reasons, state: SkirmishState, code: str, **params: Any) -> Reason | str:
    """A reason as this game writes it: a code, or in a game begun before 0.10.0 the English
    that engine wrote."""
    return reasons.written(state.engine >= REASONS_AS_CODES,
                           lambda uid: state.squads[uid].name, code, **params)
