from libc.stdint cimport int8_t, int16_t, int32_t

from .board cimport Board
from .clock cimport Deadline
from .rng cimport Rng

cdef enum:
    MCTS_MAX_COLUMNS = 128   # MAX_SIDE of the board
    MCTS_MAX_DEPTH = 16384   # plies a path can hold: MAX_SIDE * MAX_SIDE
    UNPROVEN = 2             # Node.proof while the value is unknown

cdef struct Node:
    # one position of the tree, reached by `move` from its parent; its
    # children are `count` nodes from `first` in the arena (count -1: not
    # expanded yet). `reward`: sum of the simulations' results for the
    # player who made `move` (1 win, 0.5 draw, 0 loss); `proof`: the
    # proven value for that player (1, 0, -1) or UNPROVEN
    int32_t first
    int16_t count
    int16_t move
    int32_t visits
    float reward
    int8_t proof

cdef class Mcts:
    cdef Node* arena
    cdef Node* spare         # as large: where a kept subtree is copied to
    cdef object root_moves   # the moves of the last search's root, and its rules
    cdef object root_rules
    cdef long capacity       # nodes the arena holds
    cdef long used           # nodes handed out
    cdef long kept           # nodes the last search started with
    cdef bint reuse
    cdef double exploration
    cdef Rng rng
    cdef long long simulations
    cdef Deadline deadline
    cdef long long max_simulations
    cdef bint stop_requested  # set by `Mcts.stop` from another thread; cleared by `Mcts.resume`
    cdef int path[MCTS_MAX_DEPTH]

    cdef void _reset_tree(self) noexcept nogil
    cdef long _keep_subtree(self, int index) noexcept nogil
    cdef bint _expand(self, Board b, int index) noexcept nogil
    cdef int _select(self, int index) noexcept nogil
    cdef void _prove(self, int index) noexcept nogil
    cdef void _simulate(self, Board b) noexcept nogil
    cdef int _best_child(self) except -1
    cdef long _reuse(self, Board board) except -1
