# The word type: a position's set of cells as one 64-bit word
# (bitboard.pxd) or as three or four words (Wide, Wide4: widebits.pxd), one
# fused type, so the searches over all are written once (Cython compiles
# one copy per type: the 64-bit one is the plain word code it replaces).
from libc.stdint cimport uint64_t

from .bitboard cimport Geometry, run_starts
from .widebits cimport (
    Wide, Wide4, wide4_zero, wide_add, wide_and, wide_any, wide_lowest, wide_lowest_index, wide_not, wide_or,
    wide_popcount, wide_run_starts, wide_several, wide_shl, wide_shr, wide_xor, wide_zero, words_of,
)

ctypedef fused Bits:
    uint64_t
    Wide
    Wide4


cdef enum:
    MAX_RUN = 128  # c at most: a board's side (MAX_SIDE of the rules)


cdef inline Bits b_zero(Bits like) noexcept nogil:
    """The empty set, of the type of `like`."""
    if Bits is uint64_t:
        return 0
    elif Bits is Wide:
        return wide_zero()
    else:
        return wide4_zero()


cdef inline Bits b_and(Bits a, Bits b) noexcept nogil:
    if Bits is uint64_t:
        return a & b
    else:
        return wide_and(a, b)


cdef inline Bits b_or(Bits a, Bits b) noexcept nogil:
    if Bits is uint64_t:
        return a | b
    else:
        return wide_or(a, b)


cdef inline Bits b_xor(Bits a, Bits b) noexcept nogil:
    if Bits is uint64_t:
        return a ^ b
    else:
        return wide_xor(a, b)


cdef inline Bits b_not(Bits a) noexcept nogil:
    if Bits is uint64_t:
        return ~a
    else:
        return wide_not(a)


cdef inline Bits b_shr(Bits a, int n) noexcept nogil:
    if Bits is uint64_t:
        return a >> n
    else:
        return wide_shr(a, n)


cdef inline Bits b_shl(Bits a, int n) noexcept nogil:
    if Bits is uint64_t:
        return a << n
    else:
        return wide_shl(a, n)


cdef inline Bits b_add(Bits a, Bits b) noexcept nogil:
    """a + b, carried across words: the stones plus the bottom row are the
    playable cells (and a column may straddle two words)."""
    if Bits is uint64_t:
        return a + b
    else:
        return wide_add(a, b)


cdef inline bint b_any(Bits a) noexcept nogil:
    if Bits is uint64_t:
        return a != 0
    else:
        return wide_any(a)


cdef inline bint b_several(Bits a) noexcept nogil:
    """Whether `a` has two bits set or more."""
    if Bits is uint64_t:
        return (a & (a - 1)) != 0
    else:
        return wide_several(a)


cdef inline Bits b_lowest(Bits a) noexcept nogil:
    """The lowest set bit of `a` alone (zero for zero)."""
    if Bits is uint64_t:
        return a & (~a + 1)
    else:
        return wide_lowest(a)


cdef inline int b_lowest_index(Bits a) noexcept nogil:
    """The index of the lowest set bit of `a`, -1 for zero."""
    cdef int i = 0
    if Bits is uint64_t:
        if a == 0:
            return -1
        while not (a >> i) & 1:
            i += 1
        return i
    else:
        return wide_lowest_index(a)


