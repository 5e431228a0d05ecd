# cython: boundscheck=False, wraparound=False
"""A weighted evaluation of C en linea positions, in the style of the
Connect-4 reports: consecutive tokens, possible alignments, central tokens,
diagonals, plus threat cells and their row parity for the strong player.

One pass per direction slides a window of c cells along every line, within
the stones' bounding box grown by c - 1 (no window outside it holds a
stone), so the cost is O(4 * cells) at worst on any board size. Bitboards,
64-bit or wide, take a bit-parallel path instead (one function for both
word types); they can also be unpacked into cells so the paths are checked
against each other.
"""
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memset

from .board cimport Board
from .bitboard cimport Geometry, first_good_row
from .widebits cimport Wide
from .words cimport Bits, b_and, b_any, b_not, b_or, b_popcount, b_run_starts, b_shl, b_shr, b_xor, b_zero


cdef inline void settle_zugzwang(long (*counts)[N_FEATURES], const Geometry* g) noexcept nogil:
    """Allis' rule that White's odd threat beats Black's even threats in
    other columns, generalised: the player who would not make the board's
    last move needs a good threat to take the zugzwang over, and once it has
    one, the other's good threats no longer decide it (when every other
    cell is filled, the other must play under a threat first: its own,
    which the opponent blocks, leaves it to move again with the column's
    cells above in even number). With it, off the 64-bit path, a threat
    above an opponent's threat in its column is not good: the lower one
    comes first (a replayed 9x8 loss counted such threats and took the
    zugzwang for its own). Off the 64-bit path only: 7x6's endgames are the
    solver's, and its evaluation stays as measured there."""
    cdef int controller = (g.columns * g.rows - 1) % 2
    if not g.bitboard and counts[1 - controller][F_GOOD_THREATS] > 0:
        counts[controller][F_GOOD_THREATS] = 0


cdef inline int zugzwang_last_row(const Geometry* g, int moves_left, int empty) noexcept nogil:
    """The highest row whose threats the zugzwang can still decide before
    the p limit ends the game (rows - 1 when the tokens fill the board).
    A threat on row r becomes the forced cell once the empty cells outside
    its column's rows r - 1 and up are filled, empty - (rows - r + 1)
    moves, and its owner plays it on the move after the forced one: both
    must fit in the moves left."""
    return min(g.rows - 1, moves_left - empty + g.rows - 1)


cdef void count_bit_parallel(long (*counts)[N_FEATURES], const Geometry* g, Bits* stones,
                             Bits bottom, Bits cells, Bits central, Bits first_good_rows,
                             int* left) noexcept nogil:
    """Fills counts[player][feature] from each player's stones: each
    direction's windows are counted for all cells at once, the stones per
    window kept in bit-sliced counters (plane p holds bit p of every
    window's count)."""
    cdef Bits planes[7]
    cdef Bits threat_bits[2]
    cdef Bits empty = b_and(cells, b_not(b_or(stones[0], stones[1])))
    cdef Bits valid, own, opp, opp_any, carry, t, open_, eq, reachable
    cdef int shifts[4]
    cdef bint allowed[4]
    cdef int c = g.c, nplanes = 0, d, s, k, j, p, n, shift, last_row, _row
    memset(counts, 0, 2 * N_FEATURES * sizeof(long))
    threat_bits[0] = b_zero(cells)
    threat_bits[1] = b_zero(cells)
    while (1 << nplanes) <= c:
        nplanes += 1
    shifts[0] = g.stride; shifts[1] = 1; shifts[2] = g.stride + 1; shifts[3] = g.stride - 1
    allowed[0] = g.horizontal_wins; allowed[1] = g.vertical_wins
    allowed[2] = g.diagonal_wins; allowed[3] = g.diagonal_wins
    for d in range(4):
        shift = shifts[d]
        # one column has no horizontal or diagonal neighbours (and its
        # stride may reach 64, a shift C leaves undefined on one word); the
        # window shifts below stay under 64 whenever the direction allows a win
        if d == 1 or g.columns >= 2:
            for s in range(2):
                counts[s][F_CONSECUTIVE] += b_popcount(b_and(stones[s], b_shr(stones[s], shift)))
        if not allowed[d]:
            continue
        valid = b_run_starts(cells, shift, c)
        for s in range(2):
            own = stones[s]
            opp = stones[1 - s]
            opp_any = b_zero(cells)
            for p in range(nplanes):
                planes[p] = opp_any
            for k in range(c):
                opp_any = b_or(opp_any, b_shr(opp, k * shift))
                carry = b_shr(own, k * shift)
                p = 0
                while p < nplanes and b_any(carry):
                    t = b_and(planes[p], carry)
                    planes[p] = b_xor(planes[p], carry)
                    carry = t
                    p += 1
            open_ = b_and(valid, b_not(opp_any))
            for k in range(max(1, c - left[s]), c + 1):
                eq = open_
                for p in range(nplanes):
                    eq = b_and(eq, planes[p] if (k >> p) & 1 else b_not(planes[p]))
                n = b_popcount(eq)
                if n == 0:
                    continue
                counts[s][F_ALIGNMENTS] += n
                counts[s][F_WEIGHTED] += k * k * n
                if d >= 2:
                    counts[s][F_DIAGONALS] += n
                if k == c - 1:
                    # each such window has one empty cell: the threat
                    for j in range(c):
                        threat_bits[s] = b_or(threat_bits[s], b_and(b_shl(eq, j * shift), empty))
    reachable = cells
    last_row = zugzwang_last_row(g, left[0] + left[1], b_popcount(empty))
    if last_row < g.rows - 1:
        reachable = b_zero(cells)
        for k in range(last_row + 1):
            reachable = b_or(reachable, b_shl(bottom, k))
    for s in range(2):
        counts[s][F_THREATS] = b_popcount(threat_bits[s])
        t = first_good_rows if s == 0 else b_and(cells, b_not(first_good_rows))
        t = b_and(threat_bits[s], b_and(t, reachable))
        if not g.bitboard:
            # the cells above an opponent's threat, column by column
            carry = threat_bits[1 - s]
            for _row in range(1, g.rows):
                carry = b_and(b_shl(carry, 1), cells)
                t = b_and(t, b_not(carry))
        counts[s][F_GOOD_THREATS] = b_popcount(t)
        counts[s][F_CENTRAL] = b_popcount(b_and(stones[s], central))
    settle_zugzwang(counts, g)

