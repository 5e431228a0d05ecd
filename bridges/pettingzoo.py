"""C en linea as a PettingZoo AEC environment, on any board clinea plays.

    from clinea.bridges.pettingzoo import env

    game = env(columns=9, rows=8, c=5, p=30, render_mode="ansi")
    game.reset(seed=1)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            action = None
        else:
            legal = observation["action_mask"].nonzero()[0]
            action = int(legal[0])
        game.step(action)

The observation and the action mask are PettingZoo's connect_four_v3's,
generalised: {"observation": (rows, columns, 2) int8 planes, the observing
agent's stones then the opponent's, row 0 at the top; "action_mask":
(columns,) int8, 1 for each playable column of the agent to move}. Rewards
come at the end: 1 to the winner, -1 to the loser, 0 each on a draw (the
token limit `p` included). A column that cannot be played loses the game for
the agent that chose it (info["illegal_move"] names the column). The game is
clinea's one Board: no second copy of the rules.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from clinea.bridges import require
from clinea.bridges.rl_board import (
    RENDER_MODES,
    check_render_mode,
    mask_space,
    outcome,
    planes_space,
    render,
    spaces,
)
from clinea.core import Board, Rules
from clinea.core.observation import action_mask, planes

pettingzoo = require("pettingzoo", "rl")
# PettingZoo ships no types: its base class is Any to a type checker
AECEnv: Any = pettingzoo.AECEnv

AGENTS = ("player_0", "player_1")  # player_0 moves first


class ClineaAECEnv(AECEnv):
    """Two agents alternate on a `columns` x `rows` board, `c` in a row wins,
    `p` tokens each (see the module). `render_mode`: "ansi" (render returns
    the text board), "rgb_array" (an RGB picture), "human" (prints the text
    board at every move) or None."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "clinea_v0", "is_parallelizable": False, "render_fps": 2}

    def __init__(self, columns: int = 7, rows: int = 6, c: int = 4, p: int | None = None,
                 render_mode: str | None = None):
        super().__init__()
        self.rules = Rules(columns, rows, c, p)
        self.render_mode = check_render_mode(render_mode)
        self.board = Board(*self.rules)
        self.possible_agents = list(AGENTS)
        self._seat = {agent: seat for seat, agent in enumerate(AGENTS)}
        observation = spaces.Dict({"observation": planes_space(self.rules), "action_mask": mask_space(self.rules)})
        self.observation_spaces = {agent: observation for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(self.rules.columns) for agent in AGENTS}
        self._no_moves = np.zeros(self.rules.columns, dtype=np.int8)
        self._started = False

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The board as `agent` sees it; its mask is empty unless it is to move."""
        if not self._started:
            raise RuntimeError("call reset() before observe()")
        mask = action_mask(self.board) if agent == self.agent_selection else self._no_moves.copy()
        return {"observation": planes(self.board, self._seat[agent]), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game on the empty board (the game has no chance: `seed` only
        seeds the action spaces' sampling)."""
        if seed is not None:
            for offset, agent in enumerate(AGENTS):
                self.action_spaces[agent].seed(seed + offset)
        self.board = Board(*self.rules)
        self.agents = list(AGENTS)
        self.rewards = {agent: 0.0 for agent in AGENTS}
        self._cumulative_rewards = {agent: 0.0 for agent in AGENTS}
        self.terminations = {agent: False for agent in AGENTS}
        self.truncations = {agent: False for agent in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[0]
        self._started = True

    def step(self, action: int | None) -> None:
        """Drops the selected agent's stone in column `action` (None once its
        game is over, as PettingZoo's loop passes)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise ValueError(f"action must be a column 0..{self.rules.columns - 1}, got {action!r}")
        self._cumulative_rewards[agent] = 0.0
        seat = self._seat[agent]
        if self.board.can_play(int(action)):
            self.board.play(int(action))
            if self.board.is_over():
                self.rewards = {other: outcome(self.board, self._seat[other]) for other in AGENTS}
                self.terminations = {other: True for other in AGENTS}
        else:
            self.rewards = {other: (-1.0 if other == agent else 1.0) for other in AGENTS}
            self.terminations = {other: True for other in AGENTS}
            self.infos[agent] = {"illegal_move": int(action)}
        self.agent_selection = AGENTS[1 - seat]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        """The board as the render mode asks: text ("ansi"), a picture
        ("rgb_array"), printed ("human"), nothing without a mode."""
        return render(self.board, self.render_mode)

    def close(self) -> None:
        """Nothing to release: the environment holds no window or process."""


def env(**kwargs: Any) -> ClineaAECEnv:
    """The environment (ClineaAECEnv's arguments). It enforces the call
    order itself, so it needs none of PettingZoo's wrappers, whose attribute
    forwarding would cost more than a move."""
    return ClineaAECEnv(**kwargs)


raw_env = env  # PettingZoo's name for the unwrapped environment: the same here
