from libc.stdint cimport int8_t, int32_t, uint64_t

from .bitboard cimport Geometry

cdef enum:
    BOOK_MISS = -1000    # book_score: the position is not in the book

cdef struct BookView:
    # Exact scores of every standard 7x6 position with `ply` stones (those a
    # search can meet: the side to move cannot win at once), sorted by code.
    const int32_t* codes
    const int8_t* values
    Py_ssize_t size
    int ply              # -1: no book
    unsigned char* seen  # NULL, or one byte per entry set when a lookup finds it (OpeningBook.record_lookups)

cdef bint book_covers(const Geometry* g) noexcept nogil
cdef int book_score(const BookView* book, uint64_t current, uint64_t mask) noexcept nogil

cdef class OpeningBook:
    cdef BookView view
    cdef object codes_
    cdef object values_
    cdef object seen_
