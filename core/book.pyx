# cython: boundscheck=False, wraparound=False
"""Opening book of standard Connect-4 (7x6, c = 4, p = 21): the exact score
of every position with 12 stones, so that a search from an early position
ends 12 plies deep instead of at the end of the game.

The data is the 12-ply database with win distances of the MIT-licensed
`bitbully-databases` package (4.2 million positions, 21 MB): computing it
takes days of CPU time, reading it 0.1 s. Its file is a sorted array of 5-byte
entries, a big-endian int32 position code then an int8 value:

- the code walks the columns left to right, each bottom to top: a stone of
  the player who moved first is the bits 10, of the other player 11, and
  every column ends with a 0, then one more 0 closes the code: 12 stones
  make exactly 32 bits. A position is stored once for itself and its
  mirror image, under either code;
- the value is for the first player (to move after 12 stones): 0 a draw,
  100 - d when it wins d plies from now, -(100 - d) when it loses d plies
  from now. Our score (see `solver`) is then (value - 69) / 2 for a win and
  (value + 68) / 2 for a loss.

Positions where the side to move wins at once are not in the file; the
solver never asks for them.
"""
from cpython.array cimport array, clone
from libc.stdint cimport int8_t, int32_t, uint32_t, uint64_t

from .bitboard cimport Geometry
from .board cimport Board

BOOK_PLY = 12
# The 12-ply book is 21 MB (4.2 million entries of 5 bytes).
FILE_LIMIT = 64 << 20

cdef enum:
    STRIDE = 7           # rows + 1 bits per column on the 7x6 bitboard


cdef bint book_covers(const Geometry* g) noexcept nogil:
    """Whether the book's positions are those of this game: 7x6, c = 4, and
    both sides able to place all 21 of their stones."""
    return g.bitboard and g.columns == 7 and g.rows == 6 and g.c == 4 and g.max_moves == 42


cdef inline int32_t position_code(uint64_t first, uint64_t mask, bint mirrored) noexcept nogil:
    cdef uint32_t code = 0
    cdef int i, col, row
    cdef uint64_t cell
    for i in range(7):
        col = 6 - i if mirrored else i
        for row in range(6):
            cell = (<uint64_t>1) << (col * STRIDE + row)
            if not (mask & cell):
                break
            code = (code << 2) | (2 if first & cell else 3)
        code <<= 1
    return <int32_t>(code << 1)


cdef inline Py_ssize_t find(const BookView* book, int32_t code) noexcept nogil:
    cdef Py_ssize_t lo = 0, hi = book.size, mid
    while lo < hi:
        mid = lo + (hi - lo) // 2
        if book.codes[mid] < code:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo < book.size and book.codes[lo] == code else -1


cdef int book_score(const BookView* book, uint64_t current, uint64_t mask) noexcept nogil:
    """Exact score for the side to move of a 7x6 position with book.ply
    stones (`current`: the side to move's stones), or BOOK_MISS."""
    cdef Py_ssize_t at = find(book, position_code(current, mask, False))
    cdef int value
    if at < 0:
        at = find(book, position_code(current, mask, True))
        if at < 0:
            return BOOK_MISS
    if book.seen != NULL:
        book.seen[at] = 1
    value = book.values[at]
    if value > 0:
        return (value - 69) // 2
    if value < 0:
        return (value + 68) // 2
    return 0


cdef Py_ssize_t parse_entries(const unsigned char* raw, Py_ssize_t size,
                              int32_t* codes, int8_t* values) noexcept nogil:
    """Decodes `size` 5-byte entries; returns the index of the first code not
    above the one before it, or -1 when they strictly increase."""
    cdef Py_ssize_t i
    cdef const unsigned char* e
    for i in range(size):
        e = raw + 5 * i
        codes[i] = <int32_t>((<uint32_t>e[0] << 24) | (<uint32_t>e[1] << 16) | (<uint32_t>e[2] << 8) | e[3])
        values[i] = <int8_t>e[4]
        if i and codes[i] <= codes[i - 1]:
            return i
    return -1


