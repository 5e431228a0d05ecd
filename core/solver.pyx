# cython: boundscheck=False, wraparound=False
"""Exact solver: negamax with alpha-beta on the core's positions.

Scores
------
A score is the exact game value for the side to move, both sides playing
perfectly, the winner preferring the fastest win and the loser the slowest
loss. With ``max_moves = min(2p, columns * rows)`` the first player places at
most ``ceil(max_moves / 2)`` stones and the second at most
``floor(max_moves / 2)``. A win by the stone played after ``n`` stones are
down scores

    +(max_moves + 1 - n) // 2   for the side to move when it is the winner,
    -(max_moves + 1 - n) // 2   when the opponent is the winner,
    0                           for a draw (tokens run out or the board fills),

that is ``S + 1 - k`` when the winner places its k-th stone, S being the
winner's own maximum number of stones. This is the reference convention
``(W * H + 1 - n) / 2`` of the standard test files (``22 - k`` on 7x6) on
every board where p does not bind, odd ones included (7x7: ``26 - k`` for the
first player, ``25 - k`` for the second), and every win is worth at least 1.
Nobody wins before its c-th stone, so the side to move after n stones wins
at best with the stone at ply ``max(n, 2(c-1) + parity)``.

Weak mode answers only the sign (1 win, 0 draw, -1 loss): its bisection
stops once the sign is known (see WEAK_SPREAD).

Search
------
Positions on the core's bitboard path are searched on two words (the side
to move's stones and all stones): "cells that complete a run of c" are found
bit-parallel per direction, which gives, at every node, immediate wins, the
opponent's threats, forced replies (one threat: block it; two: lost), moves
that would let the opponent win at once (playing under its threat), and the
move order (moves making most threats first, a threat on a row of the
mover's zugzwang parity or right above a cell the opponent could play
next counting twice, one right above a winning cell of the opponent's
not at all, one the opponent must block at once five times where the
window asks for a win well before the end, centre-first on ties). The
value bounds above tighten the window before any move is tried (and once
the moves are ordered, where
none wins with the stone after next, a win with the third at the
soonest), and so does
the opponent's claimeven (Allis): where every column has an even number
of empty cells, the opponent may answer each move in the same column,
and the side to move, left the cells of one row parity, may have no line
to make (claimeven_bound; where an even number of columns have an odd
number, the opponent answers a move in one of them in another, leaving
the side to move their lowest cells too); its twin for the side to move, an odd threat
(wins_by_odd_threat: a threat in the claimed rows of a column the side
can keep to itself by answering every move in the column it came, which
the opponent must at last play under when its own cells hold no line),
raises the window's floor to a win; near the end, a side left with no
line to make at all is held to a draw (lineless). Far from the end (more than ETC_LEFT
moves left, less twice the window's distance from 0), a node first reads its children's table entries, already
fetched while its moves were sorted: one that bounds a child low enough
cuts the node off without a search (enhanced transposition cutoff), and
a move that leaves the opponent under claimeven with no line goes first
(a win if the opponent's claim leaves this side a line). A move the
opponent cannot answer (two winning cells to block, or every reply under
one) settles its node at once, without a visit to the lost child: that
took Test_L1_R3's 20-position sample from 37.5 M nodes to 31.6 M and the
CPU time of Fhourstones' 35333571 and 13333111 (exact and weak) down 5 %
(medians of six interleaved runs). At every node a
move whose child's entry proves it fails low is not searched, and the
move that last cut the node off (kept in its entry beside the bound)
goes first: the bisection's next probe and a transposition meet it again
(the 20-position sample of Test_L1_R3 without the book: 39.9 M nodes to
37.5 M; the other files and the empty board within 0.5 %). The large
table keys a position and its mirror image alike, and a symmetric
position searches one move of each mirrored pair: on the empty 7x5 board
that halves the tree (45.6 M nodes to 20.6 M), on the empty 7x6 board,
with the rest, the exact solve goes from 1.46 G nodes to 0.51 G (weak:
0.91 G to 0.43 G). With the weak bisection below they took Fhourstones'
35333571 from 34.5 M nodes to 22.9 M (weak: 43.1 M to 13.5 M), 13333111
from 107.5 M to 52.8 M (weak: 94.3 M to 41.8 M). The nodes they save are
mostly cheap ones: on 35333571 the exact solve runs 5.6 % more
instructions than before the last four (callgrind), the weak one 11.6 %
fewer. The score
itself is found by a sequence of null-window searches, bisecting the
possible range (biased towards 0, where most scores lie). Transposition
tables of one-word entries keep upper or lower bounds; bounds are true
whatever window produced them, so the tables (solver_table.pxd) are reused
across calls, weak or strong, as long as the game (columns, rows, c, p) stays
the same.

Measured on the standard 7x6 files, the time goes mostly to the table
probes (cache and TLB misses on a 64 MB table): hence huge-page alignment,
prefetching the children's slots while the moves are ordered, and two
tables. Positions at most NEAR_MOVES moves from the end of the game are most
of the nodes but each saves little; they live in a small table (2**18
entries, 2 MB) that stays in the cache, and the rest in the large one
(2**tt_log2 entries). Against one large table this searched 2-14 % more
nodes but took 16-33 % less time on Test_L2_R2, L1_R2 and L1_R3. A node
whose window lies far from 0 joins them when its search is as shallow
(table_ply). In a large table of more than 2**MIDDLE_LOG2 entries (64 MB),
the positions MIDDLE_MOVES moves before the near table's keep to its first
2**MIDDLE_LOG2 (front_view), which the cache holds in part: spread over
c4's 1 GB they were each a miss to memory, and the empty 7x6 board took
15.0 s exact on one thread where it takes 12.2 s with the default 64 MB
table; kept to the front, the 1 GB table is as fast as the default, with
1 % fewer nodes (5x9: the same, 10 % less time than spread).

In the standard game (7x6, c = 4, p = 21) the opening book (``book``)
gives the exact score of every position with 12 stones: a search from an
earlier position stops there.

Boards of 65 to 192 bits (9x8, 10x9, 14x12...) take the same search on
multi-word bitboards (widebits.pxd, the Board's own wide path): one negamax
and one solve over the word type (words.pxd, a fused type: Cython compiles
one copy per word), the table keyed on a 64-bit fold of the position's key.
At about 4 million nodes per CPU second on 9x8 c5, half the 64-bit rate, it
proves positions of lost games against MCTS with 27 to 34 cells left in
0.02-0.4 s. Boards of 193 to 256 bits (15x13, 16x14...), which the Board
keeps as cells, take it on four words the solver fills from the cells at
the root (Wide4): on 15x13 positions decided within two stones it needs a
few nodes where the cell array ran out of 2 million. Larger boards use a
plain negamax over the Board's C API (immediate wins, bounds, centre-first
order, a table keyed on the Zobrist key): exact but slower.

A budget (``Limits``: nodes, seconds) aborts a call, which then returns
None; nothing computed in an aborted subtree reaches the table.

``Solver(threads=N)`` solves on N threads sharing the large table (each
helper keeps its own near table: see _solve_together). Each thread
searches the whole tree; a node more than BUSY_LEFT moves from the end
is marked while a thread is in it, and a thread reaching a marked child
(but its first move) searches it last, by when the table may answer it
(ABDADA, simplified to a mark per node). The marks are shared writes:
kept to nodes more than 20 moves from the end, not 12, the empty 7x6
board on two threads took 4.75 s weak and 7.0 s exact, not 5.0-5.2 and
6.5-8.3 s, with as many nodes (8x5 exact 11.6 s to 9.1 s in a plain
build; marked from 24 moves, exact took 16 % more nodes). It searches
5 % (weak) and 8 % (exact) more nodes than on one thread, each thread
running 6-7 % fewer nodes per second: 0.56-0.58 of one thread's wall
time. Rotating a helper's moves near the root instead (lazy SMP) cost
70 % more nodes on harder positions.
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

from .bitboard cimport Geometry
from .board cimport Board
from .clock cimport deadline_passed, deadline_start, monotonic
from .book cimport BOOK_MISS, OpeningBook, book_covers, book_score
from .solver_table cimport (
    allocate_table, clear_table, entry_lower, entry_move, entry_upper, front_view, mix, set_entry_layout, table_hash,
    tt_entry, tt_prefetch, tt_put_lower, tt_put_upper,
)
from .widebits cimport (
    WIDE4_BITS, Wide, Wide4, wide4_zero, wide_add, wide_and, wide_or, wide_set, wide_xor, wide_zero,
)
from .words cimport (
    CLINEA_COMPILER, CLINEA_PROFILE_GUIDED, CLINEA_SEARCH_COPIES, Bits, always_inlined_int, b_and, b_any, b_lowest,
    b_lowest_index, b_not, b_or, b_popcount, b_several, b_shl, b_shr, b_xor, b_zero, clinea_popcnt_clone, has_run,
    popcnt_cloned_int, winning_cells,
)

import threading

from clinea.core.book import standard_book
from clinea.core.timeman import Limits, SearchResult

cdef extern from *:
    int __builtin_ctzll(unsigned long long bits) nogil

DEFAULT_TT_LOG2 = 23
"""Default table: 2**23 entries of 8 bytes (64 MB), allocated on first use."""

MIN_TT_LOG2, MAX_TT_LOG2 = 8, 30
"""Table sizes allowed, 2**8 to 2**30 entries (8 GB): the command lines' --tt-log2 range."""

MAX_THREADS = 64
"""Threads sharing one table at most: the command lines' --threads range."""

DEFAULT_SOLO_NODES = 100_000
"""Nodes a parallel solve searches on one thread before the others join:
about 8 ms, where starting and joining a helper thread costs 0.15 ms, more
than an easy position takes (Test_L3_R1: 4 us a position on one thread,
157 us on two)."""

