# Bitboard primitives for boards with columns * (rows + 1) <= 64.
#
# Layout: column-major, `stride = rows + 1` bits per column, bit 0 is the
# bottom-left cell. The extra bit on top of each column is never set, so runs
# cannot wrap from one column into the next along the vertical or diagonal
# directions, whatever c is.
from libc.stdint cimport uint64_t

from .widebits cimport Wide

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil

cdef struct Geometry:
    int columns
    int rows
    int c
    int p
    int max_moves          # min(2 p, columns * rows): the game ends there
    int stride             # rows + 1
    bint bitboard          # the position fits in one 64-bit word
    bint wide              # else, it fits in a Wide (widebits.pxd)
    bint vertical_wins     # c <= rows
    bint horizontal_wins   # c <= columns
    bint diagonal_wins     # c <= min(columns, rows)
    uint64_t bottom        # the lowest cell of every column
    uint64_t cells         # every cell of the board
    uint64_t central       # the central column(s): one on odd widths, two on even
    uint64_t first_good_rows  # the rows where a threat is good for the first player (evaluate.pyx)
    Wide wide_bottom       # the same masks on the wide path
    Wide wide_cells
    Wide wide_central
    Wide wide_first_good_rows

cdef struct BitPosition:
    uint64_t current       # stones of the side to move
    uint64_t mask          # all stones
    int moves

cdef inline bint first_good_row(const Geometry* g, int row) noexcept nogil:
    """Whether a first player's threat on `row` wins the zugzwang (Allis'
    odd threats on 7x6, generalised to any size): once every empty cell
    outside the threat's column from `row - 1` up is filled, the player to
    move must play under the threat and hand it over. From the empty board
    that takes cells - rows + row - 1 moves, whoever plays them: an odd
    count leaves the second player to move, good for the first. (The
    second player's good rows are the others. Whether the p limit lets the
    game last that long depends on the position: evaluate.pyx checks it.)"""
    return (g.columns * g.rows - g.rows + row) % 2 == 0

cdef inline uint64_t bottom_cell(const Geometry* g, int col) noexcept nogil:
    return (<uint64_t>1) << (col * g.stride)

cdef inline uint64_t top_cell(const Geometry* g, int col) noexcept nogil:
    return (<uint64_t>1) << (g.rows - 1 + col * g.stride)

cdef inline uint64_t column_cells(const Geometry* g, int col) noexcept nogil:
    return (((<uint64_t>1) << g.rows) - 1) << (col * g.stride)

cdef inline bint bit_can_play(const Geometry* g, const BitPosition* pos, int col) noexcept nogil:
    return (pos.mask & top_cell(g, col)) == 0

cdef inline uint64_t playable_cells(const Geometry* g, const BitPosition* pos) noexcept nogil:
    # adding the bottom row carries into the lowest empty cell of each column
    return (pos.mask + g.bottom) & g.cells

cdef inline void bit_play_cell(BitPosition* pos, uint64_t cell) noexcept nogil:
    pos.current ^= pos.mask
    pos.mask |= cell
    pos.moves += 1

cdef inline void bit_play(const Geometry* g, BitPosition* pos, int col) noexcept nogil:
    bit_play_cell(pos, (pos.mask + bottom_cell(g, col)) & column_cells(g, col))

cdef inline uint64_t run_starts(uint64_t stones, int shift, int c) noexcept nogil:
    # Cells that start a run of c stones along `shift`, by doubling the run
    # length: O(log c) shifts instead of c.
    cdef int length = 1
    while 2 * length <= c:
        stones &= stones >> (length * shift)
        length *= 2
    if length < c:
        stones &= stones >> ((c - length) * shift)
    return stones

cdef inline bint has_alignment(const Geometry* g, uint64_t stones) noexcept nogil:
    # The direction flags keep every shift below 64 bits (a shift of 64 or
    # more is undefined in C).
    if g.vertical_wins and run_starts(stones, 1, g.c):
        return True
    if g.horizontal_wins and run_starts(stones, g.stride, g.c):
        return True
    if g.diagonal_wins and (run_starts(stones, g.stride - 1, g.c)
                            or run_starts(stones, g.stride + 1, g.c)):
        return True
    return False

cdef inline uint64_t bit_key(const BitPosition* pos) noexcept nogil:
    # current + mask is unique per position: adding the mask sets one
    # marker bit above each column's stones.
    return pos.current + pos.mask

cdef inline int popcount(uint64_t x) noexcept nogil:
    return __builtin_popcountll(x)
