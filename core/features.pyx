# cython: boundscheck=False, wraparound=False
"""Board features of the greedy player, and THE layout of its weight vector.

For a game with `c` in a row, let L = run_lengths(c) = min(c - 1, 128). The
vector has feature_count(c) = 4 + 4 L entries, in this order:

  0  centre           tokens in the centre column (both centre columns when
                      the number of columns is even)
  1  borders          tokens on an edge cell of the board: leftmost or
                      rightmost column, bottom or top row
  2  corners          tokens on one of the (up to four) corner cells
  3  liberties        empty cells next to (8-neighbourhood) at least one
                      token of the player, each counted once
  4 + 0L + (n-1)      consecutive: maximal runs of exactly n tokens along one
                      of the four directions (horizontal, vertical, both
                      diagonals), n = 1..L; a lone token is a run of 1 in
                      each of the four directions
  4 + 1L + (n-1)      extensible: those runs with an empty cell at one end
                      at least (a cell that continues the run)
  4 + 2L + (n-1)      extensible next turn: those runs with an empty end cell
                      that is playable now (the lowest empty cell of its column)
  4 + 3L + (n-1)      bi-extensible: those runs with empty cells at both ends

The greedy player scores a board with sum(w[i] * (own[i] - opponent[i])),
"own" being the player who just moved. Runs of c or more are never counted:
a board with one is won, and the player takes a win before scoring anything.
L is capped at 128 (the largest side) because no run can be longer.

Counting is O(columns * rows) per board, so scoring every move of a turn is
O(columns^2 * rows).
"""
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memcpy, memset

from clinea.core.bitboard cimport bottom_cell
from clinea.core.board cimport Board

SCALARS = ("centre", "borders", "corners", "liberties")
"""The scalar features, first in the vector, in order."""
RUN_KINDS = ("consecutive", "extensible", "extensible_next", "bi_extensible")
"""The run-count vectors that follow the scalars, each indexed by run length 1..L."""

cdef int MAX_RUN = 128


cdef int c_run_lengths(int c) noexcept nogil:
    if c <= 1:
        return 0
    return c - 1 if c - 1 < MAX_RUN else MAX_RUN


cdef int c_feature_count(int c) noexcept nogil:
    return F_SCALARS + F_RUN_KINDS * c_run_lengths(c)


def run_lengths(int c) -> int:
    """L: how many run lengths (1..L) the run vectors cover for `c` in a row."""
    if c < 1:
        raise ValueError(f"c={c} is out of range: allowed 1 or more")
    return c_run_lengths(c)


def feature_count(int c) -> int:
    """Length of the feature and weight vectors for `c` in a row: 4 + 4 L."""
    return F_SCALARS + F_RUN_KINDS * run_lengths(c)


def feature_groups(int c) -> list:
    """[(name, start, stop)] for every gene of the vector: the four scalars
    (one entry each), then the four run vectors (L entries each)."""
    cdef int nlen = run_lengths(c)
    groups = [(name, i, i + 1) for i, name in enumerate(SCALARS)]
    for k, name in enumerate(RUN_KINDS):
        start = F_SCALARS + k * nlen
        groups.append((name, start, start + nlen))
    return groups


def feature_names(int c) -> list:
    """One readable name per entry: "centre", ..., "consecutive_1", ..."""
    names = []
    for name, start, stop in feature_groups(c):
        if name in SCALARS:
            names.append(name)
        else:
            names.extend(f"{name}_{n}" for n in range(1, stop - start + 1))
    return names


cdef void c_board_grid(Board board, uint8_t* grid) noexcept nogil:
    """Fills `grid` (column-major, columns * rows, 0 empty / 1 first / 2 second)."""
    cdef int columns = board.g.columns, rows = board.g.rows
    cdef int col, row
    cdef uint64_t bit, first
    if not board.g.bitboard:
        memcpy(grid, board.cells, columns * rows * sizeof(uint8_t))
        return
    # `current` holds the side to move's stones
    first = board.bits.current if board.moves_played % 2 == 0 else board.bits.current ^ board.bits.mask
    for col in range(columns):
        for row in range(rows):
            bit = bottom_cell(&board.g, col) << row
            if not board.bits.mask & bit:
                grid[col * rows + row] = 0
            elif first & bit:
                grid[col * rows + row] = 1
            else:
                grid[col * rows + row] = 2


