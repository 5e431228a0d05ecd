# The exact solver's transposition tables: one 64-bit word per entry
# holding the bound a search proved for a position (and the move that
# last cut it off), found again by the position's mixed key. The solver
# (solver.pyx) decides what to store and when; this file only keeps it.
from libc.stdint cimport uint64_t
from libc.string cimport memset

from .words cimport always_inlined_void


cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #ifdef __linux__
    #include <sys/mman.h>
    #endif
    /* The table is probed at random: with 4 KB pages nearly every probe
       also misses the TLB. 2 MB alignment lets Linux back it with huge
       pages (transparent huge pages in "madvise" mode need the hint). */
    static void* clinea_table_alloc(size_t bytes) {
        void* p = NULL;
        size_t align = (size_t)2 << 20;
        if (bytes < align) align = 64;
        if (posix_memalign(&p, align, bytes) != 0) return NULL;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(p, bytes, MADV_HUGEPAGE);
    #endif
        memset(p, 0, bytes);  /* touch every page now, not one fault per new slot later */
        return p;
    }
    """
    void* clinea_table_alloc(size_t bytes) nogil
    void __builtin_prefetch(const void* address) nogil


cdef struct TransTable:
    uint64_t* entries      # 2**log2 entries, NULL until allocated
    int log2
    uint64_t index_mask
    int check_shift        # an entry keeps its key's bits from this one up (see front_view)


cdef struct BoundTables:
    # positions with many moves left in `far`, those nearer the end in
    # `middle` (the front of `far`: front_view), the last ones in `near`
    TransTable far
    TransTable middle
    TransTable near
    int middle_from        # moves played from which a position belongs to `middle`
    int near_from          # and to `near`
    int code_bits          # low bits of an entry holding the bound: 8, or 16 when scores pass 63
    int code_offset        # an upper bound v is stored as v + code_offset, a lower one as v + 3 * code_offset
    int payload_bits       # code_bits and the bits of an entry's table move (its column + 1, 0: none)
    int move_mask          # the table move's bits (0 where the tables have no room for it)
    uint64_t check_mask    # the key bits an entry keeps above them
    # xored into every key before it is mixed (table_hash): a new salt
    # forgets every entry at once, without a write to the tables (whose
    # clearing, 65 MB, also evicted the caches: after it a 28-node solve
    # took 5-10 us instead of 3). salt_step is the salt's unit, above every
    # bit a key can set, so an old entry never answers for a new key; 0
    # where keys may use all 64 bits (a forget clears the tables then)
    uint64_t salt
    uint64_t salt_step


cdef inline uint64_t mix(uint64_t x) noexcept nogil:
    # A bijection (xor-shifts and odd multipliers invert), so the slot plus the
    # stored high bits identify the key exactly on the bitboard path.
    x ^= x >> 33
    x *= <uint64_t>0xFF51AFD7ED558CCD
    x ^= x >> 33
    x *= <uint64_t>0xC4CEB9FE1A85EC53
    x ^= x >> 33
    return x


# Entry: (mixed key >> log2) << payload_bits | move << code_bits | code.
# Code 0 is empty; an upper bound v is stored as v + code_offset, a lower
# bound as v + 3 * code_offset, with |v| < code_offset. Eight bits (offset
# 64) hold every game of at most 126 moves, the bitboard path's included;
# longer games need 16 bits (offset 2**14, every board up to 128 x 128).
# The move (the column that last cut the position off, + 1; 0: none) takes
# the bits a column needs where both tables have that many index bits to
# spare (2**11 entries on 7x6), else none, so that the slot and the check
# bits keep the whole 64-bit key wherever the table has 2**code_bits
# entries or more.
cdef inline void set_entry_layout(BoundTables* t, int best_score, int columns) noexcept nogil:
    """The entries' fields for a game whose scores stay within
    +-`best_score`, on a board of `columns` columns."""
    cdef int move_bits = 0
    t.code_bits = 8 if best_score < 64 else 16
    t.code_offset = 1 << (t.code_bits - 2)
    while (1 << move_bits) <= columns:
        move_bits += 1
    # an entry's table move where every table keeps the whole key beside it
    if t.code_bits + move_bits > min(t.middle.check_shift, t.near.check_shift):
        move_bits = 0
    t.move_mask = (1 << move_bits) - 1
    t.payload_bits = t.code_bits + move_bits
    t.check_mask = ~(<uint64_t>0) >> t.payload_bits


cdef inline TransTable* table_for(BoundTables* t, int n) noexcept nogil:
    if n >= t.near_from:
        return &t.near
    return &t.middle if n >= t.middle_from else &t.far


cdef inline uint64_t table_hash(const BoundTables* t, uint64_t key) noexcept nogil:
    """The key the tables take for a position's table key (see below)."""
    return mix(key ^ t.salt)


