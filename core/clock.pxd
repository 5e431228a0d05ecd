# The monotonic clock the searches read for their deadlines, in C: a
# Python call per check would cost more than the nodes between checks.
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

cdef enum:
    # bounds of the nodes between two reads of the clock (`Deadline`)
    READ_EVERY_MIN = 1
    READ_EVERY_MAX = 1024
    # the measured time two reads aim to be apart, in microseconds: well
    # inside the millisecond within which a search stops past its deadline
    READ_MICROSECONDS = 100


cdef inline double monotonic() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef struct Deadline:
    # A search's deadline and its reads of the clock. The clock is read
    # every `interval` nodes, and the interval follows the measured time
    # between reads, not a node count fixed in advance: on a loaded machine
    # a node costs 10-40 times its usual wall time, and the reads come
    # sooner in nodes as the nodes slow down. A read costs ~20 ns (vDSO).
    double at            # monotonic seconds; 0: no deadline
    double last_read     # when the clock was last read
    double gap           # the measured time between the last two reads
    double late          # how long after `at` the read that found it passed came
    long long countdown  # nodes until the next read
    long long interval   # nodes between two reads
    long long reads      # reads so far
    bint passed          # a read found the deadline passed


cdef inline void deadline_start(Deadline* d, double seconds) noexcept nogil:
    """Starts `d` for `seconds` from now (0: no deadline)."""
    d.last_read = monotonic()
    d.at = d.last_read + seconds if seconds > 0 else 0.0
    d.gap = 0.0
    d.late = 0.0
    d.interval = READ_EVERY_MIN
    d.countdown = READ_EVERY_MIN
    d.reads = 0
    d.passed = False


cdef inline bint deadline_read(Deadline* d) noexcept nogil:
    """Reads the clock now: whether the deadline has passed. Halves the
    interval when the reads came further apart than READ_MICROSECONDS,
    doubles it when they came closer than half that."""
    cdef double now
    if d.passed:
        return True
    if d.at == 0.0:
        d.countdown = READ_EVERY_MAX
        return False
    now = monotonic()
    d.reads += 1
    d.gap = now - d.last_read
    d.last_read = now
    if now >= d.at:
        d.passed = True
        d.late = now - d.at
        d.countdown = 1
        return True
    if d.gap > READ_MICROSECONDS * 1e-6:
        if d.interval > READ_EVERY_MIN:
            d.interval >>= 1
    elif d.gap < READ_MICROSECONDS * 0.5e-6 and d.interval < READ_EVERY_MAX:
        d.interval <<= 1
    d.countdown = d.interval
    return False


cdef inline bint deadline_passed(Deadline* d) noexcept nogil:
    """Counts one node (or simulation); reads the clock when the interval
    is over: whether the deadline has passed."""
    d.countdown -= 1
    if d.countdown > 0:
        return False
    return deadline_read(d)