cdef inline int cell_at(const uint8_t* grid, int columns, int rows, int col, int row) noexcept nogil:
    """The stone at (col, row), or 3 off the board (never equal to a stone or empty)."""
    if col < 0 or col >= columns or row < 0 or row >= rows:
        return 3
    return grid[col * rows + row]


cdef void c_count_features(const uint8_t* grid, const int* heights, int columns, int rows,
                           int nlen, int* counts) noexcept nogil:
    """Raw counts for both players: counts[0 .. n) for the first player's
    stones, counts[n .. 2n) for the second's, n = 4 + 4 nlen."""
    cdef int n = F_SCALARS + F_RUN_KINDS * nlen
    cdef int col, row, s, d, dc, dr, length, bc, br, ac, ar, nc, nr
    cdef int* mine
    cdef bint before_free, after_free, seen1, seen2
    cdef int mid_low = (columns - 1) // 2, mid_high = columns // 2
    cdef int dcs[4]
    cdef int drs[4]
    dcs[0] = 1; drs[0] = 0
    dcs[1] = 0; drs[1] = 1
    dcs[2] = 1; drs[2] = 1
    dcs[3] = 1; drs[3] = -1
    memset(counts, 0, 2 * n * sizeof(int))
    for col in range(columns):
        for row in range(rows):
            s = grid[col * rows + row]
            if s == 0:
                # a liberty of each player with a stone around it
                seen1 = False
                seen2 = False
                for dc in range(-1, 2):
                    for dr in range(-1, 2):
                        nc = cell_at(grid, columns, rows, col + dc, row + dr)
                        if nc == 1:
                            seen1 = True
                        elif nc == 2:
                            seen2 = True
                counts[F_LIBERTIES] += seen1
                counts[n + F_LIBERTIES] += seen2
                continue
            mine = counts + (s - 1) * n
            if col == mid_low or col == mid_high:
                mine[F_CENTRE] += 1
            if col == 0 or col == columns - 1 or row == 0 or row == rows - 1:
                mine[F_BORDERS] += 1
                if (col == 0 or col == columns - 1) and (row == 0 or row == rows - 1):
                    mine[F_CORNERS] += 1
            for d in range(4):
                dc = dcs[d]
                dr = drs[d]
                bc = col - dc
                br = row - dr
                if cell_at(grid, columns, rows, bc, br) == s:
                    continue  # not the start of a maximal run
                length = 1
                ac = col + dc
                ar = row + dr
                while cell_at(grid, columns, rows, ac, ar) == s:
                    length += 1
                    ac += dc
                    ar += dr
                if length > nlen:
                    continue
                before_free = cell_at(grid, columns, rows, bc, br) == 0
                after_free = cell_at(grid, columns, rows, ac, ar) == 0
                mine[F_SCALARS + length - 1] += 1
                if before_free or after_free:
                    mine[F_SCALARS + nlen + length - 1] += 1
                if ((before_free and heights[bc] == br)
                        or (after_free and heights[ac] == ar)):
                    mine[F_SCALARS + 2 * nlen + length - 1] += 1
                if before_free and after_free:
                    mine[F_SCALARS + 3 * nlen + length - 1] += 1


def count_features(Board board) -> tuple:
    """Raw feature counts of `board`: (first player's list, second player's list),
    in the layout above, with no difference taken."""
    cdef int columns = board.g.columns, rows = board.g.rows
    cdef int nlen = c_run_lengths(board.g.c)
    cdef int n = c_feature_count(board.g.c)
    cdef uint8_t* grid = <uint8_t*>PyMem_Malloc(columns * rows * sizeof(uint8_t))
    cdef int* counts = <int*>PyMem_Malloc(2 * n * sizeof(int))
    if not grid or not counts:
        PyMem_Free(grid)
        PyMem_Free(counts)
        raise MemoryError()
    try:
        c_board_grid(board, grid)
        c_count_features(grid, board.heights, columns, rows, nlen, counts)
        return ([counts[i] for i in range(n)], [counts[n + i] for i in range(n)])
    finally:
        PyMem_Free(grid)
        PyMem_Free(counts)


def feature_vector(Board board, int player) -> list:
    """own minus opponent for `player` (0 first, 1 second): what the weights multiply."""
    if player not in (0, 1):
        raise ValueError(f"player={player} is out of range: allowed 0 or 1")
    first, second = count_features(board)
    own, other = (first, second) if player == 0 else (second, first)
    return [a - b for a, b in zip(own, other)]
