"""Sentences for events, each ending with the rule IDs that decided it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regiment.core.events import EVENTS
from regiment.core.state import GameState


def _name(state: GameState | None, uid: Any) -> str:
    if state is not None and uid in state.units:
        return state.units[uid].name
    return str(uid)


def _phase(d: dict[str, Any], s: GameState | None) -> str:
    return f"{d['player']}: {d['phase'].replace('turn.', '').replace('.', ' > ')}"


TEMPLATES: dict[str, Callable[[dict[str, Any], GameState | None], str]] = {
    "GameStarted": lambda d, s: f"Game {d['game_id']} begins ({d['preset']}, "
                                f"{d['dice']} dice, undo {d['undo']}).",
    "TurnBegan": lambda d, s: f"Game turn {d['turn']}: {d['player']}'s turn.",
    "PhaseChanged": _phase,
    "ChargeDeclared": lambda d, s: f"{_name(s, d['unit'])} declare a charge against "
                                   f"{_name(s, d['target'])}.",
    "ChargeReacted": lambda d, s: f"{_name(s, d['unit'])} {d['reaction'].replace('_', ' ')}.",
    "DiceRolled": lambda d, s: f"Rolled {d['purpose'].replace('_', ' ')} for "
                               f"{_name(s, d['unit'])}: {' '.join(map(str, d['faces']))}.",
    "ChargeRolled": lambda d, s: (
        f"{_name(s, d['unit'])} charge range {'+'.join(map(str, d['dice']))} + M = "
        f"{d['range']:g}\" against {d['distance']:.1f}\" to {_name(s, d['target'])}: "
        f"{'in reach' if d['success'] else 'short'}."),
    "UnitFled": lambda d, s: f"{_name(s, d['unit'])} flee {d['distance']}\".",
    "StepUndone": lambda d, s: f"{d['by']} undoes step {d['step']}"
                               + (f" (with {d['consent']}'s consent)." if d.get("consent")
                                  else "."),
    "StepRedone": lambda d, s: f"{d['by']} redoes step {d['step']} (the same dice).",
    "UndoRequested": lambda d, s: f"{d['by']} asks to undo step {d['step']}, which rolled dice.",
    "UndoRefused": lambda d, s: f"{d['by']} refuses to undo step {d['step']}.",
    "GameEnded": lambda d, s: f"The game ends: {d['reason']}.",
}


def sentence(type_: str, data: dict[str, Any], state: GameState | None = None) -> str | None:
    """The event as a sentence with its rule IDs, or None for bookkeeping events."""
    template = TEMPLATES.get(type_)
    if template is None:
        return None
    text = template(data, state)
    cls = EVENTS.get(type_)
    rules = cls.rules if cls is not None else ()
    return f"{text} [{', '.join(rules)}]" if rules else text
