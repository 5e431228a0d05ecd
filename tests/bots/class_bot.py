"""A bot file that defines a Bot subclass, as `clinea play FILE` and
`make_bot("FILE")` load one: it keeps per-game state and takes an option.
It checks what every host owes it: `new_game` before `choose`, and only
positions where the side to move is the `me` it was told."""
import argparse

from clinea.players import Bot


class LeaningBot(Bot):
    """Wins in one when it can, else plays the legal column nearest --lean."""

    name = "leaning"

    def __init__(self, lean: int = 0):
        self.lean = lean
        self.me = None

    def new_game(self, board, me):
        self.me = me

    def choose(self, board):
        if self.me is None or board.moves_played % 2 != self.me:
            raise ValueError(f"asked to move for side {board.moves_played % 2}, told it was side {self.me}")
        legal = board.legal_columns()
        winning = [col for col in legal if board.is_winning_move(col)]
        return winning[0] if winning else min(legal, key=lambda col: abs(col - self.lean))

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--lean", type=int, default=0, help="the column it prefers (default 0)")

    @classmethod
    def from_args(cls, args):
        return cls(args.lean)
