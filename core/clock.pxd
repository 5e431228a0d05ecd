# The monotonic clock the searches read for their deadlines, in C: a
# Python call per check would cost more than the nodes between checks.
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec


cdef inline double monotonic() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9
