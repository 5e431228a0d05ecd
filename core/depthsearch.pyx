# cython: boundscheck=False, wraparound=False
"""Fixed-depth negamax over the weighted evaluation, in three modes:

  minimax    every node to the depth, no pruning;
  alphabeta  alpha-beta, moves tried left to right;
  ordered    alpha-beta, moves tried from the centre out (the evaluator
             player's search: cheaper cut-offs, the same value).

All three return the same value for the same depth and evaluation; only the
nodes visited differ, which is the Connect-4 report's table. Scores are for
the side to move: a win on the move at ply q from the root scores
WIN - q - 1 (faster wins score higher), a draw 0, as in clinea.core.search.
"""
from .board cimport Board
from .evaluate cimport Evaluation
from .search cimport INFINITE, MAX_COLUMNS, WIN

from clinea.core.evaluate import REPORT_WEIGHTS

MODES = ("minimax", "alphabeta", "ordered")


cdef int centre_out(Board b, int* out) noexcept nogil:
    """The legal columns by distance from the centre, the left one first on a
    tie: the order a stable sort by centrality gives."""
    cdef int columns = b.c_geometry().columns, n = 0, spread, left, right
    spread = (columns - 1) % 2     # |2 col - (columns - 1)| has the parity of columns - 1
    while spread < columns:
        left = (columns - 1 - spread) // 2
        right = (columns - 1 + spread) // 2
        if b.c_can_play(left):
            out[n] = left
            n += 1
        if right != left and b.c_can_play(right):
            out[n] = right
            n += 1
        spread += 2
    return n


cdef class DepthLimited:
    """`weights`: the evaluation's (clinea.core.evaluate.FEATURES), by
    default the evaluator player's. `nodes`: visited by the last call, the
    root included."""

    def __cinit__(self, weights=REPORT_WEIGHTS):
        self.evaluation = Evaluation(weights)
        self.nodes = 0

    cdef int negamax(self, Board b, int depth, int alpha, int beta, int ply,
                     bint prune, bint centre_first) noexcept nogil:
        cdef int moves[MAX_COLUMNS]
        cdef int n, i, value, best
        self.nodes += 1
        if b.c_winner() >= 0:
            return -(WIN - ply)
        if b.c_moves() >= b.c_geometry().max_moves:
            return 0
        if depth <= 0:
            return self.evaluation.c_evaluate(b)
        n = centre_out(b, moves) if centre_first else b.c_legal_columns(moves)
        best = -INFINITE
        for i in range(n):
            b.c_play(moves[i])
            value = -self.negamax(b, depth - 1, -beta, -alpha, ply + 1, prune, centre_first)
            b.c_undo()
            if value > best:
                best = value
            if prune:
                if value > alpha:
                    alpha = value
                if alpha >= beta:
                    break
        return best

    def value(self, Board board, int depth, str mode="ordered") -> int:
        """The negamax value of `board` for the side to move, `depth` plies
        deep, searched by `mode` (see MODES); `nodes` then tells the cost."""
        if depth < 0:
            raise ValueError(f"depth={depth} is out of range: allowed 0 or more")
        if mode not in MODES:
            raise ValueError(f"mode {mode!r} is unknown: allowed {', '.join(MODES)}")
        cdef bint prune = mode != "minimax"
        cdef bint centre_first = mode == "ordered"
        cdef Board b = board.copy()
        cdef int result
        self.evaluation.prepare(b)
        self.nodes = 0
        with nogil:
            result = self.negamax(b, depth, -INFINITE, INFINITE, 0, prune, centre_first)
        return result

    def best_move(self, Board board, int depth) -> tuple:
        """(column, value) of the centre-first alpha-beta to `depth` plies
        (>= 1); ties go to the most central column."""
        if depth < 1:
            raise ValueError(f"depth={depth} is out of range: allowed 1 or more")
        if board.c_is_over():
            raise ValueError("the game is over: there is no move to search")
        cdef Board b = board.copy()
        cdef int moves[MAX_COLUMNS]
        cdef int n, i, value, best = -INFINITE, best_col
        self.evaluation.prepare(b)
        self.nodes = 0
        n = centre_out(b, moves)
        best_col = moves[0]
        for i in range(n):
            b.c_play(moves[i])
            value = -self.negamax(b, depth - 1, -INFINITE, -best, 1, True, True)
            b.c_undo()
            if value > best:
                best = value
                best_col = moves[i]
        return best_col, best
