# cython: boundscheck=False, wraparound=False
"""Depth-limited negamax over the weighted evaluation, with or without
alpha-beta pruning, moves tried left to right: the two baselines of the
Connect-4 report's node table. The ordered alpha-beta beside them is
`Search.value` (clinea.core.search), centre first.

The three return the same value for the same depth and evaluation (pruning
and ordering change only how many nodes are visited), scored like
clinea.core.search: a win on the move at ply q is WIN - q - 1, a draw 0.
"""
from .board cimport Board
from .evaluate cimport Evaluation
from .search cimport INFINITE, MAX_COLUMNS, WIN

from clinea.core.evaluate import REPORT_WEIGHTS

MODES = ("minimax", "alphabeta")
"""minimax: every node to the depth; alphabeta: cut-offs, no move ordering."""


cdef class DepthLimited:
    """`weights`: the evaluation's (clinea.core.evaluate.FEATURES), by
    default the evaluator player's."""

    def __cinit__(self, weights=REPORT_WEIGHTS):
        self.ev = Evaluation(weights)
        self.nodes = 0

    @property
    def nodes(self) -> int:
        """Nodes visited by the last `value` (the root included)."""
        return self.nodes

    cdef int negamax(self, Board b, int depth, int alpha, int beta, int ply, bint prune) noexcept nogil:
        cdef int moves[MAX_COLUMNS]
        cdef int n, i, value, best
        self.nodes += 1
        if b.winner_ >= 0:
            return -(WIN - ply)
        if b.moves_played >= b.g.max_moves:
            return 0
        if depth <= 0:
            return self.ev.c_evaluate(b)
        n = b.c_legal_columns(moves)
        best = -INFINITE
        for i in range(n):
            b.c_play(moves[i])
            value = -self.negamax(b, depth - 1, -beta, -alpha, ply + 1, prune)
            b.c_undo()
            if value > best:
                best = value
            if prune:
                if value > alpha:
                    alpha = value
                if alpha >= beta:
                    break
        return best

    def value(self, Board board, int depth, str mode="minimax") -> int:
        """The negamax value of `board` for the side to move, `depth` plies
        deep, searched by `mode` (see MODES); `nodes` then tells the cost."""
        if depth < 0:
            raise ValueError(f"depth={depth} is out of range: allowed 0 or more")
        if mode not in MODES:
            raise ValueError(f"mode {mode!r} is unknown: allowed {', '.join(MODES)}")
        cdef bint prune = mode == "alphabeta"
        cdef Board b = board.copy()
        cdef int result
        self.ev.prepare(b)
        self.nodes = 0
        with nogil:
            result = self.negamax(b, depth, -INFINITE, INFINITE, 0, prune)
        return result
