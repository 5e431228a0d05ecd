# The monotonic clock the searches read for their deadlines, in C: a
# Python call per check would cost more than the nodes between checks.
from posix.time cimport CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID, clock_gettime, timespec

cdef enum:
    # bounds of the nodes between two reads of the clock (`Deadline`)
    READ_EVERY_MIN = 1
    READ_EVERY_MAX = 1024
    # the measured time two reads aim to be apart, in microseconds: well
    # inside the millisecond within which a search stops past its deadline
    READ_MICROSECONDS = 100
    # the thread's CPU clock (a system call, ~1 us: 5 % of the Monte Carlo
    # search's simulations when read at every read) is read at a gap this
    # long, where a stall may be, and every CPU_READ_EVERY reads to keep
    # its last reading near
    STALL_MICROSECONDS = 500
    CPU_READ_EVERY = 16


cdef inline double monotonic() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline double thread_cpu() noexcept nogil:
    """The CPU time the calling thread has run, in seconds."""
    cdef timespec ts
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef struct Deadline:
    # A search's deadline and its reads of the clock. The clock is read
    # every `interval` nodes, and the interval follows the measured time
    # between reads, not a node count fixed in advance: on a loaded machine
    # a node costs 10-40 times its usual wall time, and the reads come
    # sooner in nodes as the nodes slow down. A read costs ~20 ns (vDSO);
    # the thread's CPU clock, read far less often, ~1 us (a system call).
    #
    # A machine with more runnable threads than cores stops the search for
    # tens of milliseconds at a time, between any two nodes: a stop that
    # begins just before the deadline ends that long past it, whatever the
    # reads. So the search stops `reserve` seconds before `at`, the longest
    # such stall it knows of (from earlier moves, then its own reads): a
    # stall no longer than that, wherever it falls, still ends by `at`. A
    # stall is time the thread did not run (wall time less its CPU time)
    # since the CPU clock's last reading, measured at a gap between two
    # reads of STALL_MICROSECONDS or more: slow nodes, page faults and a
    # table's allocation are CPU time, and do not count.
    double start         # monotonic seconds when the search started
    double at            # monotonic seconds; 0: no deadline
    double reserve       # seconds before `at` the search stops
    double stall         # the longest stall seen between two reads
    double last_read     # when the clock was last read
    double cpu_read      # when the thread's CPU clock was last read
    double last_cpu      # the thread's CPU time then
    double gap           # the measured time between the last two reads
    double late          # how long after `at - reserve` (or the start, if later) the read that found it passed came
    long long countdown  # nodes until the next read
    long long interval   # nodes between two reads
    long long reads      # reads so far
    int cpu_countdown    # reads until the CPU clock's next reading
    bint passed          # a read found the deadline passed


cdef inline void deadline_start(Deadline* d, double seconds, double reserve) noexcept nogil:
    """Starts `d` for `seconds` from now (0: no deadline), to stop at least
    `reserve` seconds before it (see `Deadline`)."""
    d.start = d.last_read = d.cpu_read = monotonic()
    # the CPU clock is a system call (no vDSO), a fifth of an easy solve's
    # time; without a deadline deadline_read never looks at it
    d.last_cpu = thread_cpu() if seconds > 0 else 0.0
    d.cpu_countdown = CPU_READ_EVERY
    d.at = d.start + seconds if seconds > 0 else 0.0
    d.reserve = reserve if reserve > 0 else 0.0
    d.stall = 0.0
    d.gap = 0.0
    d.late = 0.0
    d.interval = READ_EVERY_MIN
    d.countdown = READ_EVERY_MIN
    d.reads = 0
    d.passed = False


cdef inline bint deadline_read(Deadline* d) noexcept nogil:
    """Reads the clock now: whether the deadline (less the reserve, grown to
    the longest stall seen) has passed. Halves the interval when the reads
    came further apart than READ_MICROSECONDS, doubles it when they came
    closer than half that."""
    cdef double now, cpu, stall
    if d.passed:
        return True
    if d.at == 0.0:
        d.countdown = READ_EVERY_MAX
        return False
    now = monotonic()
    d.reads += 1
    d.gap = now - d.last_read
    d.last_read = now
    d.cpu_countdown -= 1
    if d.gap >= STALL_MICROSECONDS * 1e-6 or d.cpu_countdown <= 0:
        cpu = thread_cpu()
        stall = (now - d.cpu_read) - (cpu - d.last_cpu)
        d.cpu_read = now
        d.last_cpu = cpu
        d.cpu_countdown = CPU_READ_EVERY
        if stall > d.stall:
            d.stall = stall
            if stall > d.reserve:
                d.reserve = stall
    if now + d.reserve >= d.at:
        d.passed = True
        d.late = now - max(d.at - d.reserve, d.start)
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