cdef enum:
    # A weak solve probes first as an exact one does, far from 0, where a
    # probe is cheap: a quick win or loss settles the sign at once, where
    # "score > 0" let the search wander into long wins (Test_L1_R1: 3.5x the
    # exact mode's nodes). Then it asks "score >= 0", then "score > 0".
    WEAK_SPREAD = 2
    NEAR_ZERO_PLIES = 6  # a solve this few stones into the game probes from 0 outwards (score_window)
    UNBOUNDED = 1 << 20  # a solve's window when none is given: beyond every score
    CLAIMED_FIRST = 1000  # sorted_moves: a move leaving the opponent no line under claimeven goes first
    UNANSWERABLE_FIRST = 2000  # and before it a move the opponent cannot answer
    WORD_MAX_COLUMNS = 32  # a 64-bit word holds at most 32 columns (a column takes rows + 1 >= 2 bits)
    WHOLE_WINDOW_LEFT = 18  # solve: one window over every score this near the end
    SIGN_WINDOW_LEFT = 24   # and weak, one window (-1, 1)
    ETC_LEFT = 8       # child_cutoff at nodes with more moves left than this
    NEAR_LOG2 = 18    # 2 MB: stays in a core's L2/L3 cache
    NEAR_MOVES = 16   # positions this close to the end of the game use it
    MIDDLE_LOG2 = 23  # the far table's front, 64 MB, where the positions
    MIDDLE_MOVES = 12  # this many moves before the near table's live
    SHALLOW_DISTANCE = 3  # and those searched with a window this far from 0 or more, this close to its end
    FORCING_SHARE = 7     # sorted_moves: at a window a 7th of the game's moves from 0 or more,
    FORCING_WEIGHT = 4    # a threat the opponent must block next counts this many times more
    LINELESS_LEFT = 10  # lineless at nodes with at most this many moves left
    BUSY_LOG2 = 16      # the parallel solve's marks of the nodes being searched: 512 KB
    BUSY_LEFT = 20      # marked at nodes with more moves left than this
    ROOT_WORD = 0       # Root.path: the 64-bit bitboard, Wide, Wide4
    ROOT_WIDE = 1
    ROOT_WIDE4 = 2

# ----------------------------------------------------------------- helpers

cdef inline int score_at(const SolveState* s, int ply) noexcept nogil:
    """Score of a win by the stone played after `ply` stones, for its player."""
    return (s.g.max_moves + 1 - ply) // 2


cdef inline int win_now(const SolveState* s, int n) noexcept nogil:
    """Score when the side to move wins with its next stone."""
    return score_at(s, n)


cdef inline int lose_now(const SolveState* s, int n) noexcept nogil:
    """Score when the opponent wins with its next stone."""
    return -score_at(s, n + 1)


cdef inline int upper_bound(const SolveState* s, int n) noexcept nogil:
    """Best score of the side to move when it cannot win with its next stone."""
    return win_with_stone(s, n, 2)


cdef inline int win_with_stone(const SolveState* s, int n, int soonest) noexcept nogil:
    """Best score of the side to move when it cannot win before its
    `soonest`-th stone from now: a win needs its (placed + soonest)-th stone
    at the earliest and its c-th at least, and that stone must be within
    the token limit."""
    cdef int placed = n // 2
    cdef int k = s.g.c if s.g.c > placed + soonest else placed + soonest
    cdef int ply = n + 2 * (k - placed - 1)
    if ply < s.g.max_moves:
        return score_at(s, ply)
    return 0


cdef inline int lower_bound(const SolveState* s, int n, int first_chance) noexcept nogil:
    """Worst score of the side to move when the opponent's earliest possible
    win is its `first_chance`-th next stone (1, or 2 once no move lets it win at once)."""
    cdef int placed = (n + 1) // 2
    cdef int k = s.g.c if s.g.c > placed + first_chance else placed + first_chance
    cdef int ply = n + 1 + 2 * (k - placed - 1)
    if ply < s.g.max_moves:
        return -score_at(s, ply)
    return 0


cdef enum:
    OPEN = -1000   # narrow_window: the window is still open, search on


cdef inline int raise_alpha(int v, int* alpha, int* beta) noexcept nogil:
    """alpha raised to at least v; the value when that closes the window, else OPEN."""
    if alpha[0] < v:
        alpha[0] = v
        if alpha[0] >= beta[0]:
            return alpha[0]
    return OPEN


cdef inline int lower_beta(int v, int* alpha, int* beta) noexcept nogil:
    """beta lowered to at most v; the value when that closes the window, else OPEN."""
    if beta[0] > v:
        beta[0] = v
        if alpha[0] >= beta[0]:
            return beta[0]
    return OPEN


cdef inline int within_bounds(int lo, int hi, int* alpha, int* beta) noexcept nogil:
    """[alpha, beta] tightened to the node's bounds lo..hi; the value when
    that closes the window, else OPEN."""
    cdef int v = raise_alpha(lo, alpha, beta)
    return v if v != OPEN else lower_beta(hi, alpha, beta)


cdef inline int narrow_window(SolveState* s, uint64_t h, int n, int lo, int hi,
                              int* alpha, int* beta, int* move) noexcept nogil:
    """Tightens [alpha, beta] with the node's bounds lo..hi and its table
    entry; returns the node's value when that closes the window, else OPEN.
    `move` receives the entry's table move (0: none)."""
    cdef int entry, v
    v = raise_alpha(lo, alpha, beta)
    if v != OPEN:
        return v
    entry = tt_entry(&s.tt, h, n)
    move[0] = entry_move(&s.tt, entry)
    v = raise_alpha(entry_lower(&s.tt, entry), alpha, beta)
    if v == OPEN:
        v = lower_beta(entry_upper(&s.tt, entry), alpha, beta)
    if v != OPEN:
        return v
    return lower_beta(hi, alpha, beta)


cdef struct Bisection:
    int lo      # the score is known to be in [lo, hi]
    int hi
    int med     # the null window probed: is the score above med?
    bint weak   # only its sign is asked for
    int low     # it is enough to know the score <= low or >= high
    int high
    int probes  # made so far
    bint up     # the first probe above 0 (see score_window)
    bint near   # the score is likely near 0: probe from 0 outwards (score_window)


cdef inline Bisection score_window(int lo, int hi, bint weak, bint up, int low, int high, bint near) noexcept nogil:
    """The bisection of a solve over [lo, hi], asking for the sign alone
    when weak, and no more than whether the score is <= low, >= high or
    between (alpha-beta's window, so that a search above the solve, as
    clinea solved-tables' over its split positions, proves only what it
    needs). `up`: the first probe asks whether the side to move wins
    (at hi / 2) rather than whether it loses (at lo / 2): the caller
    guesses which is likelier. Where a game ends soon, its value is far
    from 0 and one of those two probes settles the sign: the other, made
    first, was 40 % of the nodes of Test_L1_R1, whose positions the side
    to move wins in 72 % (95 % of those where its threats are as many as
    the opponent's). There, `up` unless the opponent has more threats
    took 10 % fewer nodes and 8 % less time; the other files and the
    empty board searched as many nodes as before (within 0.04 %).

    `near`: the game has just begun, its perfect game is long and its
    score near 0, so the probes go from 0 outwards (MTD(f) from a guess
    of 0: 0 or -1 as `up` says, then one step at a time), not by
    bisection. The empty 7x6 board took 322.4 M nodes exact, 251.1 M so
    (two probes, > 0 and > 1), and 202.7 M against 177.8 M weak; Test_L1_R3
    7 % fewer. Where the game ends soon, the wide probes are what pays:
    from 0 outwards on positions up to 11 stones in took Test_L1_R1 13
    times the nodes (NEAR_ZERO_PLIES)."""
    cdef Bisection b
    b.lo = lo
    b.hi = hi
    b.med = 0
    b.weak = weak
    b.low = min(max(low, -1), 1) if weak else low  # on the sign's scale
    b.high = min(max(high, -1), 1) if weak else high
    b.probes = 0
    b.up = up
    b.near = near
    return b


cdef inline bint next_probe(Bisection* b) noexcept nogil:
    """Whether the score (weak: its sign) is still open; if so `b.med` is
    the next probe's."""
    cdef int lo = max(b.lo, b.low), hi = min(b.hi, b.high)
    if lo >= hi:
        return False
    if b.near:
        b.med = lo if lo >= 0 else hi - 1 if hi <= 0 else (0 if b.up else -1)
    elif b.weak and b.probes < WEAK_SPREAD:
        b.med = probe_score(b.lo, b.hi)  # wide: a probe far from 0 may settle the sign cheaply
        if b.up and b.probes == 0 and b.med < 0 < b.hi:
            b.med = b.hi / 2
    elif b.weak:
        b.med = lo  # a loss first: one probe settles it
    else:
        b.med = probe_score(lo, hi)
        if b.up and b.probes == 0 and b.med < 0 < hi:
            b.med = hi / 2
    b.probes += 1
    return True


cdef inline void narrow_to(Bisection* b, int r) noexcept nogil:
    """What the probe at `b.med` answered."""
    if r <= b.med:
        b.hi = r
    else:
        b.lo = r


cdef inline int bisected_score(const Bisection* b, bint weak) noexcept nogil:
    """The score found, read as alpha-beta's (fail-soft): at most it when
    <= low, at least it when >= high, else exact."""
    cdef int lo = (b.lo > 0) - (b.lo < 0) if weak else b.lo
    cdef int hi = (b.hi > 0) - (b.hi < 0) if weak else b.hi
    return hi if hi <= b.low else lo


