# cython: boundscheck=False, wraparound=False, cdivision=True
"""Monte Carlo tree search: UCT over a fixed arena of nodes, rollouts that
take an immediate win and block the opponent's (else random), and proven
wins, draws and losses backed up the tree (MCTS-Solver, Winands et al. 2008).

The random rollouts see what the heuristic evaluation misjudges on the big
boards: who is left to move under whose threat when the last columns fill.
The arena is allocated once; when it is full the tree stops growing and the
simulations go on from its leaves, so memory stays bounded. Given a seed and
a simulation limit, a search is deterministic.
"""
from libc.math cimport log, sqrt
from libc.stdint cimport uint64_t
from cpython.mem cimport PyMem_Free, PyMem_Malloc

from .bitboard cimport Geometry
from .board cimport Board
from .clock cimport deadline_passed, deadline_read, deadline_start, monotonic
from .rng cimport Rng, rng_below, rng_seed
from .widebits cimport WIDE4_BITS, Wide4, wide4_zero, wide_set
from .words cimport (
    CLINEA_PROFILE_GUIDED, Bits, b_and, b_any, b_bit, b_lowest_index, b_not, b_nth_index, b_or, b_popcount, b_xor,
    b_zero, winning_cells,
)

from clinea.core.timeman import Limits, SearchResult

cdef enum:
    COPY_READ_EVERY = 16384  # nodes a kept subtree's copy moves between two reads of the clock

#: the exploration constant of UCT for results in [0, 1]: sqrt(2) / 2,
#: what OpenSpiel's 2.0 on results in [-1, 1] amounts to, halved
DEFAULT_EXPLORATION = 0.7

BUILD_PROFILE_GUIDED: bool = CLINEA_PROFILE_GUIDED != 0
"""Whether this module was compiled from a profile of its workload, as the
solver is (clinea.core.solver.BUILD_PROFILE_GUIDED)."""


cdef inline int rollout_move(Board b, Rng* rng, int* legal, int n) noexcept nogil:
    """The rollout's move: a winning one, else the block of the opponent's
    immediate win (the leftmost), else a random one. Not avoiding the cells
    under the opponent's winning ones: against OpenSpiel's MCTS on 9x8 c5
    (2000 simulations, 60 games), strong scored 95.8 % with these rollouts,
    58.3 % when they also kept out from under an opponent's winning cell,
    90.0 % with uniformly random ones, 66.7 % taking wins without blocking."""
    cdef int i, col
    for i in range(n):
        if b.c_wins_with(legal[i]):
            return legal[i]
    for i in range(n):
        col = legal[i]
        if b.c_opponent_wins_at(col, b.c_height(col)):
            return col
    return legal[rng_below(rng, n)]


cdef int rollout(Board b, Rng* rng) noexcept nogil:
    """Plays the rollout policy on `b` to the end and takes its moves back;
    returns the winner (0 or 1) or -1 for a draw."""
    cdef int legal[MCTS_MAX_COLUMNS]
    cdef int played = 0, winner, n
    n = b.c_legal_columns(legal)
    while n > 0:
        b.c_play(rollout_move(b, rng, legal, n))
        played += 1
        n = b.c_legal_columns(legal)
    winner = b.c_winner()
    while played > 0:
        b.c_undo()
        played -= 1
    return winner


