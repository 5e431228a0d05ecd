"""Types of clinea.core.depthsearch (compiled): the report's depth-limited searches."""
from collections.abc import Sequence

from clinea.core.board import Board
from clinea.core.evaluate import REPORT_WEIGHTS as REPORT_WEIGHTS
from clinea.core.evaluate import Evaluation

MODES: tuple[str, ...]

class DepthLimited:
    def __init__(self, weights: Sequence[float] = REPORT_WEIGHTS) -> None: ...
    @property
    def evaluation(self) -> Evaluation: ...
    @property
    def nodes(self) -> int: ...
    def value(self, board: Board, depth: int, mode: str = "ordered") -> int: ...
    def best_move(self, board: Board, depth: int) -> tuple[int, int]: ...
