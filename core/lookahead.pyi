"""Types of clinea.core.lookahead (compiled): the randomized minimax player."""

from clinea.core.board import Board
from clinea.core.cbot import CBot

LOSS: int
UNKNOWN: int
DRAW: int
WIN: int

class RandomizedMinimax(CBot):
    nodes: int
    def __init__(self, depth: int = 4, seed: int = 0) -> None: ...
    @property
    def depth(self) -> int: ...
    def reseed(self, seed: int) -> None: ...
    def values(self, board: Board) -> dict[int, int]: ...
