# Fixed-depth negamax over the weighted evaluation: the evaluator player's
# search and the Connect-4 report's node table (minimax, alpha-beta in
# column order, alpha-beta centre first).
from .board cimport Board
from .evaluate cimport Evaluation

cdef class DepthLimited:
    cdef readonly Evaluation evaluation
    cdef readonly long long nodes     # visited by the last call, the root included

    cdef int negamax(self, Board b, int depth, int alpha, int beta, int ply,
                     bint prune, bint centre_first) noexcept nogil