FEATURES = ("consecutive", "alignments", "weighted", "central", "diagonals",
            "threats", "good_threats")
"""Names of the features, in weight order."""

REPORT_WEIGHTS = (2, 1, 3, 4, 1, 0, 0)
"""The evaluator player's default: the report's four ingredients, no threats."""

STRONG_WEIGHTS = (1, 1, 2, 3, 1, 24, 16)
"""The strong player's default: windows and centre, dominated by threats."""

# The four line directions (dcol, drow): horizontal, vertical, two diagonals.
cdef int DCOL[4]
cdef int DROW[4]
DCOL[:] = [1, 0, 1, 1]
DROW[:] = [0, 1, 1, -1]


cdef int threats_created(Board board, int col) noexcept nogil:
    """Windows through the cell `col` would fill that the side to move would
    then hold with c - 1 stones and one empty cell: new threats, for move
    ordering. O(4 c^2) cell reads at worst, no allocation."""
    cdef const Geometry* g = board.c_geometry()
    cdef int row = board.c_height(col)
    cdef uint8_t me = board.c_side() + 1
    cdef int c = g.c
    cdef int columns = g.columns, rows = g.rows
    cdef int d, start, k, x, y, own, empty, found = 0
    cdef uint8_t v
    if c < 2:
        return 0
    for d in range(4):
        for start in range(-(c - 1), 1):
            own = 0
            empty = 0
            for k in range(c):
                x = col + (start + k) * DCOL[d]
                y = row + (start + k) * DROW[d]
                if not (0 <= x < columns and 0 <= y < rows):
                    own = -1
                    break
                if start + k == 0:
                    continue  # the cell being played: counts as own
                v = board.c_cell(x, y)
                if v == me:
                    own += 1
                elif v == 0:
                    empty += 1
                else:
                    own = -1
                    break
            if own == c - 2 and empty == 1:
                found += 1
    return found


