"""A player program (anything speaking the referee protocol) as a Bot, so
that code which takes bots (the Kaggle and OpenSpiel bridges) takes
programs too. The conversation goes through the judge's own process seat:
the same start-up, sandbox (clinea.judge.sandbox, `auto`), timeouts and
process-group clean-up as under `clinea judge`.
"""
from __future__ import annotations

import atexit
import weakref
from typing import Optional, Sequence

from clinea.core import Board
from clinea.judge.process_seat import ProcessSeat
from clinea.judge.referee import Forfeit
from clinea.judge.sandbox import Sandbox
from clinea.protocol import COLOURS
from clinea.players.bot import Bot


class ProgramError(RuntimeError):
    """The program crashed, timed out or answered garbage."""


class ProgramBot(Bot):
    """Runs `command` once and plays game after game with it, as a judge
    would. A game abandoned half-way (the caller started another one) costs
    a restart: the protocol has no word for "this game was stopped", and
    telling the program a made-up result would be a lie it might learn from.

    `time_per_move` (seconds, None for no limit) bounds each answer."""

    name = "program"

    def __init__(self, command: Sequence[str], time_per_move: Optional[float] = None):
        if not command:
            raise ValueError("a program needs a command: got an empty one")
        self.command = list(command)
        self.time_per_move = time_per_move
        self.sandbox = Sandbox("auto")
        self.seat = ProcessSeat(self.command[0], self.command, sandbox=self.sandbox)
        self.expected: Optional[list[int]] = None  # the moves the program knows, while a game is on
        self.start: Optional[Board] = None
        _OPEN.add(self)

    def new_game(self, board: Board, me: int) -> None:
        if self.expected is not None:
            self.seat.kill()  # the program is still inside the last game
        self.start = board.copy()
        self.me = me
        self.expected = None

    def choose(self, board: Board) -> int:
        if self.start is None:
            raise ProgramError("choose() before new_game(): the program needs the game's start")
        moves = board.moves()
        last = None
        try:
            if self.expected is None:  # the first move of this program in the game
                opening = self.start.moves()
                if moves[:len(opening)] != opening or len(moves) - len(opening) > 1:
                    raise ProgramError(f"the position {board.to_string()!r} does not follow the game's start")
                if len(moves) > len(opening):
                    last = moves[-1]  # the opponent made the first move
                else:
                    last = None
                self.seat.start(self.start, self.me, COLOURS[self.me])
            else:
                if moves[:-1] != self.expected:
                    raise ProgramError(f"the position {board.to_string()!r} is not the last one after one more move")
                last = moves[-1]
            column = self.seat.ask(board, last, self.time_per_move)
        except Forfeit as error:
            self.seat.kill()
            self.expected = None
            self.start = None
            raise ProgramError(f"{' '.join(self.command)}: {error}") from None
        self.expected = moves + [column]
        return column

    def close(self) -> None:
        """Ends the program (`salir`, then its process group is killed)."""
        self.seat.close()
        self.sandbox.close()
        self.expected = None
        _OPEN.discard(self)


# programs still open when the interpreter exits are closed, not orphaned
_OPEN: "weakref.WeakSet[ProgramBot]" = weakref.WeakSet()
atexit.register(lambda: [bot.close() for bot in list(_OPEN)])
