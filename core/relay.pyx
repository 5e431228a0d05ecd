# cython: boundscheck=False, wraparound=False
"""The judge's side of a player program's pipes, and its hot loop between
two of them: each move's column written to the player to move, the answer
read back under the deadline and played on the Board, without returning to
Python per move.

`relay` is process handling, not refereeing: at anything that needs a
judgement it stops and hands the move back to the judge's Python
(clinea.judge.referee), which then does exactly what it does without the
relay. It stops at an answer that is not one of the protocol's own column
lines (clinea.protocol.COLUMN_LINES: everything else goes through the
protocol's parser), at a column the Board refuses, at a late answer, at
unread output before a move, at end of output, and after `patience`
seconds without an answer (the slow path watches the process and writes
the transcript meanwhile). So the forfeits, their reasons and the parsing
stay in one place; what the relay plays is what the referee would have
played. Measured: the referee's Python cost about 15 us a move, three
times the C random player's whole move.
"""
from cpython.bytes cimport PyBytes_FromStringAndSize
from libc.errno cimport errno, EINTR
from libc.math cimport ceil
from libc.signal cimport SIGCONT, SIGSTOP
from libc.stdint cimport int16_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memchr, memmove
from posix.signal cimport kill
from posix.unistd cimport close, pread, read, write

from .board cimport Board
from .clock cimport monotonic
from .wire cimport ColumnLines, column_line, write_all

cdef extern from "<poll.h>" nogil:
    cdef struct pollfd:
        int fd
        short events
        short revents
    int poll(pollfd* fds, unsigned long nfds, int timeout)
    enum: POLLIN

# What relay() returns as its status: the game is over; the side to move is
# to be asked the usual way (nothing was sent to it); the side to move was
# asked (or owed its first answer) and its answer is to be read the usual way.
cdef enum:
    C_OVER = 0
    C_UNASKED = 1
    C_ASKED = 2
OVER, UNASKED, ASKED = C_OVER, C_UNASKED, C_ASKED

# One read() takes at most this much: a flood is read in pieces like this.
DEF CHUNK = 65536
# The relay stops the seat that answered once its opponent has not answered
# for this long: stopping and resuming a process cost it and the judge two
# wake-ups (the C random players' games went at half the speed when every
# answer stopped its seat), while a fast answer leaves a burner at most this
# much of the opponent's time.
DEF STOP_AFTER = 0.001

# How a Freezer stops its seat: not at all (ponder), through the seat's
# cgroup (v2's cgroup.freeze, v1's freezer.state), or with SIGSTOP and
# SIGCONT to its process group (no cgroup to freeze).
cdef enum:
    C_STOP_NONE = 0
    C_STOP_CGROUP_V2 = 1
    C_STOP_CGROUP_V1 = 2
    C_STOP_SIGNALS = 3
STOP_NONE, STOP_CGROUP_V2 = C_STOP_NONE, C_STOP_CGROUP_V2
STOP_CGROUP_V1, STOP_SIGNALS = C_STOP_CGROUP_V1, C_STOP_SIGNALS
# How its CPU usage file says the seat's CPU time: none; v1's
# cpuacct.usage (nanoseconds); v2's cpu.stat (its first line, usage_usec).
cdef enum:
    C_CPU_NONE = 0
    C_CPU_NANOSECONDS = 1
    C_CPU_STAT = 2
CPU_NONE, CPU_NANOSECONDS, CPU_STAT = C_CPU_NONE, C_CPU_NANOSECONDS, C_CPU_STAT


