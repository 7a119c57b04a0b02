"""REF.*: the reforms open to a unit, as pure functions."""

from __future__ import annotations

from regiment.core import geometry as geo

from ..close_combat.combat import (
    fighting_characters,
    models_in_contact,
    place_in_front,
    positions,
    touching,
)
from ..rulings import ruled
from ..state import Combat, State, UnitState
from ..units import ALIVE, box, model_centres, touched_at_table

Reform = tuple[int, str, int, geo.Box | None]   # files, foe to face, turn, where (geometry)


def reform_options(state: State, combat: Combat, u: UnitState) -> list[Reform]:
    """REF.WHO, REF.PLACEMENT, REF.CONTACT: the reforms open to ``u``: turn to face the one
    enemy in its flank or rear, or change frontage by up to two files either way."""
    return [r for r, (rule, _) in reform_checks(state, combat, u) if not rule]


def reform_checks(state: State, combat: Combat, u: UnitState
                  ) -> list[tuple[Reform, tuple[str, str]]]:
    """Every reform ``u`` might try, each with why it is not open: ("", "") when it is, or
    (rule, reason). It must keep touching every enemy it touched, on the same side, with at
    least as many of its models in contact and each enemy with exactly as many; it may touch
    no unit it did not touch; it stays on the table. A unit fought from two or more sides
    may not reform at all (REF.WHO)."""
    foes = touching(state, combat, u.id)
    if not foes or len({side for _, side in foes}) != 1:
        return []
    side = foes[0][1]
    if u.position is None:   # table mode: the players say whether it fits (table.reform_room)
        return [(r, contact_kept_at_table(u, foes, r)) for r in _reforms_in_combat(u, foes,
                                                                                   side)]
    before = {e.id: (models_in_contact(u, e)[0], models_in_contact(e, u)[0]) for e, _ in foes}
    candidates: list[tuple[int, str, UnitState]] = []
    if side != "front":
        if len(foes) == 1:
            e = foes[0][0]
            their_side = geo.contact(box(e), box(u))
            if their_side is not None:
                b = geo.flush_against(box(u), box(e), their_side[0])
                candidates.append((u.files, e.id, u.evolve(position=(b.x, b.y),
                                                           facing=b.facing)))
    else:
        for files in range(max(1, u.files - 2), min(u.models, u.files + 2) + 1):
            if files != u.files:
                candidates.append((files, "", u.evolve(files=files)))
    fighting = [c.id for c, _ in fighting_characters(state, combat, u)] if u.characters else []
    here = box(u)
    reach = 2 * (here.width + here.depth) + 1.0  # farther units cannot be touched by a reform
    x0, y0, x1, y1 = geo.bounds(here)
    around = (x0 - reach, y0 - reach, x1 + reach, y1 + reach)
    near = [(o.id, b) for o in state.units.values() if o.id != u.id and o.status in ALIVE
            for b in (box(o),) if geo.overlap(around, geo.bounds(b))]
    touched = {i for i, o in near if geo.within(here, o, 1e-3)}  # friends beside it too
    others = [(i, o) for i, o in near if i not in touched]
    table = state.table
    out: list[tuple[Reform, tuple[str, str]]] = []
    for files, face, moved in candidates:
        b = box(moved)
        why = ("", "")
        if not geo.on_table(b, table["width"], table["depth"]):
            why = ("REF.PLACEMENT", "it would not fit on the table")
        elif not reachable(state, u, moved, b):
            why = ("REF.PLACEMENT", f"a model would move more than twice its Movement "
                   f"({2 * u.profile['M']}\")")
        elif any(geo.overlaps(b, o) for i, o in near if i in touched):
            why = ("REF.PLACEMENT", "it would stand on a unit beside it")
        elif any(geo.within(b, o, 1e-3) for _, o in others):
            hit = next(state.units[i].name for i, o in others if geo.within(b, o, 1e-3))
            why = ("REF.PLACEMENT", f"it would touch {hit}, which it was not touching")
        else:
            for e, _ in foes:
                mine, theirs = before[e.id]
                now_side = geo.contact(b, box(e))
                now = models_in_contact(moved, e)[0], models_in_contact(e, moved)[0]
                if now_side is None or now[0] < mine or now[1] != theirs:
                    why = ("REF.CONTACT", f"{e.name} would have {now[1]} models in contact "
                           f"instead of {theirs}, and {u.name} {now[0]} instead of {mine}")
                    break
            if fighting and not why[0]:   # S2 p.57: a character in contact stays in contact
                fronts = [at for e, _ in foes for side, at in (positions(moved, e),)
                          if side == "front"]
                lost = [c for c in fighting
                        if not any(place_in_front(moved, c) in at for at in fronts)]
            else:
                lost = []
            if lost:
                why = ("REF.CONTACT", f"{state.units[lost[0]].name} would no longer be in "
                       "base contact")
        out.append(((files, face, 0, geo.rounded(b)), why))
    return out


