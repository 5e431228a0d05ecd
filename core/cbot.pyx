"""The common base of players written entirely in Cython.

A game between two CBots can be played without leaving C (see
`clinea.core.fastgame`), which is what makes a training run of hundreds of
thousands of games fit in a minute. From Python they behave like any bot:
`choose(board)` returns a column.
"""
from libc.stdint cimport uint64_t

from .board cimport Board
from .rng cimport Rng, rng_below, rng_seed


cdef class CBot:
    cdef int c_choose(self, Board board) noexcept nogil:
        return -1

    def prepare(self, Board board) -> None:
        """Gets ready to play on boards like `board` (scratch space, checks);
        raises ValueError if this bot cannot play them."""

    def choose(self, Board board) -> int:
        """The column to play on `board` (left unchanged). Raises ValueError
        when the game is over."""
        if board.c_is_over():
            raise ValueError("the game is over: there is no move to choose")
        cdef int col
        with nogil:
            col = self.c_choose(board)
        return col


cdef class UniformRandom(CBot):
    """UniformRandom(seed): a uniformly random legal column, in C.

    The same behaviour as players/random (which uses Python's random module
    and stays the reference player); this one exists so that training's
    thousands of games against random stay inside the in-C game loop."""

    cdef Rng rng

    def __cinit__(self, uint64_t seed=0):
        rng_seed(&self.rng, seed)

    def reseed(self, uint64_t seed) -> None:
        rng_seed(&self.rng, seed)

    cdef int c_choose(self, Board board) noexcept nogil:
        cdef int legal[128]  # Board's largest side
        cdef int n = board.c_legal_columns(legal)
        if n == 0:
            return -1
        return legal[rng_below(&self.rng, n)]
