"""The engine for learners and searchers: a PettingZoo environment and an OpenSpiel game.

``pip install regiment[rl]`` for ``env`` (PettingZoo's AEC API), ``regiment[openspiel]`` for
``register`` (the OpenSpiel game ``python_regiment``). Both step one adapter (``Play``: a game
in memory and the command a seat is building) over one action layout (``Layout``: a flat
``Discrete(N)`` of three blocks) and one observation (``observe.columns`` names its values).
Neither needs the other's library. ``versus`` is one seat against the bundled rule bot, as a
single-agent Gymnasium environment, for single-agent learners.
"""

from __future__ import annotations

from typing import Any

import regiment.phases  # noqa: F401  (the rulebooks register their presets and scenarios)

from .layout import ENCODING, Layout
from .play import IllegalAction, Play
from .session import Rules, Session

__all__ = ["ENCODING", "IllegalAction", "Layout", "Play", "Rules", "Session", "env",
           "register", "rules_of", "versus"]


def rules_of(scenario: str | dict[str, Any]) -> Rules:
    """A scenario's rules, made once: a bundled battle's name (``knights_flank``), a TOML
    file's path, or a scenario already read (``core.scenario.load_scenario``)."""
    if isinstance(scenario, dict):
        return Rules.of(scenario)
    return _named(scenario)


_RULES: dict[str, Rules] = {}


def _named(name: str) -> Rules:
    found = _RULES.get(name)
    if found is None:
        from regiment.core.scenario import load_scenario
        from regiment.tools.listings import scenario_path

        found = _RULES[name] = Rules.of(load_scenario(scenario_path(name)), name)
    return found


def env(scenario: str | dict[str, Any] = "knights_flank", *, seed: int | None = None,
        table: bool = False, max_steps: int = 20_000, render_mode: str | None = None) -> Any:
    """A PettingZoo AEC environment of ``scenario`` (``table``: add a raster of the table to
    each observation, for convolutional nets)."""
    try:
        from .pz import RegimentEnv
    except ImportError as exc:
        raise ImportError(f"regiment.rl.env needs PettingZoo ({exc}): pip install "
                          "'regiment[rl]'") from None
    return RegimentEnv(rules_of(scenario), seed=seed, table=table, max_steps=max_steps,
                       render_mode=render_mode)


def versus(scenario: str | dict[str, Any] = "knights_flank", seat: str | None = None) -> Any:
    """One seat (default: the first player) against the bundled rule bot, as a single-agent
    Gymnasium environment with ``action_masks()`` (sb3-contrib's ``MaskablePPO``)."""
    from .against import VersusBot

    return VersusBot(rules_of(scenario), seat)


def register() -> None:
    """Register the OpenSpiel game ``python_regiment`` (``pyspiel.load_game(
    "python_regiment(scenario=knights_flank)")``)."""
    try:
        from .spiel import register as _register
    except ImportError as exc:
        raise ImportError(f"regiment.rl.register needs OpenSpiel ({exc}): pip install "
                          "'regiment[openspiel]'") from None
    _register()
