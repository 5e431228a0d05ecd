# Multi-word bitboards for boards with 64 < columns * (rows + 1) <= 192.
#
# Same layout as bitboard.pxd (column-major, `stride = rows + 1` bits per
# column, an empty sentinel bit on top of each column), spread over WIDE_WORDS
# words, bit i in word i // 64. Three words hold 9x8 (81 bits), 10x9 (100)
# and 14x12 (182). The word count is fixed so the compiler unrolls every loop
# below; each word costs: measured with benchmarks/search_speed.py, three
# words searched 1.3-1.6x more nodes per second than four on 9x8, 10x9 and
# 14x12, so boards of 193-256 bits stay on the cell array.
from libc.stdint cimport uint64_t


cdef enum:
    WIDE_WORDS = 3
    WIDE_BITS = 64 * WIDE_WORDS

cdef struct Wide:
    uint64_t w[WIDE_WORDS]


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


cdef inline bint wide_test(const Wide* a, int index) noexcept nogil:
    return (a.w[index >> 6] >> (index & 63)) & 1


cdef inline void wide_set(Wide* a, int index) noexcept nogil:
    a.w[index >> 6] |= (<uint64_t>1) << (index & 63)


cdef inline void wide_clear(Wide* a, int index) noexcept nogil:
    a.w[index >> 6] &= ~((<uint64_t>1) << (index & 63))


cdef inline Wide wide_and(Wide a, Wide b) noexcept nogil:
    cdef int i
    for i in range(WIDE_WORDS):
        a.w[i] &= b.w[i]
    return a


cdef inline Wide wide_or(Wide a, Wide b) noexcept nogil:
    cdef int i
    for i in range(WIDE_WORDS):
        a.w[i] |= b.w[i]
    return a


cdef inline Wide wide_xor(Wide a, Wide b) noexcept nogil:
    cdef int i
    for i in range(WIDE_WORDS):
        a.w[i] ^= b.w[i]
    return a


cdef inline Wide wide_not(Wide a) noexcept nogil:
    cdef int i
    for i in range(WIDE_WORDS):
        a.w[i] = ~a.w[i]
    return a


cdef inline bint wide_any(Wide a) noexcept nogil:
    cdef uint64_t r = 0
    cdef int i
    for i in range(WIDE_WORDS):
        r |= a.w[i]
    return r != 0


cdef inline int wide_popcount(Wide a) noexcept nogil:
    # SWAR bit counting inline: without -mpopcnt (not in what ships) the
    # builtin is a libgcc call, a tenth of the big boards' search time
    cdef int n = 0, i
    cdef uint64_t x
    for i in range(WIDE_WORDS):
        x = a.w[i]
        x = x - ((x >> 1) & 0x5555555555555555ULL)
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL)
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL
        n += <int>((x * 0x0101010101010101ULL) >> 56)
    return n


cdef inline Wide wide_shr(Wide a, int n) noexcept nogil:
    """a >> n for 0 <= n; bits shifted past the bottom are lost."""
    cdef Wide r
    cdef int q = n >> 6, s = n & 63, i
    cdef uint64_t lo, hi
    if q == 0 and s != 0:
        # the lines' shifts are short: no word skipped, no shift by 64
        for i in range(WIDE_WORDS - 1):
            r.w[i] = (a.w[i] >> s) | (a.w[i + 1] << (64 - s))
        r.w[WIDE_WORDS - 1] = a.w[WIDE_WORDS - 1] >> s
        return r
    for i in range(WIDE_WORDS):
        lo = a.w[i + q] if i + q < WIDE_WORDS else 0
        hi = a.w[i + q + 1] if i + q + 1 < WIDE_WORDS else 0
        # a shift by 64 is undefined in C: s == 0 takes the words as they are
        r.w[i] = lo if s == 0 else (lo >> s) | (hi << (64 - s))
    return r


cdef inline Wide wide_shl(Wide a, int n) noexcept nogil:
    """a << n for 0 <= n; bits shifted past the top are lost."""
    cdef Wide r
    cdef int q = n >> 6, s = n & 63, i
    cdef uint64_t lo, hi
    if q == 0 and s != 0:
        for i in range(WIDE_WORDS - 1, 0, -1):
            r.w[i] = (a.w[i] << s) | (a.w[i - 1] >> (64 - s))
        r.w[0] = a.w[0] << s
        return r
    for i in range(WIDE_WORDS):
        hi = a.w[i - q] if i - q >= 0 else 0
        lo = a.w[i - q - 1] if i - q - 1 >= 0 else 0
        r.w[i] = hi if s == 0 else (hi << s) | (lo >> (64 - s))
    return r


cdef inline Wide wide_run_starts(Wide stones, int shift, int c) noexcept nogil:
    # as run_starts in bitboard.pxd: O(log c) shifts by doubling the run
    cdef int length = 1
    while 2 * length <= c:
        stones = wide_and(stones, wide_shr(stones, length * shift))
        length *= 2
    if length < c:
        stones = wide_and(stones, wide_shr(stones, (c - length) * shift))
    return stones


cdef inline Wide wide_add(Wide a, Wide b) noexcept nogil:
    """a + b with the carry across words (the playable cells are the stones
    plus the bottom row, and a column may straddle two words)."""
    cdef Wide r
    cdef uint64_t carry = 0, sum_
    cdef int i
    for i in range(WIDE_WORDS):
        sum_ = a.w[i] + carry
        carry = sum_ < carry
        r.w[i] = sum_ + b.w[i]
        carry += r.w[i] < sum_
    return r


cdef inline Wide wide_lowest(Wide a) noexcept nogil:
    """The lowest set bit of `a` alone (zero for zero)."""
    cdef Wide r = wide_zero()
    cdef int i
    for i in range(WIDE_WORDS):
        if a.w[i]:
            r.w[i] = a.w[i] & (~a.w[i] + 1)
            break
    return r


cdef inline bint wide_several(Wide a) noexcept nogil:
    """Whether `a` has two bits set or more."""
    cdef int i, seen = 0
    for i in range(WIDE_WORDS):
        if a.w[i]:
            if seen or a.w[i] & (a.w[i] - 1):
                return True
            seen = 1
    return False


cdef inline int wide_lowest_index(Wide a) noexcept nogil:
    """The index of the lowest set bit of `a`, -1 for zero."""
    cdef int i, j
    for i in range(WIDE_WORDS):
        if a.w[i]:
            j = 0
            while not (a.w[i] >> j) & 1:
                j += 1
            return 64 * i + j
    return -1
