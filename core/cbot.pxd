from .board cimport Board

cdef class CBot:
    # The column the side to move plays on `board`, or -1 when it has no
    # legal move. `board` is left as it was (implementations play and undo).
    cdef int c_choose(self, Board board) noexcept nogil
