"""The charge sub-phase's rule functions (fantasy presets): small, pure, each citing its rule.

Declarations and what a unit can see, reactions, redirects, the charge range, where a
charger lands or why it cannot, failed charges and flee moves. Geometry comes from
``regiment.core.geometry``; nothing here changes state.
"""

from __future__ import annotations

import math

from regiment.core import geometry as geo
from regiment.core.i18n import mark, tr
from regiment.core.reasons import Reason
from regiment.phases.common import sight

from .. import effects, table
from ..faces import counted
from ..moving.aims import clear_ahead
from ..moving.paths import Leg, cost, trouble, turn_of, walk
from ..moving.rules import others as spacing
from ..rulings import ruled
from ..specials import SWIFTSTRIDE, has
from ..state import State, UnitState
from ..units import ALIVE, box, missile, status_word
from ..why import CHARGE_FAILED, written

MOVABLE = ("ready",)


CANNOT = {"not_active": mark("{unit} is not the active player's unit"),
          "status": mark("{unit} is {status}"),
          "declared": mark("{unit} already declared a charge this turn"),
          "returned": mark("{unit} came back this turn as reinforcements and may not charge")}


def cannot_charge(state: State, unit: UnitState) -> str:
    """CH.DECLARE: why ``unit`` may declare no charge, as a key of ``CANNOT`` ("" when it
    may): a unit declares one charge a turn, if it is the active player's, neither engaged
    nor fleeing, nor just back on the table as reinforcements (FP.OFF_TABLE under
    fantasy-classic). The drive and the ask only need whether: no reason is told."""
    if unit.player != state.player:
        return "not_active"
    if unit.status not in MOVABLE:
        return "status"
    if unit.declared is not None:
        return "declared"
    if unit.id in state.context.returned:  # FP.OFF_TABLE (fantasy-classic)
        return "returned"
    return ""


def why_cannot_charge(state: State, unit: UnitState) -> str | None:
    """CH.DECLARE: ``cannot_charge``, told (None: ``unit`` may charge)."""
    code = cannot_charge(state, unit)
    if not code:
        return None
    return tr(CANNOT[code], unit=unit.name, status=status_word(unit.status))


def why_not_target(state: State, unit: UnitState, target: UnitState) -> str | None:
    """CH.DECLARE: the target must be an enemy unit still on the table; a character inside a
    unit is charged with its unit (CHAR.IN_UNIT; games from engine 0.12.0, before: it could
    be named on its own)."""
    if target.player == unit.player:
        return tr("{unit} is not an enemy unit", unit=target.name)
    if target.joined is not None and ruled(state, "no_charge_at_joined"):
        return tr("{unit} is inside {host}: charge its unit", unit=target.name,
                  host=state.units[target.joined].name)
    if target.status in ("destroyed", "off_table"):
        return tr("{unit} is {status}", unit=target.name, status=status_word(target.status))
    return None


def reactions(unit: UnitState) -> list[str]:
    """CH.REACT: an engaged unit may only hold; a fleeing unit must flee; Immune to Psychology
    may not flee, nor may a unit that already stood against another charge this turn."""
    if unit.status == "fleeing":
        return ["flee"]
    if unit.status == "engaged":
        return ["hold"]
    options = ["hold"]
    stood = unit.reaction in ("hold", "stand_and_shoot")
    if effects.forbidden(unit, "flee") is None and not stood:   # SPECIAL.EFFECTS
        options.append("flee")
    return options


def movement_dice(unit: UnitState) -> int:
    """CH.RANGE, FP.FLEE_ROLL: 2D6, or 3D6 dropping the lowest with Swiftstride."""
    return 3 if has(unit, SWIFTSTRIDE) else 2


def charge_range(unit: UnitState, faces: tuple[int, ...]) -> float:
    """CH.RANGE: the charge range is the dice (see ``counted``) plus the charger's Movement."""
    return float(sum(counted(faces)) + unit.profile["M"])


def gap(a: UnitState, b: UnitState) -> float:
    """GEO.DISTANCE between two units' footprints, to 1/10000 inch (what the log records)."""
    return box_gap(box(a), box(b))


def box_gap(a: geo.Box, b: geo.Box) -> float:
    """GEO.DISTANCE between two footprints, to 1/10000 inch: ``gap`` of units standing so."""
    return round(geo.gap(a, b), 4)


# --- the charge rules proper ---------------------------------------------------------------


HIDDEN = {"arc": mark("{target} is not in {unit}'s front arc"),
          "sight": mark("{unit} cannot see {target}: terrain blocks the sight")}


def hidden(state: State, unit: UnitState, target: UnitState) -> str:
    """CH.DECLARE: what hides ``target`` from ``unit`` (a key of ``HIDDEN``; "" when
    nothing does): the target must be at least partly inside the charger's front arc and in
    its sight. In table mode the players see it for themselves: declaring the charge says it
    is (TABLE.ASK)."""
    if table.measured(state):
        return ""
    if not geo.sees(box(unit), box(target)):
        return "arc"
    if not in_sight(state, unit, target):
        return "sight"
    return ""


