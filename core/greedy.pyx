# cython: boundscheck=False, wraparound=False
"""The seed's greedy player, in C.

Per turn: play a winning move if there is one; otherwise keep only the moves
after which the opponent cannot win at once (all of them if none is safe);
score the board after each kept move with sum(w * own - v * opponent
features) (layout: clinea.core.features; v = w unless the opponent's
features get weights of their own), plus the same sum over the open windows
when the weights carry window weights, and play the best. Equal scores go to the
column nearest the centre, then the leftmost, so the player is deterministic.

Cost per turn: O(columns) win checks per move for safety, and one
O(columns * rows) feature count per move: O(columns^2 * rows).
"""
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint8_t

from .board cimport Board
from .cbot cimport CBot
from .features cimport (
    c_board_grid, c_count_features, c_count_windows, c_feature_count, c_grid_size, c_run_lengths,
)


cdef int weigh_both(own, other, double** mine, double** theirs, int** counts) except -1:
    """C copies of the weights `own` and `other` (as long), and room for both
    players' counts of as many features; the caller frees all three."""
    cdef Py_ssize_t n = len(own), i
    mine[0] = <double*>PyMem_Malloc(max(1, n) * sizeof(double))
    theirs[0] = <double*>PyMem_Malloc(max(1, n) * sizeof(double))
    counts[0] = <int*>PyMem_Malloc(2 * max(1, n) * sizeof(int))
    if not mine[0] or not theirs[0] or not counts[0]:
        raise MemoryError()
    for i in range(n):
        mine[0][i] = own[i]
        theirs[0][i] = other[i]
    return 0