cdef class Freezer:
    """Stops every process of one seat between its turns (ponder off) and
    reads the CPU time they used, through descriptors opened once: a
    write() stops the seat, one resumes it, a pread() reads its usage; no
    process is started. The relay stops a seat that answered only once its
    opponent thinks (STOP_AFTER), the referee's Python path at once.

    `how` is one of STOP_*; `target` the descriptor of the freeze file
    (STOP_CGROUP_V2, STOP_CGROUP_V1) or the process group (STOP_SIGNALS);
    `cpu_fd` the seat's CPU usage file, `cpu_kind` one of CPU_*. The
    Freezer owns both descriptors (see close)."""

    def __cinit__(self, int how=STOP_NONE, int target=-1, int cpu_kind=CPU_NONE, int cpu_fd=-1):
        self.how = how
        self.target = target
        self.cpu_kind = cpu_kind if cpu_fd >= 0 else C_CPU_NONE
        self.cpu_fd = cpu_fd
        self.frozen = False
        self.turn = False
        self.mark = -1.0
        self.used = -1.0
        self.waited = -1.0

    def __dealloc__(self):
        self.c_close()

    cdef void c_close(self) noexcept nogil:
        if self.how == C_STOP_CGROUP_V2 or self.how == C_STOP_CGROUP_V1:
            close(self.target)
        if self.cpu_fd >= 0:
            close(self.cpu_fd)
        self.how = C_STOP_NONE
        self.cpu_fd = -1
        self.cpu_kind = C_CPU_NONE

    cdef void c_freeze(self) noexcept nogil:
        if self.frozen or self.how == C_STOP_NONE:
            return
        self.frozen = True
        if self.how == C_STOP_CGROUP_V2:
            write(self.target, b"1", 1)
        elif self.how == C_STOP_CGROUP_V1:
            write(self.target, b"FROZEN", 6)
        else:
            kill(-self.target, SIGSTOP)

    cdef void c_thaw(self) noexcept nogil:
        if not self.frozen:
            return
        self.frozen = False
        if self.how == C_STOP_CGROUP_V2:
            write(self.target, b"0", 1)
        elif self.how == C_STOP_CGROUP_V1:
            write(self.target, b"THAWED", 6)
        elif self.how == C_STOP_SIGNALS:
            kill(-self.target, SIGCONT)

    cdef double c_cpu(self) noexcept nogil:
        """The seat's CPU seconds so far, -1 if unknown."""
        cdef char text[128]
        cdef Py_ssize_t got, at = 0
        cdef long long value = 0
        if self.cpu_kind == C_CPU_NONE:
            return -1.0
        got = pread(self.cpu_fd, text, sizeof(text), 0)
        if got <= 0:
            return -1.0
        if self.cpu_kind == C_CPU_STAT:  # "usage_usec N" first
            while at < got and text[at] != ord(' '):
                at += 1
            at += 1
        if at >= got or not (ord('0') <= text[at] <= ord('9')):
            return -1.0
        while at < got and ord('0') <= text[at] <= ord('9'):
            value = value * 10 + (text[at] - ord('0'))
            at += 1
        return value * (1e-9 if self.cpu_kind == C_CPU_NANOSECONDS else 1e-6)

    cdef void c_begin_turn(self) noexcept nogil:
        """The seat is to be told a move: what it used while it waited is
        measured before it resumes, and its turn is measured from here."""
        cdef double now
        if self.turn:
            return
        now = self.c_cpu()
        self.waited = now - self.mark if now >= 0 and self.mark >= 0 else -1.0
        self.mark = now
        self.turn = True
        self.c_thaw()

    cdef void c_end_turn(self, bint stop) noexcept nogil:
        """The seat answered: its turn's CPU, and it stops if `stop` (else
        the relay stops it once its opponent has thought STOP_AFTER)."""
        cdef double now
        if not self.turn:
            return
        now = self.c_cpu()
        self.used = now - self.mark if now >= 0 and self.mark >= 0 else -1.0
        self.mark = now
        self.turn = False
        if stop:
            self.c_freeze()

    def start_game(self, bint to_move) -> None:
        """A game begins: the seat to move thinks from now (it was told
        `vos`), the other stops until it is told a move."""
        self.mark = self.c_cpu()
        self.turn = to_move
        self.waited = 0.0 if self.mark >= 0 else -1.0
        if not to_move:
            self.c_freeze()

    def begin_turn(self) -> None:
        self.c_begin_turn()

    def end_turn(self) -> None:
        self.c_end_turn(True)

    def thaw(self) -> None:
        """Resumes the seat and ends its turn (the game is over, or it is
        about to be killed: a process frozen by v1's freezer cannot die)."""
        self.turn = False
        self.c_thaw()

    def freeze(self) -> None:
        self.c_freeze()

    def cpu(self) -> float:
        """The seat's CPU seconds so far, -1 if unknown."""
        return self.c_cpu()

    @property
    def stops(self) -> bool:
        """Whether it stops the seat between turns (ponder off)."""
        return self.how != C_STOP_NONE

    @property
    def is_frozen(self) -> bool:
        return self.frozen

    def close(self) -> None:
        """Resumes the seat and closes the descriptors: it stops nothing more."""
        self.c_thaw()
        self.c_close()


cdef bint _poll_in(int fd, int milliseconds) noexcept nogil:
    """Whether `fd` has something to say (data, end or error) within the time."""
    cdef pollfd entry
    entry.fd = fd
    entry.events = POLLIN
    entry.revents = 0
    return poll(&entry, 1, milliseconds) > 0


