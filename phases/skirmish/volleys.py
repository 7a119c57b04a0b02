"""Attacks rolled one stage at a time, for shooting, overwatch and the fight alike: to hit, to
wound (SK.TO_WOUND), the save (SK.SAVE), then the casualties (SK.CASUALTIES)."""

from __future__ import annotations

from regiment.core import geometry as geo
from regiment.core import measure
from regiment.core.about import Toward, kind, tagged
from regiment.core.events import Event, RollRequested
from regiment.core.geometry import lazy_shapely as shp
from regiment.phases.common.tables import success

from . import table
from .assault import gap
from .attacks import save, to_wound
from .events import VolleyRolled, WoundsTaken
from .models import take_wounds
from .rulings import ruled
from .state import SkirmishState, Squad, Volley

COVER_SAVE = 4   # SK.SHOOT: a cover save (our reading: the seeds give none)

# SK.TO_HIT, SK.TO_WOUND, SK.SAVE: a stage's roll carries the squad it is against (the text
# an engine before 0.13.0 wrote for it: the squad's id)
kind("toward", "hit", "wound", "save")(Toward)


def in_cover(state: SkirmishState, target: Squad) -> bool:
    """SK.SHOOT: the target's models in cover: at least half of their centres inside the
    table's cover (our reading); at a table with cover the players say."""
    if not (state.table.get("cover") or state.table.get("cover_at_table")):
        return False
    return table.yes_no(state, measure.key("in_cover", target.id), "SK.SHOOT", target, "",
                        lambda: 2 * sum(1 for m in target.models if any(
                            area.contains(shp.Point(m[0], m[1]))
                            for area in geo.walls_of(state.table["cover"])))
                        >= len(target.models))


def shooting_need(bs: int) -> int:
    """SK.SHOOT: to hit with a gun by Ballistic Skill: 7 - BS, never better than 2+."""
    return max(2, min(6, 7 - bs))


def shots(state: SkirmishState, squad: Squad, target: Squad, rule: str = "SK.SHOOT") -> int:
    """SK.SHOOT, SK.OVERWATCH: the shots of ``squad``'s gun (its first ranged weapon): each
    of its models within the gun's range of a model of ``target`` fires it (in table mode the
    players count those models)."""
    if not squad.guns or not target.models:   # (a charger the overwatch before destroyed)
        return 0
    gun = squad.guns[0]
    typed = bool(gun.type) and ruled(state, "weapon_types")
    if typed and gun.type == "heavy" and squad.moved:
        return 0   # SK.SHOOT: a heavy weapon only if the squad did not move
    n = table.models_in_range(
        state, squad, target, rule,
        lambda: sum(1 for m in squad.models if gap((m,), target.models) <= gun.range))
    if not typed or gun.type in ("assault", "heavy"):
        return gun.shots * n
    if gun.type == "pistol" or rule != "SK.SHOOT" or squad.moved or not n:
        return n   # one shot a model: a pistol, a moved Rapid Fire gun, overwatch
    near = table.models_in_range(   # SK.SHOOT: Rapid Fire, two shots within half range
        state, squad, target, rule,
        lambda: sum(1 for m in squad.models if gap((m,), target.models) <= gun.range / 2),
        half=True, most=n)
    return n + near


def expected_unsaved(state: SkirmishState, squad: Squad, target: Squad) -> float:
    """SK.SHOOT, SK.TO_WOUND, SK.SAVE: the unsaved wounds a volley of ``squad`` at
    ``target`` is expected to do (its shots times the chance of one: to hit, to wound, and
    the better of its save and cover failing)."""
    n = shots(state, squad, target)
    if not n:
        return 0.0
    gun = squad.guns[0]
    need = save(target.profile["Sv"], gun.AP)
    if ruled(state, "cover_saves") and (not need or need > COVER_SAVE) and \
            in_cover(state, target):
        need = COVER_SAVE
    return n * float(success(shooting_need(squad.profile["BS"])) *
                     success(to_wound(gun.S, target.profile["T"])) * (1 - success(need)))


def roll_for(state: SkirmishState, v: Volley) -> RollRequested:
    """SK.TO_HIT, SK.TO_WOUND, SK.SAVE: the stage's dice; the attacker rolls to hit and to
    wound, the target's player saves."""
    roller = state.squads[v.target if v.stage == "save" else v.unit]
    return RollRequested(purpose=v.stage, unit=roller.id, player=roller.player, dice=v.dice,
                         about=tagged(Toward(v.target if v.stage != "save" else v.unit)))


def rolled(state: SkirmishState, v: Volley, faces: tuple[int, ...]) -> list[Event]:
    """SK.TO_HIT, SK.TO_WOUND, SK.SAVE: a stage's outcome, and the next stage it opens (none
    when nothing succeeded, the target cannot be wounded, or no save is allowed); when the
    volley ends with wounds through, the models they take (SK.CASUALTIES)."""
    target = state.squads[v.target]
    successes = sum(1 for f in faces if f >= v.need)
    then, need, unsaved, cover = "", 0, 0, v.cover
    if v.stage == "hit" and successes:
        need = to_wound(v.S, target.profile["T"])
        then = "wound" if need else ""
    elif v.stage == "wound" and successes:
        need = save(target.profile["Sv"], v.AP)
        if v.kind != "melee" and ruled(state, "cover_saves") and \
                (not need or need > COVER_SAVE) and in_cover(state, target):
            need, cover = COVER_SAVE, True   # SK.SHOOT: the better of armour and cover
        then, unsaved = ("save", 0) if need else ("", successes)
    elif v.stage == "save":
        unsaved = v.dice - successes
    events: list[Event] = [VolleyRolled(kind=v.kind, unit=v.unit, target=v.target,
                                        stage=v.stage, need=v.need, faces=faces,
                                        successes=successes, then=then, then_need=need,
                                        unsaved=unsaved, cover=cover)]
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
