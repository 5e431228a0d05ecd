"""Games inside training: in process, through the core, with the judge's
results (clinea.judge.referee.GameResult: winner 0/1/None, reason, moves, times).

Two bots that expose `core_for(board) -> CBot` (greedy, randomized minimax,
FastRandomBot) play through `clinea.core.fastgame.play_cbots`: the same Board
rules and the same winner/reason semantics as the judge's referee, without
its ~8 us of Python per move, which would otherwise double a training run
(see benchmarks/training.py). Any other bot goes through the judge's
`play_bots`. The fast path relies on `core_for` doing everything `new_game`
would; the bots above keep no other per-game state.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clinea.core import Board
from clinea.core.cbot import UniformRandom
from clinea.core.fastgame import ILLEGAL_BY_FIRST, play_cbots
from clinea.judge.referee import CONNECT, DRAW, Forfeit, GameResult, check_answer, play_bots
from clinea.players.bot import Bot
from clinea.players.greedy_player import GreedyBot
from clinea.players.randomized_minimax_player import RandomizedMinimaxBot
from clinea.players.weights import Weights


@dataclass(frozen=True)
class Geometry:
    """The board every training game is played on."""
    columns: int = 7
    rows: int = 6
    c: int = 4
    p: int | None = None

    def board(self) -> Board:
        return Board(self.columns, self.rows, self.c, self.p)

    @property
    def tokens(self) -> int:
        """p as the judge wants it (enough to fill the board when unset)."""
        return self.p if self.p is not None else (self.columns * self.rows + 1) // 2


class FastRandomBot(Bot):
    """Uniformly random, playable inside the in-C game loop."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.core = UniformRandom(seed)

    def core_for(self, board: Board) -> UniformRandom:
        return self.core

    def choose(self, board: Board) -> int:
        return self.core.choose(board)


def play(first: Bot, second: Bot, geometry: Geometry) -> GameResult:
    """One game, `first` moving first."""
    core_first = getattr(first, "core_for", None)
    core_second = getattr(second, "core_for", None)
    if core_first is None or core_second is None:
        return play_bots(first, second, geometry.columns, geometry.rows, geometry.c, geometry.tokens)
    board = geometry.board()
    times = np.zeros(board.max_moves)
    outcome, column = play_cbots(core_first(board), core_second(board), board, times)
    moves = board.moves()
    spent = times[:len(moves)].tolist()  # as the referee: no time for a forfeited move
    if outcome == 0 or outcome == 1:
        return GameResult(outcome, CONNECT, moves, spent)
    if outcome == -1:
        return GameResult(None, DRAW, moves, spent)
    side = 0 if outcome == ILLEGAL_BY_FIRST else 1
    try:
        check_answer(board, column)
        raise AssertionError(f"the in-C loop rejected column {column}, which the judge accepts")
    except Forfeit as error:
        return GameResult(1 - side, str(error), moves, spent, 0, side)


def greedy(values, c: int) -> GreedyBot:
    """A greedy player with the flat weight vector `values` for `c` in a row."""
    return GreedyBot(Weights(list(values), c))


def opponent(kind: str, seed: int, depth: int = 4) -> Bot:
    """A fresh training opponent: "random" or "minimax" (randomized minimax, `depth` plies)."""
    if kind == "random":
        return FastRandomBot(seed)
    if kind == "minimax":
        return RandomizedMinimaxBot(depth, seed)
    raise ValueError(f"opponent {kind!r} is unknown: allowed random, minimax")