cdef int mask_rollout(Bits first, Bits second, Bits cells, Board b, Rng* rng) noexcept nogil:
    """`rollout` on the words of `b`'s stones (`first`, `second`: each
    player's; `cells`: every cell of the board), the board untouched (the
    same moves from the same random numbers): the playable cells and each
    player's winning cells kept as masks, so a move costs one update of
    the mover's winning cells and a few bit operations, against a look at
    every column through the Board."""
    cdef const Geometry* g = b.c_geometry()
    cdef Bits stones[2]
    cdef Bits wins[2]
    cdef Bits playable = b_zero(cells), empty, choice, cell
    cdef int moves = b.c_moves(), side = b.c_side(), col, index
    stones[0] = first
    stones[1] = second
    for col in range(g.columns):
        if b.c_height(col) < g.rows:
            playable = b_or(playable, b_bit(cells, col * g.stride + b.c_height(col)))
    empty = b_and(cells, b_not(b_or(stones[0], stones[1])))
    wins[0] = winning_cells(stones[0], empty, g)
    wins[1] = winning_cells(stones[1], empty, g)
    while moves < g.max_moves:
        if b_any(b_and(playable, wins[side])):
            return side
        choice = b_and(playable, wins[1 - side])
        if b_any(choice):
            index = b_lowest_index(choice)  # the block (the leftmost, as `rollout_move`)
        else:
            index = b_nth_index(playable, rng_below(rng, b_popcount(playable)))
        cell = b_bit(cells, index)
        stones[side] = b_or(stones[side], cell)
        empty = b_xor(empty, cell)
        playable = b_xor(playable, cell)
        if (index % g.stride) + 1 < g.rows:
            playable = b_or(playable, b_bit(cells, index + 1))
        wins[1 - side] = b_and(wins[1 - side], empty)
        wins[side] = winning_cells(stones[side], empty, g)
        moves += 1
        side = 1 - side
    return -1


cdef int four_word_rollout(Board b, Rng* rng) noexcept nogil:
    """`mask_rollout` on four words (15x13, 16x14), which the Board keeps
    as cells: its words are made once a rollout, from the cells."""
    cdef const Geometry* g = b.c_geometry()
    cdef Wide4 stones[2]
    cdef Wide4 cells = wide4_zero()
    cdef int col, row, index
    cdef unsigned char owner
    stones[0] = cells
    stones[1] = cells
    for col in range(g.columns):
        for row in range(g.rows):
            index = col * g.stride + row
            wide_set(&cells, index)
            owner = b.c_cell(col, row)
            if owner:
                wide_set(&stones[owner - 1], index)
    return mask_rollout(stones[0], stones[1], cells, b, rng)


cdef int fast_rollout(Board b, Rng* rng) noexcept nogil:
    """The rollout on the board's words where it has them (up to four),
    else through the Board's methods: the same game either way."""
    cdef const Geometry* g = b.c_geometry()
    if g.bitboard:
        return mask_rollout(b.c_stones(0), b.c_stones(1), g.cells, b, rng)
    if g.wide:
        return mask_rollout(b.c_wide_stones(0), b.c_wide_stones(1), g.wide_cells, b, rng)
    if g.columns * g.stride <= WIDE4_BITS:
        return four_word_rollout(b, rng)
    return rollout(b, rng)


def rollout_winner(Board board, uint64_t seed, bint bitboards=True) -> int:
    """The winner (0, 1, or -1 for a draw) of one rollout from `board`
    with the random numbers of `seed`: on the board's words where it has
    them and `bitboards`, else through the Board's methods."""
    if board.c_is_over():
        return board.c_winner()
    cdef Rng rng
    rng_seed(&rng, seed)
    cdef Board b = board.copy()
    if bitboards:
        return fast_rollout(b, &rng)
    return rollout(b, &rng)


