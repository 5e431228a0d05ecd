# Board features for the greedy player and its training.
# The weight/feature vector layout is defined once, in features.pyx
# (see its module docstring); these offsets are the C side of it.
from libc.stdint cimport uint8_t

from .board cimport Board

cdef enum:
    F_CENTRE = 0
    F_BORDERS = 1
    F_CORNERS = 2
    F_LIBERTIES = 3
    F_SCALARS = 4       # scalar features come first, then the four run vectors
    F_RUN_KINDS = 4     # consecutive, extensible, extensible next turn, bi-extensible

cdef int c_run_lengths(int c) noexcept nogil
cdef int c_feature_count(int c) noexcept nogil
cdef int c_grid_size(int columns, int rows) noexcept nogil
cdef void c_board_grid(Board board, uint8_t* grid) noexcept nogil
cdef void c_count_features(const uint8_t* grid, int columns, int rows,
                           int nlen, int* counts) noexcept nogil
cdef void c_count_windows(const uint8_t* grid, int columns, int rows, int c,
                          int nlen, int* counts) noexcept nogil
