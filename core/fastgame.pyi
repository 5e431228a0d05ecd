"""Types of clinea.core.fastgame (compiled): whole games between C bots."""
from typing import Any

from clinea.core.board import Board
from clinea.core.cbot import CBot

ILLEGAL_BY_FIRST: int
ILLEGAL_BY_SECOND: int

def play_cbots(first: CBot, second: CBot, board: Board, times: Any) -> tuple[int, int]: ...