cdef extern from *:
    """
    /* A search compiled twice, for the x86-64 baseline and for CPUs with
       the POPCNT instruction (Intel since 2008, AMD since 2007), the
       loader picking one (an ifunc): what ships keeps the baseline and no
       -march, yet GCC turns swar_popcount into one instruction where the
       CPU has it. GCC on x86-64 glibc only (ifuncs); elsewhere one copy. */
    #if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
    #include <features.h>
    #endif
    #if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__GLIBC__)
    #define CLINEA_POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
    #define CLINEA_SEARCH_COPIES 2
    static inline int clinea_popcnt_clone(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("popcnt") != 0;
    }
    #else
    #define CLINEA_POPCNT_CLONES
    #define CLINEA_SEARCH_COPIES 1
    static inline int clinea_popcnt_clone(void) { return 0; }
    #endif
    /* which compiler built the core: clang defines __GNUC__ too */
    #if defined(__clang__)
    #define CLINEA_COMPILER "clang " __clang_version__
    #elif defined(__GNUC__)
    #define CLINEA_COMPILER "GCC " __VERSION__
    #else
    #define CLINEA_COMPILER "an unknown C compiler"
    #endif
    /* set by setup.py where a module (the solver, the Monte Carlo search)
       was built from a profile of its workload (profile-guided optimisation) */
    #ifndef CLINEA_PROFILE_GUIDED
    #define CLINEA_PROFILE_GUIDED 0
    #endif
    /* GCC may decline to inline a helper into a clone (it did with
       sorted_moves and tt_put_lower): the search's helpers say so. Cython
       declares a function's result variable with its return type, where
       GCC ignores these attributes with a warning: not ours to fix. */
    #if defined(__GNUC__)
    #define CLINEA_ALWAYS_INLINE __attribute__((always_inline))
    #pragma GCC diagnostic ignored "-Wattributes"
    #else
    #define CLINEA_ALWAYS_INLINE
    #endif
    """
    # the return type of a search compiled per CPU (CLINEA_POPCNT_CLONES)
    ctypedef int popcnt_cloned_int "CLINEA_POPCNT_CLONES int"
    # the return type of an inline helper of such a search
    ctypedef int always_inlined_int "CLINEA_ALWAYS_INLINE int"
    ctypedef void always_inlined_void "CLINEA_ALWAYS_INLINE void"
    # whether this CPU runs the POPCNT copies
    int clinea_popcnt_clone() nogil
    # 2 where the search is compiled twice (GCC on x86-64 glibc), else 1
    int CLINEA_SEARCH_COPIES
    const char* CLINEA_COMPILER
    int CLINEA_PROFILE_GUIDED


cdef inline int swar_popcount(uint64_t x) noexcept nogil:
    # SWAR bit counting inline: without -mpopcnt (never -march=native) the
    # builtin is a libgcc call; in a search compiled per CPU
    # (popcnt_cloned_int) GCC makes it one POPCNT instruction
    x = x - ((x >> 1) & <uint64_t>0x5555555555555555)
    x = (x & <uint64_t>0x3333333333333333) + ((x >> 2) & <uint64_t>0x3333333333333333)
    x = (x + (x >> 4)) & <uint64_t>0x0F0F0F0F0F0F0F0F
    return <int>((x * <uint64_t>0x0101010101010101) >> 56)


cdef inline int b_popcount(Bits a) noexcept nogil:
    if Bits is uint64_t:
        return swar_popcount(a)
    else:
        return wide_popcount(a)


cdef inline Bits b_run_starts(Bits stones, int shift, int c) noexcept nogil:
    if Bits is uint64_t:
        return run_starts(stones, shift, c)
    else:
        return wide_run_starts(stones, shift, c)


cdef inline Bits runs_through4(Bits stones, int s) noexcept nogil:
    """The cells that would complete a run of 4 along shift `s`, c = 4
    unrolled: the standard game spends most of its search here."""
    cdef Bits pair = b_and(b_shl(stones, s), b_shl(stones, 2 * s))
    cdef Bits r = b_and(pair, b_shl(stones, 3 * s))
    r = b_or(r, b_and(pair, b_shr(stones, s)))
    pair = b_and(b_shr(stones, s), b_shr(stones, 2 * s))
    r = b_or(r, b_and(pair, b_shl(stones, s)))
    return b_or(r, b_and(pair, b_shr(stones, 3 * s)))


