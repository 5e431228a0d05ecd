from libc.stdint cimport uint8_t, uint64_t

from .bitboard cimport Geometry
from .board cimport Board

# Feature indices: every feature is counted per side; a score weighs
# (side to move's count - opponent's count).
cdef enum:
    F_CONSECUTIVE = 0   # adjacent pairs of own stones, in all four directions
    F_ALIGNMENTS = 1    # windows of c cells holding own stones only, still completable
    F_WEIGHTED = 2      # sum over those windows of (own stones in the window)^2
    F_CENTRAL = 3       # own stones in the central column(s)
    F_DIAGONALS = 4     # the diagonal ones among the alignments
    F_THREATS = 5       # distinct empty cells that would complete an own window
    F_GOOD_THREATS = 6  # threats that would win that side the zugzwang (bitboard.pxd first_good_row)
    N_FEATURES = 7

cdef enum:
    EVAL_LIMIT = 1 << 28    # |evaluation| stays below this, far from win scores
    MAX_SIDE = 128          # columns and rows at most (clinea.core.rules)

cdef class Evaluation:
    cdef int w[N_FEATURES]
    cdef long counts[2][N_FEATURES]
    cdef uint8_t* grid        # the board as cells, filled per call on the bitboard path
    cdef uint8_t* threat_mark  # per cell: bit 0/1 set when it completes a window of side 0/1
    cdef int* marked          # cells whose mark is set, to clear them in O(marks)
    cdef int capacity

    cdef int c_evaluate(self, Board board) noexcept nogil
    cdef void c_count(self, Board board) noexcept nogil
    cdef void c_count_cells(self, Board board) noexcept nogil
    cdef const uint8_t* c_cells(self, Board board) noexcept nogil
    cdef void count_good_threats(self, const Geometry* g, int nmarked, int last_row) noexcept nogil

cdef int threats_created(Board board, int col) noexcept nogil
