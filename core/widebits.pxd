# Multi-word bitboards: the Board's wide path for 64 < columns * (rows + 1)
# <= 192, and the solver's up to 256.
#
# Same layout as bitboard.pxd (column-major, `stride = rows + 1` bits per
# column, an empty sentinel bit on top of each column), spread over words,
# bit i in word i // 64. Three words (`Wide`) hold 9x8 (81 bits), 10x9 (100)
# and 14x12 (182); four (`Wide4`) hold 15x13 (210) and 16x14 (240). The
# word count is fixed per type (the operations below are fused over both:
# one copy per count) so the compiler unrolls every loop; each word costs:
# measured with benchmarks/search_speed.py, three words searched 1.3-1.6x
# more nodes per second than four on 9x8, 10x9 and 14x12, so those stay on
# three, and only the solver takes four, from the Board's cells.
from libc.stdint cimport uint64_t


cdef enum:
    WIDE_WORDS = 3
    WIDE_BITS = 64 * WIDE_WORDS
    WIDE4_WORDS = 4
    WIDE4_BITS = 64 * WIDE4_WORDS

cdef struct Wide:
    uint64_t w[WIDE_WORDS]

cdef struct Wide4:
    uint64_t w[WIDE4_WORDS]

ctypedef fused WideT:
    Wide
    Wide4


cdef inline int words_of(const WideT* a) noexcept nogil:
    """The words of `a`'s type: a constant per copy, which the loops unroll on."""
    if WideT is Wide:
        return WIDE_WORDS
    else:
        return WIDE4_WORDS


cdef inline Wide4 wide4_zero() noexcept nogil:
    cdef Wide4 r
    cdef int i
    for i in range(WIDE4_WORDS):
        r.w[i] = 0
    return r


cdef inline Wide wide_zero() noexcept nogil:
    cdef Wide r
    cdef int i
    for i in range(WIDE_WORDS):
        r.w[i] = 0
    return r


cdef inline Wide wide_bit(int index) noexcept nogil:
    cdef Wide r = wide_zero()
    r.w[index >> 6] = (<uint64_t>1) << (index & 63)
    return r


cdef inline bint wide_test(const WideT* a, int index) noexcept nogil:
    return (a.w[index >> 6] >> (index & 63)) & 1


cdef inline void wide_set(WideT* a, int index) noexcept nogil:
    a.w[index >> 6] |= (<uint64_t>1) << (index & 63)


cdef inline void wide_clear(WideT* a, int index) noexcept nogil:
    a.w[index >> 6] &= ~((<uint64_t>1) << (index & 63))


cdef inline WideT wide_and(WideT a, WideT b) noexcept nogil:
    cdef int nw = words_of(&a)
    cdef int i
    for i in range(nw):
        a.w[i] &= b.w[i]
    return a


cdef inline WideT wide_or(WideT a, WideT b) noexcept nogil:
    cdef int nw = words_of(&a)
    cdef int i
    for i in range(nw):
        a.w[i] |= b.w[i]
    return a


cdef inline WideT wide_xor(WideT a, WideT b) noexcept nogil:
    cdef int nw = words_of(&a)
    cdef int i
    for i in range(nw):
        a.w[i] ^= b.w[i]
    return a


cdef inline WideT wide_not(WideT a) noexcept nogil:
    cdef int nw = words_of(&a)
    cdef int i
    for i in range(nw):
        a.w[i] = ~a.w[i]
    return a


cdef inline bint wide_any(WideT a) noexcept nogil:
    cdef int nw = words_of(&a)
    cdef uint64_t r = 0
    cdef int i
    for i in range(nw):
        r |= a.w[i]
    return r != 0


cdef inline int wide_popcount(WideT a) noexcept nogil:
    cdef int nw = words_of(&a)
    # SWAR bit counting inline: without -mpopcnt (not in what ships) the
    # builtin is a libgcc call, a tenth of the big boards' search time
    cdef int n = 0, i
    cdef uint64_t x
    for i in range(nw):
        x = a.w[i]
        x = x - ((x >> 1) & 0x5555555555555555ULL)
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL)
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL
        n += <int>((x * 0x0101010101010101ULL) >> 56)
    return n


