"""One seat against the bundled rule bot, as a single-agent Gymnasium environment.

What single-agent learners take (Stable-Baselines3 and sb3-contrib's ``MaskablePPO``, which
asks ``action_masks()``): the observation is the seat's flat float32 observation, the action
one action of the layout, the reward +1 / -1 / 0 at the end. An action the mask does not
offer ends the episode with -1 (``info["illegal"]`` says why), the game unchanged. Between
two of the learner's actions the rule bot plays the other seat (its commands put on the
layout's actions, the nearest where it moves off the layout's headings) and the dice roll
from the seed.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .arena import bot_actions
from .observe import size
from .play import IllegalAction, Play
from .pz import BOUND
from .session import Rules, seed_of


class VersusBot(gymnasium.Env):  # type: ignore[type-arg,misc]  # (Gymnasium's generics)
    metadata = {"render_modes": []}

    def __init__(self, rules: Rules, seat: str | None = None, max_steps: int = 20_000) -> None:
        super().__init__()
        self.rules = rules
        self.play = Play.new(rules, seed_of(0))
        self.seat = seat or self.play.layout.seats[0]
        if self.seat not in self.play.layout.seats:
            raise ValueError(f"no seat {seat!r}: {', '.join(self.play.layout.seats)}")
        self.max_steps = max_steps
        self.observation_space = spaces.Box(-BOUND, BOUND, (size(self.play.layout),),
                                            np.float32)
        self.action_space = spaces.Discrete(self.play.layout.size)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        # the dice from Gymnasium's generator: seeded by reset(seed), else by the last seed
        self.play = Play.new(self.rules, seed_of(int(self.np_random.integers(2**62))))
        self._bot()
        return self._observe(), {}

    def action_masks(self) -> np.ndarray:
        """The open actions as booleans (what ``MaskablePPO`` asks)."""
        return self.play.mask().astype(bool)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        try:
            command = self.play.act(int(action))
        except IllegalAction as exc:
            # as PettingZoo's TerminateIllegalWrapper: a learner that ignores the mask loses
            return self._observe(), -1.0, True, False, {"illegal": str(exc)}
        self._bot()
        session = self.play.session
        info: dict[str, Any] = {"command": None if command is None else command.wire()}
        reward = 0.0
        if session.over:
            outcome = session.outcome() or {}
            info["outcome"] = outcome
            winner = outcome.get("winner")
            reward = 0.0 if winner is None else (1.0 if winner == self.seat else -1.0)
        return (self._observe(), reward, session.over,
                not session.over and session.steps >= self.max_steps, info)

    def _bot(self) -> None:
        while not self.play.session.over and self.play.to_move() not in (None, self.seat):
            for a in bot_actions(self.play)[0]:
                self.play.act(a)

    def _observe(self) -> np.ndarray:
        return np.clip(self.play.observe(self.seat), -BOUND, BOUND)
