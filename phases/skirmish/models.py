"""The skirmish game's units of models on the table (SK.UNITS, SK.ENGAGED, SK.CASUALTIES):
which models fight, and which fall first. A unit's models are round bases (``Circle``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from regiment.core import geometry as geo

ENGAGED_REACH = 2.0   # inches: a model this near a friend in base contact fights too


def in_base_contact(model: geo.Circle, enemies: Sequence[geo.Circle]) -> bool:
    """Touching an enemy model (base to base, within a ten-thousandth of an inch)."""
    x, y, r = model
    hypot = math.hypot
    for e in enemies:  # noqa: SIM110 - a loop, not any(): every step asks it of every model
        if hypot(x - e[0], y - e[1]) - r - e[2] <= 1e-4:
            return True
    return False


def engaged(models: Sequence[geo.Circle], enemies: Sequence[geo.Circle]) -> list[int]:
    """SK.ENGAGED: the models that fight: those in base contact with an enemy model, and those
    within 2" of a model of their own unit that is (S4's "в бою" beside "в базовом контакте")."""
    touching = [i for i, m in enumerate(models) if in_base_contact(m, enemies)]
    near = {i for i, m in enumerate(models) if i not in touching and any(
        geo.circle_gap(m, models[t]) <= ENGAGED_REACH + geo.EPS for t in touching)}
    return sorted({*touching, *near})


def casualties(models: Sequence[geo.Circle], enemies: Sequence[geo.Circle], n: int
               ) -> list[int]:
    """SK.CASUALTIES: which ``n`` models are removed: those nearest the enemy first (edge to
    edge, the nearest enemy model; ties by the order the unit lists them)."""
    def nearest(i: int) -> float:
        return min((geo.circle_gap(models[i], e) for e in enemies), default=0.0)

    return sorted(range(len(models)), key=lambda i: (nearest(i), i))[:max(0, n)]


def result(wounds: dict[str, int]) -> tuple[str | None, int]:
    """SK.RESULT: the side that caused more unsaved wounds in all, and by how much (None, 0: a
    draw). ``wounds`` is each side's total."""
    ranked = sorted(wounds.items(), key=lambda kv: -kv[1])
    if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
        return None, 0
    return ranked[0][0], ranked[0][1] - ranked[1][1]


def morale_passed(leadership: int, penalty: int, faces: tuple[int, int]) -> bool:
    """SK.RESULT: a losing unit's morale check with the common penalty: 2D6 at or under its
    Leadership less the difference in wounds passes."""
    return sum(faces) <= leadership - penalty


Key = str | frozenset[str]   # one enemy unit, or the units a model may split its attacks among


def attack_pools(models: Sequence[geo.Circle], enemies: Mapping[str, Sequence[geo.Circle]]
                 ) -> dict[Key, int]:
    """SK.ALLOCATE: how many fighting models must attack each enemy unit, or may split their
    attacks among several (a pool its player divides before any die is rolled). A model in
    base contact attacks the units it touches; a model fighting through a friend within 2"
    (SK.ENGAGED) attacks the units that friend touches."""
    all_enemies = [c for cs in enemies.values() for c in cs]
    touched = {i: {uid for uid, cs in enemies.items() if in_base_contact(m, cs)}
               for i, m in enumerate(models)}
    out: dict[Key, int] = {}
    for i in engaged(models, all_enemies):
        foes = touched[i] or {uid for j, t in touched.items() if t and
                              geo.circle_gap(models[i], models[j]) <= ENGAGED_REACH + geo.EPS
                              for uid in t}
        key: Key = next(iter(foes)) if len(foes) == 1 else frozenset(foes)
        out[key] = out.get(key, 0) + 1
    return out


def terrain_penalty(through_difficult: bool, locked_since_earlier_turn: bool) -> bool:
    """SK.TERRAIN: charging through difficult terrain costs initiative, except against an
    enemy already locked in combat since an earlier turn."""
    return through_difficult and not locked_since_earlier_turn


def take_wounds(models: Sequence[geo.Circle], wounds: Sequence[int],
                enemies: Sequence[geo.Circle] | None, n: int
                ) -> tuple[list[int], list[int], int]:
    """SK.CASUALTIES, SK.ALLOCATE: ``n`` unsaved wounds on a squad. The model nearest the enemy
    takes them until it falls, then the next nearest; wounds left when every model has fallen
    are lost (never carried to another squad). Returns the models removed (indexes), the
    wounds each model left has, and the wounds lost. With no ``enemies`` (table mode: the
    players take the nearest off), the models in the order the squad lists them."""
    left = list(wounds)
    removed: list[int] = []
    order = range(len(models)) if enemies is None else casualties(models, enemies, len(models))
    for i in order:
        if n <= 0:
            break
        took = min(n, left[i])
        left[i] -= took
        n -= took
        if left[i] == 0:
            removed.append(i)
    return sorted(removed), [w for i, w in enumerate(left) if i not in removed], n
