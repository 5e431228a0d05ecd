"""C en linea as a Gymnasium single-agent environment: the agent plays one
seat, a clinea player the other.

    import gymnasium
    import clinea.bridges.gymnasium_env  # registers clinea/CEnLinea-v0

    env = gymnasium.make("clinea/CEnLinea-v0", opponent="strong --time-per-move 0.05", columns=7, rows=6)
    observation, info = env.reset(seed=1)
    while True:
        action = int(info["action_mask"].nonzero()[0][0])
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

The opponent is any player `make_bot` takes: a registered name with its
options ("random", "greedy", "strong --time-per-move 0.1"), a bot file, a
protocol program, a Bot or a `choose(board)` function. A registered player
with a `--seed` option (random, randomized_minimax) given none is seeded
from `reset(seed=...)`, so a seeded episode repeats exactly.

Observations are the agent's planes (see `clinea.bridges.pettingzoo`),
the action mask is `info["action_mask"]` and `action_masks()` (the method
maskable learners call). The reward comes at the end: 1 won, -1 lost, 0
drawn; a column that cannot be played loses at once (info["illegal_move"]).
"""
from __future__ import annotations

import os
import shlex
from typing import Any

import numpy as np

from clinea.bridges import require
from clinea.bridges.make_bot import PlayerSpec, make_bot
from clinea.bridges.rl_board import RENDER_MODES, check_render_mode, outcome, planes_space, render, spaces
from clinea.core import Board, Rules
from clinea.core.observation import action_mask, planes
from clinea.players import registry
from clinea.players.bot import Bot
from clinea.players.driver import bot_from_options

gymnasium = require("gymnasium", "rl")
# the base class comes through require (the rl extra), so Any to a type checker
Env: Any = gymnasium.Env

SEED_RANGE = 2 ** 63  # the opponent's --seed, drawn from the environment's generator
ENV_ID = "clinea/CEnLinea-v0"


class ClineaGymEnv(Env):
    """The agent against `opponent` on a `columns` x `rows` board, `c` in a
    row, `p` tokens each. `seat`: 0 the agent moves first, 1 second, None
    a seat drawn at every reset. `render_mode`: "ansi", "rgb_array",
    "human" (prints the board after every step) or None."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(self, opponent: PlayerSpec = "random", columns: int = 7, rows: int = 6, c: int = 4,
                 p: int | None = None, seat: int | None = 0, render_mode: str | None = None):
        if seat not in (0, 1, None):
            raise ValueError(f"seat={seat!r} is out of range: allowed 0 (first), 1 (second) or None (drawn)")
        self.rules = Rules(columns, rows, c, p)
        self.render_mode = check_render_mode(render_mode)
        self.observation_space = planes_space(self.rules)
        self.action_space = spaces.Discrete(self.rules.columns)
        self.opponent_spec = opponent
        self.opponent: Bot = make_bot(opponent)
        self._seedable = self._seedable_command(opponent)
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.board = Board(*self.rules)

    @staticmethod
    def _seedable_command(opponent: PlayerSpec) -> tuple[type[Bot], list[str]] | None:
        """The opponent's class and options when it names a registered
        player with a --seed option and gives it none: reset(seed=...)
        seeds it."""
        if isinstance(opponent, Bot) or callable(opponent):
            return None
        words = shlex.split(opponent) if isinstance(opponent, str) else [str(word) for word in opponent]
        if os.sep in words[0] or any(word.startswith("--seed") for word in words):
            return None
        try:
            bot_class = registry.load(words[0])
            bot_from_options(bot_class, words[1:] + ["--seed", "0"])
        except (KeyError, ValueError):  # not a registered player, or one without --seed
            return None
        return bot_class, words[1:]

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; with a seed the agent's seat (when drawn) and a
        seedable opponent start from it."""
        super().reset(seed=seed)
        if seed is not None and self._seedable is not None:
            self._close_opponent()
            bot_class, words = self._seedable
            self.opponent = bot_from_options(bot_class, words + ["--seed", str(int(self.np_random.integers(SEED_RANGE)))])
        self.seat = int(self.np_random.integers(2)) if self.fixed_seat is None else self.fixed_seat
        self.board = Board(*self.rules)
        self.opponent.new_game(Board(*self.rules), 1 - self.seat)
        if self.seat == 1:
            self._opponent_moves()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The agent plays column `action`, then the opponent answers."""
        if self.board.is_over():
            raise ValueError("the game is over: call reset() before step()")
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise ValueError(f"action must be a column 0..{self.rules.columns - 1}, got {action!r}")
        if not self.board.can_play(int(action)):
            return self._observation(), -1.0, True, False, self._info(illegal_move=int(action))
        self.board.play(int(action))
        if not self.board.is_over():
            self._opponent_moves()
        terminated = self.board.is_over()
        reward = outcome(self.board, self.seat) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, False, self._info()

    def _opponent_moves(self) -> None:
        column = self.opponent.choose(self.board)
        if not self.board.can_play(column):
            raise ValueError(f"opponent {self.opponent.name!r} chose column {column!r}, "
                             f"legal are {self.board.legal_columns()}")
        self.board.play(column)

    def action_masks(self) -> np.ndarray:
        """The playable columns as booleans (for maskable learners)."""
        return action_mask(self.board).astype(bool)

    def _observation(self) -> np.ndarray:
        return planes(self.board, self.seat)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": action_mask(self.board), "seat": self.seat, **extra}

    def render(self) -> str | np.ndarray | None:
        """The board as the render mode asks: text ("ansi"), a picture
        ("rgb_array"), printed ("human"), nothing without a mode."""
        return render(self.board, self.render_mode)

    def _close_opponent(self) -> None:
        close = getattr(self.opponent, "close", None)
        if close is not None:
            close()

    def close(self) -> None:
        """Stops an opponent that runs as a program."""
        self._close_opponent()


gymnasium.register(ENV_ID, entry_point=ClineaGymEnv)