cdef class Channel:
    """A player program's stdout as lines, and its stdin, on raw descriptors:
    a move costs a poll() and a read(), nothing built per call. Lines longer
    than `max_line` are the caller's to refuse (see `buffered`)."""

    def __cinit__(self, int to_player, int from_player, Py_ssize_t max_line):
        self.to_player = to_player
        self.from_player = from_player
        self.max_line = max_line
        # a read happens only while no line is complete and at most max_line bytes wait
        self.capacity = max_line + 1 + CHUNK
        self.buffer = <char*>malloc(self.capacity)
        self.length = 0
        self.answers_fast = True
        self.exchange_capacity = 0
        self.exchange_count = 0
        self.exchanged = NULL
        self.freezer = Freezer()
        if self.buffer == NULL:
            raise MemoryError

    def __dealloc__(self):
        free(self.buffer)
        free(self.exchanged)

    cdef bint c_readable(self, double asked, double spin, double seconds) noexcept nogil:
        # A player that answers fast is polled without sleeping until `spin`
        # seconds after `asked`: its answer comes sooner than the scheduler's
        # sleep and wake-up would.
        if self.answers_fast:
            while monotonic() - asked < spin:
                if _poll_in(self.from_player, 0):
                    return True
        return _poll_in(self.from_player, <int>ceil(seconds * 1000.0)) if seconds > 0 else \
            _poll_in(self.from_player, 0)

    cdef Py_ssize_t c_line_end(self) noexcept nogil:
        cdef char* found = <char*>memchr(self.buffer, ord('\n'), self.length)
        return -1 if found == NULL else found - self.buffer

    cdef void c_consume(self, Py_ssize_t count) noexcept nogil:
        memmove(self.buffer, self.buffer + count, self.length - count)
        self.length -= count

    cdef void c_note(self, int entry) noexcept nogil:
        # relay() made room for every move beforehand
        self.exchanged[self.exchange_count] = <int16_t>entry
        self.exchange_count += 1

    def readable(self, double asked, double spin, double seconds) -> bool:
        """Whether stdout has something to read within `seconds`, polling
        without sleeping until `spin` seconds after `asked` (a time of
        `monotonic()`) if the player answers fast."""
        cdef bint found
        with nogil:
            found = self.c_readable(asked, spin, seconds)
        return found

    def fill(self) -> int:
        """One read() of stdout into the buffer: the bytes read, 0 at end of output."""
        cdef Py_ssize_t got
        if self.length > self.max_line:
            raise ValueError("a line longer than max_line is waiting: refuse it before reading more")
        with nogil:
            got = read(self.from_player, self.buffer + self.length, self.capacity - self.length)
            while got < 0 and errno == EINTR:  # as os.read: a signal is no error
                got = read(self.from_player, self.buffer + self.length, self.capacity - self.length)
        if got < 0:
            raise OSError(errno, "read from the player")
        self.length += got
        return got

    def take_line(self):
        """The first complete line (bytes, without its newline), taken out of
        the buffer; None if no line is complete."""
        cdef Py_ssize_t end = self.c_line_end()
        if end < 0:
            return None
        line = PyBytes_FromStringAndSize(self.buffer, end)
        self.c_consume(end + 1)
        return line

    @property
    def buffered(self) -> int:
        """Bytes read and not taken yet."""
        return self.length

    def unread(self) -> bytes:
        """The bytes read and not taken, left in the buffer."""
        return PyBytes_FromStringAndSize(self.buffer, self.length)

    def write(self, bytes data) -> None:
        """Writes all of `data` to stdin; OSError if the player no longer reads."""
        cdef int error
        cdef const char* start = data
        cdef Py_ssize_t size = len(data)
        with nogil:
            error = write_all(self.to_player, start, size)
        if error:
            raise OSError(error, "write to the player")

    def take_exchanges(self) -> list[int]:
        """What relay() moved over this channel since the last call, in
        order: column + 1 for a column told, -(column + 1) for one answered."""
        entries = [self.exchanged[k] for k in range(self.exchange_count)]
        self.exchange_count = 0
        return entries

    cdef int c_turn(self, Board board, ColumnLines lines, int last, double limit, double spin,
                    double patience, double* spent, Freezer waiting) noexcept nogil:
        """One move of relay(): tells the player `last` (unless negative) and
        reads its answer, stopping the `waiting` seat STOP_AFTER into it. The
        column, legal on `board`, if all went well, its time in `spent`;
        else -C_UNASKED, or -C_ASKED with the time since the question in
        `spent` (whatever was read stays in the buffer)."""
        cdef double started, asked, wait, until_stop
        cdef bint stopped = waiting.frozen or waiting.how == C_STOP_NONE
        cdef char told[16]
        cdef int size, column
        cdef Py_ssize_t end = -1, got
        # its resumption is not its time: the clock starts once it runs again
        self.freezer.c_begin_turn()
        started = monotonic()
        if last >= 0:
            # anything the player wrote unasked is the referee's to judge
            if self.length or _poll_in(self.from_player, 0):
                return -C_UNASKED
            size = column_line(last, told)
            if write_all(self.to_player, told, size):
                return -C_UNASKED  # the referee's own write fails the same way and says why
            self.c_note(last + 1)
        asked = monotonic()
        while True:
            end = self.c_line_end()
            if end >= 0 or self.length > self.max_line:
                break
            wait = asked + patience - monotonic()
            if limit >= 0 and started + limit - monotonic() < wait:
                wait = started + limit - monotonic()
            if wait <= 0:
                break
            if not stopped:
                until_stop = asked + STOP_AFTER - monotonic()
                if until_stop <= 0:
                    waiting.c_freeze()
                    stopped = True
                    continue
                if until_stop < wait:
                    if not self.c_readable(asked, spin, until_stop):
                        continue
                    wait = 0.0
            if wait > 0 and not self.c_readable(asked, spin, wait):
                break
            got = read(self.from_player, self.buffer + self.length, self.capacity - self.length)
            if got <= 0:
                break  # end of output or an error: the slow path finds it again and says which
            self.length += got
        spent[0] = monotonic() - started
        if end < 0:
            return -C_ASKED
        column = lines.c_column(self.buffer, end)
        if column < 0 or column >= board.c_geometry().columns or not board.c_can_play(column) \
                or (limit >= 0 and spent[0] > limit):
            return -C_ASKED  # the line stays in the buffer: the referee reads and judges it
        self.c_consume(end + 1)
        self.freezer.c_end_turn(False)
        if spin > 0:  # without spinning, how fast it answered is not measured here
            self.answers_fast = monotonic() - asked < 2 * spin
        self.c_note(-(column + 1))
        return column

    cdef int reserve(self, int entries) except -1:
        cdef int16_t* grown
        if self.exchange_count + entries > self.exchange_capacity:
            grown = <int16_t*>realloc(self.exchanged, (self.exchange_count + entries) * sizeof(int16_t))
            if grown == NULL:
                raise MemoryError
            self.exchanged = grown
            self.exchange_capacity = self.exchange_count + entries
        return 0


