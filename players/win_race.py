"""strong's search for a winning column on a second core, beside the proof
that a column keeps at least a draw (strong_player's _draw_then_win).

On 7x6 past the book, strong first proves a column that keeps at least a
draw, then looks for a winning one: a move cut short in the second search
still keeps the draw. One after the other, a won position whose draw and
win are both hard costs the two proofs: `4,5,4,6,2,4,5,1,0,6,1,3,6` of
Test_L1_R2 takes 261,000 nodes to prove its drawing column and 208,000
more to find its winning one, about 34 ms of the 35 a 0.05 s move may
search. Beside each other, on a solver (and a table) of its own so that
neither waits for the other, the move takes the longer of the two.
"""
from __future__ import annotations

import threading
from collections.abc import Callable

from clinea.core import Board
from clinea.core.solver import Solver
from clinea.core.timeman import Limits, SearchResult

#: the race's table: as strong's solver's, 2**22 entries (32 MB)
RACE_TT_LOG2 = 22


class WinRace:
    """A weak search for a winning column in a thread of its own: `start`
    it, `wait` for its result. Its solver is allocated by `prepare` (in
    strong's game set-up, off the move's clock) or on first use."""

    def __init__(self) -> None:
        self.solver: Solver | None = None
        self.thread: threading.Thread | None = None
        self.result: SearchResult | None = None
        self.done = threading.Event()

    def prepare(self, board: Board) -> None:
        """Allocates the solver's tables and sets them up for `board`'s game."""
        self._finish()
        self._solver().prepare(board)

    def start(self, board: Board, limits: Limits, on_win: Callable[[], None]) -> None:
        """Starts looking for a column winning `board` within `limits`;
        `on_win` is called as soon as one is proved, before `wait` returns it."""
        self._finish()
        self.result = None
        self.done.clear()
        self.thread = threading.Thread(target=self._run, args=(board.copy(), limits, on_win), daemon=True)
        self.thread.start()

    def wait(self, seconds: float | None) -> SearchResult | None:
        """The search's result, waiting `seconds` at most (None: to its end);
        None if it is not done by then, and it is told to stop (it ends
        within a few nodes, without being waited for)."""
        if self.thread is None:
            return None
        if self.done.wait(seconds):
            return self.result
        self.stop()
        return None

    def stop(self) -> None:
        """Tells a running search to stop."""
        if self.solver is not None and self.thread is not None:
            self.solver.stop()

    def _run(self, board: Board, limits: Limits, on_win: Callable[[], None]) -> None:
        result = self._solver().reach(board, 1, weak=True, limits=limits)
        if result.proven and result.move is not None:
            on_win()
        self.result = result
        self.done.set()

    def _finish(self) -> None:
        """Waits for the last search to end (it was done or told to stop)
        and lets the solver run again."""
        if self.thread is not None:
            self.thread.join()
            self.thread = None
        if self.solver is not None:
            self.solver.resume()

    def _solver(self) -> Solver:
        if self.solver is None:
            self.solver = Solver(RACE_TT_LOG2)
        return self.solver
