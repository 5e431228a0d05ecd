# cython: boundscheck=False, wraparound=False
"""The seed's "minimax randomizado": a k-ply lookahead that only cares about
what it can guarantee, then picks at random. It is the training opponent.

Every move is valued by what the mover can guarantee within k plies, the
opponent replying as badly for the mover as it can:

  LOSS     the opponent can force a win within the horizon
  UNKNOWN  no loss within the horizon, but the game may go on past it
  DRAW     the game ends within the horizon, drawn or won, whatever the reply
  WIN      a forced win within the horizon (faster wins rank higher, so the
           player never dawdles while the horizon slides)

The player picks uniformly at random among the moves of the highest value:
a forced win if it sees one, else a move that secures a draw, else a move
that does not lose within k plies, else any move. Alpha-beta pruning on
this order keeps the values of the moves that matter exact.
"""
from libc.stdint cimport uint64_t

from .board cimport Board
from .cbot cimport CBot
from .rng cimport Rng, rng_below, rng_seed

cdef enum:
    V_LOSS = 0
    V_UNKNOWN = 1
    V_DRAW = 2
    V_WIN = 3           # + plies left when the win happens
    V_INFINITY = 1 << 20
    MAX_COLUMNS = 128   # Board's largest side

LOSS = V_LOSS
UNKNOWN = V_UNKNOWN
DRAW = V_DRAW
WIN = V_WIN


cdef class RandomizedMinimax(CBot):
    """RandomizedMinimax(depth=4, seed=0): looks `depth` plies ahead."""

    cdef int plies
    cdef int root
    cdef Rng rng
    cdef public long long nodes
    """Positions visited since the bot was made (for --verbose)."""

    def __cinit__(self, int depth=4, uint64_t seed=0):
        if depth < 1:
            raise ValueError(f"depth={depth} is out of range: allowed 1 or more")
        self.plies = depth
        self.nodes = 0
        rng_seed(&self.rng, seed)

    @property
    def depth(self) -> int:
        return self.plies

    def reseed(self, uint64_t seed) -> None:
        rng_seed(&self.rng, seed)

    cdef int search(self, Board board, int left, int alpha, int beta) noexcept nogil:
        # `board` is the position after a move; `left` plies may still be searched
        cdef int legal[MAX_COLUMNS]
        cdef int n, i, value, best
        cdef bint maximizing
        self.nodes += 1
        if board.c_winner() >= 0:
            return V_WIN + left if board.c_winner() == self.root else V_LOSS
        if board.c_moves() >= board.c_geometry().max_moves:
            return V_DRAW
        if left == 0:
            return V_UNKNOWN
        n = board.c_legal_columns(legal)
        maximizing = (board.c_side()) == self.root
        best = -V_INFINITY if maximizing else V_INFINITY
        for i in range(n):
            board.c_play(legal[i])
            value = self.search(board, left - 1, alpha, beta)
            board.c_undo()
            if maximizing:
                if value > best:
                    best = value
                if best > alpha:
                    alpha = best
            else:
                if value < best:
                    best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    cdef int c_choose(self, Board board) noexcept nogil:
        cdef int legal[MAX_COLUMNS]
        cdef int chosen[MAX_COLUMNS]
        cdef int n = board.c_legal_columns(legal)
        cdef int i, value, best = -V_INFINITY, nbest = 0
        if n == 0:
            return -1
        self.root = board.c_side()
        for i in range(n):
            board.c_play(legal[i])
            # a window just under the best so far: a worse move fails low
            # and is dropped, an equal or better one gets its exact value
            value = self.search(board, self.plies - 1, best - 1, V_INFINITY)
            board.c_undo()
            if value > best:
                best = value
                nbest = 0
            if value == best:
                chosen[nbest] = legal[i]
                nbest += 1
        return chosen[rng_below(&self.rng, nbest)]

    def values(self, Board board) -> dict:
        """{column: value} for every legal move, exact (no pruning at the
        root): LOSS, UNKNOWN, DRAW or WIN + plies left. For tests and --verbose."""
        cdef int col, value
        result = {}
        self.root = board.c_side()
        for col in board.legal_columns():
            board.c_play(col)
            value = self.search(board, self.plies - 1, -V_INFINITY, V_INFINITY)
            board.c_undo()
            result[col] = value
        return result
