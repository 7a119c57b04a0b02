"""CH.DECLARE: the units a charger may charge, kept with the units' values (a big battle asks
every pair of a charger and an enemy, again in every state of its charge phase)."""

from __future__ import annotations

from typing import Any

from regiment.core import measure
from regiment.core.state import memo

from .. import table
from ..state import State, UnitState
from ..units import box
from .rules import hidden, why_not_target


def chargeable(state: State, unit: UnitState, target: UnitState) -> bool:
    """CH.DECLARE: whether ``unit`` may charge ``target`` (``eligible_target`` finds no
    reason, and tells none: the declarations' ask, the sides' drive and the redirects ask
    it of every pair, 16 x 32 a decision on a 32-unit table).

    On a mapped table the answer is the two units' own (where each stands, whether the
    target is inside a unit, its status) and the game's (its rulings, its table), and a
    declaration changes two units: the answer is kept with the charger's value, by what it
    depends on of the target (``_asked``: not the target's value, which would keep old
    states alive), and the other pairs are not worked out again in the next state. At a
    table the answers are the players' (kept with the state), and while an explanation
    listens to what geometry says, it is told each time."""
    if target.player == unit.player:
        return False
    if table.measured(state) or measure.heard:
        answers = memo(state)
        key = ("chargeable", unit.id, target.id)
        if key not in answers:
            answers[key] = _chargeable(state, unit, target)
        return answers[key]  # type: ignore[no-any-return]  # what this function memoized
    return _kept(state, unit, target, (box(target), target.status, target.joined,
                                       state.engine))


def _kept(state: State, unit: UnitState, target: UnitState, asked: tuple[Any, ...]) -> bool:
    """``chargeable`` on a mapped table, by what it depends on of ``target`` (``asked``)."""
    kept: dict[str, tuple[Any, ...]] | None = getattr(unit, "_targets", None)
    if kept is None:
        kept = {}
        object.__setattr__(unit, "_targets", kept)   # not a field: the unit is unchanged
    hit = kept.get(target.id)
    if hit is not None and hit[1] is state.table and hit[0] == asked:
        return hit[2]  # type: ignore[no-any-return]  # what this function kept
    found = _chargeable(state, unit, target)
    kept[target.id] = (asked, state.table, found)
    return found


def targets(state: State, unit: UnitState) -> list[UnitState]:
    """CH.DECLARE: the units ``unit`` may charge (``chargeable``), in the state's order; kept
    with the state: the sides' drive and the declarations' ask ask it of each charger in the
    same state, and no friend is asked about. (What ``chargeable`` depends on of an enemy is
    made again for each charger rather than kept with the state once for all of them: a
    game that keeps every state, as ``verify`` does, kept those lists too, 11 % of verify's
    time on the bench's game, with no gain measured in a 32-unit battle.)"""
    answers = memo(state)
    key = ("targets", unit.id)
    found: list[UnitState] | None = answers.get(key)
    if found is None:
        if table.measured(state) or measure.heard:
            found = [t for t in state.units.values()
                     if t.player != unit.player and chargeable(state, unit, t)]
        else:
            found = _all_kept(state, unit)
        answers[key] = found
    return found


def _foes(state: State, player: str) -> tuple[list[UnitState], tuple[Any, ...]]:
    """The units of the sides other than ``player``'s, and what ``chargeable`` depends on of
    each of them (with the engine), as one key: worked out once a state for every charger
    of that side."""
    answers = memo(state)
    key = ("foes", player)
    got: tuple[list[UnitState], tuple[Any, ...]] | None = answers.get(key)
    if got is None:
        foes = [t for t in state.units.values() if t.player != player]
        got = answers[key] = (foes, (state.engine, *((t.id, box(t), t.status, t.joined)
                                                     for t in foes)))
    return got


def _all_kept(state: State, unit: UnitState) -> list[UnitState]:
    """``targets`` on a mapped table: the whole list kept with the charger's value, by what it
    depends on of every foe (``_foes``), so that a state in which no foe changed asks no
    pair again (a 64-unit battle asks 32 x 32 pairs a state, in every state of its charge
    phase); a state in which some did asks each pair (``_kept``, most of them kept too)."""
    foes, asked = _foes(state, unit.player)
    hit: tuple[Any, ...] | None = getattr(unit, "_all_targets", None)
    if hit is not None and hit[0] is state.table and hit[1] == asked:
        return [foes[i] for i in hit[2]]
    engine = state.engine
    chosen = [i for i, t in enumerate(foes)
              if _kept(state, unit, t, (box(t), t.status, t.joined, engine))]
    object.__setattr__(unit, "_all_targets", (state.table, asked, chosen))   # not a field
    return [foes[i] for i in chosen]


def _chargeable(state: State, unit: UnitState, target: UnitState) -> bool:
    return not why_not_target(state, unit, target) and not hidden(state, unit, target)


def redirect_targets(state: State, unit: UnitState) -> list[UnitState]:
    """CH.REDIRECT: the other targets a charger could redirect to (once a turn)."""
    if unit.redirected or unit.status != "ready":
        return []
    # in table mode every other enemy is offered: the player's choice says it can see it
    return [t for t in targets(state, unit) if t.id != unit.declared]
