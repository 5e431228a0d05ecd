from libc.stdint cimport uint8_t, uint16_t, uint64_t

from .bitboard cimport BitPosition, Geometry

cdef class Board:
    cdef Geometry g
    cdef BitPosition bits      # the position, on the bitboard path
    cdef uint8_t* cells        # the position otherwise: column-major, 0 empty, 1 first, 2 second
    cdef int* heights          # stones per column, on both paths
    cdef uint16_t* history     # columns played, in order
    cdef int moves_played
    cdef int winner_           # -1 nobody, 0 the first player, 1 the second
    cdef uint64_t zobrist      # position key on the generic path

    cdef bint c_can_play(self, int col) noexcept nogil
    cdef void c_play(self, int col) noexcept nogil
    cdef void c_undo(self) noexcept nogil
    cdef void c_reset(self) noexcept nogil
    cdef bint c_is_over(self) noexcept nogil
    cdef bint c_wins_with(self, int col) noexcept nogil
    cdef uint64_t c_key(self) noexcept nogil
    cdef bint c_grid_aligned(self, int col, int row) noexcept nogil
    cdef int c_legal_columns(self, int* out) noexcept nogil