def why_hidden(state: State, unit: UnitState, target: UnitState) -> str | None:
    """CH.DECLARE: ``hidden``, told."""
    code = hidden(state, unit, target)
    return tr(HIDDEN[code], target=target.name, unit=unit.name) if code else None


def in_sight(state: State, unit: UnitState, target: UnitState) -> bool:
    """CH.DECLARE, GEO.SIGHT [G]: no sight-blocking terrain stands between the charger's front
    and the target; at a table with such terrain the players say (asked as it declares)."""
    return sight.sees(state, "CH.DECLARE", unit, target.id,
                      lambda: geo.clear_sight(box(unit), box(target),
                                              geo.walls_of(sight.walls(state))))


def eligible_target(state: State, unit: UnitState, target: UnitState) -> str | None:
    """CH.DECLARE: why ``target`` cannot be charged by ``unit`` (None: it can). A unit already
    fighting, or already charged by another unit, may be charged too: the charger joins its
    combat (a multiple combat)."""
    return why_not_target(state, unit, target) or why_hidden(state, unit, target)


def stand_and_shoot(state: State, target: UnitState, charger: UnitState,
                    measure_now: bool = False) -> str | None:
    """CH.REACT: why ``target`` may not stand and shoot (None: it may): it needs a missile
    weapon, must not be engaged, and the charger must be further away than its own Movement
    and within the weapon's range. In table mode the distance is measured once the reaction
    is chosen (``measure_now``): the choice is offered before it."""
    weapon = missile(target)
    if weapon is None:
        return tr("{unit} has no missile weapon", unit=target.name)
    if target.status != "ready":
        return tr("{unit} is {status}", unit=target.name, status=status_word(target.status))
    if table.measured(state) and not measure_now:
        return None
    dist = table.gap(state, target, charger, "CH.REACT")
    if dist <= target.profile["M"]:
        return tr("{charger} is within {target}'s Movement ({distance}\")", charger=charger.name,
                  target=target.name, distance=format(dist, ".1f"))
    if dist > weapon.range:
        return tr("{charger} is out of range of its {weapon} ({distance}\")", charger=charger.name,
                  weapon=weapon.name, distance=format(dist, ".1f"))
    return None


def reaction_options(state: State, target: UnitState, charger: UnitState) -> list[str]:
    """CH.REACT: the reactions open to ``target``: hold, stand and shoot, flee (SR.TERROR:
    only flee, for a unit that failed its terror test)."""
    if state.context.terror.get(target.id) is False and target.status == "ready":
        return ["flee"]
    options = reactions(target)
    shot = target.id in state.context.volleys  # one volley a turn
    if "hold" in options and target.status == "ready" and not shot and \
            not stand_and_shoot(state, target, charger):
        options.insert(1, "stand_and_shoot")
    return options


def others(state: State, *skip: str) -> list[geo.Box]:
    return [box(u) for u in state.units.values() if u.id not in skip and u.status in ALIVE]


def plan_charge(state: State, unit: UnitState, target: UnitState, side: str
                ) -> tuple[geo.Box | None, Reason | None]:
    """CH.CHARGE_MOVE: where the charger lands, or why it cannot get there: one wheel of at
    most 90 degrees, room on the table, no wall (GEO.SIGHT) and no other unit in the way.
    Units already fighting the target stay where they are; the charger lands beside them, and
    may touch them and any other unit already fighting (whose combat it then links to its
    target's), but no other unit."""
    start = box(unit)
    around = {u.id: box(u) for u in state.units.values()
              if u.id not in (unit.id, target.id) and u.status in ALIVE}
    end = geo.flush_beside(start, box(target), side, list(around.values()))
    if end is None:
        return None, written(CHARGE_FAILED, state, "no_room_beside", target=target.id,
                             side=side)
    if geo.turn_between(start.facing, end.facing) > 90.0 + 1e-6:
        return None, written(CHARGE_FAILED, state, "wheel_too_far", side=side)
    table = state.table
    if not geo.on_table(end, table["width"], table["depth"]):
        return None, written(CHARGE_FAILED, state, "off_table")
    walls = geo.walls_of(sight.walls(state))   # GEO.SIGHT: they block movement too
    if walls:
        path = geo.polygon(start).union(geo.polygon(end)).convex_hull
        if any(path.intersection(w).area > 1e-6 for w in walls):
            return None, written(CHARGE_FAILED, state, "impassable")
    if around:
        reach = geo.grown(geo.bounds(start, end), 1e-3)
        swept = None   # the area the charger sweeps, made when a unit is near enough to ask
        for uid, b in around.items():
            if not geo.overlap(reach, geo.bounds(b)):
                continue   # (bounds apart: no distance measured)
            if swept is None:
                swept = geo.polygon(start).union(geo.polygon(end)).convex_hull
            if swept.distance(geo.polygon(b)) >= 1e-3:
                continue
            # it may come to touch units already fighting (its target's combat, or another,
            # which the charge then links), but pass through none and touch no other
            if state.units[uid].status != "engaged" or \
                    swept.intersection(geo.polygon(b)).area > 0.01:
                return None, written(CHARGE_FAILED, state, "in_the_way", unit=uid)
    return end, None


