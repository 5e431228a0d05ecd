"""Types of clinea.core.search (compiled): the alpha-beta search of strong."""
from collections.abc import Sequence

from clinea.core.board import Board
from clinea.core.evaluate import STRONG_WEIGHTS as STRONG_WEIGHTS
from clinea.core.evaluate import Evaluation
from clinea.core.timeman import ITERATION_START_SHARE as ITERATION_START_SHARE
from clinea.core.timeman import Limits as Limits
from clinea.core.timeman import SearchResult as SearchResult

WIN_SCORE: int
MATE_SCORE: int

class Search:
    def __init__(self, weights: Sequence[float] = STRONG_WEIGHTS, tt_log2: int = 20) -> None: ...
    def clear(self) -> None: ...
    def prepare(self, board: Board) -> None: ...
    @property
    def nodes(self) -> int: ...
    @property
    def evaluation(self) -> Evaluation: ...
    def think(
        self, board: Board, limits: Limits = ..., *, start_share: float = 0.4, keep_partial: bool = False
    ) -> SearchResult: ...
