"""The common base of players written entirely in Cython.

A game between two CBots can be played without leaving C (see
`clinea.core.fastgame`), which is what makes a training run of hundreds of
thousands of games fit in a minute. From Python they behave like any bot:
`choose(board)` returns a column.
"""
from clinea.core.board cimport Board


cdef class CBot:
    cdef int c_choose(self, Board board) noexcept nogil:
        return -1

    def choose(self, Board board) -> int:
        """The column to play on `board` (left unchanged). Raises ValueError
        when the game is over."""
        if board.c_is_over():
            raise ValueError("the game is over: there is no move to choose")
        cdef int col
        with nogil:
            col = self.c_choose(board)
        return col