cdef class Greedy(CBot):
    """Greedy(weights, c, opponent_weights=None, windows=None,
    opponent_windows=None): `weights` has feature_count(c) numbers in the
    layout of clinea.core.features; the player plays boards with that `c`
    only. `opponent_weights`, in the same layout, weigh the opponent's
    features (subtracted); by default the same weights, so the score is
    w . (own - opponent). `windows` (run_lengths(c) numbers) weigh the open
    windows the same way, `opponent_windows` the opponent's (default
    `windows`); without them windows are not counted at all."""

    cdef double* w
    cdef double* v
    cdef bint split           # opponent weights of their own (else v == w)
    cdef int nw
    cdef int game_c
    cdef double* ww           # window weights, own and the opponent's: NULL when not counted
    cdef double* vw
    cdef int* window_counts
    cdef int nwin
    # scratch, grown to the largest board seen
    cdef uint8_t* grid
    cdef int* counts
    cdef int* legal
    cdef int* reply
    cdef char* safe
    cdef int capacity_cells
    cdef int capacity_columns

    def __cinit__(self, weights, int c, opponent_weights=None, windows=None, opponent_windows=None):
        values = [float(x) for x in weights]
        others = values if opponent_weights is None else [float(x) for x in opponent_weights]
        expected = c_feature_count(c) if c >= 1 else -1
        if c < 1:
            raise ValueError(f"c={c} is out of range: allowed 1 or more")
        if len(values) != expected:
            raise ValueError(f"{len(values)} weights given for c={c}: expected {expected}")
        if len(others) != expected:
            raise ValueError(f"{len(others)} opponent weights given for c={c}: expected {expected}")
        if windows is None and opponent_windows is not None:
            raise ValueError("opponent window weights need the player's own window weights")
        if windows is not None:
            own_windows = [float(x) for x in windows]
            other_windows = own_windows if opponent_windows is None else [float(x) for x in opponent_windows]
            self.nwin = c_run_lengths(c)
            for name, given in (("window", own_windows), ("opponent window", other_windows)):
                if len(given) != self.nwin:
                    raise ValueError(f"{len(given)} {name} weights given for c={c}: expected {self.nwin}")
            weigh_both(own_windows, other_windows, &self.ww, &self.vw, &self.window_counts)
        self.nw = expected
        self.game_c = c
        self.split = opponent_weights is not None
        weigh_both(values, others, &self.w, &self.v, &self.counts)

    def __dealloc__(self):
        PyMem_Free(self.w)
        PyMem_Free(self.v)
        PyMem_Free(self.counts)
        PyMem_Free(self.grid)
        PyMem_Free(self.legal)
        PyMem_Free(self.reply)
        PyMem_Free(self.safe)
        PyMem_Free(self.ww)
        PyMem_Free(self.vw)
        PyMem_Free(self.window_counts)

    @property
    def weights(self) -> list:
        return [self.w[i] for i in range(self.nw)]

    @property
    def opponent_weights(self) -> list:
        return [self.v[i] for i in range(self.nw)]

    @property
    def window_weights(self) -> list | None:
        return None if self.ww == NULL else [self.ww[i] for i in range(self.nwin)]

    @property
    def opponent_window_weights(self) -> list | None:
        return None if self.vw == NULL else [self.vw[i] for i in range(self.nwin)]

    @property
    def c(self) -> int:
        return self.game_c

    cdef void _reserve(self, Board board) except *:
        cdef int cells = c_grid_size(board.c_geometry().columns, board.c_geometry().rows)
        cdef int columns = board.c_geometry().columns
        if cells > self.capacity_cells:
            PyMem_Free(self.grid)
            self.grid = <uint8_t*>PyMem_Malloc(cells * sizeof(uint8_t))
            if not self.grid:
                raise MemoryError()
            self.capacity_cells = cells
        if columns > self.capacity_columns:
            PyMem_Free(self.legal)
            PyMem_Free(self.reply)
            PyMem_Free(self.safe)
            self.legal = <int*>PyMem_Malloc(columns * sizeof(int))
            self.reply = <int*>PyMem_Malloc(columns * sizeof(int))
            self.safe = <char*>PyMem_Malloc(columns * sizeof(char))
            if not self.legal or not self.reply or not self.safe:
                raise MemoryError()
            self.capacity_columns = columns

    def prepare(self, Board board) -> None:
        """Checks `board` suits these weights and sizes the scratch buffers;
        `choose` calls it, the in-C game loop calls it once per game."""
        if c_run_lengths(board.c) != c_run_lengths(self.game_c):
            raise ValueError(f"these weights are for c={self.game_c}, the board has c={board.c}")
        self._reserve(board)

    def choose(self, Board board) -> int:
        """The column to play on `board` (left unchanged)."""
        self.prepare(board)
        return CBot.choose(self, board)

    cdef int c_choose(self, Board board) noexcept nogil:
        cdef int n = board.c_legal_columns(self.legal)
        cdef int i, j, k, col, nreply, nsafe = 0, me, best = -1, columns = board.c_geometry().columns
        cdef int rows = board.c_geometry().rows, nlen = c_run_lengths(board.c_geometry().c), cell
        cdef double score, best_score = 0.0
        cdef int* own
        cdef int* other
        if n == 0:
            return -1
        for i in range(n):
            if board.c_wins_with(self.legal[i]):
                return self.legal[i]
        for i in range(n):
            board.c_play(self.legal[i])
            self.safe[i] = True
            if not board.c_is_over():
                nreply = board.c_legal_columns(self.reply)
                for j in range(nreply):
                    if board.c_wins_with(self.reply[j]):
                        self.safe[i] = False
                        break
            board.c_undo()
            nsafe += self.safe[i]
        me = board.c_side()
        c_board_grid(board, self.grid)
        own = self.counts + me * self.nw
        other = self.counts + (1 - me) * self.nw
        for i in range(n):
            if nsafe > 0 and not self.safe[i]:
                continue
            col = self.legal[i]
            cell = (col + 1) * (rows + 2) + board.c_height(col) + 1
            self.grid[cell] = me + 1
            c_count_features(self.grid, columns, rows, nlen, self.counts)
            if self.ww != NULL:
                c_count_windows(self.grid, columns, rows, board.c_geometry().c, nlen, self.window_counts)
            self.grid[cell] = 0
            score = 0.0
            for k in range(self.nw):
                # the shared form keeps one product per feature, so scores (and
                # ties) stay exactly as they were before opponents had weights
                if self.split:
                    score += self.w[k] * own[k] - self.v[k] * other[k]
                else:
                    score += self.w[k] * (own[k] - other[k])
            if self.ww != NULL:
                for k in range(self.nwin):
                    score += (self.ww[k] * self.window_counts[me * self.nwin + k]
                              - self.vw[k] * self.window_counts[(1 - me) * self.nwin + k])
            if best < 0 or score > best_score or (
                    score == best_score and _off_centre(col, columns) < _off_centre(best, columns)):
                best = col
                best_score = score
        return best


cdef inline int _off_centre(int col, int columns) noexcept nogil:
    cdef int d = 2 * col - (columns - 1)
    return d if d >= 0 else -d