def _reforms_in_combat(u: UnitState, foes: list[tuple[UnitState, str]], side: str
                       ) -> list[Reform]:
    """REF.WHO: the reforms a unit fought on one side might try, before any placement."""
    if side != "front":
        return [(u.files, foes[0][0].id, 0, None)] if len(foes) == 1 else []
    return [(files, "", 0, None) for files in range(max(1, u.files - 2),
                                                    min(u.models, u.files + 2) + 1)
            if files != u.files]


def contact_kept_at_table(u: UnitState, foes: list[tuple[UnitState, str]], r: Reform
                           ) -> tuple[str, str]:
    """REF.CONTACT in table mode, against what the players counted: a unit fought in front
    keeps at least as many models in contact, so its new front is at least as wide as the
    models it has touching its enemies now (the rest the players confirm: REF.PLACEMENT)."""
    files, face, _, _ = r
    if face:
        return "", ""
    touching = len({m for e, _ in foes if (t := touched_at_table(u, e)) is not None
                    and t[0] == "front" for m in t[1]})   # each model once (a corner: two)
    if files < touching:
        return ("REF.CONTACT", f"{u.name} has {touching} models in contact; {files} wide it "
                f"would have at most {files}")
    return "", ""


def free_reform_options(state: State, u: UnitState) -> list[Reform]:
    """CR.NO_MORE_FOES: a winner left with no foe may reform freely: turn about its centre by
    90, 180 or 270 degrees, or change its frontage by up to two files. It must stay on the
    table and may touch no unit, nor come within 1" of an enemy."""
    if u.position is None:   # table mode: the players say whether it fits (table.reform_room)
        options: list[Reform] = [(u.files, "", t, None) for t in (90, 180, 270)]
        return options + [(f, "", 0, None) for f in range(max(1, u.files - 2),
                                                          min(u.models, u.files + 2) + 1)
                          if f != u.files]
    turned = [(u.files, t, geo.pivoted(box(u), (u.facing + t) % 360)) for t in (90, 180, 270)]
    widths = [(f, 0, box(u.evolve(files=f)))
              for f in range(max(1, u.files - 2), min(u.models, u.files + 2) + 1) if f != u.files]
    table = state.table
    out: list[Reform] = []
    for files, turn, b in (*turned, *widths):
        if not geo.on_table(b, table["width"], table["depth"]):
            continue
        if not reachable(state, u, u.evolve(files=files), b):
            continue
        if any(geo.gap(b, box(o)) < (1.0 if o.player != u.player else 1e-3)
               for o in state.units.values() if o.id != u.id and o.status in ALIVE):
            continue
        out.append((files, "", turn, geo.rounded(b)))
    return out


def reachable(state: State, u: UnitState, reformed: UnitState, b: geo.Box) -> bool:
    """REF.PLACEMENT: no model moves more than twice its Movement in a reform (S2 p.57): each
    model of ``u`` can reach its own place in ``reformed`` standing at ``b``. Games begun
    before engine 0.5.0 did not measure it."""
    if not ruled(state, "reform_within_twice_m"):
        return True
    reach = 2 * u.profile["M"]
    if geo.farthest(box(u), b) <= reach:
        return True   # nothing in the two footprints is farther apart than that
    return geo.within_reach(model_centres(u), model_centres(reformed, b), reach)
