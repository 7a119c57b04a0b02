"""The engine as a PettingZoo AEC environment (``regiment.rl.env``).

The agents are the scenario's players; the agent to act is the one whose decision the game
waits on, reactions and answers included, and it keeps the turn while it builds a command
(at most three actions). Dice are the engine's seeded dice: ``reset(seed=n)`` rolls the same
dice for the same actions, so runs repeat. The reward is given once, at the end: +1 to the
winner, -1 to the loser, 0 each for a draw; the result the rules gave (its rule, the points
each side scored) is in ``infos``. Each step's ``infos`` of the agent that acted hold the
action's name and, once a command is whole, the command exactly as the engine took it
(``command``: its path, its place) and, for a move, where the unit then stands (``at``), so
that ``game(store)`` writes the same game as a log.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .layout import ENCODING
from .observe import TERRAIN, raster
from .observe import size as observation_size
from .play import Play
from .session import Rules, pieces, seed_of

BOUND = 10.0   # every observed value lies within +-BOUND (a unit of 500 models: clipped)


class RegimentEnv(AECEnv):  # type: ignore[misc]  # (PettingZoo is not typed)
    metadata = {"name": f"regiment_v{ENCODING}", "render_modes": ["ansi"],
                "is_parallelizable": False}

    def __init__(self, rules: Rules, *, seed: int | None = None, table: bool = False,
                 max_steps: int = 20_000, render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = rules
        self.render_mode = render_mode
        self.max_steps = max_steps
        self._seed = seed
        self.play = Play.new(rules, seed_of(seed))
        layout = self.play.layout
        self.layout = layout
        self.possible_agents = list(layout.seats)
        self.agents = self.possible_agents[:]
        parts: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(-BOUND, BOUND, (observation_size(layout),), np.float32),
            "action_mask": spaces.Box(0, 1, (layout.size,), np.int8),
        }
        self.table = table
        if table:
            shape = raster(layout, rules.opening, layout.seats[0]).shape
            parts["table"] = spaces.Box(0.0, 1.0, shape, np.float32)
        self.observation_spaces = {a: spaces.Dict(parts) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(layout.size) for a in self.possible_agents}
        self._reset_dicts()

    def _reset_dicts(self) -> None:
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.play.to_move() or self.agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed = seed
        self.play = Play.new(self.rules, seed_of(self._seed))
        self.agents = self.possible_agents[:]
        self._reset_dicts()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = np.clip(self.play.observe(agent), -BOUND, BOUND)
        mask = self.play.mask() if agent == self.agent_selection and \
            not self.terminations.get(agent, True) else np.zeros(self.layout.size, np.int8)
        out = {"observation": obs, "action_mask": mask}
        if self.table:
            out["table"] = raster(self.layout, self.play.session.state, agent)
        return out

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        label = self.layout.label(int(action)) if 0 <= int(action) < self.layout.size \
            else str(action)
        command = self.play.act(int(action))
        self.infos[agent] = {"action": label, "stage": self.play.stage(),
                             "command": None if command is None else command.wire()}
        if command is not None and command.name == "move":
            self.infos[agent]["at"] = where(self.play, str(getattr(command, "unit", "")))
        session = self.play.session
        if session.over:
            outcome = session.outcome() or {}
            winner = outcome.get("winner")
            for a in self.agents:
                self.rewards[a] = 0 if winner is None else (1 if a == winner else -1)
                self.terminations[a] = True
                self.infos[a] = {**self.infos.get(a, {}), "outcome": outcome}
        elif session.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        self.agent_selection = self.play.to_move() or agent
        self._accumulate_rewards()

    def game(self, store: Any, game_id: str | None = None) -> Any:
        """The game played so far as an ordinary log in ``store`` (``regiment verify`` reads
        it; the dice seed goes to the store's secrets)."""
        return self.play.session.to_game(store, game_id)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return text(self.play)

    def close(self) -> None:
        return None


def where(play: Play, uid: str) -> dict[str, Any] | None:
    """Where a unit stands after its move: its front's centre and facing (fantasy), its first
    model's centre (skirmish), in inches and degrees as the board gives them."""
    state = play.session.state
    units = getattr(state, "units", None)
    if units is not None and uid in units and units[uid].position is not None:
        u = units[uid]
        return {"unit": uid, "x": round(u.position[0], 4), "y": round(u.position[1], 4),
                "facing": round(u.facing % 360.0, 4)}
    squads = getattr(state, "squads", {})
    if uid in squads and squads[uid].models:
        first = squads[uid].models[0]
        return {"unit": uid, "x": round(first[0], 4), "y": round(first[1], 4)}
    return None


def text(play: Play) -> str:
    """The game in a few lines: each unit where it stands, then what it waits for."""
    state = play.session.state
    lines = [f"turn {state.turn}, {state.player}, {state.phase}"]
    by_id = pieces(state)
    for uid in play.layout.units:
        p = by_id[uid]
        where = getattr(p, "position", None) or (p.models[0][:2] if getattr(p, "models", None)
                                                 and isinstance(p.models, tuple) else None)
        models = p.models if isinstance(p.models, int) else len(p.models)
        at = f"({where[0]:.1f}, {where[1]:.1f})" if where else "-"
        lines.append(f"  {uid:<16} {p.player:<12} {models:>3} models {at:<16} {p.status}")
    d = play.decision()
    if d is not None:
        lines.append(f"{d.player} decides: {d.decision} "
                     f"({len(play.legal())} actions open, stage {play.stage()})")
    return "\n".join(lines)


# the table's terrain channels, named for the docs
RASTER_CHANNELS = {book: ("mine", "theirs", *kinds) for book, kinds in TERRAIN.items()}
