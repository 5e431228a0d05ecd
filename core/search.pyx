# cython: boundscheck=False, wraparound=False
"""The strong player's alpha-beta over the weighted evaluation.

`negamax` (driven by `think`): iterative deepening with a transposition
table, move ordering (TT move, threats created, history, centre),
immediate-win / forced-reply / non-losing-move pruning, and a node or clock
budget that aborts the running iteration. (The evaluator's fixed-depth
search is clinea.core.depthsearch.)

Scores are for the side to move: a win on the move at ply q from the root
scores WIN - q - 1 (faster wins score higher), a draw 0.
"""
from cpython.mem cimport PyMem_Calloc, PyMem_Free
from libc.stdint cimport uint64_t
from libc.string cimport memset

from .board cimport Board
from .clock cimport deadline_passed, deadline_start, monotonic
from .evaluate cimport Evaluation, threats_created

from clinea.core.evaluate import STRONG_WEIGHTS
from clinea.core.timeman import ITERATION_START_SHARE, Limits, SearchResult

WIN_SCORE = WIN
"""Scores at or beyond +-MATE_SCORE are proven wins or losses."""
MATE_SCORE = MATE_BOUND


cdef inline int centrality(int col, int columns) noexcept nogil:
    return columns - abs(2 * col - (columns - 1))


cdef inline void sort_moves(int* moves, long* keys, int n) noexcept nogil:
    """Sorts moves by decreasing key, stable (n is at most 128: insertion)."""
    cdef int i, j, move
    cdef long key
    for i in range(1, n):
        key = keys[i]
        move = moves[i]
        j = i
        while j > 0 and keys[j - 1] < key:
            keys[j] = keys[j - 1]
            moves[j] = moves[j - 1]
            j -= 1
        keys[j] = key
        moves[j] = move


