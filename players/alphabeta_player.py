"""alphabeta: exact win/draw/loss like minimax, with alpha-beta pruning,
threat-first move ordering and a transposition table (the solver's weak
mode, clinea.core.solver), so it plays perfectly far beyond minimax's reach:
standard 7x6 from the first move (the solver stops in its opening book at
12 stones), other boards late in the game or, when small, from the start.
Its values are the same as minimax's on every position.

Among the moves of best value it plays the most central one (left first), so
its games are repeatable. When the search cannot finish within
--time-per-move it says so and plays a depth-limited search's move
(clinea.players.exact).
"""
from __future__ import annotations

import argparse

from clinea.core import Board
from clinea.core.solver import DEFAULT_TT_LOG2, MAX_TT_LOG2, MIN_TT_LOG2, Solver
from clinea.core.timeman import Limits
from clinea.players.driver import main_for
from clinea.players.exact import DEFAULT_TIME_PER_MOVE, ExactBot
from clinea.players.options import bounded_int


class AlphabetaBot(ExactBot):
    """Exact win/draw/loss by alpha-beta; the most central best move."""

    name = "alphabeta"

    def __init__(self, tt_log2: int = DEFAULT_TT_LOG2, time_per_move: float = DEFAULT_TIME_PER_MOVE):
        super().__init__(time_per_move)
        # one table for the whole process: positions recur between moves and games
        self.solver = Solver(tt_log2)

    def new_game(self, board: Board, me: int) -> None:
        super().new_game(board, me)
        self.solver.prepare(board)  # table and book before the first move, not in it

    def exact_values(self, board: Board, seconds: float) -> list[int | None] | None:
        values = self.solver.analyze(board, weak=True, limits=Limits(time=seconds))
        self.nodes = self.solver.nodes
        return values

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--tt-log2", type=bounded_int("--tt-log2", MIN_TT_LOG2, MAX_TT_LOG2), default=DEFAULT_TT_LOG2,
                            help=f"transposition table of 2**N entries of 8 bytes, {MIN_TT_LOG2}..{MAX_TT_LOG2} (default {DEFAULT_TT_LOG2})")

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> AlphabetaBot:
        return cls(args.tt_log2, args.time_per_move)


def main(argv: list[str] | None = None) -> int:
    return main_for(AlphabetaBot, argv)
