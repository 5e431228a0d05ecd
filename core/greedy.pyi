"""Types of clinea.core.greedy (compiled): the one-ply weighted player."""
from collections.abc import Sequence

from clinea.core.board import Board
from clinea.core.cbot import CBot

class Greedy(CBot):
    def __init__(
        self,
        weights: Sequence[float],
        c: int,
        opponent_weights: Sequence[float] | None = None,
        windows: Sequence[float] | None = None,
        opponent_windows: Sequence[float] | None = None,
    ) -> None: ...
    @property
    def weights(self) -> list[float]: ...
    @property
    def opponent_weights(self) -> list[float]: ...
    @property
    def window_weights(self) -> list[float] | None: ...
    @property
    def opponent_window_weights(self) -> list[float] | None: ...
    @property
    def c(self) -> int: ...
    def prepare(self, board: Board) -> None: ...
    def choose(self, board: Board) -> int: ...