cdef class Search:
    """Alpha-beta searches with an `Evaluation`; counts nodes.

    `weights`: the evaluation's weights (see clinea.core.evaluate.FEATURES).
    `tt_log2`: the transposition table holds 2**tt_log2 entries of 16 bytes
    (only `think` uses it)."""

    def __cinit__(self, weights=STRONG_WEIGHTS, int tt_log2=20):
        if not 0 <= tt_log2 <= 30:
            raise ValueError(f"tt_log2={tt_log2} is out of range: allowed 0..30")
        self.ev = Evaluation(weights)
        # zeroed by the system as it is first touched, not all at once: 16 MB
        # cleared here were 10 ms of strong's start, inside the judge's
        # start-up grace of its first answer
        self.tt = <TTEntry*>PyMem_Calloc(<size_t>1 << tt_log2, sizeof(TTEntry))
        if not self.tt:
            raise MemoryError()
        self.tt_mask = (<uint64_t>1 << tt_log2) - 1
        self.tt_rules = None  # a table just cleared: the first game's rules need no clearing
        memset(self.history, 0, sizeof(self.history))

    def __dealloc__(self):
        PyMem_Free(self.tt)

    def clear(self) -> None:
        """Forgets the transposition table and the move history."""
        with nogil:  # strong sets a game up in a thread beside its first move
            memset(self.tt, 0, (self.tt_mask + 1) * sizeof(TTEntry))
            memset(self.history, 0, sizeof(self.history))

    def prepare(self, Board board) -> None:
        """Clears the table for the game of `board` when its rules are not
        the last game's (an entry of another game would be wrong here), now
        rather than in the first timed call."""
        if self.tt_rules is not None and self.tt_rules != board.rules:
            self.clear()
        self.tt_rules = board.rules

    @property
    def nodes(self) -> int:
        """Nodes visited by the last call."""
        return self.nodes

    @property
    def evaluation(self) -> Evaluation:
        return self.ev

    cdef void _start(self, Board board, double time_limit, double reserve, long long max_nodes) except *:
        self.ev.prepare(board)
        self.nodes = 0
        self.aborted = False
        self.max_nodes = max_nodes
        deadline_start(&self.deadline, time_limit, reserve)

    cdef bint out_of_budget(self) noexcept nogil:
        if self.max_nodes > 0 and self.nodes >= self.max_nodes:
            self.aborted = True
        elif deadline_passed(&self.deadline):
            self.aborted = True
        return self.aborted

    # ----------------------------------------------------------- strong search

    cdef int candidates(self, Board b, int* out, int* outcome) noexcept nogil:
        """The moves worth searching. `outcome` tells why there is only one:
        0 normal; 1 out[0] wins at once; 2 every move loses at once (out[0]
        is some legal move); 3 the game ends after this move in a draw."""
        cdef int legal[MAX_COLUMNS]
        cdef int n = b.c_legal_columns(legal)
        cdef int i, col, k = 0, threats = 0, forced = -1
        cdef bint reply = b.c_moves() + 2 <= b.c_geometry().max_moves
        outcome[0] = 0
        for i in range(n):
            if b.c_wins_with(legal[i]):
                out[0] = legal[i]
                outcome[0] = 1
                return 1
        if not reply:
            out[0] = legal[0]
            outcome[0] = 3
            return 1
        for i in range(n):
            if b.c_opponent_wins_at(legal[i], b.c_height(legal[i])):
                threats += 1
                forced = legal[i]
        if threats >= 2:
            out[0] = forced
            outcome[0] = 2
            return 1
        for i in range(n):
            col = legal[i]
            if forced >= 0 and col != forced:
                continue
            # a stone under an opponent's winning cell hands it the win
            if b.c_height(col) + 1 < b.c_geometry().rows and b.c_opponent_wins_at(col, b.c_height(col) + 1):
                continue
            out[k] = col
            k += 1
        if k == 0:
            out[0] = forced if forced >= 0 else legal[0]
            outcome[0] = 2
            return 1
        return k

    cdef void order(self, Board b, int* moves, int n, int first, int depth) noexcept nogil:
        """Sorts moves best-first: `first` (the TT move), then threats
        created, then history, then centrality."""
        cdef long keys[MAX_COLUMNS]
        cdef int i, side = b.c_side()
        for i in range(n):
            keys[i] = self.history[side][moves[i]] * 256 + centrality(moves[i], b.c_geometry().columns)
            if depth >= 2:
                keys[i] += (<long>threats_created(b, moves[i])) << 40
            if moves[i] == first:
                keys[i] = (<long>1) << 60
        sort_moves(moves, keys, n)

    cdef int negamax(self, Board b, int depth, int alpha, int beta, int ply) noexcept nogil:
        cdef int moves[MAX_COLUMNS]
        cdef int outcome, n, i, column, value, best, best_move = -1, tt_move = -1, original_alpha = alpha
        cdef int side = b.c_side()
        cdef uint64_t key
        cdef TTEntry* entry
        self.nodes += 1
        if self.out_of_budget():
            return 0
        if b.c_winner() >= 0:
            return -(WIN - ply)
        if b.c_moves() >= b.c_geometry().max_moves:
            return 0
        n = self.candidates(b, moves, &outcome)
        if outcome == 1:
            return WIN - ply - 1
        if outcome == 2:
            return -(WIN - ply - 2)
        if outcome == 3:
            return 0
        # a forced reply costs no depth: the line stays as deep as it was
        if n == 1:
            depth += 1
        if depth <= 0:
            return self.ev.c_evaluate(b)
        key = b.c_key()
        entry = &self.tt[key & self.tt_mask]
        if entry.key == key and entry.flag != 0:
            tt_move = entry.move - 1
            if entry.depth >= depth:
                value = entry.value
                # stored relative to the node: back to root distance
                if value > MATE_BOUND:
                    value -= ply
                elif value < -MATE_BOUND:
                    value += ply
                if entry.flag == TT_EXACT:
                    return value
                if entry.flag == TT_LOWER and value >= beta:
                    return value
                if entry.flag == TT_UPPER and value <= alpha:
                    return value
        self.order(b, moves, n, tt_move, depth)
        best = -INFINITE
        for i in range(n):
            b.c_play(moves[i])
            if i == 0:
                value = -self.negamax(b, depth - 1, -beta, -alpha, ply + 1)
            else:
                # principal variation search: prove the rest worse cheaply
                value = -self.negamax(b, depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < value < beta and not self.aborted:
                    value = -self.negamax(b, depth - 1, -beta, -alpha, ply + 1)
            b.c_undo()
            if self.aborted:
                return 0
            if value > best:
                best = value
                best_move = moves[i]
            if value > alpha:
                alpha = value
            if alpha >= beta:
                self.history[side][moves[i]] += depth * depth
                if self.history[side][moves[i]] > (1 << 24):
                    for column in range(MAX_COLUMNS):
                        self.history[0][column] >>= 1
                        self.history[1][column] >>= 1
                break
        entry.key = key
        entry.depth = depth
        entry.move = best_move + 1
        entry.flag = TT_UPPER if best <= original_alpha else (TT_LOWER if best >= beta else TT_EXACT)
        value = best
        if value > MATE_BOUND:
            value += ply
        elif value < -MATE_BOUND:
            value -= ply
        entry.value = value
        return best

    def think(self, Board board, limits: Limits = Limits(), *, double start_share=ITERATION_START_SHARE,
              bint keep_partial=False) -> SearchResult:
        """Iterative deepening from `board` until the game's end is in reach,
        a win or loss is proven, or `limits` run out (time, nodes: the
        running iteration is aborted; depth: plies). No iteration starts
        after `start_share` of the time. An iteration cut short is thrown
        away, so the move is that of the last completed one (or the
        best-ordered safe move); with `keep_partial`, a move of the cut
        iteration that beat the previous best at the new depth is played
        instead (what lets a long iteration start late in the move: the
        big boards' iterations cost several times the previous one).

        The result is `proven` when its score is the game-theoretic one (the
        search reached every game end or proved a win or loss)."""
        if board.c_is_over():
            raise ValueError("the game is over: there is no move to search")
        cdef double time_limit = limits.time
        cdef int max_depth = limits.depth
        # its time counts from its deadline's start, the table's clearing for a new game included
        cdef double started = monotonic()
        self._start(board, time_limit, limits.reserve, limits.nodes)
        self.prepare(board)
        cdef Board b = board.copy()
        cdef int moves[MAX_COLUMNS]
        cdef long scores[MAX_COLUMNS]
        cdef int outcome, n, i, depth, value, alpha, best_col, best_score = 0
        cdef int completed = 0, remaining = b.c_geometry().max_moves - b.c_moves()
        cdef int searched, best_partial
        cdef bint partial = False
        n = self.candidates(b, moves, &outcome)
        if outcome != 0 or n == 1:
            score = {0: 0, 1: WIN - 1, 2: -(WIN - 2), 3: 0}[outcome]
            return SearchResult(moves[0], score, 0, 0, monotonic() - started, outcome != 0)
        self.order(b, moves, n, -1, 2)
        best_col = moves[0]
        depth = 0
        while max_depth == 0 or depth < max_depth:
            depth += 1
            alpha = -INFINITE
            searched = 0
            with nogil:
                for i in range(n):
                    b.c_play(moves[i])
                    if i == 0:
                        value = -self.negamax(b, depth - 1, -INFINITE, INFINITE, 1)
                    else:
                        value = -self.negamax(b, depth - 1, -alpha - 1, -alpha, 1)
                        if value > alpha and not self.aborted:
                            value = -self.negamax(b, depth - 1, -INFINITE, -alpha, 1)
                    b.c_undo()
                    if self.aborted:
                        break
                    scores[i] = value
                    searched = i + 1
                    if value > alpha:
                        alpha = value
            if self.aborted:
                if keep_partial and searched > 1:
                    # the first move's score is exact, the others' are
                    # bounds unless re-searched above it: exact then too
                    best_partial = 0
                    for i in range(1, searched):
                        if scores[i] > scores[best_partial]:
                            best_partial = i
                    if best_partial > 0:
                        best_col = moves[best_partial]
                        best_score = scores[best_partial]
                        partial = True
                break
            # best first for the next iteration; moves proven worse keep their order
            sort_moves(moves, scores, n)
            best_col = moves[0]
            best_score = scores[0]
            completed = depth
            if abs(best_score) > MATE_BOUND or depth >= remaining:
                break
            # an iteration costs several times the previous one: do not
            # start one that would most likely be thrown away
            if time_limit > 0 and monotonic() - started > start_share * (time_limit - self.deadline.reserve):
                break
        # a partial iteration proves a win it found, not that every move loses
        return SearchResult(best_col, best_score, completed, self.nodes, monotonic() - started,
                            completed > 0 and (best_score > MATE_BOUND
                                               or not partial and (best_score < -MATE_BOUND or completed >= remaining)),
                            late=self.deadline.late if self.deadline.passed else None, read_gap=self.deadline.gap,
                            stall=self.deadline.stall)