cdef inline WideT wide_shr(WideT a, int n) noexcept nogil:
    """a >> n for 0 <= n; bits shifted past the bottom are lost."""
    cdef int nw = words_of(&a)
    cdef WideT r
    cdef int q = n >> 6, s = n & 63, i
    cdef uint64_t lo, hi
    if q == 0 and s != 0:
        # the lines' shifts are short: no word skipped, no shift by 64
        for i in range(nw - 1):
            r.w[i] = (a.w[i] >> s) | (a.w[i + 1] << (64 - s))
        r.w[nw - 1] = a.w[nw - 1] >> s
        return r
    for i in range(nw):
        lo = a.w[i + q] if i + q < nw else 0
        hi = a.w[i + q + 1] if i + q + 1 < nw else 0
        # a shift by 64 is undefined in C: s == 0 takes the words as they are
        r.w[i] = lo if s == 0 else (lo >> s) | (hi << (64 - s))
    return r


cdef inline WideT wide_shl(WideT a, int n) noexcept nogil:
    """a << n for 0 <= n; bits shifted past the top are lost."""
    cdef int nw = words_of(&a)
    cdef WideT r
    cdef int q = n >> 6, s = n & 63, i
    cdef uint64_t lo, hi
    if q == 0 and s != 0:
        for i in range(nw - 1, 0, -1):
            r.w[i] = (a.w[i] << s) | (a.w[i - 1] >> (64 - s))
        r.w[0] = a.w[0] << s
        return r
    for i in range(nw):
        hi = a.w[i - q] if i - q >= 0 else 0
        lo = a.w[i - q - 1] if i - q - 1 >= 0 else 0
        r.w[i] = hi if s == 0 else (hi << s) | (lo >> (64 - s))
    return r


cdef inline WideT wide_run_starts(WideT stones, int shift, int c) noexcept nogil:
    # as run_starts in bitboard.pxd: O(log c) shifts by doubling the run
    cdef int length = 1
    while 2 * length <= c:
        stones = wide_and(stones, wide_shr(stones, length * shift))
        length *= 2
    if length < c:
        stones = wide_and(stones, wide_shr(stones, (c - length) * shift))
    return stones


cdef inline WideT wide_add(WideT a, WideT b) noexcept nogil:
    """a + b with the carry across words (the playable cells are the stones
    plus the bottom row, and a column may straddle two words)."""
    cdef int nw = words_of(&a)
    cdef WideT r
    cdef uint64_t carry = 0, sum_
    cdef int i
    for i in range(nw):
        sum_ = a.w[i] + carry
        carry = sum_ < carry
        r.w[i] = sum_ + b.w[i]
        carry += r.w[i] < sum_
    return r


cdef inline WideT wide_lowest(WideT a) noexcept nogil:
    """The lowest set bit of `a` alone (zero for zero)."""
    cdef int nw = words_of(&a)
    cdef WideT r = a
    cdef int i
    for i in range(nw):
        r.w[i] = 0
    for i in range(nw):
        if a.w[i]:
            r.w[i] = a.w[i] & (~a.w[i] + 1)
            break
    return r


cdef inline bint wide_several(WideT a) noexcept nogil:
    """Whether `a` has two bits set or more."""
    cdef int nw = words_of(&a)
    cdef int i, seen = 0
    for i in range(nw):
        if a.w[i]:
            if seen or a.w[i] & (a.w[i] - 1):
                return True
            seen = 1
    return False


cdef inline int wide_lowest_index(WideT a) noexcept nogil:
    """The index of the lowest set bit of `a`, -1 for zero."""
    cdef int nw = words_of(&a)
    cdef int i, j
    for i in range(nw):
        if a.w[i]:
            j = 0
            while not (a.w[i] >> j) & 1:
                j += 1
            return 64 * i + j
    return -1