cdef class OpeningBook:
    """The book's arrays, kept alive for the BookView that points into them:
    `codes` (int32) and `values` (int8), any buffers of one length."""

    def __cinit__(self, codes, values):
        cdef const int32_t[::1] code_view = codes
        cdef const int8_t[::1] value_view = values
        if code_view.shape[0] != value_view.shape[0]:
            raise ValueError(f"{code_view.shape[0]} codes and {value_view.shape[0]} values: one length needed")
        self.codes_ = codes
        self.values_ = values
        self.view.size = code_view.shape[0]
        self.view.codes = &code_view[0] if self.view.size else NULL
        self.view.values = &value_view[0] if self.view.size else NULL
        self.view.ply = BOOK_PLY
        self.view.seen = NULL
        self.seen_ = None

    @classmethod
    def from_file(cls, path):
        """The book in a file of the format above. Decoded in C, without
        numpy: its import alone took longer than the whole load does now."""
        from clinea.bounded import read_file
        raw = read_file(path, FILE_LIMIT)
        if len(raw) % 5:
            raise ValueError(f"{path}: {len(raw)} bytes is not a whole number of 5-byte entries, not a 12-ply book")
        cdef Py_ssize_t size = len(raw) // 5, bad
        # left unset, every entry decoded below without the GIL: strong loads
        # the book in a thread beside its first move, and zeroed arrays held
        # the GIL 20 ms (the move waited for it)
        codes = clone(array("i"), size, False)
        values = clone(array("b"), size, False)
        cdef const unsigned char[::1] raw_view = raw
        cdef int32_t[::1] code_view = codes
        cdef int8_t[::1] value_view = values
        if size:
            with nogil:
                bad = parse_entries(&raw_view[0], size, &code_view[0], &value_view[0])
            if bad >= 0:
                raise ValueError(f"{path}: codes are not strictly increasing (entry {bad}), not a 12-ply book")
        return cls(codes, values)

    def __len__(self) -> int:
        return self.view.size

    def codes(self):
        """The entries' position codes, in the book's order (the buffer given)."""
        return self.codes_

    def record_lookups(self, bint on) -> None:
        """Starts (clearing what was recorded) or stops noting which entries
        lookups find, for `looked_up`. A solver copies the book's view when
        it takes up a game: start recording before that. The record stays
        allocated once made, so a solver's copy never points at freed memory."""
        cdef unsigned char[::1] seen
        if on:
            if self.seen_ is None:
                self.seen_ = bytearray(self.view.size or 1)
            else:
                self.seen_[:] = bytes(len(self.seen_))
            seen = self.seen_
            self.view.seen = &seen[0]
        else:
            self.view.seen = NULL

    def looked_up(self) -> list[int]:
        """The indices of the entries found since recording last started."""
        if self.seen_ is None:
            return []
        return [index for index, byte in enumerate(self.seen_[:self.view.size]) if byte]

    def score(self, Board board) -> int | None:
        """The book's exact score of a standard 7x6 `board` with 12 stones
        (for the side to move: the first player), or None if it has none."""
        if not book_covers(&board.g) or board.moves_played != BOOK_PLY:
            raise ValueError(f"the book holds 7x6 c=4 p=21 positions with {BOOK_PLY} stones, "
                             f"not {board.rules} with {board.moves_played}")
        value = book_score(&self.view, board.bits.current, board.bits.mask)
        return None if value == BOOK_MISS else value


_standard = None


def standard_book() -> OpeningBook:
    """The 12-ply book of `bitbully-databases` (a dependency of clinea),
    loaded once per process. Imported here, not at module level, so that
    importing the solver costs nothing off 7x6."""
    global _standard
    if _standard is None:
        from bitbully_databases import BitBullyDatabases
        _standard = OpeningBook.from_file(BitBullyDatabases.get_database_path("12-ply-dist"))
    return _standard
