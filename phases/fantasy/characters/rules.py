"""Characters in units (CHAR.*): who may join which unit, where a character stands in it, and
where it may stand when it leaves.

A character joins a unit in its remaining moves and stands in the centre of its front rank
(CHAR.JOIN); it counts in the unit's ranks, fights with its own profile when its place
touches an enemy, lends the unit its Leadership, and moves, flees and is pursued with it
(CHAR.IN_UNIT). Blows aimed at the unit fall on its rank and file (CHAR.LOOK_OUT_SIR). It
leaves in a later remaining move, if its unit is not fighting (CHAR.LEAVE); when its unit is
destroyed around it in a combat, it stands alone where the unit's front was (CHAR.ALONE).
"""

from __future__ import annotations

from regiment.core import geometry as geo
from regiment.core import measure
from regiment.core.i18n import tr
from regiment.phases.common.table import question

from .. import table
from ..close_combat.combat import combat_holding
from ..specials import CHARACTER, has
from ..state import State, UnitState
from ..units import ALIVE, box, leadership, status_word
from ..why import WITHDRAWN

JOINS = {"infantry": ("infantry",), "cavalry": ("cavalry",),
         "monstrous_infantry": ("monstrous_infantry",),
         "monstrous_cavalry": ("monstrous_cavalry",)}


def is_lone_character(u: UnitState) -> bool:
    """A character on its own: one model with the character rule, in no unit."""
    return has(u, CHARACTER) and u.models == 1 and u.joined is None


def join_problem(state: State, c: UnitState, host: UnitState, measure_now: bool = False
                 ) -> str:
    """CHAR.JOIN: why ``c`` may not join ``host`` now ("" when it may). Both must be the
    active player's, ready and out of combat; the unit no character itself and of the same
    kind of troops; the character within its Movement of the unit (in table mode measured
    by the players once the join is chosen: ``measure_now``)."""
    if not is_lone_character(c):
        return tr("{unit} is not a character on its own", unit=c.name)
    if c.id in state.context.characters_moved:
        return tr("{unit} left a unit this turn: it joins one in a later turn", unit=c.name)
    if host.player != c.player or host.id == c.id or has(host, CHARACTER):
        return tr("{unit} is not a unit of {player}'s a character may join", unit=host.name,
                  player=c.player)
    if c.status != "ready" or host.status != "ready" or combat_holding(state, c.id) or \
            combat_holding(state, host.id):
        return tr("both must be ready and out of combat")
    if host.troop not in JOINS.get(c.troop, ()):
        return tr("a character on foot joins infantry, a mounted one cavalry ({troop} and "
                  "{host})", troop=c.troop, host=host.troop)
    if table.measured(state) and not measure_now:
        return ""
    reach = table.gap(state, c, host, "CHAR.JOIN") if table.measured(state) else \
        geo.gap(box(c), box(host))
    if measure_now and measure.heard:
        measure.tell(measure.key("distance", *sorted((c.id, host.id))),
                     format(round(reach, 4), "g"))
    if reach > c.profile["M"] + 1e-9:
        distance, m = format(reach, ".1f"), c.profile["M"]
        return WITHDRAWN.said(tr(WITHDRAWN.codes["beyond_movement"].told, unit=host.name,
                                 distance=distance, m=m),
                              "beyond_movement", unit=host.id, distance=distance, m=m)
    return ""


def join_options(state: State, player: str) -> list[tuple[str, str]]:
    """Every (character, unit) pair that may join now."""
    return [(c.id, h.id) for c in state.units.values() if c.player == player
            and is_lone_character(c) and c.status == "ready"
            for h in state.units.values() if not join_problem(state, c, h)]


def unit_leadership(state: State, u: UnitState) -> int:
    """CHAR.IN_UNIT: a unit tests on the best Leadership among it and its characters."""
    return max([leadership(u), *(leadership(state.units[c]) for c in u.characters)])


def may_leave(state: State, c: UnitState, host: UnitState) -> str:
    """CHAR.LEAVE: why ``c`` may not leave ``host`` now, wherever it would stand ("" when it
    may): its unit not fighting nor fleeing, and it did not join it this turn."""
    if host.status != "ready" or combat_holding(state, host.id):
        return tr("{unit} is {status}: a character leaves a unit that is not fighting",
                  unit=host.name, status=status_word(host.status))
    if c.id in state.context.characters_moved:
        return tr("{unit} joined {host} this turn: it leaves in a later turn", unit=c.name,
                  host=host.name)
    return ""


def room_to_leave(state: State, c: UnitState, host: UnitState) -> bool:
    """CHAR.LEAVE, in table mode: whether the players find a place for ``c`` within its
    Movement of ``host``, on the table, on no unit and more than 1" from every enemy."""
    return measure.yes(state, question(state, "yes_no", measure.key("leave", c.id), "CHAR.LEAVE", c,
                                       host.id, extra=float(c.profile["M"])))


def leave_problem(state: State, c: UnitState, host: UnitState, b: geo.Box) -> str:
    """CHAR.LEAVE: why ``c`` may not stand at ``b`` on leaving ``host`` ("" when it may): its
    unit not fighting nor fleeing; within its Movement of the unit; on the table, on no unit,
    and more than 1" from every enemy."""
    why = may_leave(state, c, host)
    if why:
        return why
    if geo.gap(b, box(host)) > c.profile["M"] + 1e-9:
        return tr("that is beyond its Movement ({m}\") of {unit}", m=c.profile["M"],
                  unit=host.name)
    table = state.table
    if not geo.on_table(b, table["width"], table["depth"]):
        return tr("that is off the table")
    for o in state.units.values():
        if o.id == c.id or o.status not in ALIVE:
            continue
        if geo.overlaps(b, box(o)):
            return tr("it would stand on {unit}", unit=o.name)
        if o.player != c.player and geo.gap(b, box(o)) < 1.0:
            return tr("it would be within 1\" of {unit}", unit=o.name)
    return ""


def leave_spots(state: State, c: UnitState, host: UnitState) -> list[geo.Box]:
    """CHAR.LEAVE: the places offered as choices (any other may be named): 1" in front of
    the unit's front, 1" behind it, 1" beside either flank, facing as the unit does."""
    hb = box(host)
    own = box(c.evolve(position=host.position, facing=host.facing))
    (fx, fy), (rx, ry) = geo.axes(hb.facing)
    spots = [(1.0 + own.depth, 0.0), (-(hb.depth + 1.0), 0.0),
             (0.0, hb.width / 2 + 1.0 + own.width / 2),
             (0.0, -(hb.width / 2 + 1.0 + own.width / 2))]
    out = []
    for ahead, aside in spots:
        b = geo.rounded(geo.Box(hb.x + fx * ahead + rx * aside, hb.y + fy * ahead + ry * aside,
                                hb.facing, own.width, own.depth))
        if not leave_problem(state, c, host, b):
            out.append(b)
    return out
