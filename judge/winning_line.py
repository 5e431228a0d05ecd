"""The cells of the line that won a game, for the views to highlight."""
from __future__ import annotations

from clinea.core import Board

# right, up, up-right, down-right: each line runs along one of them
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def winning_line(board: Board) -> list[tuple[int, int]]:
    """The (column, row) cells, row 0 at the bottom, of every run of c or
    more through the last move when that move won the game (a run longer
    than c is all of it; a move may complete two lines at once); [] when
    the game was not won by it."""
    moves = board.moves()
    if board.winner is None or not moves:
        return []
    col = moves[-1]
    row = board.height(col) - 1
    owner = board.cell(col, row)

    def run(dx: int, dy: int) -> list[tuple[int, int]]:
        cells = []
        x, y = col + dx, row + dy
        while 0 <= x < board.columns and 0 <= y < board.rows and board.cell(x, y) == owner:
            cells.append((x, y))
            x, y = x + dx, y + dy
        return cells

    cells: list[tuple[int, int]] = []
    for dx, dy in DIRECTIONS:
        line = run(-dx, -dy)[::-1] + [(col, row)] + run(dx, dy)
        if len(line) >= board.c:
            cells += [cell for cell in line if cell not in cells]
    return cells
