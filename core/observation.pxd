# What a learning agent sees of a position: the board as two planes of
# 0/1 bytes and the playable columns as a mask, written straight into
# caller-owned memory so the batched stepper and the environments share one
# encoding.
from libc.stdint cimport int8_t

from .board cimport Board

cdef void write_planes(Board board, int player, int8_t* out) noexcept nogil
cdef void write_mask(Board board, int8_t* out) noexcept nogil
