# cython: boundscheck=False, wraparound=False
"""What a learning agent sees of a position, as numpy arrays.

The layout is PettingZoo's connect_four_v3's, generalised to any size:
planes of shape (rows, columns, 2), row 0 at the top, plane 0 the stones of
the player the observation is for and plane 1 the opponent's; the mask
holds 1 for every column that can be played now (none once the game is
over). The batched stepper (core/batch.pyx) and the PettingZoo, Gymnasium
and OpenSpiel bridges all read positions through these two functions.
"""
import numpy as np

from libc.stdint cimport int8_t

from .board cimport Board


cdef void write_planes(Board board, int player, int8_t* out) noexcept nogil:
    """Fills rows * columns * 2 bytes at `out` with the planes of `board`
    as `player` (0 or 1) sees them."""
    cdef int columns = board.c_geometry().columns
    cdef int rows = board.c_geometry().rows
    cdef int col, row, at
    cdef int mine = player + 1
    cdef int cell
    for row in range(rows):
        at = (rows - 1 - row) * columns * 2
        for col in range(columns):
            cell = board.c_cell(col, row)
            out[at] = cell == mine
            out[at + 1] = cell != 0 and cell != mine
            at += 2


cdef void write_mask(Board board, int8_t* out) noexcept nogil:
    """Fills `columns` bytes at `out`: 1 where a stone can go now."""
    cdef int col
    cdef int rows = board.c_geometry().rows
    cdef bint over = board.c_is_over()
    for col in range(board.c_geometry().columns):
        out[col] = not over and board.c_height(col) < rows


def planes(Board board, int player) -> np.ndarray:
    """The (rows, columns, 2) int8 planes of `board` as `player` (0 first,
    1 second) sees them: plane 0 theirs, plane 1 the opponent's, row 0 the top."""
    if player not in (0, 1):
        raise ValueError(f"player={player!r} is out of range: allowed 0 or 1")
    out = np.empty((board.rows, board.columns, 2), dtype=np.int8)
    cdef int8_t[:, :, ::1] view = out
    write_planes(board, player, &view[0, 0, 0])
    return out


def action_mask(Board board) -> np.ndarray:
    """The (columns,) int8 mask of `board`: 1 for every playable column,
    all 0 once the game is over."""
    out = np.empty(board.columns, dtype=np.int8)
    cdef int8_t[::1] view = out
    write_mask(board, &view[0])
    return out
