"""Driving a player program from Python, as python-chess drives a UCI engine.

    from clinea import Board
    from clinea.bridges.engine import Engine, Limits

    with Engine.popen("players/strong time-per-move=0.1") as engine:
        result = engine.play(Board(7, 6, c=4, p=21), Limits(time=0.5))
        print(result.column, result.time, result.forfeit)

The program speaks the referee protocol (docs/PROTOCOL.md) and runs as a
judge's seat does: started once, in the judge's sandbox (clinea.judge.sandbox)
with its limits, killed with everything it started on `close()`. A program
that crashes, answers garbage or an illegal column, or is silent past the
limit is not an exception: its `PlayResult` says so (`forfeit`, `detail`),
as a judge would record it, and the next `play` starts it afresh.

The engine follows the games it is shown: a board that is the last one it
answered plus one move continues the game (the move is sent); any other
board starts a new game from that position (sent as the protocol's opening
extension when it has more than one move, which course players do not
understand: give them games from the empty board).
"""
from __future__ import annotations

import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass

from clinea.core import Board
from clinea.core.timeman import Limits
from clinea.judge.process_seat import ProcessSeat
from clinea.judge.referee import ILLEGAL, Forfeit
from clinea.judge.sandbox import Sandbox
from clinea.players import registry
from clinea.protocol import COLOURS

__all__ = ["Engine", "Limits", "PlayResult"]

NO_LIMITS = Limits()


@dataclass(frozen=True)
class PlayResult:
    """One answer of a program: the `column` it played (None when it
    forfeited), the seconds it took, and for a forfeit its kind (`timeout`,
    `crash`, `garbage`, `illegal move`) and what happened."""
    column: int | None
    time: float
    forfeit: str | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.forfeit is None


class Engine:
    """A running player program. Use `Engine.popen`; close it (or use it as
    a context manager) to end it and everything it started."""

    def __init__(self, command: Sequence[str], sandbox: str = "auto"):
        if not command:
            raise ValueError("an engine needs a command: got an empty one")
        self.command = list(command)
        self.sandbox = Sandbox(sandbox)
        self.seat = ProcessSeat(self.command[0], self.command, sandbox=self.sandbox)
        self.known: list[int] | None = None  # the game's moves the program knows, while a game is on
        self.owed = False  # it was told `vos` and owes its first move

    @classmethod
    def popen(cls, command: str | Sequence[str], sandbox: str = "auto") -> Engine:
        """Starts `command` (a command line, split as a shell would, or its
        words); its first word may be a registered player's name, as in
        `clinea judge`. `sandbox`: auto, strict or off, as `clinea judge --sandbox`."""
        words = shlex.split(command) if isinstance(command, str) else list(command)
        return cls(registry.registered_command(words) or words, sandbox)

    def new_game(self, board: Board, me: int) -> None:
        """Tells the program a game starts at `board` with it playing side
        `me` (0 moves first); `play` does this itself when a board does not
        continue the game it knows."""
        if self.known is not None:
            self.seat.kill()  # the program is still inside the last game: the protocol cannot stop one
        self.seat.start(board, me, COLOURS[me])
        self.known = board.moves()
        self.owed = board.side_to_move == me

    def play(self, board: Board, limits: Limits = NO_LIMITS) -> PlayResult:
        """The program's move in `board`, for the side to move, within
        `limits.time` seconds (0: no limit; nodes and depth mean nothing
        to a program)."""
        moves = board.moves()
        began = time.monotonic()
        try:
            if self.known is not None and moves[:-1] == self.known and not self.owed:
                last: int | None = moves[-1]
            elif self.known is None or moves != self.known or not self.owed:
                start = Board(board.columns, board.rows, board.c, board.p)
                opening = moves if len(moves) != 1 else []  # one move: `el` and the move, as any referee says it
                for column in opening:
                    start.play(column)
                self.new_game(start, board.side_to_move)
                last = None if opening == moves else moves[-1]
            else:
                last = None  # told `vos`: its answer comes unasked
            # a fresh process's first answer gets the judge's start-up grace
            answer = self.seat.ask(board, last, limits.time + self.seat.startup if limits.time else None)
            if not isinstance(answer, int) or answer not in board.legal_columns():
                raise Forfeit(ILLEGAL, f"column {answer} in {board.to_string()!r}: legal are {board.legal_columns()}")
            column = answer
        except Forfeit as forfeit:
            self.seat.kill()
            self.known = None
            return PlayResult(None, time.monotonic() - began, str(forfeit.kind), forfeit.detail)
        self.known = moves + [column]
        self.owed = False
        return PlayResult(column, time.monotonic() - began)

    def close(self) -> None:
        """Ends the program (`salir`, then it and all it started are killed)."""
        self.seat.close()
        self.sandbox.close()
        self.known = None

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