cdef inline int probe_score(int lo, int hi) noexcept nogil:
    """The next null window of the bisection on [lo, hi], biased towards 0,
    where most scores lie (short wins and draws are found first)."""
    cdef int med = lo + (hi - lo) / 2
    if med <= 0 and lo / 2 < med:
        med = lo / 2
    elif med >= 0 and hi / 2 > med:
        med = hi / 2
    return med


cdef inline bint over_budget(SolveState* s) noexcept nogil:
    s.nodes += 1
    if s.stop_requested:
        s.aborted = True
    elif s.max_nodes and s.nodes > s.max_nodes:
        s.aborted = True
    elif deadline_passed(&s.deadline):
        s.aborted = True
    return s.aborted


# ------------------------------------------------ the search over the word

cdef inline Bits column_of(const SolveState* s, Bits like, int col) noexcept nogil:
    """The cells of column `col`, of the word type of `like`."""
    if Bits is uint64_t:
        return s.column_mask[col]
    elif Bits is Wide:
        return s.wide_column[col]
    else:
        return s.wide4_column[col]


cdef inline Bits playable(const SolveState* s, Bits mask) noexcept nogil:
    """The lowest empty cell of every column that has one: adding the
    bottom row carries into it."""
    if Bits is uint64_t:
        return (mask + s.g.bottom) & s.g.cells
    elif Bits is Wide:
        return wide_and(wide_add(mask, s.g.wide_bottom), s.g.wide_cells)
    else:
        return wide_and(wide_add(mask, s.wide4_bottom), s.wide4_cells)


cdef inline Bits winning(const SolveState* s, Bits stones, Bits mask) noexcept nogil:
    """Empty cells (playable now or not) where `stones` would make c in a row."""
    if Bits is uint64_t:
        return winning_cells(stones, s.g.cells ^ mask, &s.g)
    elif Bits is Wide:
        return winning_cells(stones, wide_xor(s.g.wide_cells, mask), &s.g)
    else:
        return winning_cells(stones, wide_xor(s.wide4_cells, mask), &s.g)


