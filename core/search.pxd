from libc.stdint cimport int16_t, uint8_t, uint64_t

from .board cimport Board
from .clock cimport Deadline
from .evaluate cimport Evaluation

cdef enum:
    WIN = 1 << 30             # a win on the move at ply q scores WIN - q - 1
    MATE_BOUND = WIN - 65536  # beyond this a score is a proven win or loss
    INFINITE = WIN + 1
    MAX_COLUMNS = 128

cdef enum:
    TT_EXACT = 1
    TT_LOWER = 2              # the value is at least this (a beta cut-off)
    TT_UPPER = 3              # the value is at most this (no move raised alpha)

cdef struct TTEntry:
    uint64_t key
    int value
    int16_t depth
    uint8_t flag
    uint8_t move              # column + 1, 0 when none is known

cdef class Search:
    cdef Evaluation ev
    cdef TTEntry* tt
    cdef uint64_t tt_mask
    cdef object tt_rules      # the TT is cleared when the rules change
    cdef long long nodes
    cdef long long max_nodes
    cdef Deadline deadline
    cdef bint aborted
    cdef long history[2][MAX_COLUMNS]

    cdef void _start(self, Board board, double time_limit, double reserve, long long max_nodes) except *
    cdef int candidates(self, Board b, int* out, int* outcome) noexcept nogil
    cdef int negamax(self, Board b, int depth, int alpha, int beta, int ply) noexcept nogil
    cdef void order(self, Board b, int* moves, int n, int first, int depth) noexcept nogil
    cdef bint out_of_budget(self) noexcept nogil
