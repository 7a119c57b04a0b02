"""regiment.phases: the rulebooks, one package each, and the registry of presets by name.

Importing this package registers every rulebook's presets and scenario schema by name, so
that ``Game.load`` can find the rules a log was played under; a rulebook's modules are
imported when a game of it is first made or read. ``phases.fantasy`` holds
``fantasy8`` and ``fantasy-classic``; ``phases.skirmish`` holds ``skirmish40k``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from regiment.core.protocols import PRESETS, EventStore, Preset, register_preset
from regiment.core.scenario import Schema, load_scenario, parse_scenario, register_schema

if TYPE_CHECKING:
    from regiment.core.dice import Dice
    from regiment.core.game import Game

# Each rulebook is registered by name, and imported when a game or scenario of it first needs
# it (its machine, geometry, numpy and shapely take most of a command's start-up).
FANTASY_FIELDS = ("table", "units")   # what phases/fantasy/scenario.py reads (FIELDS there)
SKIRMISH_FIELDS = ("table", "units")  # and phases/skirmish/scenario.py


def _fantasy(name: str) -> Preset[Any]:
    from .fantasy.preset import FantasyPreset

    return FantasyPreset(name)


def _skirmish() -> Preset[Any]:
    from .skirmish.preset import SkirmishPreset

    return SkirmishPreset()


def _fantasy_schema() -> Schema:
    from .fantasy.scenario import parse_fantasy

    return parse_fantasy


def _skirmish_schema() -> Schema:
    from .skirmish.scenario import parse_skirmish

    return parse_skirmish


register_preset(lambda: _fantasy("fantasy8"), "fantasy8")
register_preset(lambda: _fantasy("fantasy-classic"), "fantasy-classic")
register_schema(("fantasy8", "fantasy-classic"), _fantasy_schema, FANTASY_FIELDS, later=True,
                measured=True)
register_preset(_skirmish, "skirmish40k")
register_schema(("skirmish40k",), _skirmish_schema, SKIRMISH_FIELDS, later=True, measured=True)

__all__ = ["PRESETS", "FantasyPreset", "build_machine", "compile_machine", "load_game",
           "new_game", "turn_table"]


def __getattr__(name: str) -> Any:
    """The fantasy rulebook's names this package has always given, imported when asked."""
    if name == "FantasyPreset":
        from .fantasy.preset import FantasyPreset

        return FantasyPreset
    if name in ("build_machine", "compile_machine", "turn_table"):
        from .fantasy import machine

        return getattr(machine, name)
    raise AttributeError(name)


def new_game(scenario: str | Path | dict[str, Any], *, store: EventStore,
             dice: Dice | None = None, game_id: str | None = None) -> Game:
    """Start a game from a scenario file or dict, with the preset the scenario names."""
    from regiment.core.game import Game

    data = parse_scenario(scenario) if isinstance(scenario, dict) else load_scenario(scenario)
    return Game.new(data, store=store, dice=dice, game_id=game_id)


def load_game(game_id: str, store: EventStore) -> Game:
    from regiment.core.game import Game

    return Game.load(game_id, store)
