"""What the exact players (minimax, alphabeta) share: their exact search must
finish within --time-per-move, because the course judge has no clock and a
player that never answers hangs it. When it cannot, the player says so once
on stderr and plays the best move of a depth-limited search (iterative
deepening over strong's evaluation) instead; on a board where even its
first move is out of reach it says so at the start of the game.
"""
from __future__ import annotations

import argparse
import sys

from clinea.core import Board
from clinea.core.evaluate import STRONG_WEIGHTS
from clinea.core.search import Search
from clinea.core.solver import best_column
from clinea.core.timeman import Limits, TimeManager
from clinea.players.bot import Bot
from clinea.players.options import bounded_float

DEFAULT_TIME_PER_MOVE = 10.0
#: share of the move's budget (see clinea.core.timeman) the exact search may
#: use; the fallback gets the rest
EXACT_SHARE = 0.7


time_per_move_argument = bounded_float("--time-per-move", 0.01, 3600, "a number of seconds")


def no_line_can_be_made(board: Board) -> bool:
    """Whether nobody can ever win: c longer than both sides of the board
    (a diagonal is no longer than the shorter side), or than a player's p tokens."""
    return board.c > max(board.columns, board.rows) or board.c > board.p


class ExactBot(Bot):
    """Base of the exact players: subclasses give `exact_values`."""

    reports = True
    example_options = ("--time-per-move", "5")

    def __init__(self, time_per_move: float = DEFAULT_TIME_PER_MOVE):
        self.time_per_move = time_per_move
        self.fallback = Search(STRONG_WEIGHTS, 16)
        self.warned = False
        self.nodes = 0  # positions the last exact search visited: subclasses keep it
        self.first_move = True

    def exact_values(self, board: Board, seconds: float) -> list[int | None] | None:
        """The exact value of each column (None where it cannot be played),
        or None when `seconds` ran out first; sets `self.nodes`."""
        raise NotImplementedError

    def say(self, text: str) -> None:
        print(f"{self.name}: {text}", file=sys.stderr, flush=True)

    def new_game(self, board: Board, me: int) -> None:
        self.first_move = True

    def choose(self, board: Board) -> int:
        if no_line_can_be_made(board):  # every game is a draw: a search would prove it for every column
            drawn = best_column([0 if board.can_play(col) else None for col in range(board.columns)])
            if drawn is not None:
                return drawn
        clock = TimeManager(Limits(time=self.time_per_move))
        values = self.exact_values(board, clock.share(EXACT_SHARE).time)
        if values is None and not self.warned:
            self.warned = True
            if self.first_move:
                self.say(f"the exact search cannot finish on this board ({board.columns}x{board.rows}, "
                         f"c {board.c}, p {board.p}) within {self.time_per_move:g} s a move: it plays the best "
                         "move of a depth-limited search until the end of the game comes within reach")
            else:
                self.say(f"the exact search does not finish within {self.time_per_move:g} s a move here: "
                         "playing the best move of a depth-limited search while it cannot")
        self.first_move = False
        col = None if values is None else best_column(values)
        if values is not None and col is not None:
            if self.verbose:
                self.say(f"column {col}, exact value {values[col]}, {self.nodes} nodes, "
                         f"{clock.elapsed():.3f} s")
            return col
        found = self.fallback.think(board, clock.share())
        if self.verbose:
            self.say(f"column {found.move}, depth-limited search to depth {found.depth}, "
                     f"score {found.score}, {found.nodes} nodes, {clock.elapsed():.3f} s")
        if found.move is None:
            raise ValueError("the game is over: there is no move to choose")
        return found.move

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--time-per-move", type=time_per_move_argument, default=DEFAULT_TIME_PER_MOVE,
                            metavar="SECONDS",
                            help="the most a move may take, 0.01..3600; when the exact search cannot finish "
                                 "in it, the player says so on stderr and plays the best move of a "
                                 f"depth-limited search (default {DEFAULT_TIME_PER_MOVE:g})")
