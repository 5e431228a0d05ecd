from libc.stdint cimport uint64_t

from .bitboard cimport Geometry
from .board cimport Board
from .book cimport BookView
from .clock cimport Deadline
from .solver_table cimport BoundTables, TransTable
from .widebits cimport Wide, Wide4

cdef enum:
    SOLVER_MAX_COLUMNS = 128   # MAX_SIDE of the board

cdef struct SolveState:
    # the game: the board's rules and masks (bitboard.pxd), fixed per game
    Geometry g
    int order[SOLVER_MAX_COLUMNS]       # centre-first column order
    uint64_t column_mask[64]            # each column's cells, on the 64-bit path
    Wide wide_column[SOLVER_MAX_COLUMNS]  # the same on the wide path (widebits.pxd)
    # claimeven_bound: the rows of the height's parity, on each word type,
    # and whether the game ends with the board full (p does not bind)
    uint64_t claimed_rows
    Wide wide_claimed_rows
    Wide4 wide4_claimed_rows
    bint fills
    uint64_t left_half     # the columns left of the centre and the centre's, on the 64-bit path
    BoundTables tt         # the transposition tables (solver_table.pxd)
    BookView book          # exact scores at book.ply stones (-1: none for this game)
    # the budget of the current call
    long long nodes
    long long max_nodes
    Deadline deadline      # the call's deadline and its reads of the clock
    bint aborted
    bint stop_requested    # set by `Solver.stop` from another thread, or by a thread of the same solve that finished
    # the positions the threads of a parallel solve are searching (shared,
    # NULL when alone): another thread's child is searched last
    uint64_t* busy
    uint64_t busy_mask
    int busy_until         # moves played from which nodes are not marked
    # the root's moves after the last move search, per word type:
    # [REFUTED] those it proved below its target, [TRYING] the one it was
    # searching when its budget ran out (else none)
    uint64_t root[2]
    Wide wide_root[2]
    Wide4 wide4_root[2]
    # the solver's own four words for the boards of 193..256 bits, which the
    # Board keeps as cells (last: the hot fields above stay close together)
    bint wide4
    Wide4 wide4_bottom
    Wide4 wide4_cells
    Wide4 wide4_column[SOLVER_MAX_COLUMNS]

cdef struct Root:
    # the position of a parallel solve, on the word type of its path
    int path               # ROOT_WORD, ROOT_WIDE or ROOT_WIDE4
    int n
    bint weak
    int low                # its window (score_window)
    int high
    uint64_t cur
    uint64_t mask
    Wide wide_cur
    Wide wide_mask
    Wide4 cur4
    Wide4 mask4

cdef struct Helper:
    # one helper thread of a parallel solve: its own state, sharing the
    # solver's far table and book, and what it found
    SolveState s
    TransTable near        # its own near table (s.near points here during a solve)
    int score
    bint done

cdef class Solver:
    cdef SolveState s
    cdef int threads_
    cdef long long solo_nodes  # a parallel solve's nodes on one thread before the helpers start
    cdef Helper* helpers       # threads_ - 1 of them, NULL when the solver searches alone
    cdef Root root
    cdef bint stop_wanted      # Solver.stop was called, and resume not since
    cdef object geometry_      # (columns, rows, c, p) the table's entries belong to
    cdef bint force_generic
    cdef bint use_book
    cdef object book_          # the OpeningBook that s.book points into

    cdef int _prepare(self, Board board, long long max_nodes, double time_limit, double reserve) except -1
    cdef int _set_game(self, Board board) except -1
    cdef void _clear(self) noexcept
    cdef int _set_claimed_rows(self) except -1
    cdef int _choose_book(self, Board board) except -1
    cdef object _solve_position(self, Board board, bint weak, int low=*, int high=*)
    cdef int _solve_solo_first(self) except? -9999
    cdef int _solve_together(self) except? -9999
    cdef int _solve_root(self, SolveState* s) noexcept nogil
    cdef void _halt_team(self) noexcept nogil
    cdef object _root_at_once(self, Board board, bint weak)
    cdef int _root_move(self, Board board, int target) except -2
    cdef list _root_columns(self, int which)
