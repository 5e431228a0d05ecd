# cython: boundscheck=False, wraparound=False
"""A whole game between two Cython bots without returning to Python per move.

This is training's fast path: the judge's referee (clinea.judge.referee)
costs about 8 us of Python per move around a 3 us greedy decision, which
doubles a training run. Here the same core Board rules decide every move and
the outcome, and the caller turns the result into the judge's GameResult with
the same winner/reason semantics (see clinea.training.games).
"""
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from .board cimport Board
from .cbot cimport CBot

cdef enum:
    C_ILLEGAL_BY_FIRST = -2
    C_ILLEGAL_BY_SECOND = -3

ILLEGAL_BY_FIRST = C_ILLEGAL_BY_FIRST
ILLEGAL_BY_SECOND = C_ILLEGAL_BY_SECOND


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


def play_cbots(CBot first, CBot second, Board board, double[:] times):
    """Plays `first` (the side to move on `board`) against `second` on
    `board` until the game ends. `times[i]` receives the thinking time of the
    i-th move played here (its length must be at least the moves left).

    Returns (outcome, column): outcome is the winner (0/1, as Board.winner),
    -1 for a draw, or ILLEGAL_BY_FIRST / ILLEGAL_BY_SECOND when that bot
    answered `column`, which is not a legal move (the game stops there)."""
    cdef int start = board.c_side()
    cdef int col = -1, i = 0, side
    cdef double t0
    cdef int outcome = -1
    if times.shape[0] < board.c_geometry().max_moves - board.c_moves():
        raise ValueError(f"times has {times.shape[0]} slots, "
                         f"the game may need {board.c_geometry().max_moves - board.c_moves()}")
    first.prepare(board)
    second.prepare(board)
    with nogil:
        while not board.c_is_over():
            side = board.c_side()
            t0 = _now()
            if side == start:
                col = first.c_choose(board)
            else:
                col = second.c_choose(board)
            times[i] = _now() - t0
            if not board.c_can_play(col):
                outcome = C_ILLEGAL_BY_FIRST if side == start else C_ILLEGAL_BY_SECOND
                break
            board.c_play(col)
            i += 1
        else:
            outcome = board.c_winner()
    return outcome, col