def failed_move(state: State, unit: UnitState, target: UnitState, faces: tuple[int, ...]
                ) -> tuple[geo.Box, float]:
    """CH.FAILED: toward the target by the highest die rolled, never into contact (it stops
    1" away, as the spacing rule keeps units apart). From engine 0.13.0 it moves as a charge
    would: it wheels to face the target (at most 90 degrees, the wheel's outer corner counting
    against the distance) and goes straight ahead for the rest (``failed_path``); before, the
    block slid along the bearing to the target, its facing unchanged."""
    if ruled(state, "failed_charge_wheels"):
        return failed_path(state, unit, target, float(max(faces)))
    start = box(unit)
    heading = geo.bearing(start.position, geo.centre(box(target)))
    dist = float(max(faces))
    run = geo.free_run(start, heading, dist, [box(target), *others(state, unit.id, target.id)],
                       1.0)
    return geo.rounded(geo.moved(start, run, heading)), round(run, 4)


def flee_move(state: State, unit: UnitState, away_from: geo.Point, dist: float
              ) -> tuple[geo.Box, geo.Point | None, list[str]]:
    """CH.REACT, FP.FLEE_DIRECTION, FP.FLEE_THROUGH: pivot about the centre (ignoring other
    units) to face directly away from ``away_from`` and move ``dist``; a move that touches the
    table edge takes the unit off the table (returns the point). It ends clear of any unit it
    passed through, and says which units those were."""
    start = box(unit)
    facing = geo.bearing(away_from, geo.centre(start))
    turned = geo.pivoted(start, facing)
    table = state.table
    t, point = geo.edge_time(turned, facing, table["width"], table["depth"],
                             middle=ruled(state, "exit_at_the_middle"))
    if t <= dist:
        return geo.rounded(geo.moved(turned, t)), point, []
    end = geo.moved(turned, dist)
    around = [(u.id, box(u)) for u in state.units.values()
              if u.id != unit.id and u.status in ALIVE]
    extra = 0.0
    while any(geo.within(end, b, 1e-9) for _, b in around) and extra < 48:
        extra += 0.5
        if t <= dist + extra:
            return geo.rounded(geo.moved(turned, t)), point, []
        end = geo.moved(turned, dist + extra)
    path = geo.bounds(turned, end)
    crossed = [(uid, b) for uid, b in around if geo.overlap(path, geo.bounds(b))]
    if not crossed:
        return geo.rounded(end), None, []
    origin = geo.polygon(turned)
    swept = origin.union(geo.polygon(end)).convex_hull
    through = [uid for uid, b in crossed
               if swept.intersection(geo.polygon(b)).area > 0.01
               and not origin.intersects(geo.polygon(b))]
    return geo.rounded(end), None, through


def nearest_enemy(state: State, unit: UnitState) -> UnitState | None:
    foes = [u for u in state.units.values() if u.player != unit.player and u.status in ALIVE]
    if not foes:
        return None
    return foes[geo.nearest(box(unit), [box(f) for f in foes], box_gap)]


def failed_path(state: State, unit: UnitState, target: UnitState, dist: float
                ) -> tuple[geo.Box, float]:
    """CH.FAILED: the failed charger's move: a wheel toward the target's centre (as much of
    it as ``dist`` pays for, at most 90 degrees; halved, then none, where the wheel itself
    would meet a unit, terrain or the edge), then forward as far as the rest goes keeping 1"
    from every unit (MOVE.SPACING). Returns where it ends and the inches it used."""
    start = box(unit)
    width, depth = state.table["width"], state.table["depth"]
    clear = spacing(state, unit)
    terrain = geo.walls_of(sight.walls(state))
    delta = max(-90.0, min(90.0, turn_of(start.facing,
                                         geo.bearing(geo.centre(start),
                                                     geo.centre(box(target))))))
    if start.width * math.radians(abs(delta)) > dist:
        delta = math.copysign(math.degrees(dist / start.width), delta)
    wheel: tuple[Leg, ...] = ()
    for d in (delta, delta / 2):
        legs = (Leg("wheel", round(d, 2)),)
        if abs(d) >= 0.5 and trouble(start, legs, clear, terrain, width, depth) is None:
            wheel = legs
            break
    spent = sum(cost(leg, start.width, unit.profile["M"]) for leg in wheel)
    turned = walk(start, wheel)
    run = math.floor(min(max(0.0, dist - spent), clear_ahead(state, unit, turned, dist))
                     * 10000) / 10000
    def fits(r: float) -> bool:
        return trouble(start, (*wheel, Leg("forward", r)), clear, terrain, width,
                       depth) is None

    if run > 0 and not fits(run):   # terrain ahead: the farthest clear run, by halving
        lo, hi = 0.0, run
        for _ in range(14):
            lo, hi = ((lo + hi) / 2, hi) if fits((lo + hi) / 2) else (lo, (lo + hi) / 2)
        run = math.floor(lo * 10000) / 10000
    return walk(start, (*wheel, Leg("forward", run))), round(spent + run, 4)
