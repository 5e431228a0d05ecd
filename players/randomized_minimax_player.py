"""randomized_minimax: the seed's "minimax randomizado", the training opponent.

It looks k plies ahead (default 4): a forced win if it sees one, otherwise a
move that secures a draw, otherwise a uniformly random move among those that
do not lose within k plies (details in clinea.core.lookahead).
"""
from __future__ import annotations

import argparse
import os
import sys

from clinea.core import Board
from clinea.core.lookahead import RandomizedMinimax
from clinea.players.bot import Bot
from clinea.players.driver import main_for
from clinea.players.options import bounded_int

MAX_DEPTH = 64


class RandomizedMinimaxBot(Bot):
    """Looks k plies ahead; a forced win, else a sure draw, else a random move that does not lose."""

    name = "randomized_minimax"
    reports = True
    example_options = ("--depth", "4", "--seed", "7")

    def __init__(self, depth: int = 4, seed: int | None = None):
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        self.core = RandomizedMinimax(depth, seed)

    def core_for(self, board: Board) -> RandomizedMinimax:
        """The Cython player (the same for every board)."""
        return self.core

    def choose(self, board: Board) -> int:
        before = self.core.nodes
        col = self.core.choose(board)
        if self.verbose:
            print(f"randomized_minimax: column {col}, {self.core.nodes - before} nodes", file=sys.stderr)
        return col

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--depth", type=bounded_int("--depth", 1, MAX_DEPTH), default=4,
                            help=f"plies to look ahead, 1..{MAX_DEPTH} (default 4)")
        parser.add_argument("--seed", type=bounded_int("--seed", 0, 2 ** 64 - 1, "2**64-1"), default=None,
                            help="random seed, for repeatable games (default: from the system)")

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RandomizedMinimaxBot:
        return cls(args.depth, args.seed)


def main(argv: list[str] | None = None) -> int:
    return main_for(RandomizedMinimaxBot, argv)
