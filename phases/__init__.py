"""regiment.phases: the rulebooks, one package each, and the registry of presets by name.

Importing this package registers every rulebook's presets and scenario schema, so that
``Game.load`` can find the rules a log was played under. ``phases.fantasy`` holds
``fantasy8`` and ``fantasy-classic``; ``phases.skirmish`` holds ``skirmish40k``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from regiment.core.dice import Dice
from regiment.core.game import Game
from regiment.core.protocols import PRESETS, EventStore, register_preset
from regiment.core.scenario import load_scenario, parse_scenario, register_schema

from .fantasy.machine import build_machine, compile_machine, turn_table
from .fantasy.preset import FantasyPreset
from .fantasy.scenario import FIELDS, parse_fantasy
from .skirmish import scenario as skirmish_scenario
from .skirmish.preset import SkirmishPreset

register_preset(FantasyPreset("fantasy8"))
register_preset(FantasyPreset("fantasy-classic"))
register_schema(("fantasy8", "fantasy-classic"), parse_fantasy, FIELDS)
register_preset(SkirmishPreset())
register_schema(("skirmish40k",), skirmish_scenario.parse_skirmish, skirmish_scenario.FIELDS)

__all__ = ["PRESETS", "FantasyPreset", "build_machine", "compile_machine", "load_game",
           "new_game", "turn_table"]


def new_game(scenario: str | Path | dict[str, Any], *, store: EventStore,
             dice: Dice | None = None, game_id: str | None = None) -> Game:
    """Start a game from a scenario file or dict, with the preset the scenario names."""
    data = parse_scenario(scenario) if isinstance(scenario, dict) else load_scenario(scenario)
    return Game.new(data, store=store, dice=dice, game_id=game_id)


def load_game(game_id: str, store: EventStore) -> Game:
    return Game.load(game_id, store)
