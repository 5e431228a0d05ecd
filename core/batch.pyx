# cython: boundscheck=False, wraparound=False
"""Many games stepped at once, for reinforcement-learning throughput.

`BatchBoards(count, columns, rows, c, p)` holds `count` clinea Boards and
moves all of them with one call: `step(actions)` plays one column on every
board and answers with numpy arrays (observations, action masks, rewards,
dones), so a training loop crosses from Python into C once per batch, not
once per move. The boards are the one Board of clinea, so every size the
core plays works: the 64-bit bitboard sizes (7x6, 8x7) at full speed, the
wider ones (9x8 ... 128x128) through the same Board methods, slower as
those boards are.

Observations are those of core/observation.pyx, seen by the side to move
after the step: a self-play policy reads every board as "my stones, their
stones". A reward is for the player who just moved: 1 for a winning move,
else 0 (the loser learns it from the next observation's done). With
`auto_reset` (the default) a finished board starts again at once and its
observation is the new empty board's; without it, a finished board keeps
its final position and ignores its actions until `reset` names it.
"""
import numpy as np

from libc.stdint cimport int8_t, int64_t

from .board cimport Board
from .observation cimport write_mask, write_planes

from clinea.core.rules import Rules


cdef class BatchBoards:
    """`count` games of the same rules, stepped together (see the module)."""

    cdef list boards
    cdef readonly int count
    cdef readonly object rules
    cdef readonly bint auto_reset
    cdef int columns
    cdef int plane_bytes

    def __init__(self, int count, columns=7, rows=6, c=4, p=None, bint auto_reset=True):
        if count < 1:
            raise ValueError(f"count={count} is out of range: allowed 1 or more")
        self.rules = Rules(columns, rows, c, p)
        self.boards = [Board(*self.rules) for _ in range(count)]
        self.count = count
        self.auto_reset = auto_reset
        self.columns = self.rules.columns
        self.plane_bytes = self.rules.rows * self.rules.columns * 2

    def board(self, int index) -> Board:
        """A copy of board `index` (0 <= index < count)."""
        if not 0 <= index < self.count:
            raise ValueError(f"index={index} is out of range: allowed 0..{self.count - 1}")
        return (<Board>self.boards[index]).copy()

    def reset(self, indices=None) -> tuple[np.ndarray, np.ndarray]:
        """Empties every board, or only those in `indices`; returns
        (observations, masks) of all boards."""
        cdef Board board
        if indices is None:
            for board in self.boards:
                board.c_reset()
        else:
            chosen = np.asarray(indices, dtype=np.int64).reshape(-1)
            bad = chosen[(chosen < 0) | (chosen >= self.count)]
            if bad.size:
                raise ValueError(f"index {int(bad[0])} is out of range: allowed 0..{self.count - 1}")
            for index in chosen:
                (<Board>self.boards[index]).c_reset()
        return self.observe()

    def observe(self) -> tuple[np.ndarray, np.ndarray]:
        """(observations, masks) of every board as it stands: int8 arrays of
        shape (count, rows, columns, 2) and (count, columns)."""
        observations, masks = self._empty_arrays()
        cdef int8_t[:, :, :, ::1] planes = observations
        cdef int8_t[:, ::1] mask = masks
        cdef Board board
        cdef int i
        for i in range(self.count):
            board = <Board>self.boards[i]
            write_planes(board, board.c_side(), &planes[i, 0, 0, 0])
            write_mask(board, &mask[i, 0])
        return observations, masks

    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Plays `actions[i]` (a column) on board i, for every board.

        Returns (observations, masks, rewards, dones): observations and masks
        as `observe` gives them (after any auto-reset), rewards float32 (1
        where the move won), dones bool (the move ended the game, or the board
        was already finished without auto-reset). A column that board i cannot
        play raises ValueError before any board moves."""
        columns = np.asarray(actions)
        if columns.shape != (self.count,) or columns.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.count} integer columns, got shape {columns.shape} "
                             f"of {columns.dtype}")
        cdef int64_t[::1] column = np.ascontiguousarray(columns, dtype=np.int64)
        cdef Board board
        cdef int i
        for i in range(self.count):
            board = <Board>self.boards[i]
            if not board.c_is_over() and not (0 <= column[i] < self.columns and board.c_can_play(column[i])):
                raise ValueError(f"board {i}: column {column[i]} cannot be played, legal are {board.legal_columns()}")
        observations, masks = self._empty_arrays()
        rewards = np.zeros(self.count, dtype=np.float32)
        dones = np.zeros(self.count, dtype=np.bool_)
        cdef int8_t[:, :, :, ::1] planes = observations
        cdef int8_t[:, ::1] mask = masks
        cdef float[::1] reward = rewards
        cdef int8_t[::1] done = dones.view(np.int8)
        for i in range(self.count):
            board = <Board>self.boards[i]
            if board.c_is_over():
                done[i] = 1
            else:
                board.c_play(<int>column[i])
                if board.c_is_over():
                    done[i] = 1
                    reward[i] = board.c_winner() >= 0
                    if self.auto_reset:
                        board.c_reset()
            write_planes(board, board.c_side(), &planes[i, 0, 0, 0])
            write_mask(board, &mask[i, 0])
        return observations, masks, rewards, dones

    def _empty_arrays(self):
        rows, columns = self.rules.rows, self.rules.columns
        return (np.empty((self.count, rows, columns, 2), dtype=np.int8),
                np.empty((self.count, columns), dtype=np.int8))