# The tables take a position's key mixed (`mix` of its table key), computed
# once per position: a node probes a child's slot up to three times
# (prefetch, enhanced transposition cutoff, move_ceiling) and its own twice.

cdef inline int tt_entry(BoundTables* t, uint64_t h, int n) noexcept nogil:
    """The entry of the position of mixed key `h` below its check bits (its
    table move << code_bits | its code), 0 when the slot holds no entry of it."""
    cdef TransTable* table = table_for(t, n)
    cdef uint64_t e = table.entries[h & table.index_mask]
    if (e >> t.payload_bits) == ((h >> table.check_shift) & t.check_mask):
        return <int>(e & ((<uint64_t>1 << t.payload_bits) - 1))
    return 0


cdef inline int entry_move(const BoundTables* t, int entry) noexcept nogil:
    """The table move an entry (tt_entry) holds: its column + 1, 0 for none."""
    return entry >> t.code_bits


cdef inline int entry_lower(const BoundTables* t, int entry) noexcept nogil:
    """The lower bound an entry holds, or -code_offset (below every score)."""
    cdef int code = entry & ((1 << t.code_bits) - 1)
    return code - 3 * t.code_offset if code >= 2 * t.code_offset else -t.code_offset


cdef inline int entry_upper(const BoundTables* t, int entry) noexcept nogil:
    """The upper bound an entry holds, or code_offset (above every score)."""
    cdef int code = entry & ((1 << t.code_bits) - 1)
    return code - t.code_offset if 0 < code < 2 * t.code_offset else t.code_offset


cdef inline void tt_prefetch(BoundTables* t, uint64_t h, int n) noexcept nogil:
    cdef TransTable* table = table_for(t, n)
    __builtin_prefetch(&table.entries[h & table.index_mask])


cdef inline void tt_put(BoundTables* t, uint64_t h, int code, int n, int move) noexcept nogil:
    cdef TransTable* table = table_for(t, n)
    table.entries[h & table.index_mask] = ((((h >> table.check_shift) & t.check_mask) << t.payload_bits)
                                           | (<uint64_t>(move & t.move_mask) << t.code_bits) | <uint64_t>code)


cdef inline always_inlined_void tt_put_upper(BoundTables* t, uint64_t h, int v, int n, int move) noexcept nogil:
    tt_put(t, h, v + t.code_offset, n, move)


cdef inline always_inlined_void tt_put_lower(BoundTables* t, uint64_t h, int v, int n, int move) noexcept nogil:
    tt_put(t, h, v + 3 * t.code_offset, n, move)


cdef inline int allocate_table(TransTable* table) except -1:
    # without the GIL: strong sets a game up in a thread beside its first move
    if table.entries == NULL:
        with nogil:
            table.entries = <uint64_t*>clinea_table_alloc(sizeof(uint64_t) << table.log2)
        if table.entries == NULL:
            raise MemoryError(f"transposition table of 2**{table.log2} entries")
        table.index_mask = ((<uint64_t>1) << table.log2) - 1
        table.check_shift = table.log2
    return 0


cdef inline void front_view(TransTable* view, TransTable* table, int log2) noexcept nogil:
    """`view`: the first 2**log2 entries of the allocated `table` (all of
    them when it has no more). Both keep the key's bits from log2 up, so
    a slot of the front holds the whole key whichever of them wrote it,
    and neither answers for the other's positions."""
    view.entries = table.entries
    view.log2 = min(log2, table.log2)
    view.index_mask = ((<uint64_t>1) << view.log2) - 1
    view.check_shift = view.log2
    table.check_shift = view.log2


cdef inline void clear_table(TransTable* table) noexcept nogil:
    if table.entries != NULL:
        memset(table.entries, 0, sizeof(uint64_t) << table.log2)
