"""A bot driven by positions alone, as hosts that are not referees drive
their agents (Kaggle hands over a board, OpenSpiel a state): it tells the
game's continuation from a new game, so the bot's `new_game` is called when
a game starts and `choose` sees the game's real move history.
"""
from __future__ import annotations

from clinea.core import Board
from clinea.players.bot import Bot


class GameFollower:
    """Keeps the board after the bot's last move. A position that is that
    board plus one stone continues the game; anything else (fewer stones,
    another size, a different stone) starts a new one."""

    def __init__(self, bot: Bot):
        self.bot = bot
        self.after: Board | None = None

    def forget(self) -> None:
        """The next position starts a new game, whatever it looks like."""
        self.after = None

    def move(self, seen: Board) -> int:
        """The bot's column for the position `seen` (whose history may be a
        reconstruction: only its stones are trusted)."""
        board = self._continued(seen)
        if board is None:
            board = seen.copy()
            # one stone is the opponent's first move: the game started
            # empty; with more, a game joined half-way starts where it is
            start = Board(*seen.rules) if seen.moves_played <= 1 else seen
            self.bot.new_game(start.copy(), seen.moves_played % 2)
        column = self.bot.choose(board.copy())
        if not board.can_play(column):
            raise ValueError(f"bot {self.bot.name!r} chose column {column!r}, legal are {board.legal_columns()}")
        board.play(column)
        self.after = board
        return int(column)

    def _continued(self, seen: Board) -> Board | None:
        """Our last board plus the opponent's move, when `seen` is that."""
        after = self.after
        if after is None or after.rules != seen.rules or seen.moves_played != after.moves_played + 1:
            return None
        grown = [col for col in range(seen.columns) if seen.height(col) != after.height(col)]
        if len(grown) != 1 or not after.can_play(grown[0]):
            return None
        board = after.copy()
        board.play(grown[0])
        return board if board.grid() == seen.grid() else None
