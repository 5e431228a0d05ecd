"""clinea's alphabeta player as a single-file Kaggle ConnectX agent: pure
Python, no clinea, no compiled code (written by `clinea export kaggle
alphabeta`).

It computes the exact win/draw/loss value of every column (negamax with
alpha-beta on bitboards held in Python integers, centre-first move order,
a table of bounds) and plays the most central column of best value, left
first: the same moves as clinea's alphabeta player, which is why it is
exact and why it is only practical where an exact search finishes in
pure Python: small boards from the start, 7x6 only late in a game.
"""
from __future__ import annotations

from typing import Any

WIN, DRAW, LOSS = 1, 0, -1
_cache: dict[tuple[int, int, int], Game] = {}


class Game:
    """One ConnectX configuration: its bitboard layout (a column of
    rows + 1 bits, the top one always empty so lines do not wrap) and a
    table of value bounds kept between moves."""

    def __init__(self, columns: int, rows: int, inarow: int) -> None:
        self.columns, self.rows, self.inarow = columns, rows, inarow
        self.height = rows + 1
        self.cells = columns * rows
        self.bottom = [1 << (col * self.height) for col in range(columns)]
        self.top = [1 << (col * self.height + rows - 1) for col in range(columns)]
        self.order = sorted(range(columns), key=lambda col: (abs(2 * col - (columns - 1)), col))
        self.table: dict[tuple[int, int], tuple[int, int]] = {}

    def aligned(self, stones: int) -> bool:
        """Whether `stones` hold `inarow` in a line."""
        for shift in (1, self.height, self.height + 1, self.height - 1):
            line = stones
            for _ in range(self.inarow - 1):
                line &= line >> shift
            if line:
                return True
        return False

    def children(self, mask: int) -> list[tuple[int, int]]:
        """(column, the bit a stone dropped there takes) of the open columns, centre first."""
        return [(col, (mask + self.bottom[col]) & ~mask & (((1 << self.rows) - 1) << (col * self.height)))
                for col in self.order if not mask & self.top[col]]

    def value(self, mine: int, mask: int, moves: int, alpha: int = LOSS, beta: int = WIN) -> int:
        """Exact value for the side to move (its stones `mine`) of an open game."""
        if moves == self.cells:
            return DRAW
        children = self.children(mask)
        for _, bit in children:
            if self.aligned(mine | bit):
                return WIN
        if moves + 1 == self.cells:
            return DRAW
        key = (mine, mask)
        low, high = self.table.get(key, (LOSS, WIN))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        window = (alpha, beta)
        best = LOSS
        for _, bit in children:
            score = -self.value(mine ^ mask, mask | bit, moves + 1, -beta, -alpha)
            if score > best:
                best = score
                alpha = max(alpha, score)
                if alpha >= beta:
                    break
        if best <= window[0]:
            high = min(high, best)
        elif best >= window[1]:
            low = max(low, best)
        else:
            low = high = best
        self.table[key] = (low, high)
        return best

    def column_values(self, mine: int, mask: int, moves: int) -> dict[int, int]:
        """The value of playing each open column, for the side to move."""
        values = {}
        for col, bit in self.children(mask):
            if self.aligned(mine | bit):
                values[col] = WIN
            else:
                values[col] = -self.value(mine ^ mask, mask | bit, moves + 1)
        return values


def agent(observation: Any, configuration: Any) -> int:
    columns, rows, inarow = configuration.columns, configuration.rows, configuration.inarow
    game = _cache.get((columns, rows, inarow))
    if game is None:
        game = _cache[(columns, rows, inarow)] = Game(columns, rows, inarow)
    mine = mask = 0
    for col in range(columns):
        for level in range(rows):  # from the bottom: Kaggle's rows count from the top
            cell = observation.board[(rows - 1 - level) * columns + col]
            if cell:
                bit = 1 << (col * game.height + level)
                mask |= bit
                if cell == observation.mark:
                    mine |= bit
    values = game.column_values(mine, mask, bin(mask).count("1"))
    best = max(values.values())
    return next(col for col in game.order if values.get(col) == best)
