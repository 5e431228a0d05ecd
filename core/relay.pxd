from libc.stdint cimport int16_t

from .board cimport Board
from .wire cimport ColumnLines


cdef class Freezer:
    # Stops and resumes every process of one seat, and reads the CPU they
    # used (clinea.judge.sandbox makes it; clinea.judge.player_process owns it).
    cdef int how                    # STOP_* below: how the seat is stopped
    cdef int target                 # the freeze file's descriptor, or the process group
    cdef int cpu_fd                 # the cgroup's CPU usage file, -1 if none
    cdef int cpu_kind               # CPU_*: how that file says it
    cdef bint frozen
    cdef bint turn                  # between begin_turn and end_turn
    cdef double mark                # the seat's CPU seconds at the last turn's start or end
    cdef public double used         # CPU seconds of its last turn, -1 unknown
    cdef public double waited       # CPU seconds it used while it waited for that turn, -1 unknown

    cdef void c_close(self) noexcept nogil
    cdef void c_freeze(self) noexcept nogil
    cdef void c_thaw(self) noexcept nogil
    cdef double c_cpu(self) noexcept nogil
    cdef void c_begin_turn(self) noexcept nogil
    cdef void c_end_turn(self, bint stop) noexcept nogil


cdef class Channel:
    # A player program's pipes as the judge sees them (clinea.judge.player_process).
    cdef int to_player              # the player's stdin, -1 if none
    cdef int from_player            # the player's stdout
    cdef char* buffer               # read from stdout, not taken yet
    cdef Py_ssize_t length
    cdef Py_ssize_t capacity
    cdef Py_ssize_t max_line
    cdef public bint answers_fast   # see clinea.judge.player_process.SPIN
    # what crossed the channel during relay(): column + 1 told, -(column + 1) answered
    cdef int16_t* exchanged
    cdef int exchange_count
    cdef int exchange_capacity
    cdef public Freezer freezer     # the seat's processes, stopped between its turns

    cdef bint c_readable(self, double asked, double spin, double seconds) noexcept nogil
    cdef Py_ssize_t c_line_end(self) noexcept nogil
    cdef void c_consume(self, Py_ssize_t count) noexcept nogil
    cdef void c_note(self, int entry) noexcept nogil
    cdef int c_turn(self, Board board, ColumnLines lines, int last, double limit, double spin,
                    double patience, double* spent, Freezer waiting) noexcept nogil
    cdef int reserve(self, int entries) except -1
