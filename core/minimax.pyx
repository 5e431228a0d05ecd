# cython: boundscheck=False, wraparound=False
"""Plain exact minimax, without pruning or memory: the seed's optimal player,
kept as the simplest exact reference and for experiments on small boards.

Values are for the side to move: 1 win, 0 draw, -1 loss. The whole game tree
is walked, so the cost grows with the number of move sequences: a 4x4 board
is instant, 5x4 c3 takes minutes, 7x6 from the start is out of reach. A
time limit makes a search give up (None) instead of running on.
"""
from .board cimport Board
from .clock cimport Deadline, deadline_passed, deadline_start


cdef struct NodeBudget:
    long long nodes
    Deadline deadline
    bint aborted


cdef int negamax(Board b, NodeBudget* budget) noexcept:
    """Value of `b` for the side to move, over the Board's C API (meaningless
    once budget.aborted is set)."""
    cdef int col, v
    cdef int best = -1
    budget.nodes += 1
    if deadline_passed(&budget.deadline):
        budget.aborted = True
    if budget.aborted:
        return 0
    if b.c_winner() >= 0:
        return -1  # the previous move won
    if b.c_moves() >= b.c_geometry().max_moves:
        return 0
    for col in range(b.c_geometry().columns):
        if b.c_can_play(col):
            b.c_play(col)
            v = -negamax(b, budget)
            b.c_undo()
            if v > best:
                best = v
    return best


cdef NodeBudget start_budget(double time_limit):
    if time_limit < 0:
        raise ValueError(f"time_limit={time_limit} is out of range: allowed 0 (no limit) or more")
    cdef NodeBudget budget
    budget.nodes = 0
    deadline_start(&budget.deadline, time_limit, 0.0)
    budget.aborted = False
    return budget


def minimax_value(Board board, double time_limit=0.0) -> tuple:
    """(value, nodes): the exact value of `board` for the side to move (1 win,
    0 draw, -1 loss; a finished game is -1 or 0), or None when `time_limit`
    seconds (0: none) ran out, and the positions visited."""
    cdef NodeBudget budget = start_budget(time_limit)
    cdef Board work = board.copy()
    cdef int value = negamax(work, &budget)
    return (None if budget.aborted else value), budget.nodes


def minimax_analyze(Board board, double time_limit=0.0) -> tuple:
    """(values, nodes): the value of playing each column for the side to
    move (None where it cannot be played), or None when `time_limit` seconds
    (0: none) ran out, and the positions visited."""
    cdef NodeBudget budget = start_budget(time_limit)
    cdef Board work = board.copy()
    values = []
    for col in range(work.c_geometry().columns):
        if work.c_is_over() or not work.c_can_play(col):
            values.append(None)
            continue
        work.c_play(col)
        values.append(-negamax(work, &budget))
        work.c_undo()
    return (None if budget.aborted else values), budget.nodes
