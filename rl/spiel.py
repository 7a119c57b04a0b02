"""The engine as an OpenSpiel game: ``python_regiment`` (``regiment.rl.register()``).

Perfect information, two players (0 and 1: the scenario's players in its order), zero-sum,
a terminal reward of +1 / -1 (0 a draw). Every die is a chance node of six equal outcomes
(action ``f - 1`` is face ``f``), fed to the engine as real dice are entered, so a search
sees the dice as the rules roll them: one node per die, in the roll's order. Parameters:
``scenario`` (a bundled battle's name or a TOML path) and ``max_game_length`` (actions and
dice; a game cut there ends in a draw, ``cut``).

``clone`` copies nothing the game holds (its state is the engine's immutable state, shared);
OpenSpiel's own serialisation pickles a state's attributes, and ours pickle as plain data
(the scenario's name, the commands as the wire sends them, the faces) and are rebuilt by
replaying them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from . import rules_of
from .layout import ENCODING
from .observe import columns
from .play import Play
from .pz import text

NAME = "python_regiment"
DEFAULTS = {"scenario": "knights_flank", "max_game_length": 20_000}

GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name=f"regiment: a rank-and-file wargame (encoding {ENCODING})",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


class RegimentGame(pyspiel.Game):  # type: ignore[misc]  # (pyspiel is not typed)
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        self.scenario = str(params["scenario"])
        self.rules = rules_of(self.scenario)
        self.cut = int(params["max_game_length"])
        self.start = Play.new(self.rules, None)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.start.layout.size, max_chance_outcomes=6,
            num_players=2, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=self.cut)
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> RegimentState:
        return RegimentState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self)


class RegimentState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: RegimentGame) -> None:
        super().__init__(game)
        self.play = game.start.copy()
        self.length = 0
        self.cut = game.cut

    # --- whose move ----------------------------------------------------------------------

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        seat = self.play.to_move()
        if seat is None:
            return int(pyspiel.PlayerId.CHANCE)
        return self.play.layout.seats.index(seat)

    def _legal_actions(self, player: int) -> list[int]:
        return self.play.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(f, 1.0 / 6.0) for f in range(6)]

    def _apply_action(self, action: int) -> None:
        if self.play.to_move() is None:
            self.play.give(int(action) + 1)
        else:
            self.play.act(int(action))
        self.length += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"die {action + 1}"
        return self.play.layout.label(action)

    # --- the end -------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.play.session.over or self.length >= self.cut

    def returns(self) -> list[float]:
        outcome = self.play.session.outcome()
        if outcome is None or outcome.get("winner") is None:
            return [0.0, 0.0]
        first = self.play.layout.seats[0]
        return [1.0, -1.0] if outcome["winner"] == first else [-1.0, 1.0]

    def __str__(self) -> str:
        return text(self.play)


class Observer:
    """The observation tensor (``observe.columns``) and a string of the game, from a
    player's side."""

    def __init__(self, game: RegimentGame) -> None:
        layout = game.start.layout
        self.tensor = np.zeros(len(columns(layout)), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RegimentState, player: int) -> None:
        seat = state.play.layout.seats[player]
        self.tensor[:] = state.play.observe(seat)

    def string_from(self, state: RegimentState, player: int) -> str:
        return f"{player}: {state.play.partial} {state.history_str()}"


def register() -> None:
    """Register ``python_regiment`` with OpenSpiel (once; again is harmless)."""
    if NAME not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, RegimentGame)
