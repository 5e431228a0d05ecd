"""random: uniform among the legal columns."""
from __future__ import annotations

import argparse
import random

from clinea.core import Board
from clinea.players.bot import Bot
from clinea.players.driver import main_for
from clinea.players.options import bounded_int


class RandomBot(Bot):
    """Plays a uniformly random legal column."""

    name = "random"
    example_options = ("--seed", "1")

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, board: Board) -> int:
        return self.rng.choice(board.legal_columns())

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--seed", type=bounded_int("--seed", 0, 2 ** 64 - 1, "2**64-1"), default=None, help="random seed (default: from the system)")

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RandomBot:
        return cls(args.seed)


def main(argv: list[str] | None = None) -> int:
    return main_for(RandomBot, argv)
