"""minimax: the seed's exact minimax without pruning (values 1 win, 0 draw,
-1 loss), for small boards and experiments: it walks the whole game tree at
every move, so use it on boards such as 4x4 or 5x4, not 7x6 from the start.

Among the moves of best value it plays the most central one (left first), so
its games are repeatable. When the tree is too big for --time-per-move it
says so and plays a depth-limited search's move (clinea.players.exact).
"""
from __future__ import annotations

import argparse

from clinea.core import Board
from clinea.core.minimax import minimax_analyze
from clinea.players.driver import main_for
from clinea.players.exact import ExactBot


class MinimaxBot(ExactBot):
    """Exact win/draw/loss by full-width minimax; the most central best move."""

    name = "minimax"

    def exact_values(self, board: Board, seconds: float) -> list[int | None] | None:
        values, self.nodes = minimax_analyze(board, time_limit=seconds)
        return values

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> MinimaxBot:
        return cls(args.time_per_move)


def main(argv: list[str] | None = None) -> int:
    return main_for(MinimaxBot, argv)
