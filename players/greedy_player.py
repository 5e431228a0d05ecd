"""greedy: the seed's parametrisable one-ply player.

It plays a winning move when there is one, otherwise avoids any move that
lets the opponent win at once, otherwise plays the move whose resulting
board has the best weighted sum of features (own minus opponent; layout in
clinea.core.features, file format in clinea.players.weights).
"""
from __future__ import annotations

import argparse

from clinea.core import Board
from clinea.core.features import feature_names
from clinea.core.greedy import Greedy
from clinea.players.bot import Bot
from clinea.players.driver import main_for
from clinea.players.weights import MAX_WEIGHT, MIN_WEIGHT, Weights, check_weight


def _weight_argument(text: str) -> float:
    try:
        return check_weight(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _weights_file_argument(path: str) -> Weights:
    try:
        return Weights.load(path)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


class GreedyBot(Bot):
    """Plays a win, else avoids losing at once, else the best weighted board."""

    name = "greedy"
    example_options = ("--weights", "players/greedy_default.json")

    def __init__(self, weights: Weights | None = None, opponent: Weights | None = None):
        """`opponent`: weights of the opponent's features, when they differ
        from the player's own (the report's parametrisation); by default
        those `weights` carry, if any."""
        self.weights = weights if weights is not None else Weights.default()
        self.opponent = opponent if opponent is not None else self.weights.opponent
        self._cores: dict[int, Greedy] = {}

    def core_for(self, board: Board) -> Greedy:
        """The Cython player for this board's c (made once per c and kept)."""
        core = self._cores.get(board.c)
        if core is None:
            c = board.c
            opponent = self.opponent.for_c(c) if self.opponent is not None else None
            opponent_windows = self.opponent.windows_for_c(c) if self.opponent is not None else None
            core = self._cores[c] = Greedy(self.weights.for_c(c), c, opponent,
                                           self.weights.windows_for_c(c), opponent_windows)
        return core

    def new_game(self, board: Board, me: int) -> None:
        self.core_for(board)

    def choose(self, board: Board) -> int:
        return self.core_for(board).choose(board)

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        names = ", ".join(feature_names(4))
        parser.add_argument(
            "weights", nargs="*", type=_weight_argument, metavar="W",
            help=f"weights in {MIN_WEIGHT:g}..{MAX_WEIGHT:g}, 4 + 4 (c - 1) of them in this order "
                 f"(shown for c = 4): {names}; bare numbers, so they pass the course judge as they are. "
                 "Default: the shipped hand-made weights")
        parser.add_argument("--weights", dest="weights_file", metavar="FILE.json", type=_weights_file_argument,
                            help="read the weights from a JSON file, as `clinea train` writes it (default: the shipped weights)")

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> GreedyBot:
        if args.weights and args.weights_file:
            raise ValueError("give the weights either as numbers or with --weights FILE, not both")
        if args.weights_file:
            return cls(args.weights_file)
        if args.weights:
            return cls(Weights.from_flat(args.weights, {"made_by": "command line"}))
        return cls()


def main(argv: list[str] | None = None) -> int:
    return main_for(GreedyBot, argv)
