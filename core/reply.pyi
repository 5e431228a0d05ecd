"""Types of clinea.core.reply (compiled): a player's answer loop in C."""
from collections.abc import Callable
from typing import Any

from clinea.core.board import Board
from clinea.core.wire import ColumnLines

TAKE_OVER: int
BAD_ANSWER: int
WRITE_FAILED: int

def reply(
    board: Board,
    stdin: int,
    stdout: int,
    lines: ColumnLines,
    choose: Callable[[Board], Any],
    stop_pondering: Callable[[], Any] | None,
    ponder: Callable[[Board], Any] | None,
) -> tuple[int, Any]: ...
