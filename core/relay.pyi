"""Types of clinea.core.relay (compiled): the judge's move relay between two programs."""
from typing import Any

from clinea.core.board import Board
from clinea.core.wire import ColumnLines

OVER: int
UNASKED: int
ASKED: int

class Channel:
    def __init__(self, to_player: int, from_player: int, max_line: int) -> None: ...
    def readable(self, asked: float, spin: float, seconds: float) -> bool: ...
    def fill(self) -> int: ...
    def take_line(self) -> bytes | None: ...
    @property
    def buffered(self) -> int: ...
    answers_fast: bool
    def unread(self) -> bytes: ...
    def write(self, data: bytes) -> None: ...
    def take_exchanges(self) -> list[int]: ...

def relay(
    board: Board,
    first: Channel,
    second: Channel,
    lines: ColumnLines,
    last: int,
    allowed: Any,
    startup: Any,
    spin: float,
    patience: float,
    times: Any,
) -> tuple[int, int, float]: ...
