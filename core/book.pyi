"""Types of clinea.core.book (compiled): the 12-ply opening book of 7x6."""
import os
from collections.abc import Sequence

from clinea.core.board import Board

BOOK_PLY: int
FILE_LIMIT: int

class OpeningBook:
    def __init__(self, codes: Sequence[int], values: Sequence[int]) -> None: ...
    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> OpeningBook: ...
    def __len__(self) -> int: ...
    def score(self, board: Board) -> int | None: ...

def standard_book() -> OpeningBook: ...
