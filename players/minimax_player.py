"""minimax: the seed's exact minimax without pruning (values 1 win, 0 draw,
-1 loss), for small boards and experiments: it walks the whole game tree at
every move, so use it on boards such as 4x4 or 5x4, not 7x6 from the start.

Among the moves of best value it plays the most central one (left first), so
its games are repeatable.
"""
from __future__ import annotations

import sys

from clinea.core import Board
from clinea.core.minimax import minimax_analyze
from clinea.core.solver import best_column
from clinea.players.bot import Bot
from clinea.players.driver import main_for


class MinimaxBot(Bot):
    """Exact win/draw/loss by full-width minimax; the most central best move."""

    name = "minimax"
    reports = True

    def choose(self, board: Board) -> int:
        values, nodes = minimax_analyze(board)
        col = best_column(values)
        if self.verbose:
            print(f"minimax: column {col}, value {values[col]}, {nodes} nodes", file=sys.stderr)
        return col


def main(argv: list[str] | None = None) -> int:
    return main_for(MinimaxBot, argv)
