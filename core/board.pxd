cimport cython
from libc.stdint cimport uint8_t, uint16_t, uint64_t

from .bitboard cimport BitPosition, Geometry, bottom_cell
from .widebits cimport Wide


# final: nothing derives from Board, so its C methods are called directly,
# not through a table, and the accessors inline
@cython.final
cdef class Board:
    # The fields are Board's own: other modules read the position through the
    # accessors below (inline, so they cost what a field read costs) and
    # change it only through c_play / c_undo / c_reset.
    cdef Geometry g
    cdef BitPosition bits      # the position, on the bitboard path
    cdef uint8_t* cells        # the position otherwise: column-major, 0 empty, 1 first, 2 second
    cdef Wide wide[2]          # each player's stones on the wide path (which keeps `cells` too)
    cdef Wide wide_wins[2]     # each player's winning empty cells, when wide_wins_ready
    cdef bint wide_wins_ready  # computed on demand, forgotten at every move
    cdef int* heights          # stones per column, on every path
    cdef uint16_t* history     # columns played, in order
    cdef int moves_played
    cdef int winner_           # -1 nobody, 0 the first player, 1 the second
    cdef uint64_t zobrist      # position key off the bitboard path
    cdef object rules_         # the Rules this board was built with

    cdef bint c_can_play(self, int col) noexcept nogil
    cdef void c_play(self, int col) noexcept nogil
    cdef void c_undo(self) noexcept nogil
    cdef void c_reset(self) noexcept nogil
    cdef bint c_is_over(self) noexcept nogil
    cdef bint c_wins_with(self, int col) noexcept nogil
    cdef bint c_opponent_wins_at(self, int col, int row) noexcept nogil
    cdef uint64_t c_key(self) noexcept nogil
    cdef bint c_grid_aligned(self, int col, int row) noexcept nogil
    cdef int c_legal_columns(self, int* out) noexcept nogil
    cdef void c_wide_threats(self) noexcept nogil

    # ------------------------------------------------------------ accessors

    cdef inline const Geometry* c_geometry(self) noexcept nogil:
        """The rules and the bit masks of this board's shape (read only)."""
        return &self.g

    cdef inline int c_moves(self) noexcept nogil:
        return self.moves_played

    cdef inline int c_side(self) noexcept nogil:
        """0 if the first player is to move, 1 for the second."""
        return self.moves_played & 1

    cdef inline int c_winner(self) noexcept nogil:
        """-1 while nobody has won, else the winner (0 or 1)."""
        return self.winner_

    cdef inline int c_height(self, int col) noexcept nogil:
        """Stones in `col` (the caller keeps col in range)."""
        return self.heights[col]

    cdef inline int c_tokens_left(self, int player) noexcept nogil:
        """Tokens `player` (0 or 1) has not placed yet: the p limit."""
        return self.g.p - ((self.moves_played + 1 - player) >> 1)

    cdef inline uint64_t c_stones(self, int player) noexcept nogil:
        """`player`'s stones on the 64-bit path."""
        if player == (self.moves_played & 1):
            return self.bits.current
        return self.bits.current ^ self.bits.mask

    cdef inline uint8_t c_cell(self, int col, int row) noexcept nogil:
        """0 empty, 1 first player, 2 second, on any path."""
        cdef uint64_t bit
        if not self.g.bitboard:
            return self.cells[col * self.g.rows + row]
        bit = bottom_cell(&self.g, col) << row
        if not self.bits.mask & bit:
            return 0
        # `current` holds the side to move's stones
        if self.bits.current & bit:
            return 1 + (self.moves_played & 1)
        return 2 - (self.moves_played & 1)

    cdef inline const uint8_t* c_cell_array(self) noexcept nogil:
        """The cells, column-major (see c_cell), off the 64-bit path."""
        return self.cells

    cdef inline uint64_t c_occupied(self) noexcept nogil:
        """Every stone, on the 64-bit path."""
        return self.bits.mask

    cdef inline Wide c_wide_stones(self, int player) noexcept nogil:
        """`player`'s stones on the wide path."""
        return self.wide[player]
