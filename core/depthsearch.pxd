# Depth-limited search without the strong player's refinements: plain
# minimax and alpha-beta in column order, for the Connect-4 report's table.
from .board cimport Board
from .evaluate cimport Evaluation

cdef class DepthLimited:
    cdef Evaluation ev
    cdef long long nodes

    cdef int negamax(self, Board b, int depth, int alpha, int beta, int ply, bint prune) noexcept nogil
