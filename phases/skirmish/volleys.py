"""Attacks rolled one stage at a time, for shooting, overwatch and the fight alike: to hit, to
wound (SK.TO_WOUND), the save (SK.SAVE), then the casualties (SK.CASUALTIES)."""

from __future__ import annotations

from regiment.core.events import Event, RollRequested

from . import table
from .assault import gap
from .attacks import save, to_wound
from .events import VolleyRolled, WoundsTaken
from .models import take_wounds
from .state import SkirmishState, Squad, Volley


def shooting_need(bs: int) -> int:
    """SK.SHOOT: to hit with a gun by Ballistic Skill: 7 - BS, never better than 2+."""
    return max(2, min(6, 7 - bs))


def shots(state: SkirmishState, squad: Squad, target: Squad, rule: str = "SK.SHOOT") -> int:
    """SK.SHOOT, SK.OVERWATCH: the shots of ``squad``'s gun (its first ranged weapon): each
    of its models within the gun's range of a model of ``target`` fires it (in table mode the
    players count those models)."""
    if not squad.guns:
        return 0
    gun = squad.guns[0]
    return gun.shots * table.models_in_range(
        state, squad, target, rule,
        lambda: sum(1 for m in squad.models if gap((m,), target.models) <= gun.range))


def roll_for(state: SkirmishState, v: Volley) -> RollRequested:
    """SK.TO_HIT, SK.TO_WOUND, SK.SAVE: the stage's dice; the attacker rolls to hit and to
    wound, the target's player saves."""
    roller = state.squads[v.target if v.stage == "save" else v.unit]
    return RollRequested(purpose=v.stage, unit=roller.id, player=roller.player, dice=v.dice,
                         about=v.target if v.stage != "save" else v.unit)


def rolled(state: SkirmishState, v: Volley, faces: tuple[int, ...]) -> list[Event]:
    """SK.TO_HIT, SK.TO_WOUND, SK.SAVE: a stage's outcome, and the next stage it opens (none
    when nothing succeeded, the target cannot be wounded, or no save is allowed); when the
    volley ends with wounds through, the models they take (SK.CASUALTIES)."""
    target = state.squads[v.target]
    successes = sum(1 for f in faces if f >= v.need)
    then, need, unsaved = "", 0, 0
    if v.stage == "hit" and successes:
        need = to_wound(v.S, target.profile["T"])
        then = "wound" if need else ""
    elif v.stage == "wound" and successes:
        need = save(target.profile["Sv"], v.AP)
        then, unsaved = ("save", 0) if need else ("", successes)
    elif v.stage == "save":
        unsaved = v.dice - successes
    events: list[Event] = [VolleyRolled(kind=v.kind, unit=v.unit, target=v.target,
                                        stage=v.stage, need=v.need, faces=faces,
                                        successes=successes, then=then, then_need=need,
                                        unsaved=unsaved)]
    if unsaved:
        events.append(wounds(state, v.target, v.unit, unsaved))
    return events


def wounds(state: SkirmishState, uid: str, by: str, n: int) -> WoundsTaken:
    """SK.CASUALTIES: the wounds fall on the models nearest the squad that caused them."""
    s = state.squads[uid]
    # at the table the players take the nearest models off; the engine keeps the count
    near = None if table.measured(state) else state.squads[by].models
    removed, left, lost = take_wounds(s.models, s.wounds, near, n)
    return WoundsTaken(unit=uid, by=by, wounds=n, removed=tuple(removed), left=tuple(left),
                       lost=lost)