cdef class Evaluation:
    """Features and weighted score of a position for the side to move.

    `weights` is a sequence of len(FEATURES) integers; the score is
    sum(w[i] * (mine[i] - theirs[i])). A window (c cells in a line) counts
    for a side only when it holds none of the opponent's stones and the side
    still has the tokens to complete it (the p limit)."""

    def __cinit__(self, weights=REPORT_WEIGHTS):
        self.grid = NULL
        self.threat_mark = NULL
        self.marked = NULL
        self.capacity = 0
        self.set_weights(weights)

    def __dealloc__(self):
        PyMem_Free(self.grid)
        PyMem_Free(self.threat_mark)
        PyMem_Free(self.marked)

    def set_weights(self, weights) -> None:
        weights = list(weights)
        if len(weights) != N_FEATURES:
            raise ValueError(f"weights: got {len(weights)} numbers, expected {N_FEATURES} "
                             f"({', '.join(FEATURES)})")
        for i, w in enumerate(weights):
            if isinstance(w, bool) or not isinstance(w, int) or not -10000 <= w <= 10000:
                raise ValueError(f"weight {FEATURES[i]}={w!r} is out of range: "
                                 f"allowed integers -10000..10000")
            self.w[i] = w

    @property
    def weights(self) -> tuple:
        return tuple(self.w[i] for i in range(N_FEATURES))

    def prepare(self, Board board) -> None:
        """Sizes the scratch buffers for `board`'s geometry; the C entry
        points assume it was called (the Python ones call it)."""
        cdef int cells = board.c_geometry().columns * board.c_geometry().rows
        if cells <= self.capacity:
            return
        PyMem_Free(self.grid)
        PyMem_Free(self.threat_mark)
        PyMem_Free(self.marked)
        self.grid = <uint8_t*>PyMem_Malloc(cells)
        self.threat_mark = <uint8_t*>PyMem_Malloc(cells)
        self.marked = <int*>PyMem_Malloc(cells * sizeof(int))
        if not self.grid or not self.threat_mark or not self.marked:
            self.capacity = 0
            raise MemoryError()
        memset(self.threat_mark, 0, cells)
        self.capacity = cells

    cdef const uint8_t* c_cells(self, Board board) noexcept nogil:
        cdef const Geometry* g = board.c_geometry()
        cdef int col, row, rows = g.rows
        if not g.bitboard:
            return board.c_cell_array()
        for col in range(g.columns):
            for row in range(rows):
                self.grid[col * rows + row] = board.c_cell(col, row)
        return self.grid

    cdef void c_count(self, Board board) noexcept nogil:
        """Fills self.counts[side][feature] for `board`."""
        cdef const Geometry* g = board.c_geometry()
        cdef int left[2]
        cdef uint64_t stones[2]
        cdef Wide wide[2]
        if not (g.bitboard or g.wide):
            self.c_count_cells(board)
            return
        left[0] = board.c_tokens_left(0)
        left[1] = board.c_tokens_left(1)
        if g.bitboard:
            stones[0] = board.c_stones(0)
            stones[1] = board.c_stones(1)
            count_bit_parallel(self.counts, g, stones, g.bottom, g.cells, g.central, g.first_good_rows, left)
        else:
            wide[0] = board.c_wide_stones(0)
            wide[1] = board.c_wide_stones(1)
            count_bit_parallel(self.counts, g, wide, g.wide_bottom, g.wide_cells, g.wide_central,
                               g.wide_first_good_rows, left)

    cdef void c_count_cells(self, Board board) noexcept nogil:
        """c_count over the cells, any board size."""
        cdef const uint8_t* cells = self.c_cells(board)
        cdef const Geometry* g = board.c_geometry()
        cdef int columns = g.columns, rows = g.rows, c = g.c
        cdef int left[2]
        cdef int d, dc, dr, sc, sr, x, y, i, tail, s, k, cell, tcell, last_row
        cdef int n[3]
        cdef long empty_sum
        cdef uint8_t v, prev
        cdef int nmarked = 0
        cdef int xl = columns, xh = -1, yh = -1
        left[0] = board.c_tokens_left(0)
        left[1] = board.c_tokens_left(1)
        last_row = zugzwang_last_row(g, left[0] + left[1], columns * rows - board.c_moves())
        memset(self.counts, 0, sizeof(self.counts))
        # A window that holds a stone lies within c - 1 cells of it, so only
        # the stones' bounding box grown by c - 1 needs scanning (a few
        # columns of a 64x64 board early in the game).
        for x in range(columns):
            if board.c_height(x) > 0:
                xl = min(xl, x)
                xh = x
                yh = max(yh, board.c_height(x) - 1)
        if xh < 0:
            return
        xl = max(0, xl - (c - 1))
        xh = min(columns - 1, xh + (c - 1))
        yh = min(rows - 1, yh + (c - 1))
        for d in range(4):
            dc = DCOL[d]
            dr = DROW[d]
            # every line starts on a cell whose predecessor is off the box
            for sc in range(xl, xh + 1):
                for sr in range(yh + 1):
                    x = sc - dc
                    y = sr - dr
                    if xl <= x <= xh and 0 <= y <= yh:
                        continue
                    n[0] = 0; n[1] = 0; n[2] = 0
                    empty_sum = 0
                    prev = 0
                    x = sc
                    y = sr
                    i = 0
                    while xl <= x <= xh and 0 <= y <= yh:
                        cell = x * rows + y
                        v = cells[cell]
                        if v != 0 and v == prev:
                            self.counts[v - 1][F_CONSECUTIVE] += 1
                        prev = v
                        n[v] += 1
                        if v == 0:
                            empty_sum += cell
                        if i >= c:
                            # drop the cell that left the window
                            tail = (x - c * dc) * rows + (y - c * dr)
                            n[cells[tail]] -= 1
                            if cells[tail] == 0:
                                empty_sum -= tail
                        if i >= c - 1:
                            for s in range(2):
                                k = n[s + 1]
                                if k == 0 or n[2 - s] != 0 or c - k > left[s]:
                                    continue
                                self.counts[s][F_ALIGNMENTS] += 1
                                self.counts[s][F_WEIGHTED] += k * k
                                if dc != 0 and dr != 0:
                                    self.counts[s][F_DIAGONALS] += 1
                                if k == c - 1:
                                    # one empty cell: the sum of empties is its index
                                    tcell = <int>empty_sum
                                    if not self.threat_mark[tcell]:
                                        self.marked[nmarked] = tcell
                                        nmarked += 1
                                    if not self.threat_mark[tcell] & (1 << s):
                                        self.threat_mark[tcell] |= 1 << s
                                        self.counts[s][F_THREATS] += 1
                        x += dc
                        y += dr
                        i += 1
        self.count_good_threats(g, nmarked, last_row)
        for i in range(nmarked):
            self.threat_mark[self.marked[i]] = 0
        # central column(s): one on odd widths, two on even
        for x in range((columns - 1) // 2, columns // 2 + 1):
            for y in range(board.c_height(x)):
                self.counts[cells[x * rows + y] - 1][F_CENTRAL] += 1
        settle_zugzwang(self.counts, g)

    cdef void count_good_threats(self, const Geometry* g, int nmarked, int last_row) noexcept nogil:
        """F_GOOD_THREATS from the threat marks of c_count_cells, as the
        bit-parallel path counts them."""
        cdef int lowest[2][MAX_SIDE]  # per column, each side's lowest threat row
        cdef int i, s, cell, col, row, rows = g.rows
        for col in range(g.columns):
            lowest[0][col] = rows
            lowest[1][col] = rows
        for i in range(nmarked):
            cell = self.marked[i]
            for s in range(2):
                if self.threat_mark[cell] & (1 << s):
                    lowest[s][cell // rows] = min(lowest[s][cell // rows], cell % rows)
        for i in range(nmarked):
            cell = self.marked[i]
            col = cell // rows
            row = cell % rows
            for s in range(2):
                if (self.threat_mark[cell] & (1 << s) and first_good_row(g, row) != s and row <= last_row
                        and (g.bitboard or row <= lowest[1 - s][col])):
                    self.counts[s][F_GOOD_THREATS] += 1

    cdef int c_evaluate(self, Board board) noexcept nogil:
        cdef int me = board.c_side()
        cdef long score = 0
        cdef int f
        self.c_count(board)
        for f in range(N_FEATURES):
            score += self.w[f] * (self.counts[me][f] - self.counts[1 - me][f])
        # huge boards with a long c could overflow an int and reach the
        # search's win scores: keep evaluations strictly below them
        if score > EVAL_LIMIT:
            return EVAL_LIMIT
        if score < -EVAL_LIMIT:
            return -EVAL_LIMIT
        return <int>score

    def features(self, Board board, bint cell_path=False) -> tuple:
        """(first player's counts, second player's counts), each a dict by
        feature name. `cell_path` counts over the cells even on a bitboard,
        64-bit or wide (to test one path against the other)."""
        self.prepare(board)
        if cell_path:
            self.c_count_cells(board)
        else:
            self.c_count(board)
        return tuple({FEATURES[f]: self.counts[s][f] for f in range(N_FEATURES)} for s in range(2))

    def evaluate(self, Board board) -> int:
        """The weighted score for the side to move (positive: good for it)."""
        self.prepare(board)
        return self.c_evaluate(board)