cdef inline uint64_t position_key(Bits cur, Bits mask) noexcept nogil:
    """cur + mask is unique per position: adding the mask sets one marker
    bit above each column's stones. Longer than a word it is folded to 64
    bits, a hash then, checked on as many bits as the generic path's
    Zobrist keys."""
    cdef Bits k
    cdef uint64_t h = 0
    cdef int i
    if Bits is uint64_t:
        return cur + mask
    else:
        k = wide_add(cur, mask)
        for i in range(sizeof(k.w) // sizeof(uint64_t) - 1, 0, -1):
            h = mix(h ^ k.w[i])
        return h ^ k.w[0]


cdef inline uint64_t mirrored(const SolveState* s, uint64_t cells) noexcept nogil:
    """`cells` (stones, or a key: no carry from one column into the next)
    with the columns in reverse order."""
    cdef uint64_t image = 0
    cdef uint64_t column = ((<uint64_t>1) << s.g.stride) - 1
    cdef int col
    for col in range(s.g.columns):
        image |= ((cells >> (col * s.g.stride)) & column) << ((s.g.columns - 1 - col) * s.g.stride)
    return image


cdef struct Mirror:
    # the mirror images of the side to move's stones and of all stones, on
    # the 64-bit path, while the position is in the large table (unused
    # elsewhere): each child's follow from them with one shift, where a
    # column loop per node would cost more than the table saves
    uint64_t cur
    uint64_t mask


cdef inline Mirror mirror_of(const SolveState* s, Bits cur, Bits mask) noexcept nogil:
    """The Mirror of a search's root."""
    cdef Mirror image
    image.cur = 0
    image.mask = 0
    if Bits is uint64_t:
        image.cur = mirrored(s, cur)
        image.mask = mirrored(s, mask)
    return image


cdef inline Mirror mirror_after(const SolveState* s, Mirror image, Bits move, int col, int n) noexcept nogil:
    """The Mirror of the child after `move` (one stone, in column `col`),
    `n` stones being down before it: the opponent's stones become the side
    to move's. Past the large table, the image is left as it is, unused."""
    cdef int shift
    cdef Mirror child = image
    if Bits is uint64_t:
        if n + 1 < s.tt.near_from:
            shift = (s.g.columns - 1 - 2 * col) * s.g.stride
            child.cur = image.mask - image.cur
            child.mask = image.mask + (move << shift if shift >= 0 else move >> -shift)
    return child


cdef inline uint64_t table_key(const SolveState* s, uint64_t key, Mirror image, int n) noexcept nogil:
    """The key in the tables of the position of key `key` after `n`
    stones: in the large table on the 64-bit path, the lesser of its key
    and its mirror image's, which score alike. Near the end, where few
    positions meet their mirror image, the position's own key."""
    cdef uint64_t other
    if n < s.tt.near_from and s.g.bitboard:
        other = image.cur + image.mask
        return other if other < key else key
    return key


cdef enum:
    REFUTED = 0
    TRYING = 1


cdef inline Bits* root_moves(SolveState* s, Bits like) noexcept nogil:
    """The root's [REFUTED, TRYING] moves, for the word type of `like`."""
    if Bits is uint64_t:
        return s.root
    elif Bits is Wide:
        return s.wide_root
    else:
        return s.wide4_root


cdef inline Bits safe_replies(Bits possible, Bits threats) noexcept nogil:
    """The cells of `possible` (the playable ones) that the side to move
    may play without losing at once to the opponent's winning cells
    `threats`: the one block when there is a block to make, none when
    there are two, and never a cell under a threat. None: the side to move
    is lost, whatever it plays."""
    cdef Bits forced = b_and(possible, threats)
    if b_any(forced):
        if b_several(forced):
            return b_zero(possible)
        possible = forced
    return b_and(possible, b_not(b_shr(threats, 1)))


cdef inline always_inlined_int sorted_moves(SolveState* s, Bits cur, Bits mask, Bits nonlosing, Bits opp_win, int n,
                                            int table_n, Mirror image, int* moves, uint64_t* keys, int* claimed,
                                            bint* unanswerable, uint64_t* threats_of, int forcing,
                                            bint odd_claims) noexcept nogil:
    """The columns of the cells of `nonlosing` into `moves`, the moves
    making most threats first, centre-first on ties (a stable insertion);
    a threat on a row of the mover's parity (the rows claimeven would
    leave it: the first player's odd rows on 7x6, Allis' good threats in
    a fight for zugzwang) counts twice, and so does one right above a
    cell the opponent could play next: it may not play there, and that
    column is closed to it until this side fills the cell itself (20 %
    fewer nodes on a sample of standard files, Fhourstones' positions and
    small empty boards, 35333571 weak 10.99 M to 8.60 M; with the two
    changes beside it, every fifth position of the oracle's 9x8 c5 and
    14x12 c6 sets took 49-76 % fewer nodes, weak and exact). A threat right
    above a winning cell of the opponent's (`opp_win`) counts for nothing:
    whoever fills the cell below it, the opponent wins there or blocks it
    at once (all 22 node counts of that sample fell, 1-8 %, 5 % in all).
    A threat the opponent must block with its next stone counts `forcing`
    times more: FORCING_WEIGHT where the window lies a FORCING_SHARE-th
    of the game's moves from 0 or more (6 on 7x6), whose search asks for
    a win well before the end, which a forcing move reaches soonest
    (Test_L1_R1, whose positions end within 14 moves, reset per position:
    1,469 nodes a position to 847, L2_R1 190 to 184; the other files and
    Fhourstones' positions within 0.5 %, the empty board unchanged). Nearer 0 it
    cost more than it saved (weight 1 at every window: Test_L1_R3's sample
    18 % more nodes), and so it did at 6 from 0 on the wide boards, where
    that is early in a long game (every fifth position of the oracle's
    14x12 c6 set, weak: 6.5 times the nodes); at their share, their nodes
    are unchanged.
    Returns how many, and raises
    `claimed` to the score a move guarantees by leaving the opponent under
    this side's claimeven (claimeven_ceiling, negated; with columns of odd
    empties only where `odd_claims`: beta <= 1, where the claim can cut
    this node off), such moves first; before them a move the opponent
    cannot answer (two of this side's winning cells to block, or every
    reply under one), which guarantees
    the best score there is, a win with the next stone but one, without
    a visit to the child, which would only find it lost; `unanswerable`
    says whether there is one (without one, this side's third stone from
    now is the soonest that can win).
    Each child's mixed key goes to keys[column] and its table slot is fetched on
    the way: its probe is a cache miss. On the 64-bit path the cells where
    each move leaves this side a win go to threats_of[column]: the child's
    opponent threats, which it need not find again."""
    cdef int scores[SOLVER_MAX_COLUMNS]
    cdef Bits m, after, threats, replies, odd_replies, useful, other = b_xor(cur, mask)
    cdef Bits rows = claimed_rows(s, cur)
    cdef Bits mine = rows if (s.g.columns * s.g.rows - n) % 2 == 0 else b_not(rows)
    cdef int i, j, col, score, ceiling, count = 0
    for i in range(s.g.columns):
        col = s.order[i]
        m = b_and(nonlosing, column_of(s, mask, col))
        if b_any(m):
            after = b_or(mask, m)
            keys[col] = table_hash(&s.tt, table_key(s, position_key(other, after), mirror_after(s, image, m, col, n),
                                                    n + 1))
            tt_prefetch(&s.tt, keys[col], table_n + 1)
            threats = winning(s, b_or(cur, m), after)
            if Bits is uint64_t:
                threats_of[col] = threats
            useful = b_and(threats, b_not(b_shl(opp_win, 1)))
            replies = playable(s, after)
            odd_replies = b_and(replies, b_not(rows))  # the lowest cells of the columns of odd empties
            # a threat right above a reply closes that column to the opponent
            score = (b_popcount(useful) + b_popcount(b_and(useful, mine)) + b_popcount(b_and(useful, b_shl(replies, 1)))
                     + forcing * b_popcount(b_and(useful, replies)))
            if not b_any(safe_replies(replies, threats)):
                # the opponent cannot stop this side's next stone: the best score there is
                if claimed[0] < win_now(s, n + 2):
                    claimed[0] = win_now(s, n + 2)
                unanswerable[0] = True
                score += UNANSWERABLE_FIRST
            elif not b_any(odd_replies) or (odd_claims and not b_popcount(odd_replies) & 1):
                ceiling = claimeven_ceiling(s, other, after, odd_replies)
                if ceiling != OPEN:
                    if claimed[0] < -ceiling:
                        claimed[0] = -ceiling
                    score += CLAIMED_FIRST
            j = count
            while j > 0 and scores[j - 1] < score:
                moves[j] = moves[j - 1]
                scores[j] = scores[j - 1]
                j -= 1
            moves[j] = col
            scores[j] = score
            count += 1
    return count


cdef inline uint64_t* busy_slot(SolveState* s, uint64_t h) noexcept nogil:
    return &s.busy[h & s.busy_mask]


cdef inline void busy_leave(SolveState* s, uint64_t h) noexcept nogil:
    cdef uint64_t* slot = busy_slot(s, h)
    if slot[0] == h:
        slot[0] = 0


cdef inline Bits claimed_rows(const SolveState* s, Bits like) noexcept nogil:
    """The rows of the same parity as the board's height, of the word type of `like`."""
    if Bits is uint64_t:
        return s.claimed_rows
    elif Bits is Wide:
        return s.wide_claimed_rows
    else:
        return s.wide4_claimed_rows


cdef inline Bits board_cells(const SolveState* s, Bits like) noexcept nogil:
    """Every cell of the board, of the word type of `like`."""
    if Bits is uint64_t:
        return s.g.cells
    elif Bits is Wide:
        return s.g.wide_cells
    else:
        return s.wide4_cells


cdef inline int claimeven_ceiling(const SolveState* s, Bits cur, Bits mask, Bits odd_tops) noexcept nogil:
    """The opponent's claimeven (Allis), where an even number of columns
    have an odd number of empty cells (their lowest empty cells, `odd_tops`,
    out of the claimed rows; none in Allis' rule): the opponent answers a
    move in such a column in another one, and every other move in the same
    column, which leaves the side to move the empty cells of the claimed
    rows and `odd_tops`, and nothing else. If those and its stones hold no
    c in a row it cannot win: at most 0; if moreover the board fills and
    the opponent's stones and the other empty cells hold one, it loses: at
    most -1. OPEN when it may still win. With odd_tops (about as c4 bounds
    by its "evens strategy"), the empty 7x6 board took 41 % fewer nodes
    weak (177.8 M to 104.9 M), 37 % exact (251.1 M to 158.9 M). The
    callers pass odd_tops only where a 0 or -1 can cut the node off
    (alpha >= -1 here, beta <= 1 for a child's claim): asked at every
    window, it cost Test_L1_R1 (quick wins sought) 10 % more time for 2 %
    fewer nodes. So asked, it takes nodes off every standard file and
    Fhourstones' position (L1_R1 848 to 817, L1_R2 519 K to 478 K,
    13333111 weak 21.2 M to 14.5 M)."""
    cdef Bits rows = claimed_rows(s, cur)
    cdef Bits empty = b_xor(board_cells(s, cur), mask)
    if has_run(b_or(b_or(cur, b_and(empty, rows)), odd_tops), &s.g):
        return OPEN
    if s.fills and has_run(b_or(b_xor(cur, mask), b_and(empty, b_not(b_or(rows, odd_tops)))), &s.g):
        return -1
    return 0


cdef inline int claimeven_bound(const SolveState* s, Bits cur, Bits mask, Bits tops, int n, int alpha) noexcept nogil:
    """upper_bound, tightened by the opponent's claimeven (claimeven_ceiling)
    where every column's lowest empty cell (`tops`) lies in a claimed row,
    or, where that can cut the node off (alpha >= -1), an even number of
    them out of it: on 7x6, at every even ply (the first player to move)."""
    cdef int hi = upper_bound(s, n)
    cdef int ceiling
    cdef Bits odd_tops = b_and(tops, b_not(claimed_rows(s, cur)))
    if hi <= -1 or (b_any(odd_tops) and (alpha < -1 or b_popcount(odd_tops) & 1)):
        return hi
    ceiling = claimeven_ceiling(s, cur, mask, odd_tops)
    return hi if ceiling == OPEN or ceiling > hi else ceiling


cdef inline bint wins_by_odd_threat(const SolveState* s, Bits cur, Bits mask, Bits tops,
                                    const Bits* own_threats) noexcept nogil:
    """Whether the side to move wins by a threat in claimed rows (Allis'
    odd threat of the player in control of the zugzwang), on a board that
    fills: where its move leaves every column but the threat's, t, holding
    an even number of empty cells (a move in t when every column does, in
    the one other odd column when two are odd), it answers every move in
    the column it came. The opponent then takes the claimed rows of every
    column but t and the other rows of t below the threat; this side the
    claimed rows of t, the threat among them. If the opponent's stones and
    its cells hold no c in a row, it cannot win, and as the board fills it
    must at last play under the threat. `tops`: the lowest empty cell of
    each column; `own_threats` as negamax's. On a sample of the standard
    files, Fhourstones' positions and small empty boards: 17 % fewer
    nodes (35333571 weak 8.60 M to 7.00 M) and 14 % less CPU time; the
    rule with the opponent's cells in t left out fails 22 tests of
    tests/test_solver.py."""
    cdef Bits rows = claimed_rows(s, cur)
    cdef Bits odd_tops = b_and(tops, b_not(rows))
    cdef Bits threats, empty, column, below, theirs, other
    cdef int odd_columns, col
    if not s.fills:
        return False
    odd_columns = b_popcount(odd_tops)
    if odd_columns != 0 and odd_columns != 2:
        return False
    threats = b_and(winning(s, cur, mask) if own_threats == NULL else own_threats[0], rows)
    if not b_any(threats):
        return False
    empty = b_xor(board_cells(s, cur), mask)
    other = b_xor(cur, mask)
    for col in range(s.g.columns):
        column = column_of(s, cur, col)
        if b_any(b_and(threats, column)) and (odd_columns == 0 or b_any(b_and(odd_tops, column))):
            # the cells of t above its lowest threat stay empty until this side wins
            below = b_lowest(b_and(threats, column))
            if Bits is uint64_t:
                below |= below - 1
            else:
                for _ in range(s.g.rows):
                    below = b_or(below, b_shr(below, 1))
            theirs = b_or(b_and(b_and(empty, rows), b_not(column)),
                          b_and(b_and(empty, b_not(rows)), b_and(column, below)))
            if not has_run(b_or(other, theirs), &s.g):
                return True
    return False


cdef inline int lineless(const SolveState* s, Bits cur, Bits mask, int n, int alpha, int beta) noexcept nogil:
    """0 where that closes the window [alpha, beta] because the side to move
    (alpha >= 0), or its opponent (beta <= 0), can no longer make c in a row
    even with every empty cell: a draw at best, or at worst. Else OPEN. Only
    near the end (LINELESS_LEFT): before, nearly every line is still open,
    and the test cost more than the nodes it saved (35333571 exact)."""
    cdef Bits empty
    if n < s.g.max_moves - LINELESS_LEFT or (alpha < 0 < beta):
        return OPEN
    empty = b_xor(board_cells(s, cur), mask)
    if not has_run(b_or(cur if alpha >= 0 else b_xor(cur, mask), empty), &s.g):
        return 0
    return OPEN


cdef inline int window_distance(int alpha, int beta) noexcept nogil:
    """How far the window [alpha, beta] lies from 0: a window at +-k asks
    whether the game is decided some 2k moves before its end, a search that
    much shallower. child_cutoff is left to nodes with more than ETC_LEFT
    moves left before that: its reads of every child's entry before the
    first move cost more than they saved on shallow searches (Test_L1_R1:
    17 % less time, 9 % more nodes; Test_L1_R2, L1_R3, L2_R2 and the empty
    board: within 2 % of the time, 1-8 % more nodes)."""
    if alpha > 0:
        return alpha
    if beta < 0:
        return -beta
    return 0


cdef inline int table_ply(int n, int alpha, int beta) noexcept nogil:
    """The ply by which a node searched with the window [alpha, beta] after
    `n` stones chooses its table (table_for): n, or, for a window
    SHALLOW_DISTANCE or more from 0, n plus twice that distance, the moves
    its search ends before the game does. A shallow search then keeps its
    entries in the near table, in the cache, where the far one's were each
    a miss to memory: Test_L1_R1, whose positions are won or lost within
    14 moves, took 31 % less time, 2**17 entries to 2**18 included; the
    other files and the empty board within the noise (nodes within 2 %)."""
    cdef int distance = window_distance(alpha, beta)
    return n + 2 * distance if distance >= SHALLOW_DISTANCE else n


cdef inline int child_cutoff(SolveState* s, const uint64_t* keys, const int* moves, int count, int n,
                             int beta) noexcept nogil:
    """Enhanced transposition cutoff: a child whose table entry bounds its
    score to at most u proves this node worth at least -u; the first such
    -u at or above beta, else OPEN. The slots were fetched while the moves
    were sorted."""
    cdef int i, v
    for i in range(count):
        v = -entry_upper(&s.tt, tt_entry(&s.tt, keys[moves[i]], n + 1))
        if v >= beta:
            return v
    return OPEN


cdef inline int move_ceiling(SolveState* s, uint64_t child_key, int n) noexcept nogil:
    """An upper bound on the score of the move to the child of key
    `child_key` (after `n` stones): its table entry's lower bound, negated,
    or `code_offset` (above every score) when it has none."""
    return -entry_lower(&s.tt, tt_entry(&s.tt, child_key, n + 1))


cdef inline void move_first(int* moves, int count, int col) noexcept nogil:
    """`col` to the front of `moves`, the others in their order; nothing when it is not there."""
    cdef int i
    for i in range(count):
        if moves[i] == col:
            while i > 0:
                moves[i] = moves[i - 1]
                i -= 1
            moves[0] = col
            return


cdef popcnt_cloned_int negamax(SolveState* s, Bits cur, Bits mask, int n, int alpha, int beta, Bits* chosen,
                               Mirror image, const uint64_t* known_threats,
                               const Bits* own_threats=NULL) noexcept nogil:
    """Negamax on bitboards of either word type. Precondition: the game is
    not over and the side to move (stones `cur`) cannot win with its next
    stone; `image` is the position's Mirror. At the root (`chosen` not NULL), `chosen` receives the move (a
    one-bit set) that raised alpha or cut off, and root_moves[REFUTED] the moves
    searched to a score at most alpha, or losing at once, so neither the
    book nor the table may answer there without a move. On the 64-bit
    path `known_threats`, when not NULL, holds the opponent's winning cells,
    which the parent found ordering its moves; on every path `own_threats`,
    when not NULL, this side's (the parent's opponent's, less the cell
    its move filled)."""
    cdef Bits possible, opp_win, forced, nonlosing, m, other, child_threats
    cdef uint64_t key, own
    cdef int v, i, count, best, lo, hi, claimed, table_move
    cdef int moves[2 * SOLVER_MAX_COLUMNS]  # room for the moves deferred to the end
    cdef uint64_t keys[SOLVER_MAX_COLUMNS]
    cdef uint64_t threats_of[WORD_MAX_COLUMNS]  # on the 64-bit path, each child's known_threats
    cdef int col, total, forcing
    cdef bint sharing, mirrored_key, unanswerable
    cdef int table_n = table_ply(n, alpha, beta)
    if over_budget(s):
        return 0
    if n + 1 >= s.g.max_moves:
        return 0  # its last stone cannot win, and then the game is over
    if Bits is uint64_t:
        if n == s.book.ply and chosen == NULL:
            v = book_score(&s.book, cur, mask)
            if v != BOOK_MISS:
                return v
    possible = playable(s, mask)
    other = b_xor(cur, mask)
    if Bits is uint64_t:
        opp_win = known_threats[0] if known_threats != NULL else winning(s, other, mask)
    else:
        opp_win = winning(s, other, mask)
    nonlosing = safe_replies(possible, opp_win)
    if not b_any(nonlosing):
        if chosen != NULL:
            # lost whatever it plays: a block, when there is one to make
            forced = b_and(possible, opp_win)
            chosen[0] = b_lowest(forced if b_any(forced) else possible)
            root_moves(s, cur)[REFUTED] = possible
        return lose_now(s, n)
    if chosen != NULL:
        root_moves(s, cur)[REFUTED] = b_and(possible, b_not(nonlosing))
        chosen[0] = b_lowest(nonlosing)
    if n + 2 >= s.g.max_moves:
        return 0  # the opponent's last stone cannot win either
    hi = claimeven_bound(s, cur, mask, possible, n, alpha)
    lo = 1 if alpha < 1 and wins_by_odd_threat(s, cur, mask, possible, own_threats) else lower_bound(s, n, 2)
    if not b_several(nonlosing):
        # One move: the child's own entry holds what this one would (negated),
        # so skip this node's table miss and go straight to the child.
        v = within_bounds(lo, hi, &alpha, &beta)
        if v == OPEN:
            v = lineless(s, cur, mask, n, alpha, beta)
        if v != OPEN:
            return v
        if Bits is uint64_t:
            if n + 1 < s.tt.near_from:
                image = mirror_after(s, image, nonlosing, __builtin_ctzll(nonlosing) // s.g.stride, n)
        key = table_hash(&s.tt, table_key(s, position_key(other, b_or(mask, nonlosing)), image, n + 1))
        tt_prefetch(&s.tt, key, table_n + 1)
        child_threats = b_and(opp_win, b_not(nonlosing))
        return -negamax(s, other, b_or(mask, nonlosing), n + 1, -beta, -alpha, <Bits*>NULL, image, NULL,
                        &child_threats)
    own = position_key(cur, mask)
    if Bits is uint64_t:
        if chosen == NULL and n < s.tt.near_from and image.cur == cur and image.mask == mask:
            nonlosing &= s.left_half  # a symmetric position: a move and its mirror image score alike
    key = table_key(s, own, image, n)
    mirrored_key = key != own
    key = table_hash(&s.tt, key)
    table_move = 0
    if chosen == NULL:
        v = narrow_window(s, key, table_n, lo, hi, &alpha, &beta, &table_move)
        if v == OPEN:
            v = lineless(s, cur, mask, n, alpha, beta)
        if v != OPEN:
            return v
    else:
        table_move = entry_move(&s.tt, tt_entry(&s.tt, key, table_n))
    claimed = OPEN
    unanswerable = False
    forcing = FORCING_WEIGHT if window_distance(alpha, beta) * FORCING_SHARE >= s.g.max_moves else 0
    count = sorted_moves(s, cur, mask, nonlosing, opp_win, n, table_n, image, moves, keys, &claimed, &unanswerable,
                         threats_of, forcing, beta <= 1)
    if chosen == NULL and claimed >= beta:
        tt_put_lower(&s.tt, key, claimed, table_n, table_move)
        return claimed
    if chosen == NULL and not unanswerable:
        # no move wins with this side's stone after next: its third is the soonest
        v = win_with_stone(s, n, 3)
        if v <= alpha:
            tt_put_upper(&s.tt, key, v, table_n, table_move)
            return v
    if chosen == NULL and s.book.ply <= n < s.g.max_moves - ETC_LEFT - 2 * window_distance(alpha, beta):
        v = child_cutoff(s, keys, moves, count, table_n, beta)
        if v != OPEN:
            tt_put_lower(&s.tt, key, v, table_n, table_move)
            return v
    if table_move:
        # the move that last cut this position off goes first (stored as
        # the table's key sees it: mirrored when the key is the image's)
        move_first(moves, count, s.g.columns - table_move if mirrored_key else table_move - 1)
    best = lose_now(s, n)
    # a parallel solve: this node is marked as being searched, and a child
    # another thread is searching, but the first, waits for the end of the
    # list, by when its entry may answer it (ABDADA, simplified)
    sharing = s.busy != NULL and n < s.busy_until
    if sharing:
        busy_slot(s, key)[0] = key
    total = count
    i = 0
    while i < total:
        col = moves[i]
        i += 1
        if sharing and 1 < i <= count and busy_slot(s, keys[col])[0] == keys[col]:
            moves[total] = col
            total += 1
            continue
        m = b_and(nonlosing, column_of(s, mask, col))
        # a move whose child's entry proves it fails low is not searched
        # (its slot was fetched while the moves were sorted)
        v = move_ceiling(s, keys[col], table_n)
        if v > alpha:
            if chosen != NULL:
                root_moves(s, cur)[TRYING] = m
            child_threats = b_and(opp_win, b_not(m))
            if Bits is uint64_t:
                v = -negamax(s, other, b_or(mask, m), n + 1, -beta, -alpha, <Bits*>NULL,
                             mirror_after(s, image, m, col, n), &threats_of[col], &child_threats)
            else:
                v = -negamax(s, other, b_or(mask, m), n + 1, -beta, -alpha, <Bits*>NULL,
                             mirror_after(s, image, m, col, n), NULL, &child_threats)
            if s.aborted:
                if sharing:
                    busy_leave(s, key)
                return 0
            if chosen != NULL:
                root_moves(s, cur)[TRYING] = b_zero(m)
            if v >= beta:
                if chosen != NULL:
                    chosen[0] = m
                tt_put_lower(&s.tt, key, v, table_n, s.g.columns - col if mirrored_key else col + 1)
                if sharing:
                    busy_leave(s, key)
                return v
        if v > best:
            best = v
        if v > alpha:
            alpha = v
            if chosen != NULL:
                chosen[0] = m
        elif chosen != NULL:
            root_moves(s, cur)[REFUTED] = b_or(root_moves(s, cur)[REFUTED], m)
    if best < alpha:
        # fail-soft: every move scored at most `best`, a tighter bound than
        # alpha for the table and for the solve's bisection
        alpha = best
    tt_put_upper(&s.tt, key, alpha, table_n, table_move)
    if sharing:
        busy_leave(s, key)
    return alpha


cdef int solve(SolveState* s, Bits cur, Bits mask, int n, bint weak, int low, int high) noexcept nogil:
    """Score (weak: its sign) of a position whose game is not over, as far
    as the window (low, high) asks (score_window). With at most
    WHOLE_WINDOW_LEFT moves left the exact score is searched for in one
    window over every score the position may have, not by null windows:
    their bisection searched the same small tree again at each probe
    (Test_L3_R1: 2.3 probes, 23 nodes a position, 17 so; L2_R1 174 to
    169; from 20 moves left, L2_R1 took more nodes: 177 at 20, 204 at 22).
    Weak, with at most SIGN_WINDOW_LEFT moves left, one window (-1, 1)
    gives the sign (L3_R1 15.2 nodes to 9.5, L2_R1 107 to 89, L2_R2 5,902
    to 5,547; from 26 moves left L2_R1 took 144)."""
    cdef Bisection window
    cdef int r
    cdef int lo = lower_bound(s, n, 1), hi = upper_bound(s, n)
    if b_any(b_and(winning(s, cur, mask), playable(s, mask))):
        return 1 if weak else win_now(s, n)
    if n + 1 >= s.g.max_moves:
        return 0
    if weak and s.g.max_moves - n <= SIGN_WINDOW_LEFT and low < 0 < high:
        r = negamax(s, cur, mask, n, -1, 1, <Bits*>NULL, mirror_of(s, cur, mask), NULL)
        return (r > 0) - (r < 0)
    if not weak and s.g.max_moves - n <= WHOLE_WINDOW_LEFT and max(lo - 1, low) < min(hi + 1, high):
        # fail-soft: a score at most low or at least high is a bound, as the bisection's
        return negamax(s, cur, mask, n, max(lo - 1, low), min(hi + 1, high), <Bits*>NULL, mirror_of(s, cur, mask),
                       NULL)
    window = score_window(lo, hi, weak,
                          b_popcount(winning(s, cur, mask)) >= b_popcount(winning(s, b_xor(cur, mask), mask)),
                          low, high, n < NEAR_ZERO_PLIES)
    while next_probe(&window):
        narrow_to(&window, negamax(s, cur, mask, n, window.med, window.med + 1, <Bits*>NULL, mirror_of(s, cur, mask),
                                   NULL))
        if s.aborted:
            return 0
    return bisected_score(&window, weak)


cdef int root_move(SolveState* s, Bits cur, Bits mask, int n, int target) except -2:
    """play_value's search at the root for a move reaching `target`: its
    column, or -1 when none does (or the budget ran out: s.aborted)."""
    cdef Bits chosen = b_zero(cur)
    cdef int reached
    with nogil:
        reached = negamax(s, cur, mask, n, target - 1, target, &chosen, mirror_of(s, cur, mask), NULL)
    if s.aborted or reached < target or not b_any(chosen):
        return -1
    return b_lowest_index(chosen) // s.g.stride


cdef void four_words(Board board, Wide4* cur, Wide4* mask) noexcept:
    """The side to move's stones and all stones of `board` (193..256 bits,
    kept by the Board as cells) on four words."""
    cdef const Geometry* g = board.c_geometry()
    cdef int col, row, side = board.c_side()
    cur[0] = wide4_zero()
    mask[0] = wide4_zero()
    for col in range(g.columns):
        for row in range(board.c_height(col)):
            wide_set(mask, col * g.stride + row)
            if board.c_cell(col, row) == side + 1:
                wide_set(cur, col * g.stride + row)


cdef list columns_in(const SolveState* s, Bits cells):
    """The columns holding a cell of `cells`, in order."""
    return [col for col in range(s.g.columns) if b_any(b_and(cells, column_of(s, cells, col)))]


# ----------------------------------------------------------- generic path

cdef int gen_negamax(SolveState* s, Board b, int alpha, int beta) except? -9999:
    """Negamax over the Board's C API. Precondition: the game is not over."""
    cdef int n = b.c_moves()
    cdef int i, col, v
    cdef uint64_t key
    cdef int unused_move
    if over_budget(s):
        return 0
    for i in range(s.g.columns):
        col = s.order[i]
        if b.c_can_play(col) and b.c_wins_with(col):
            return win_now(s, n)
    if n + 1 >= s.g.max_moves:
        return 0
    key = table_hash(&s.tt, b.c_key())
    v = narrow_window(s, key, n, lower_bound(s, n, 1), upper_bound(s, n), &alpha, &beta, &unused_move)
    if v != OPEN:
        return v
    for i in range(s.g.columns):
        col = s.order[i]
        if not b.c_can_play(col):
            continue
        b.c_play(col)
        v = -gen_negamax(s, b, -beta, -alpha)
        b.c_undo()
        if s.aborted:
            return 0
        if v >= beta:
            tt_put_lower(&s.tt, key, v, n, 0)
            return v
        if v > alpha:
            alpha = v
    tt_put_upper(&s.tt, key, alpha, n, 0)
    return alpha


cdef int gen_solve(SolveState* s, Board b, bint weak, int low, int high) except? -9999:
    cdef int n = b.c_moves()
    # no threat count here: the first probe below 0
    cdef Bisection window = score_window(lower_bound(s, n, 1), win_now(s, n), weak, False, low, high, False)
    while next_probe(&window):
        narrow_to(&window, gen_negamax(s, b, window.med, window.med + 1))
        if s.aborted:
            return 0
    return bisected_score(&window, weak)


# ---------------------------------------------------------------- Python

def popcnt_search() -> bool:
    """Whether the search runs its copy compiled for the POPCNT instruction
    (this CPU has it, and the build made one: GCC on x86-64 Linux), about
    7 % faster than the baseline copy."""
    return clinea_popcnt_clone() != 0


def search_copies() -> int:
    """How many copies of the search this build holds: 2 (the baseline and
    the POPCNT one, the loader picking one for the CPU) where GCC built it
    for x86-64 glibc, else 1 (the baseline)."""
    return CLINEA_SEARCH_COPIES


BUILD_COMPILER: str = CLINEA_COMPILER.decode("ascii", "replace")
"""The C compiler that built the core, with its version (\"GCC 12.2.0\"):
benchmark figures name it, since it decides what search_copies holds."""

BUILD_PROFILE_GUIDED: bool = CLINEA_PROFILE_GUIDED != 0
"""Whether this solver was compiled from a profile of its workload
(core/profile_workload.py; setup.py does so with GCC unless CLINEA_PGO=0):
5-10 % less CPU for the same nodes."""


def centre_first(int columns) -> list[int]:
    """Columns from the centre outwards, left before right: the search's
    move order and the exact players' tie-break."""
    return sorted(range(columns), key=lambda col: (abs(2 * col - (columns - 1)), col))


def best_column(scores) -> int | None:
    """The first column of highest score in centre-first order (None
    entries are unplayable), or None if none is playable."""
    best = None
    for col in centre_first(len(scores)):
        if scores[col] is not None and (best is None or scores[col] > scores[best]):
            best = col
    return best


cdef class Solver:
    """Exact solver of C en linea positions; see the module docstring for
    the scores.

    ``Solver(tt_log2=23)``: the large transposition table has 2**tt_log2
    entries of 8 bytes (8..30), the small one at most 2**18; both are
    allocated on the first call (or by ``prepare``) and kept: reuse one
    Solver for many positions of the same game. ``force_generic=True`` searches
    bitboard positions with the generic path too (to test one against the
    other). ``book=True`` ends the search of the standard game (7x6, c = 4,
    p = 21) at 12 stones, in the opening book (`clinea.core.book`), when its
    package is installed; ``book=False`` searches to the end of the game.
    ``threads=N`` (1..64) solves a position on the bitboard paths with N
    threads sharing the large table: each searches the whole tree, putting off
    a move another thread is searching (simplified ABDADA), and the first
    to finish answers; the scores are the same, the nodes (every
    thread's) are not reproducible. `analyze` and `solve` use them,
    `play_value`'s move search does not. A position is first searched
    on this thread alone for ``solo_nodes`` nodes (default
    DEFAULT_SOLO_NODES; 0: the threads at once): starting and joining the
    others costs more than most positions of a file take.
    """

    def __cinit__(self, int tt_log2=DEFAULT_TT_LOG2, *, bint force_generic=False, bint book=True, int threads=1,
                  long long solo_nodes=DEFAULT_SOLO_NODES):
        if not MIN_TT_LOG2 <= tt_log2 <= MAX_TT_LOG2:
            raise ValueError(f"tt_log2={tt_log2} is out of range: allowed {MIN_TT_LOG2}..{MAX_TT_LOG2}")
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads={threads} is out of range: allowed 1..{MAX_THREADS}")
        if solo_nodes < 0:
            raise ValueError(f"solo_nodes={solo_nodes} is out of range: allowed 0 (the threads at once) or more")
        memset(&self.s, 0, sizeof(SolveState))
        self.threads_ = threads
        self.solo_nodes = solo_nodes
        self.helpers = NULL
        if threads > 1:
            self.helpers = <Helper*>calloc(threads - 1, sizeof(Helper))
            self.s.busy = <uint64_t*>calloc(1 << BUSY_LOG2, sizeof(uint64_t))
            if self.helpers == NULL or self.s.busy == NULL:
                raise MemoryError(f"the states of {threads - 1} helper threads")
            self.s.busy_mask = (1 << BUSY_LOG2) - 1
        self.s.tt.far.log2 = tt_log2
        self.s.tt.near.log2 = min(<int>NEAR_LOG2, tt_log2)
        self.geometry_ = None
        self.force_generic = force_generic
        self.use_book = book
        self.book_ = None
        self.s.book.ply = -1

    def __dealloc__(self):
        cdef int i
        free(self.s.tt.far.entries)
        free(self.s.tt.near.entries)
        if self.helpers != NULL:
            for i in range(self.threads_ - 1):
                free(self.helpers[i].near.entries)
        free(self.helpers)  # their far table is the one above
        free(self.s.busy)

    @property
    def nodes(self) -> int:
        """Nodes searched by the last call."""
        return self.s.nodes

    @property
    def tt_log2(self) -> int:
        return self.s.tt.far.log2

    @property
    def threads(self) -> int:
        return self.threads_

    def prepare(self, Board board) -> None:
        """Allocates the tables and loads what the game of `board` needs (the
        opening book) now rather than in the first call, so that the first
        timed call pays for neither."""
        self._set_game(board)

    def stop(self) -> None:
        """Makes the call running in another thread (the bitboard path
        releases the GIL) return None within a few nodes, and every later
        call too, until `resume`. What it stored stays true and is kept."""
        self.stop_wanted = True
        self._halt_team()

    def resume(self) -> None:
        """Lets calls run again after `stop`."""
        self.stop_wanted = False
        self.s.stop_requested = False

    def reset(self) -> None:
        """Forgets every stored position: a new salt (BoundTables.salt) where
        the keys leave room for one, else the tables cleared."""
        cdef BoundTables* tt = &self.s.tt
        if tt.salt_step and tt.salt + tt.salt_step != 0:
            tt.salt += tt.salt_step
        else:
            self._clear()

    cdef void _clear(self) noexcept:
        cdef int i
        with nogil:
            clear_table(&self.s.tt.far)
            clear_table(&self.s.tt.near)
            for i in range(self.threads_ - 1):
                clear_table(&self.helpers[i].near)
        self.s.tt.salt = 0

    cdef int _prepare(self, Board board, long long max_nodes, double time_limit, double reserve) except -1:
        cdef SolveState* s = &self.s
        if max_nodes < 0:
            raise ValueError(f"max_nodes={max_nodes} is out of range: allowed 0 (no limit) or more")
        if time_limit < 0:
            raise ValueError(f"time_limit={time_limit} is out of range: allowed 0 (no limit) or more")
        # the deadline counts from the call: a new game's tables are set up inside it
        deadline_start(&s.deadline, time_limit, reserve)
        self._set_game(board)
        s.nodes = 0
        s.max_nodes = max_nodes
        s.aborted = False
        return 0

    cdef int _set_game(self, Board board) except -1:
        cdef SolveState* s = &self.s
        cdef int i, col, bit
        if s.tt.far.entries == NULL or s.tt.near.entries == NULL:
            allocate_table(&s.tt.far)
            allocate_table(&s.tt.near)
            front_view(&s.tt.middle, &s.tt.far, MIDDLE_LOG2)
        geometry = board.rules
        if geometry != self.geometry_:
            # same keys mean other positions (or other values) in another game
            if self.geometry_ is not None:
                self._clear()
            self.geometry_ = geometry
            s.g = board.c_geometry()[0]
            # a key (cur + mask) sets no bit at or above columns * stride
            s.tt.salt_step = (<uint64_t>1) << (s.g.columns * s.g.stride) \
                if s.g.bitboard and s.g.columns * s.g.stride < 64 else 0
            s.tt.near_from = s.g.max_moves - NEAR_MOVES
            s.tt.middle_from = s.tt.near_from - MIDDLE_MOVES
            set_entry_layout(&s.tt, score_at(s, 0), s.g.columns)
            self._choose_book(board)
            order = centre_first(s.g.columns)
            for i in range(s.g.columns):
                s.order[i] = order[i]
            if s.g.bitboard:
                for col in range(s.g.columns):
                    s.column_mask[col] = (((<uint64_t>1) << s.g.rows) - 1) << (col * s.g.stride)
            if s.g.wide:
                for col in range(s.g.columns):
                    s.wide_column[col] = wide_zero()
                    for bit in range(col * s.g.stride, col * s.g.stride + s.g.rows):
                        wide_set(&s.wide_column[col], bit)
            s.fills = s.g.max_moves == s.g.columns * s.g.rows
            s.left_half = 0
            if s.g.bitboard:
                for col in range((s.g.columns + 1) // 2):
                    s.left_half |= s.column_mask[col]
            self._set_claimed_rows()
            s.wide4 = not s.g.bitboard and not s.g.wide and s.g.columns * s.g.stride <= WIDE4_BITS
            if s.wide4:
                s.wide4_bottom = wide4_zero()
                s.wide4_cells = wide4_zero()
                for col in range(s.g.columns):
                    s.wide4_column[col] = wide4_zero()
                    wide_set(&s.wide4_bottom, col * s.g.stride)
                    for bit in range(col * s.g.stride, col * s.g.stride + s.g.rows):
                        wide_set(&s.wide4_column[col], bit)
                        wide_set(&s.wide4_cells, bit)
        return 0

    cdef int _set_claimed_rows(self) except -1:
        """The rows claimeven_bound leaves the side to move: of the parity of the height."""
        cdef SolveState* s = &self.s
        cdef int col, row, bit
        s.claimed_rows = 0
        s.wide_claimed_rows = wide_zero()
        s.wide4_claimed_rows = wide4_zero()
        for col in range(s.g.columns):
            for row in range(s.g.rows % 2, s.g.rows, 2):
                bit = col * s.g.stride + row
                if s.g.bitboard:
                    s.claimed_rows |= (<uint64_t>1) << bit
                elif s.g.wide:
                    wide_set(&s.wide_claimed_rows, bit)
                elif bit < WIDE4_BITS:
                    wide_set(&s.wide4_claimed_rows, bit)
        return 0

    cdef int _choose_book(self, Board board) except -1:
        """The standard game's opening book when it applies."""
        self.book_ = None
        self.s.book.ply = -1
        if self.use_book and not self.force_generic and book_covers(board.c_geometry()):
            self.book_ = standard_book()
            self.s.book = (<OpeningBook>self.book_).view
        return 0

    @property
    def uses_book(self) -> bool:
        """Whether positions of the current game (the last one prepared or
        solved) are searched with the opening book."""
        return self.s.book.ply >= 0

    cdef object _solve_position(self, Board board, bint weak, int low=-UNBOUNDED, int high=UNBOUNDED):
        """Score of `board` after _prepare, as far as the window (low,
        high) asks, or None if the budget ran out."""
        cdef SolveState* s = &self.s
        cdef int n = board.c_moves()
        cdef int r
        cdef Board work
        if board.c_winner() >= 0:
            # the side to move has lost; the winner placed its last stone
            return -1 if weak else -score_at(s, n - 1)
        if n >= s.g.max_moves:
            return 0
        self.root.n = n
        self.root.weak = weak
        self.root.low = low
        self.root.high = high
        if self.force_generic or not (s.g.bitboard or s.g.wide or s.wide4):
            work = board.copy()
            r = gen_solve(s, work, weak, self.root.low, self.root.high)
        else:
            if s.g.bitboard:
                self.root.path = ROOT_WORD
                self.root.cur = board.c_stones(board.c_side())
                self.root.mask = board.c_occupied()
            elif s.g.wide:
                self.root.path = ROOT_WIDE
                self.root.wide_cur = board.c_wide_stones(board.c_side())
                self.root.wide_mask = wide_or(board.c_wide_stones(0), board.c_wide_stones(1))
            else:
                self.root.path = ROOT_WIDE4
                four_words(board, &self.root.cur4, &self.root.mask4)
            if self.threads_ > 1:
                r = self._solve_solo_first()
            else:
                with nogil:
                    r = self._solve_root(s)
        if s.aborted:
            return None
        return r

    cdef int _solve_root(self, SolveState* s) noexcept nogil:
        """solve() of self.root with the state `s` (the solver's or a helper's)."""
        if self.root.path == ROOT_WORD:
            return solve(s, self.root.cur, self.root.mask, self.root.n, self.root.weak, self.root.low, self.root.high)
        if self.root.path == ROOT_WIDE:
            return solve(s, self.root.wide_cur, self.root.wide_mask, self.root.n, self.root.weak, self.root.low,
                         self.root.high)
        return solve(s, self.root.cur4, self.root.mask4, self.root.n, self.root.weak, self.root.low, self.root.high)

    cdef int _solve_solo_first(self) except? -9999:
        """_solve_root of self.root on this thread within solo_nodes, then,
        if it did not finish, _solve_together: what the solo search proved
        stays in the table for the team, and its nodes count in s.nodes."""
        cdef SolveState* s = &self.s
        cdef long long budget = s.max_nodes
        cdef int r
        if self.solo_nodes:
            if budget == 0 or s.nodes + self.solo_nodes < budget:
                s.max_nodes = s.nodes + self.solo_nodes
            with nogil:
                r = self._solve_root(s)
            s.max_nodes = budget
            if not s.aborted or s.stop_requested or s.deadline.passed or (budget and s.nodes > budget):
                return r  # done, or the call's own budget ran out
            s.aborted = False
        return self._solve_together()

    cdef int _solve_together(self) except? -9999:
        """_solve_root of self.root on threads_ threads: this one and
        threads_ - 1 helpers, each a copy of this state. The tables are
        shared without locks: an entry is one aligned word, which x86-64 and
        ARMv8 write and read whole, and every entry any thread stores is a
        true bound. The threads part ways through the busy marks (negamax:
        a child another thread is in waits for the end of the move list).
        The first thread to finish stops the others; s.nodes counts them
        all. Each helper keeps its own near table (the last NEAR_MOVES
        moves): on the empty 7x6 board on two threads that took each
        thread from 10.1-13.6 M nodes per CPU second to 12.3-14.7 M, and the
        wall time from 18.0-23.2 s to 16.1-18.5 s weak, 29.1-40.1 s to
        25.4-25.7 s exact (two runs each, interleaved)."""
        cdef SolveState* s = &self.s
        cdef Helper* helper
        cdef int i, r
        s.busy_until = s.g.max_moves - BUSY_LEFT
        for i in range(self.threads_ - 1):
            helper = &self.helpers[i]
            memcpy(&helper.s, s, sizeof(SolveState))
            # the near table is the one written at nearly every node: shared,
            # its cache lines would move between the cores at every store
            if helper.near.entries == NULL:
                helper.near.log2 = s.tt.near.log2
                allocate_table(&helper.near)
            helper.s.tt.near = helper.near
            helper.s.nodes = 0
            helper.done = False
        workers = [threading.Thread(target=self._help, args=(i,), daemon=True) for i in range(self.threads_ - 1)]
        for worker in workers:
            worker.start()
        with nogil:
            r = self._solve_root(s)
            # done, stopped, or out of budget: the helpers' budgets are the
            # same, but the main thread's clock is the call's
            self._halt_team()
        for worker in workers:
            worker.join()
        s.stop_requested = self.stop_wanted
        for i in range(self.threads_ - 1):
            helper = &self.helpers[i]
            s.nodes += helper.s.nodes
            if s.aborted and helper.done:
                # a helper finished first, or the budget ran out in the main
                # thread after a helper had the answer
                s.aborted = False
                r = helper.score
        s.busy_until = 0  # the solver's other searches run alone
        return r

    def _help(self, int index):
        """A helper thread's body: its solve of self.root, then the others stopped."""
        cdef Helper* helper = &self.helpers[index]
        cdef int r
        with nogil:
            r = self._solve_root(&helper.s)
            if not helper.s.aborted:
                helper.score = r
                helper.done = True
                self._halt_team()

    cdef void _halt_team(self) noexcept nogil:
        """Makes every thread of the running solve return (it sets each
        one's stop flag; the solver's own is restored after the solve)."""
        cdef int i
        self.s.stop_requested = True
        if self.helpers != NULL:
            for i in range(self.threads_ - 1):
                self.helpers[i].s.stop_requested = True

    def solve(self, Board board, bint weak=False, limits: Limits = Limits(), window=None):
        """Exact score of `board` for the side to move (weak: 1 win, 0 draw,
        -1 loss), or None if the nodes or seconds of `limits` (0: no limit)
        ran out first. A finished game scores as the loss it is.

        `window`: (low, high), low < high, as alpha-beta's: the solve stops
        once it knows the score is at most low or at least high, and its
        answer r says the score is at most r when r <= low, at least r when
        r >= high, and r itself between (a null window, (t, t + 1), asks
        one question: is the score above t?)."""
        if window is None:
            low, high = -UNBOUNDED, UNBOUNDED
        else:
            low, high = window
            if not -UNBOUNDED < low < high < UNBOUNDED:
                raise ValueError(f"window={window!r}: allowed (low, high) with low < high")
        self._prepare(board, limits.nodes, limits.time, limits.reserve)
        return self._solve_position(board, weak, low, high)

    def analyze(self, Board board, bint weak=False, limits: Limits = Limits()):
        """Score of playing each column, for the side to move (None where the
        column cannot be played), or None if `limits`, shared by all
        columns, ran out."""
        self._prepare(board, limits.nodes, limits.time, limits.reserve)
        if board.c_is_over():
            return [None] * board.c_geometry().columns
        cdef Board child = board.copy()
        cdef int n = board.c_moves()
        scores = []
        for col in range(board.c_geometry().columns):
            if not board.c_can_play(col):
                scores.append(None)
                continue
            if board.c_wins_with(col):
                scores.append(1 if weak else win_now(&self.s, n))
                continue
            child.c_play(col)
            value = self._solve_position(child, weak)
            child.c_undo()
            if value is None:
                return None
            scores.append(-value)
        return scores

    def play_value(self, Board board, bint weak=False, limits: Limits = Limits(), at_least=None):
        """``(column, score)``: a column that keeps the exact score (weak: 1
        win, 0 draw, -1 loss) of `board` for the side to move, and that
        score; the column is None when the game is over, or, weak, when
        every move loses. None if `limits` ran out.

        One solve of `board` (at the book's ply, a lookup) and one search
        at the root for a move that reaches its score, in the solver's own
        move order, rather than a solve of every column as in `analyze`:
        the moves that lose are never proved to lose.

        `at_least`: a score the side to move is known to reach (on the
        scale of `weak`), such as its score before the opponent's last
        move. The solve is skipped and the column found keeps at least that
        score, which is returned: where the score is what the opponent
        left, proving that it is no more costs as much as the move itself
        (a draw is proved not to be a win over every move)."""
        cdef SolveState* s = &self.s
        cdef int found
        self._prepare(board, limits.nodes, limits.time, limits.reserve)
        quick = self._root_at_once(board, weak)
        if quick is not None:
            if quick[0] is None and not board.c_is_over():
                scores = self.analyze(board, weak, limits)
                if scores is None:
                    return None
                col = best_column(scores)
                return col, scores[col]
            return quick
        if at_least is not None and (at_least >= 0 if weak else at_least > lower_bound(s, board.c_moves(), 1)):
            value = at_least
        else:
            value = self._solve_position(board, weak)
            if value is None:
                return None
        if weak and value < 0:
            return None, value
        found = self._root_move(board, value)
        if s.aborted:
            return None
        if found < 0:
            raise AssertionError(f"solver: no move reaches the score {value} of {board!r}")
        return found, value

    def reach(self, Board board, int target, bint weak=False, limits: Limits = Limits()) -> SearchResult:
        """A column scoring at least `target` for the side to move (weak: on
        the 1 / 0 / -1 scale), by one search at the root for that target,
        with no solve first: it proves no more than the target needs (a
        drawing column of a drawn position, without proving that no column
        wins). Proven, with that column and `target` as its score, when one
        reaches it; proven with no column (and no score) when none does;
        not proven when `limits` ran out, and then `refuted` holds the
        columns it proved below the target and `trying` the one it was on
        (on the bitboard and wide paths; elsewhere it solves every column)."""
        cdef double started = monotonic()
        cdef int found = -1
        if weak and not -1 <= target <= 1:
            raise ValueError(f"target={target} is out of range: allowed -1..1 on the weak scale")
        self._prepare(board, limits.nodes, limits.time, limits.reserve)
        quick = self._root_at_once(board, weak)
        if quick is not None and quick[0] is None and not board.c_is_over():
            scores = self.analyze(board, weak, limits)
            if scores is not None:
                found = best_column(scores)
                quick = (found, scores[found])
        elif quick is None:
            # a weak loss is any score: the worst there is
            found = self._root_move(board, target if not weak or target >= 0 else lose_now(&self.s, board.c_moves()))
            quick = (found, target) if found >= 0 else (None, None)
        done = not self.s.aborted
        move = quick[0] if done and quick[0] is not None and quick[1] >= target else None
        return SearchResult(move, target if move is not None else None, 0, self.s.nodes, monotonic() - started,
                            done, weak, "solver",
                            late=self.s.deadline.late if self.s.deadline.passed else None,
                            read_gap=self.s.deadline.gap, stall=self.s.deadline.stall)

    cdef object _root_at_once(self, Board board, bint weak):
        """The root's answer without a move search (after _prepare, with the
        root's refuted and trying columns cleared): (None, score) when the
        game is over, (column, its score) for a win with the next stone,
        (None, None) where the search cannot run (the generic path, the
        last stone) and every column is to be solved; None otherwise."""
        cdef SolveState* s = &self.s
        cdef int n = board.c_moves()
        for which in (REFUTED, TRYING):
            s.root[which] = 0
            s.wide_root[which] = wide_zero()
            s.wide4_root[which] = wide4_zero()
        if board.c_is_over():
            return None, self._solve_position(board, weak)
        for col in centre_first(board.c_geometry().columns):
            if board.c_can_play(col) and board.c_wins_with(col):
                return col, 1 if weak else win_now(s, n)
        if not (s.g.bitboard or s.g.wide or s.wide4) or self.force_generic or n + 1 >= s.g.max_moves:
            return None, None
        return None

    cdef int _root_move(self, Board board, int target) except -2:
        """root_move on the words of `board` (after _root_at_once): the
        column reaching `target`, or -1 (none does, or s.aborted)."""
        cdef SolveState* s = &self.s
        cdef int n = board.c_moves()
        cdef Wide4 cur4, mask4
        if s.g.bitboard:
            return root_move(s, board.c_stones(board.c_side()), board.c_occupied(), n, target)
        if s.g.wide:
            return root_move(s, board.c_wide_stones(board.c_side()),
                             wide_or(board.c_wide_stones(0), board.c_wide_stones(1)), n, target)
        four_words(board, &cur4, &mask4)
        return root_move(s, cur4, mask4, n, target)

    @property
    def refuted(self) -> list[int]:
        """Columns the last `play_value` (or `search`) proved to score below
        the score it looked for, even when its budget ran out before a move
        reaching it was found: moves not to fall back on. On the bitboard
        and wide paths; empty elsewhere."""
        return self._root_columns(REFUTED)

    @property
    def trying(self) -> int | None:
        """The column the last `play_value` was searching when its budget
        ran out, the first in its move order not yet refuted; else None."""
        columns = self._root_columns(TRYING)
        return columns[0] if columns else None

    cdef list _root_columns(self, int which):
        """The columns of the root's moves `which` (REFUTED or TRYING), on this board's words."""
        if self.s.g.wide:
            return columns_in(&self.s, self.s.wide_root[which])
        if self.s.wide4:
            return columns_in(&self.s, self.s.wide4_root[which])
        return columns_in(&self.s, self.s.root[which])

    def search(self, Board board, limits: Limits = Limits(), bint weak=False, at_least=None) -> SearchResult:
        """`play_value` within `limits` (time and nodes), as the players'
        `SearchResult`: proven, with the move None where `play_value` has
        none (weak: every move loses), or move and score None when the
        budget ran out. With `at_least`, the score is that bound, not the
        exact score."""
        cdef double started = monotonic()
        found = self.play_value(board, weak, limits, at_least)
        move, score = (None, None) if found is None else found
        return SearchResult(move, score, 0, self.s.nodes, monotonic() - started, found is not None, weak, "solver",
                            late=self.s.deadline.late if self.s.deadline.passed else None,
                            read_gap=self.s.deadline.gap, stall=self.s.deadline.stall)

    def best_move(self, Board board, bint weak=False, limits: Limits = Limits()):
        """A column of best score (the most central among equals, left
        first), or None if the game is over or `limits` ran out."""
        scores = self.analyze(board, weak, limits)
        return None if scores is None else best_column(scores)
