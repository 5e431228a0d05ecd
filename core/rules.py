"""The rules of one game of C en linea, as one typed value used end to end:
the board, the protocol's size line, the judge, the players and the
integrations all pass a `Rules` (columns, rows, c, p) around.

A Rules is a tuple (columns, rows, c, p): it unpacks, compares and goes to
JSON as the 4-tuples it replaced, and `Board(*rules)` builds its board.
"""
from __future__ import annotations

from typing import NamedTuple

MAX_SIDE = 128
"""Largest number of columns or rows a board may have."""
MAX_TOKENS = 1 << 30
"""Largest c or p accepted (anything above the board's size behaves the same)."""


def check_range(name: str, value: object, low: int, high: int) -> int:
    """`value` if it is an integer in low..high, else ValueError naming it and the range."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer in {low}..{high}, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name}={value} is out of range: allowed {low}..{high}")
    return value


class _Fields(NamedTuple):
    columns: int
    rows: int
    c: int
    p: int


class Rules(_Fields):
    """A `columns` x `rows` board, `c` in a row wins, `p` tokens per player
    (None: enough to fill the board). Raises ValueError naming a value out of
    its range: columns and rows 1..MAX_SIDE, c and p 1..MAX_TOKENS.

    >>> Rules(9, 8, 5)
    Rules(columns=9, rows=8, c=5, p=36)
    >>> columns, rows, c, p = Rules()
    """

    __slots__ = ()

    def __new__(cls, columns: int = 7, rows: int = 6, c: int = 4, p: int | None = None) -> Rules:
        columns = check_range("columns", columns, 1, MAX_SIDE)
        rows = check_range("rows", rows, 1, MAX_SIDE)
        c = check_range("c", c, 1, MAX_TOKENS)
        p = check_range("p", (columns * rows + 1) // 2 if p is None else p, 1, MAX_TOKENS)
        return super().__new__(cls, columns, rows, c, p)

    @property
    def cells(self) -> int:
        return self.columns * self.rows

    @property
    def max_moves(self) -> int:
        """Moves after which the game is a draw if nobody has won: min(2p, cells)."""
        return min(2 * self.p, self.cells)

    def __str__(self) -> str:
        return f"{self.columns}x{self.rows} c={self.c} p={self.p}"