cdef inline Bits runs_through(Bits stones, int shift, int c) noexcept nogil:
    """The cells x with j of `stones` just before x along `shift` and the
    c - 1 - j after it, for some j: those that would complete a run of c."""
    cdef Bits found = b_zero(stones)
    cdef Bits left, ones = b_not(found)
    cdef Bits right[MAX_RUN]  # right[m]: cells with m stones just after them
    cdef int j
    right[0] = ones
    for j in range(1, c):
        right[j] = b_and(right[j - 1], b_shr(stones, j * shift))
    left = ones
    for j in range(c):
        if j > 0:
            left = b_and(left, b_shl(stones, j * shift))
        found = b_or(found, b_and(left, right[c - 1 - j]))
    return found


cdef inline Bits winning_cells(Bits stones, Bits empty, const Geometry* g) noexcept nogil:
    """The cells of `empty` that would complete c in a row of `stones`, all
    at once (as Pons' winning_position, for any c). No run wraps from one
    column into the next: it would cross a sentinel bit, never set. The
    direction flags keep every shift within the board's bits (and c within
    MAX_RUN). The Board's threats, the Monte Carlo rollouts and the solver
    call it; the solver at every node, hence c = 4 unrolled here, small
    enough for the compiler to inline, and any other c apart."""
    cdef Bits r
    if g.c != 4:
        return winning_cells_of_any_c(stones, empty, g)
    r = b_zero(stones)
    if g.vertical_wins:
        r = b_and(b_and(b_shl(stones, 1), b_shl(stones, 2)), b_shl(stones, 3))
    if g.horizontal_wins:
        r = b_or(r, runs_through4(stones, g.stride))
    if g.diagonal_wins:
        r = b_or(r, runs_through4(stones, g.stride - 1))
        r = b_or(r, runs_through4(stones, g.stride + 1))
    return b_and(r, empty)


cdef inline Bits winning_cells_of_any_c(Bits stones, Bits empty, const Geometry* g) noexcept nogil:
    """winning_cells for c other than 4."""
    cdef Bits r = b_zero(stones)
    cdef Bits down
    cdef int j
    if g.c == 1:
        return empty
    if g.vertical_wins:
        # only stones below can complete a column
        down = b_shl(stones, 1)
        for j in range(2, g.c):
            down = b_and(down, b_shl(stones, j))
        r = down
    if g.horizontal_wins:
        r = b_or(r, runs_through(stones, g.stride, g.c))
    if g.diagonal_wins:
        r = b_or(r, runs_through(stones, g.stride - 1, g.c))
        r = b_or(r, runs_through(stones, g.stride + 1, g.c))
    return b_and(r, empty)


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil


cdef inline int word_lowest_index(uint64_t word) noexcept nogil:
    """The index of the lowest set bit of a non-zero word (one instruction)."""
    return __builtin_ctzll(word)


cdef inline Bits b_bit(Bits like, int index) noexcept nogil:
    """The cell `index` alone, of the type of `like`."""
    cdef Bits r = b_zero(like)
    if Bits is uint64_t:
        return (<uint64_t>1) << index
    else:
        r.w[index >> 6] = (<uint64_t>1) << (index & 63)
        return r


cdef inline int b_nth_index(Bits a, int k) noexcept nogil:
    """The index of the k-th (from 0) set bit of `a`, which has more than k:
    the k-th playable column, the rollouts' random move."""
    cdef int i, count
    cdef uint64_t word
    if Bits is uint64_t:
        while k > 0:
            a &= a - 1
            k -= 1
        return word_lowest_index(a)
    else:
        for i in range(words_of(&a)):
            word = a.w[i]
            count = swar_popcount(word)
            if k < count:
                while k > 0:
                    word &= word - 1
                    k -= 1
                return 64 * i + word_lowest_index(word)
            k -= count
        return -1


cdef inline bint has_run(Bits stones, const Geometry* g) noexcept nogil:
    """Whether `stones` hold c in a row."""
    if g.vertical_wins and b_any(b_run_starts(stones, 1, g.c)):
        return True
    if g.horizontal_wins and b_any(b_run_starts(stones, g.stride, g.c)):
        return True
    if g.diagonal_wins and (b_any(b_run_starts(stones, g.stride - 1, g.c))
                            or b_any(b_run_starts(stones, g.stride + 1, g.c))):
        return True
    return False
