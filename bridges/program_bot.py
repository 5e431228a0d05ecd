"""A player program (anything speaking the referee protocol) as a Bot, so
that code which takes bots (the Kaggle and OpenSpiel bridges) takes
programs too: a Bot's face on clinea.bridges.engine.Engine, the one way to drive a
program from Python (the judge's seat, sandbox, timeouts and clean-up).
"""
from __future__ import annotations

import atexit
import weakref
from collections.abc import Sequence

from clinea.bridges.engine import Engine
from clinea.core import Board
from clinea.core.timeman import Limits
from clinea.players.bot import Bot


class ProgramError(RuntimeError):
    """The program crashed, timed out or answered garbage or an illegal column."""


class ProgramBot(Bot):
    """Runs `command` once and plays game after game with it, as a judge
    would. A game abandoned half-way (the caller started another one) costs
    a restart: the protocol has no word for "this game was stopped", and
    telling the program a made-up result would be a lie it might learn from.

    `time_per_move` (seconds, None for no limit) bounds each answer."""

    name = "program"

    def __init__(self, command: Sequence[str], time_per_move: float | None = None):
        self.engine = Engine(command)
        self.command = self.engine.command
        self.limits = Limits(time=time_per_move or 0.0)
        _OPEN.add(self)

    def new_game(self, board: Board, me: int) -> None:
        self.engine.new_game(board, me)

    def choose(self, board: Board) -> int:
        result = self.engine.play(board, self.limits)
        if result.column is None:
            raise ProgramError(f"{' '.join(self.command)}: {result.forfeit}: {result.detail}")
        return result.column

    def close(self) -> None:
        """Ends the program (`salir`, then its process group is killed)."""
        self.engine.close()
        _OPEN.discard(self)


# programs still open when the interpreter exits are closed, not orphaned
_OPEN: weakref.WeakSet[ProgramBot] = weakref.WeakSet()
@atexit.register
def _close_open_programs() -> None:
    for bot in list(_OPEN):
        bot.close()
