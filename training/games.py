"""Games inside training: in process, refereed by the judge's `play_bots`
(results are clinea.judge.referee.GameResult: winner 0/1/None, reason, moves,
times).

The bots here expose `core_for(board) -> CBot`, so the judge plays their games
in its in-C loop; that relies on `core_for` doing everything `new_game` would,
which holds since these bots keep no other per-game state.
"""
from __future__ import annotations

from collections.abc import Sequence

from clinea.core import Board, Rules
from clinea.core.cbot import UniformRandom
from clinea.judge.referee import GameResult, play_bots
from clinea.players.bot import Bot
from clinea.players.greedy_player import GreedyBot
from clinea.players.randomized_minimax_player import RandomizedMinimaxBot
from clinea.training.parametrisation import to_weights


class FastRandomBot(Bot):
    """Uniformly random, playable inside the in-C game loop."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.core = UniformRandom(seed)

    def core_for(self, board: Board) -> UniformRandom:
        return self.core

    def choose(self, board: Board) -> int:
        return self.core.choose(board)


def play(first: Bot, second: Bot, geometry: Rules) -> GameResult:
    """One game, `first` moving first, refereed by the judge (in C when both
    bots allow it)."""
    return play_bots(first, second, *geometry)


def greedy(values: Sequence[float], c: int) -> GreedyBot:
    """A greedy player with the flat weight vector `values` for `c` in a row,
    in either parametrisation (clinea.training.parametrisation)."""
    return GreedyBot(to_weights(values, c))


def opponent(kind: str, seed: int, depth: int = 4) -> Bot:
    """A fresh training opponent: "random" or "minimax" (randomized minimax, `depth` plies)."""
    if kind == "random":
        return FastRandomBot(seed)
    if kind == "minimax":
        return RandomizedMinimaxBot(depth, seed)
    raise ValueError(f"opponent {kind!r} is unknown: allowed random, minimax")
