# cython: boundscheck=False, wraparound=False
"""Plain exact minimax, without pruning or memory: the seed's optimal player,
kept as the simplest exact reference and for experiments on small boards.

Values are for the side to move: 1 win, 0 draw, -1 loss. The whole game tree
is walked, so the cost grows with the number of move sequences: a 4x4 board
is instant, 5x4 takes seconds, 7x6 from the start is out of reach.
"""
from .board cimport Board


cdef int negamax(Board b, long long* nodes) noexcept:
    """Value of `b` for the side to move, over the Board's C API."""
    cdef int col, v
    cdef int best = -1
    nodes[0] += 1
    if b.winner_ >= 0:
        return -1  # the previous move won
    if b.moves_played >= b.g.max_moves:
        return 0
    for col in range(b.g.columns):
        if b.c_can_play(col):
            b.c_play(col)
            v = -negamax(b, nodes)
            b.c_undo()
            if v > best:
                best = v
    return best


def minimax_value(Board board) -> tuple[int, int]:
    """(value, nodes): the exact value of `board` for the side to move (1 win,
    0 draw, -1 loss; a finished game is -1 or 0) and the positions visited."""
    cdef long long nodes = 0
    cdef Board work = board.copy()
    cdef int value = negamax(work, &nodes)
    return value, nodes


def minimax_analyze(Board board) -> tuple[list, int]:
    """(values, nodes): the value of playing each column for the side to
    move (None where it cannot be played) and the positions visited."""
    cdef long long nodes = 0
    cdef Board work = board.copy()
    values = []
    for col in range(work.g.columns):
        if work.c_is_over() or not work.c_can_play(col):
            values.append(None)
            continue
        work.c_play(col)
        values.append(-negamax(work, &nodes))
        work.c_undo()
    return values, nodes
