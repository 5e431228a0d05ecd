"""A plain exhaustive negamax in Python: the yardstick for the solver, the
exact players and the solved tables' tiny boards. It shares no code with the
core: it keeps columns as tuples, looks for a line around the stone just
dropped, and memoises on the grid."""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

#: a position: per column, its stones from the bottom (0 first player, 1 second)
Grid = tuple[tuple[int, ...], ...]


class TooManyPositions(RuntimeError):
    """The search met more distinct positions than its budget allows."""


class ReferenceSolver:
    """Exact scores in the reference convention of the standard test files:
    a win by the stone played after n stones scores (W * H + 1 - n) // 2,
    with min(2p, W * H) in place of W * H when the tokens run out first."""

    def __init__(self, columns: int, rows: int, c: int, p: int | None = None,
                 max_positions: int | None = None) -> None:
        """`max_positions`: `solve` raises TooManyPositions once it has met
        more distinct positions (None: no limit; the memo holds them all)."""
        self.columns, self.rows, self.c = columns, rows, c
        cells = columns * rows
        self.max_moves = cells if p is None else min(2 * p, cells)
        self.max_positions = max_positions
        self.positions = 0
        self.score = lru_cache(maxsize=None)(self._score)

    def line_through(self, grid: Grid, col: int, row: int) -> bool:
        stone = grid[col][row]
        for dcol, drow in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                x, y = col + sign * dcol, row + sign * drow
                while 0 <= x < self.columns and 0 <= y < len(grid[x]) and grid[x][y] == stone:
                    run += 1
                    x, y = x + sign * dcol, y + sign * drow
            if run >= self.c:
                return True
        return False

    def _score(self, grid: Grid, n: int) -> int:
        """Score for the side to move of a game that is not over."""
        self.positions += 1
        if self.max_positions is not None and self.positions > self.max_positions:
            raise TooManyPositions(f"more than {self.max_positions} positions")
        best = None
        for col in range(self.columns):
            if len(grid[col]) == self.rows:
                continue
            after = grid[:col] + (grid[col] + (n % 2,),) + grid[col + 1:]
            if self.line_through(after, col, len(grid[col])):
                value = (self.max_moves + 1 - n) // 2
            elif n + 1 == self.max_moves:
                value = 0
            else:
                value = -self.score(after, n + 1)
            best = value if best is None else max(best, value)
        if best is None:
            raise ValueError("a full board is not a game to score")
        return best

    def grid_of(self, moves: Sequence[int]) -> Grid:
        """The grid after 0-based `moves` (assumed legal, game not over)."""
        grid: list[list[int]] = [[] for _ in range(self.columns)]
        for i, col in enumerate(moves):
            grid[col].append(i % 2)
        return tuple(tuple(column) for column in grid)

    def solve(self, moves: Sequence[int]) -> int:
        return self.score(self.grid_of(moves), len(moves))

    def reachable(self, moves: Sequence[int] = (), limit: int | None = None) -> Iterator[list[int]]:
        """Every move sequence's position whose game is not over, once each
        (depth-first from `moves`), as move lists."""
        seen: set[Grid] = set()
        stack = [list(moves)]
        while stack:
            moves = stack.pop()
            grid = self.grid_of(moves)
            if grid in seen:
                continue
            seen.add(grid)
            yield moves
            if limit is not None and len(seen) >= limit:
                return
            if len(moves) + 1 >= self.max_moves:
                continue
            for col in range(self.columns):
                if len(grid[col]) < self.rows:
                    after = grid[:col] + (grid[col] + (len(moves) % 2,),) + grid[col + 1:]
                    if not self.line_through(after, col, len(grid[col])):
                        stack.append(moves + [col])

    def decided_within(self, moves: Sequence[int], plies: int) -> int | None:
        """The exact score of the position after `moves` when a win by either
        side is forced within `plies` plies (the game is then decided, however
        large the board), else None. Shallow where `solve` is exhaustive: it
        reaches boards too big for it, where scores pass 63."""
        return self._decided(self.grid_of(moves), len(moves), plies)

    def _decided(self, grid: Grid, n: int, plies: int) -> int | None:
        best, undecided = None, False
        for col in range(self.columns):
            if len(grid[col]) == self.rows:
                continue
            after = grid[:col] + (grid[col] + (n % 2,),) + grid[col + 1:]
            if self.line_through(after, col, len(grid[col])):
                return (self.max_moves + 1 - n) // 2  # no score beats a win now
            if n + 1 == self.max_moves:
                value = 0
            elif plies > 1 and (child := self._decided(after, n + 1, plies - 1)) is not None:
                value = -child
            else:
                undecided = True
                continue
            best = value if best is None else max(best, value)
        # a move left undecided may hide a slower win, never a faster one
        if best is not None and (best > 0 or not undecided):
            return best
        return None
