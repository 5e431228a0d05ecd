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

Beside the vector, an optional run-length vector of its own (count_windows),
which the weights carry only when they ask for it:

  windows (n-1)       open windows: the segments of c consecutive cells along
                      one of the four directions that hold exactly n of the
                      player's tokens and none of the opponent's, n = 1..L.
                      A window is a place where the player can still make c
                      in a row, which the runs above do not tell: a run
                      hemmed in short of c by the opponent or the edge is
                      "extensible" all the same, and tokens with gaps
                      between them (X_X) are runs of one. On a long line (c
                      = 10 on 14 columns) most runs are dead; on 7x6 the
                      forks random wins with are built from gaps.

Also O(columns * rows): each line is walked once with a sliding window.
"""
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint8_t
from libc.string cimport memset

from .bitboard cimport Geometry
from .board cimport Board

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


cdef int c_grid_size(int columns, int rows) noexcept nogil:
    """Cells of the padded grid: a frame of one off-board cell all round,
    column-major, (columns + 2) x (rows + 2); cell (col, row) is at
    (col + 1) * (rows + 2) + row + 1."""
    return (columns + 2) * (rows + 2)


cdef void c_board_grid(Board board, uint8_t* grid) noexcept nogil:
    """Fills the padded grid of `board` (see c_grid_size): 0 empty, 1 first
    player, 2 second, 3 off the board. The frame of 3s lets the counting
    loops look at neighbours without bounds checks, and makes "playable"
    simply "empty with something (a stone or the floor) below"."""
    cdef const Geometry* g = board.c_geometry()
    cdef int columns = g.columns, rows = g.rows, height = rows + 2
    cdef int col, row
    memset(grid, 3, c_grid_size(columns, rows) * sizeof(uint8_t))
    for col in range(columns):
        for row in range(rows):
            grid[(col + 1) * height + row + 1] = board.c_cell(col, row)


cdef inline void line_steps(int height, int* steps) noexcept nogil:
    """The four directions of a line on a padded grid of columns `height` cells high."""
    steps[0] = height       # horizontal
    steps[1] = 1            # vertical
    steps[2] = height + 1   # diagonal up-right
    steps[3] = height - 1   # diagonal down-right


cdef void c_count_features(const uint8_t* grid, int columns, int rows,
                           int nlen, int* counts) noexcept nogil:
    """Raw counts for both players on a padded grid: counts[0 .. n) for the
    first player's stones, counts[n .. 2n) for the second's, n = 4 + 4 nlen."""
    cdef int n = F_SCALARS + F_RUN_KINDS * nlen
    cdef int height = rows + 2
    cdef int col, row, s, d, step, length, i, before, after, seen
    cdef int* mine
    cdef bint before_free, after_free
    cdef int mid_low = (columns - 1) // 2, mid_high = columns // 2
    cdef int steps[4]
    cdef int around[8]
    line_steps(height, steps)
    around[0] = -height - 1; around[1] = -height; around[2] = -height + 1
    around[3] = -1; around[4] = 1
    around[5] = height - 1; around[6] = height; around[7] = height + 1
    memset(counts, 0, 2 * n * sizeof(int))
    for col in range(columns):
        i = (col + 1) * height
        for row in range(rows):
            i += 1
            s = grid[i]
            if s == 0:
                # a liberty of each player with a stone around it, counted once
                seen = 0
                for d in range(8):
                    seen |= 1 << grid[i + around[d]]
                counts[F_LIBERTIES] += (seen >> 1) & 1
                counts[n + F_LIBERTIES] += (seen >> 2) & 1
                continue
            mine = counts + (s - 1) * n
            if col == mid_low or col == mid_high:
                mine[F_CENTRE] += 1
            if col == 0 or col == columns - 1 or row == 0 or row == rows - 1:
                mine[F_BORDERS] += 1
                if (col == 0 or col == columns - 1) and (row == 0 or row == rows - 1):
                    mine[F_CORNERS] += 1
            for d in range(4):
                step = steps[d]
                before = i - step
                if grid[before] == s:
                    continue  # not the start of a maximal run
                length = 1
                after = i + step
                while grid[after] == s:
                    length += 1
                    after += step
                if length > nlen:
                    continue
                before_free = grid[before] == 0
                after_free = grid[after] == 0
                mine[F_SCALARS + length - 1] += 1
                if before_free or after_free:
                    mine[F_SCALARS + nlen + length - 1] += 1
                    # playable: empty with a stone or the floor below
                    if (before_free and grid[before - 1] != 0) or (after_free and grid[after - 1] != 0):
                        mine[F_SCALARS + 2 * nlen + length - 1] += 1
                    if before_free and after_free:
                        mine[F_SCALARS + 3 * nlen + length - 1] += 1


cdef void c_count_windows(const uint8_t* grid, int columns, int rows, int c,
                          int nlen, int* counts) noexcept nogil:
    """Open windows (see the module docstring) for both players on a padded
    grid: counts[0 .. nlen) for the first player, counts[nlen .. 2 nlen) for
    the second, index n - 1 for windows holding n tokens."""
    cdef int height = rows + 2
    cdef int col, row, d, step, i, cell, length
    cdef int have[4]
    cdef int steps[4]
    line_steps(height, steps)
    memset(counts, 0, 2 * nlen * sizeof(int))
    if c > columns and c > rows:
        return  # no line is long enough (also covers c beyond the cap on L)
    for col in range(columns):
        for row in range(rows):
            i = (col + 1) * height + row + 1
            for d in range(4):
                step = steps[d]
                if grid[i - step] != 3:
                    continue  # not the first cell of its line
                # slide a window of c cells along the line; have[k]: cells of kind k in it
                have[0] = 0; have[1] = 0; have[2] = 0
                length = 0
                cell = i
                while grid[cell] != 3:
                    have[grid[cell]] += 1
                    length += 1
                    if length > c:
                        have[grid[cell - c * step]] -= 1
                    if length >= c:
                        if have[2] == 0 and 0 < have[1] <= nlen:
                            counts[have[1] - 1] += 1
                        elif have[1] == 0 and 0 < have[2] <= nlen:
                            counts[nlen + have[2] - 1] += 1
                    cell += step


cdef tuple both_players(Board board, bint windows):
    """(first player's list, second player's list) of `board`'s feature
    counts, or with `windows` of its open windows."""
    cdef const Geometry* g = board.c_geometry()
    cdef int nlen = c_run_lengths(g.c)
    cdef int n = nlen if windows else c_feature_count(g.c)
    cdef uint8_t* grid = <uint8_t*>PyMem_Malloc(c_grid_size(g.columns, g.rows) * sizeof(uint8_t))
    cdef int* counts = <int*>PyMem_Malloc(max(1, 2 * n) * sizeof(int))
    if not grid or not counts:
        PyMem_Free(grid)
        PyMem_Free(counts)
        raise MemoryError()
    try:
        c_board_grid(board, grid)
        if windows:
            c_count_windows(grid, g.columns, g.rows, g.c, nlen, counts)
        else:
            c_count_features(grid, g.columns, g.rows, nlen, counts)
        return ([counts[i] for i in range(n)], [counts[n + i] for i in range(n)])
    finally:
        PyMem_Free(grid)
        PyMem_Free(counts)


def count_windows(Board board) -> tuple:
    """Open windows of `board` (see the module docstring): (first player's
    list, second player's list), L = run_lengths(c) entries each."""
    return both_players(board, True)


def count_features(Board board) -> tuple:
    """Raw feature counts of `board`: (first player's list, second player's list),
    in the layout above, with no difference taken."""
    return both_players(board, False)


def feature_vector(Board board, int player) -> list:
    """own minus opponent for `player` (0 first, 1 second): what the weights multiply."""
    if player not in (0, 1):
        raise ValueError(f"player={player} is out of range: allowed 0 or 1")
    first, second = count_features(board)
    own, other = (first, second) if player == 0 else (second, first)
    return [a - b for a, b in zip(own, other)]
