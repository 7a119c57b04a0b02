"""Who may shoot, at what, and what it needs to hit (SHOOT.WHO, SHOOT.HIT, SHOOT.WEAPONS):
pure functions of the state, through the table interface (``table``), so that table mode asks
the players what geometry works out on a mapped table."""

from __future__ import annotations

from regiment.core import geometry as geo
from regiment.core import measure
from regiment.core.geometry import lazy_shapely as shp
from regiment.core.i18n import tr
from regiment.phases.common import sight
from regiment.phases.common.table import measured, question, yes_no

from ..acting import why_idle
from ..close_combat import attacks
from ..close_combat.combat import combat_holding
from ..motion import hill_regions
from ..rulings import ruled
from ..state import State, UnitState
from ..table import hills
from ..units import ALIVE, box, missile, status_word
from ..why import WITHDRAWN
from .events import ShotsFired

# SHOOT.WEAPONS: weapons that may not shoot after the unit moved (move or fire)
MOVE_OR_FIRE = ("crossbow", "handgun")
# SHOOT.WHO: weapons that fire in volleys when the unit did not move (our reading: every bow)
VOLLEY_FIRE = ("bow", "shortbow", "longbow")
# SHOOT.HIT: what each modifier takes from the to-hit roll
MODIFIERS = {"long_range": 1, "moved": 1, "soft_cover": 1, "hard_cover": 2,
             "multiple_shots": 1}
COVERS = ("none", "soft", "hard")
OVER = 1.0 + 1e-6   # SHOOT.COVER: cover this near the shooters is what they shoot over


def why_not_shooter(state: State, u: UnitState) -> str:
    """SHOOT.WHO: why ``u`` may not shoot this phase ("" when it may): the active player's,
    with a missile weapon, not fighting nor fleeing, no character inside a unit, and it did
    not march, reform, charge or rally this turn, nor shoot already; a weapon that moves or
    fires (crossbow, handgun) not after the unit moved."""
    ctx = state.context
    weapon = missile(u)
    if u.player == state.player and weapon is None:
        return tr("{unit} has no missile weapon", unit=u.name)
    why = why_idle(state, u)
    if why or weapon is None:
        return why
    if u.id in ctx.shot:
        return tr("{unit} has shot this turn", unit=u.name)
    kind = ctx.moves.get(u.id)
    if kind in ("march", "reform"):
        return tr("{unit} made a {kind} move this turn", unit=u.name, kind=kind)
    if kind is not None and weapon.name in MOVE_OR_FIRE:
        return tr("{unit} moved this turn, and its {weapon} may move or fire", unit=u.name,
                  weapon=weapon.name)
    return ""


def why_not_target(state: State, u: UnitState, t: UnitState, measure_now: bool = True
                   ) -> str:
    """SHOOT.WHO: why ``u`` may not shoot at ``t`` ("" when it may): an enemy unit on the
    table, not fighting, at least partly in ``u``'s front arc, in sight (no unit or
    sight-blocking terrain between), and in range. In table mode the players say what the
    tape and their eyes tell once the shot is chosen (``measure_now``); what they say against
    it withdraws the shot (TABLE.MEASURE)."""
    if t.player == u.player or t.joined is not None:
        return tr("{unit} is not an enemy unit", unit=t.name)
    if t.status not in ("ready", "fleeing") or combat_holding(state, t.id):
        return tr("{unit} is {status}", unit=t.name, status=status_word(t.status))
    if measured(state) and not measure_now:
        return ""
    names = {"unit": u.name, "target": t.name}
    if not in_front(state, u, t):
        return WITHDRAWN.said(tr(WITHDRAWN.codes["out_of_arc"].told, **names), "out_of_arc",
                              unit=u.id, target=t.id)
    if not in_sight(state, u, t):
        return WITHDRAWN.said(tr(WITHDRAWN.codes["out_of_sight"].told, **names),
                              "out_of_sight", unit=u.id, target=t.id)
    weapon = missile(u)
    assert weapon is not None
    d = distance(state, u, t)
    if d > weapon.range:
        params = {"distance": format(d, "g"), "reach": format(weapon.range, "g"),
                  "weapon": weapon.name}
        return WITHDRAWN.said(tr(WITHDRAWN.codes["out_of_range"].told, **names, **params),
                              "out_of_range", unit=u.id, target=t.id, **params)
    return ""


def in_front(state: State, u: UnitState, t: UnitState) -> bool:
    """GEO.ARCS: ``t`` at least partly inside ``u``'s front arc."""
    return yes_no(state, measure.key("front_arc", u.id, t.id), "SHOOT.WHO", u, t.id,
                  lambda: geo.sees(box(u), box(t)))