cdef class Mcts:
    """UCT with solver backups over an arena of `arena_nodes` nodes
    (two arenas of 20 bytes a node). With `reuse`, a search from a position
    following the last search's root starts from the subtree found there."""

    def __cinit__(self, long arena_nodes=1 << 20, double exploration=DEFAULT_EXPLORATION, uint64_t seed=1,
                  bint reuse=True):
        if not 2 <= arena_nodes <= (1 << 30):
            raise ValueError(f"arena_nodes={arena_nodes} is out of range: allowed 2..{1 << 30}")
        if not exploration >= 0:
            raise ValueError(f"exploration={exploration} is out of range: allowed 0 or more")
        self.arena = <Node*>PyMem_Malloc(arena_nodes * sizeof(Node))
        self.spare = <Node*>PyMem_Malloc(arena_nodes * sizeof(Node))
        if not self.arena or not self.spare:
            raise MemoryError()
        self.root_moves = None
        self.capacity = arena_nodes
        self.exploration = exploration
        self.reuse = reuse
        self.stop_requested = False
        rng_seed(&self.rng, seed)
        self._reset_tree()

    def __dealloc__(self):
        PyMem_Free(self.arena)
        PyMem_Free(self.spare)

    def stop(self) -> None:
        """Makes the search running in another thread (its simulations run
        without the GIL) return within a simulation, and every later search
        too, until `resume`: what it found stays in the tree."""
        self.stop_requested = True

    def resume(self) -> None:
        """Lets searches run again after `stop`."""
        self.stop_requested = False

    def seed(self, uint64_t seed) -> None:
        """Restarts the random numbers of the rollouts from `seed`."""
        rng_seed(&self.rng, seed)

    @property
    def simulations(self) -> int:
        """Simulations of the last search."""
        return self.simulations

    @property
    def nodes_kept(self) -> int:
        """Nodes the last search kept of the one before (`reuse`)."""
        return self.kept

    @property
    def nodes_used(self) -> int:
        """Arena nodes the last search's tree holds (at most `arena_nodes`)."""
        return self.used

    @property
    def arena_nodes(self) -> int:
        return self.capacity

    cdef void _reset_tree(self) noexcept nogil:
        self.arena[0].first = -1
        self.arena[0].count = -1
        self.arena[0].move = -1
        self.arena[0].visits = 0
        self.arena[0].reward = 0
        self.arena[0].proof = UNPROVEN
        self.used = 1

    cdef long _keep_subtree(self, int index) noexcept nogil:
        """Makes node `index`'s subtree the whole tree, its root at 0 (the
        arena's layout: each node's children in one block); returns the
        nodes kept, or -1 when the search's deadline passed first (a full
        arena is a million nodes to copy: a read of the clock every
        COPY_READ_EVERY nodes). Breadth first into the spare arena, then the
        two swap; a node's `first` holds its old index until its children
        are copied."""
        cdef Node* old = self.arena
        cdef Node* new = self.spare
        cdef long done = 0, used = 1
        cdef int i, source
        new[0] = old[index]
        new[0].move = -1
        new[0].first = index
        while done < used:
            source = new[done].first
            if old[source].count > 0:
                new[done].first = used
                for i in range(old[source].count):
                    new[used + i] = old[old[source].first + i]
                    new[used + i].first = old[source].first + i
                used += old[source].count
            else:
                new[done].first = -1
            done += 1
            if done % COPY_READ_EVERY == 0 and deadline_read(&self.deadline):
                return -1
        self.arena = new
        self.spare = old
        self.used = used
        return used

    cdef bint _expand(self, Board b, int index) noexcept nogil:
        """Gives node `index` (the position of `b`) its children, centre
        first, those that win or end the game already proven; False when
        the arena has no room for them."""
        cdef int legal[MCTS_MAX_COLUMNS]
        cdef int n = b.c_legal_columns(legal)
        cdef int i, col, columns = b.c_geometry().columns
        cdef Node* child
        cdef bint last = b.c_moves() + 1 >= b.c_geometry().max_moves
        cdef int rows = b.c_geometry().rows, threats = 0, threat_col = -1
        if self.used + n > self.capacity:
            return False
        # the opponent's immediate wins: a move that leaves one open, or
        # lets the opponent win on top of it, loses at once (proven here
        # rather than by two more simulations each)
        if not last:
            for i in range(n):
                if b.c_opponent_wins_at(legal[i], b.c_height(legal[i])):
                    threats += 1
                    threat_col = legal[i]
        self.arena[index].first = self.used
        self.arena[index].count = n
        # centre first: ties in the selection go to the central columns
        for i in range(n):
            col = legal[i]
            # order by distance from the centre, stable
            legal[i] = (abs(2 * col - (columns - 1)) << 8) | col
        _sort_ints(legal, n)
        for i in range(n):
            col = legal[i] & 255
            child = &self.arena[self.used + i]
            child.first = -1
            child.count = -1
            child.move = col
            child.visits = 0
            child.reward = 0
            child.proof = UNPROVEN
            if b.c_wins_with(col):
                child.proof = 1
            elif last:
                child.proof = 0
            elif threats > 1 or (threats == 1 and col != threat_col):
                child.proof = -1
            elif b.c_height(col) + 1 < rows and b.c_opponent_wins_at(col, b.c_height(col) + 1):
                child.proof = -1
        self.used += n
        return True

    cdef int _select(self, int index) noexcept nogil:
        """The child of `index` to follow: an unvisited one first, else the
        best by UCT; children proven lost for the mover are skipped while
        another is not. Returns the arena index."""
        cdef Node* node = &self.arena[index]
        cdef int i, best = -1
        cdef double value, best_value = -1.0, log_visits = log(node.visits if node.visits > 0 else 1)
        cdef Node* child
        for i in range(node.count):
            child = &self.arena[node.first + i]
            if child.proof == -1:
                continue
            if child.visits == 0:
                return node.first + i
            if child.proof == 0:
                value = 0.5
            else:
                value = child.reward / child.visits
            value += self.exploration * sqrt(log_visits / child.visits)
            if value > best_value:
                best_value = value
                best = node.first + i
        if best < 0:
            return node.first  # every move loses: any one
        return best

    cdef void _prove(self, int index) noexcept nogil:
        """Node `index`'s proof from its children's, if they settle it: one
        child winning for the side to move there makes it lost for the
        player who moved into it; every child proven, the best of them."""
        cdef Node* node = &self.arena[index]
        cdef int i, best = -2
        cdef Node* child
        if node.proof != UNPROVEN or node.count <= 0:
            return
        for i in range(node.count):
            child = &self.arena[node.first + i]
            if child.proof == 1:
                node.proof = -1
                return
            if child.proof == UNPROVEN:
                best = 2
            elif child.proof > best and best != 2:
                best = child.proof
        if best != 2:
            node.proof = -best

    cdef void _simulate(self, Board b) noexcept nogil:
        """One simulation from the root (the position of `b`, which it
        leaves as it found it)."""
        cdef int depth = 0, index = 0, winner, i, mover, root_side = b.c_side()
        cdef Node* node
        self.path[0] = 0
        # down the tree while the node is expanded and unproven
        while True:
            node = &self.arena[index]
            if node.proof != UNPROVEN:
                break
            if node.count < 0:
                if node.visits == 0 and index != 0:
                    break
                if not self._expand(b, index):
                    break
                self._prove(index)
                if node.proof != UNPROVEN:
                    break
            if node.count == 0:
                break
            index = self._select(index)
            b.c_play(self.arena[index].move)
            depth += 1
            self.path[depth] = index
            if depth + 1 >= MCTS_MAX_DEPTH:
                break
        node = &self.arena[index]
        if node.proof != UNPROVEN:
            # the winner from the proof: the player who moved into the node
            # is the side to move now's opponent
            mover = 1 - b.c_side()
            winner = -1 if node.proof == 0 else (mover if node.proof == 1 else 1 - mover)
        else:
            winner = fast_rollout(b, &self.rng)
        # back up the result and the proofs, taking the path's moves back
        for i in range(depth, -1, -1):
            index = self.path[i]
            node = &self.arena[index]
            mover = (root_side + i - 1) & 1
            node.visits += 1
            if winner < 0:
                node.reward += 0.5
            elif winner == mover:
                node.reward += 1.0
            self._prove(index)
            if i > 0:
                b.c_undo()
        self.simulations += 1

    def search(self, Board board, limits: Limits = Limits()) -> SearchResult:
        """Simulations from `board` until `limits` run out (`time` seconds,
        `nodes` simulations; at least one limit must be set), the root is
        proven or `stop` is called; one simulation at least. The move: a winning one when proven; else the most visited
        among those not proven lost (when every move is, the most visited).
        `score` is the proven value (1, 0, -1, `proven` set) or the move's
        mean result scaled to -1000..1000; `nodes` counts simulations."""
        if board.c_is_over():
            raise ValueError("the game is over: there is no move to search")
        if limits.time <= 0 and limits.nodes <= 0:
            raise ValueError("limits: set time or nodes, or the search would never end")
        if self.capacity < 1 + board.columns:
            raise ValueError(f"arena_nodes={self.capacity} cannot hold the root and its "
                             f"{board.columns} children: allowed {1 + board.columns} or more for this board")
        cdef double started = monotonic()
        cdef Board b = board.copy()
        deadline_start(&self.deadline, limits.time, limits.reserve)
        self.max_simulations = limits.nodes
        self.simulations = 0
        self.kept = self._reuse(board) if self.reuse else 0
        with nogil:
            # one simulation at least: it expands the root, which the move comes from
            while self.arena[0].proof == UNPROVEN:
                self._simulate(b)
                if self.stop_requested:
                    break
                if self.max_simulations > 0 and self.simulations >= self.max_simulations:
                    break
                if deadline_passed(&self.deadline):
                    break
        cdef int best = self._best_child()
        cdef Node* child = &self.arena[best]
        proven = child.proof != UNPROVEN and (self.arena[0].proof != UNPROVEN or child.proof == 1)
        if child.proof != UNPROVEN:
            score = int(child.proof)
        else:
            score = int(round(1000 * (2 * child.reward / child.visits - 1))) if child.visits else 0
        return SearchResult(int(child.move), score, 0, self.simulations, monotonic() - started,
                            proven, True, "mcts", late=self.deadline.late if self.deadline.passed else None,
                            read_gap=self.deadline.gap, stall=self.deadline.stall)

    cdef long _reuse(self, Board board) except -1:
        """Keeps the part of the last search's tree below `board`, when
        `board` follows from its root (the same game, moves added); else
        starts a new tree. Returns the nodes kept."""
        moves = board.moves()
        previous = self.root_moves
        self.root_moves, rules, self.root_rules = moves, self.root_rules, board.rules
        if previous is None or rules != board.rules or moves[:len(previous)] != previous:
            self._reset_tree()
            return 0
        cdef int index = 0, i, col
        cdef long kept
        cdef Node* node
        for col in moves[len(previous):]:
            node = &self.arena[index]
            if node.count <= 0:
                self._reset_tree()
                return 0
            for i in range(node.count):
                if self.arena[node.first + i].move == col:
                    index = node.first + i
                    break
            else:
                self._reset_tree()
                return 0
        kept = self._keep_subtree(index)
        if kept < 0:
            self._reset_tree()
            return 0
        if self.arena[0].count < 0:
            # proven at its parent's expansion, never expanded: the search
            # expands it, for a move to answer with
            self.arena[0].proof = UNPROVEN
        return kept

    cdef int _best_child(self) except -1:
        cdef Node* root = &self.arena[0]
        cdef int i, best = -1
        cdef long key, best_key = -1
        cdef Node* child
        for i in range(root.count):
            child = &self.arena[root.first + i]
            # proven wins first, then unproven and draws by visits, losses last
            if child.proof == 1:
                key = 1L << 40
            elif child.proof == -1:
                key = child.visits
            else:
                key = (1L << 32) + child.visits
            if key > best_key:
                best_key = key
                best = root.first + i
        return best

    def root_children(self) -> list[tuple[int, int, float, int | None]]:
        """The last search's root moves: (column, visits, mean result for
        the side to move, proven value 1 / 0 / -1 or None), centre first."""
        cdef Node* root = &self.arena[0]
        cdef Node* child
        out = []
        for i in range(max(root.count, 0)):
            child = &self.arena[root.first + i]
            out.append((int(child.move), int(child.visits),
                        float(child.reward / child.visits) if child.visits else 0.5,
                        None if child.proof == UNPROVEN else int(child.proof)))
        return out

    @property
    def root_proof(self) -> int | None:
        """The last search's proven value of the root for its side to move (1, 0, -1), or None."""
        cdef int proof = self.arena[0].proof
        return None if proof == UNPROVEN else -proof


cdef inline void _sort_ints(int* a, int n) noexcept nogil:
    cdef int i, j, x
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x
