"""Types of clinea.core.playout (compiled): random games in C."""

from clinea.core.board import Board

def play_random_game(board: Board, seed: int) -> Board: ...
def simulate_random_games(
    columns: int = 7, rows: int = 6, c: int = 4, p: int | None = None, games: int = 1000, seed: int = 1
) -> dict[str, int]: ...