def relay(Board board, Channel first, Channel second, ColumnLines lines, int last,
          double[:] allowed, double[:] startup, double spin, double patience, double[:] times,
          double[:] cpu, double[:] waited):
    """Plays moves between two players until the game ends or a move needs
    the judge's Python. `first` is the channel of the player who made the
    first ply from the empty board, `second` the other's.

    `last` is the column the side to move has not been told yet, or -1 if
    it owes its first answer (it was told `vos`). `allowed[side]` is the
    time it may take a move (grace included; negative: no limit), and
    `startup[side]` more for its first answer, set to 0 once it answers.
    `times[i]` gets the time of the i-th move played here, `cpu[i]` the
    CPU seconds its seat used for it and `waited[i]` those the seat used
    while it waited to be told the move before (-1: unknown; see Freezer).

    Returns (played, status, elapsed): `played` moves were played on
    `board`; status OVER, UNASKED (the side to move is to be asked as
    usual, nothing was sent) or ASKED (it was asked `elapsed` seconds ago:
    its answer, maybe already in the buffer, is to be read as usual)."""
    cdef int played = 0, status = C_OVER, side, answer
    cdef int left = board.c_geometry().max_moves - board.c_moves()
    cdef double spent = 0.0, limit
    if allowed.shape[0] != 2 or startup.shape[0] != 2:
        raise ValueError("allowed and startup need one value per side")
    if min(times.shape[0], cpu.shape[0], waited.shape[0]) < left:
        raise ValueError(f"times, cpu and waited need {left} slots each: the game may need them")
    first.reserve(left + 1)
    second.reserve(left + 1)
    with nogil:
        while not board.c_is_over():
            side = board.c_side()
            limit = allowed[side] + startup[side] if allowed[side] >= 0 else -1.0
            if side == 0:
                answer = first.c_turn(board, lines, last, limit, spin, patience, &spent, second.freezer)
            else:
                answer = second.c_turn(board, lines, last, limit, spin, patience, &spent, first.freezer)
            if answer < 0:
                status = -answer
                # the referee's Python goes on with the side to move: the other stops now
                if side == 0:
                    second.freezer.c_freeze()
                else:
                    first.freezer.c_freeze()
                break
            startup[side] = 0.0
            board.c_play(answer)
            times[played] = spent
            cpu[played] = first.freezer.used if side == 0 else second.freezer.used
            waited[played] = first.freezer.waited if side == 0 else second.freezer.waited
            played += 1
            last = answer
    return played, status, spent if status == C_ASKED else 0.0
