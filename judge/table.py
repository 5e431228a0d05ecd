"""Where a person watches or plays: the graphical window when --ui finds a
display, the terminal otherwise. The judge asks it for a view of each game,
for a human seat when a colour has no program, and shows each result there."""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from clinea.core import Board, Rules
from clinea.judge.record import GameRecord
from clinea.judge.referee import Seat
from clinea.judge.ui import HumanSeat, MatchStopped, TerminalView

if TYPE_CHECKING:  # pygame is optional: the window is imported only when asked for
    from clinea.judge.tournament import GameSpec
    from clinea.judge.window import Window

__all__ = ["MatchStopped", "Table", "open_window"]


def open_window(rules: Rules) -> Window | None:
    """The game window, or None after one stderr line saying why the terminal
    is used instead (no pygame, or no display)."""
    try:
        from clinea.judge.window import Window, WindowUnavailable
    except ImportError as error:
        print(f"clinea judge: no graphical board ({error}; pip install 'clinea[ui]'): "
              "showing the board in the terminal", file=sys.stderr)
        return None
    try:
        return Window(rules)
    except WindowUnavailable as error:
        print(f"clinea judge: no display ({error}): showing the board in the terminal", file=sys.stderr)
        return None


class Table:
    def __init__(self, rules: Rules, window: Window | None = None) -> None:
        self.rules = rules
        self.window = window
        self.wins: dict[str, int] = {}  # games won by each player so far, in order of appearance
        self.draws = 0

    def score(self) -> str:
        """The running score: "azul 2 · rojo 1 · draws 0"."""
        return " · ".join([f"{name} {won}" for name, won in self.wins.items()] + [f"draws {self.draws}"])

    def start_board(self, spec: GameSpec) -> Board:
        board = Board(*self.rules)
        board.play_moves(spec.opening)
        return board

    def view(self, spec: GameSpec) -> Callable[[Board], object]:
        """The referee's `on_move` for one game, which also shows its start."""
        names, colours = (spec.first, spec.second), spec.colours
        for name in names:
            self.wins.setdefault(name, 0)
        if self.window is not None:
            return self.window.game(names, colours, self.start_board(spec), f"game {spec.id} · {self.score()}")
        return TerminalView(names, colours, self.start_board(spec))

    def human(self, name: str) -> Seat:
        if self.window is not None:
            return self.window.human(name)
        return HumanSeat(name)

    def result(self, record: GameRecord) -> None:
        winner = record.winner
        if winner is None:
            self.draws += 1
        else:
            self.wins[winner] = self.wins.get(winner, 0) + 1
        if winner is None:
            text = "a draw"
        else:
            colour = record.colours[record.players.index(winner)]
            text = f"{winner} ({colour}) wins" if winner != colour else f"{winner} wins"
        if record.forfeit is not None:
            text += f": {record.reason}"
        print(f"game {record.id}: {text}", flush=True)
        if self.window is not None:
            self.window.show_result(text, f"game {record.id} · {self.score()}")

    def close(self, keep: bool = False) -> None:
        """Closes the window; with `keep` (the match ran to its end) once its
        last board has been seen (clinea.judge.window)."""
        if self.window is not None:
            if keep:
                self.window.keep_last_board()
            self.window.close()