def in_sight(state: State, u: UnitState, t: UnitState) -> bool:
    """GEO.SIGHT, SHOOT.WHO: some line from ``u``'s front to ``t`` clear of sight-blocking
    terrain and of every other unit; at a table the players look."""
    def clear() -> bool:
        walls = [*geo.walls_of(sight.walls(state)),
                 *(geo.polygon(box(o)) for o in state.units.values()
                   if o.id not in (u.id, t.id) and o.status in ALIVE and o.joined is None)]
        return geo.clear_sight(box(u), box(t), walls)

    # (asked at any table, walls or none: units block sight there too)
    return yes_no(state, measure.key("line_of_sight", u.id, t.id), "SHOOT.WHO", u, t.id, clear)


def distance(state: State, u: UnitState, t: UnitState) -> float:
    """SHOOT.WHO: from ``u``'s front rank to the nearest point of ``t``, to 1/10000"."""
    key = measure.key("range", u.id, t.id)
    if measured(state):
        return measure.distance(state, question(state, "distance", key, "SHOOT.WHO", u, t.id))
    fl, fr, _, _ = geo.corners(box(u))
    d = round(float(shp.LineString([fl, fr]).distance(geo.polygon(box(t)))), 4)
    if measure.heard:
        measure.tell(key, format(d, "g"))
    return d


def cover(state: State, u: UnitState, t: UnitState) -> str:
    """SHOOT.COVER: the cover ``t`` is in (none, soft, hard): half or more of its footprint
    hidden by the scenario's cover from the middle of ``u``'s front rank, whether it stands
    inside the cover or behind it (games from 0.13.0; our reading of "hidden from the
    shooters": seen from where the shots are measured from; before, half of it had to stand
    inside). Cover within 1" of the shooters hides nothing: they stand at it and shoot over
    it, as a unit behind a wall or hedge does (our reading). Hard counts over soft; at a table
    the players say."""
    key = measure.key("cover", u.id, t.id)
    if measured(state):
        if not state.table.get("cover_at_table"):
            return "none"
        return measure.ask(state, question(state, "side", key, "SHOOT.COVER", u, t.id,
                                           COVERS))
    found = "none"
    hidden = ruled(state, "cover_hidden")
    fl, fr, _, _ = geo.corners(box(u))
    eye = ((fl[0] + fr[0]) / 2, (fl[1] + fr[1]) / 2)
    shooters = geo.polygon(box(u))
    for kind in ("hard", "soft"):
        regions = list(geo.walls_of(state.table.get(f"{kind}_cover", ())))
        if hidden:   # what the shooters stand at, they shoot over (within 1", OVER)
            regions = [r for r in regions if r.distance(shooters) > OVER]
        if not regions:
            continue
        share = geo.hidden_share(eye, box(t), regions) if hidden else \
            geo.area_share(box(t), regions)
        if share >= 0.5:
            found = kind
            break
    if measure.heard and (state.table.get("soft_cover") or state.table.get("hard_cover")):
        measure.tell(key, found)
    return found


def aim(state: State, u: UnitState, t: UnitState) -> ShotsFired:
    """SHOOT.HIT: 7 - BS on a D6, -1 at long range (beyond half the weapon's range), -1 if
    the unit moved this turn, -1 against soft cover, -2 against hard; a need of 7 to 9 takes a
    6 and then 4+ to 6+, 10 or more cannot hit (ATK.TO_HIT_SHOOTING). The models of the front
    rank shoot. The shot worked out is the event the log keeps of it."""
    weapon = missile(u)
    assert weapon is not None
    d = distance(state, u, t)
    mods = []
    if d > weapon.range / 2:
        mods.append("long_range")
    if u.id in state.context.moves:
        mods.append("moved")
    covered = cover(state, u, t)
    if covered != "none":
        mods.append(f"{covered}_cover")
    if weapon.shots > 1:
        mods.append("multiple_shots")
    hit, hit2 = attacks.to_hit_shooting(u.profile["BS"], sum(MODIFIERS[m] for m in mods))
    return ShotsFired(unit=u.id, target=t.id, weapon=weapon.name, distance=d,
                      modifiers=tuple(mods), hit=hit, hit2=hit2,
                      shots=shooters(state, u) * weapon.shots)


def shooters(state: State, u: UnitState) -> int:
    """SHOOT.WHO: the models that shoot: the front rank; from engine 0.13.0 the first two
    ranks of a unit standing at least half on a hill, and, with bows that did not move this
    turn, half the models of its other ranks too (rounding up: volley fire)."""
    front = min(u.files, u.models)
    if not ruled(state, "ranks_that_shoot"):
        return front
    if on_hill(state, u):
        front = min(2 * u.files, u.models)
    weapon = missile(u)
    if weapon is not None and weapon.name in VOLLEY_FIRE and u.id not in state.context.moves:
        front += -(-(u.models - front) // 2)
    return front


def on_hill(state: State, u: UnitState) -> bool:
    """SHOOT.WHO: ``u`` stands at least half on a hill; at a table the players say."""
    if not hills(state):
        return False
    return yes_no(state, measure.key("hill", u.id), "SHOOT.WHO", u, "",
                  lambda: geo.area_share(box(u), hill_regions(state)) >= 0.5)
