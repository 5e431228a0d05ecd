"""alphabeta: exact win/draw/loss like minimax, with alpha-beta pruning,
threat-first move ordering and a transposition table (the solver's weak
mode, clinea.core.solver), so it plays perfectly far beyond minimax's reach:
standard 7x6 from the first move (the solver stops in its opening book at
12 stones), other boards late in the game or, when small, from the start.
Its values are the same as minimax's on every position.

Among the moves of best value it plays the most central one (left first), so
its games are repeatable.
"""
from __future__ import annotations

import argparse
import sys

from clinea.core import Board
from clinea.core.solver import DEFAULT_TT_LOG2, Solver, best_column
from clinea.players.bot import Bot
from clinea.players.driver import main_for
from clinea.players.options import bounded_int


class AlphabetaBot(Bot):
    """Exact win/draw/loss by alpha-beta; the most central best move."""

    name = "alphabeta"
    reports = True
    example_options = ("--tt-log2", "20")

    def __init__(self, tt_log2: int = DEFAULT_TT_LOG2):
        # one table for the whole process: positions recur between moves and games
        self.solver = Solver(tt_log2)

    def new_game(self, board: Board, me: int) -> None:
        self.solver.prepare(board)  # table and book before the first move, not in it

    def choose(self, board: Board) -> int:
        values = self.solver.analyze(board, weak=True)
        col = best_column(values)
        if self.verbose:
            print(f"alphabeta: column {col}, value {values[col]}, {self.solver.nodes} nodes", file=sys.stderr)
        return col

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--tt-log2", type=bounded_int("--tt-log2", 8, 30), default=DEFAULT_TT_LOG2,
                            help=f"transposition table of 2**N entries of 8 bytes, 8..30 (default {DEFAULT_TT_LOG2})")

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> "AlphabetaBot":
        return cls(args.tt_log2)


def main(argv: list[str] | None = None) -> int:
    return main_for(AlphabetaBot, argv)
