# cython: boundscheck=False, wraparound=False
"""The wire in C, for the hot loops on either side of it (the judge's
`relay`, the player's `reply`): the protocol's column lines
(clinea.protocol.COLUMN_LINES) looked up and written, and a whole write.
Everything else on the wire is the protocol module's (clinea.protocol)."""
from libc.errno cimport errno, EINTR
from libc.stdlib cimport malloc, free
from libc.string cimport memcmp, memcpy
from posix.unistd cimport write

DEF MAX_LINE_TEXT = 8  # bytes of the longest column line the protocol may list


cdef int write_all(int fd, const char* data, Py_ssize_t size) noexcept nogil:
    """0 when all of `data` went out, else the errno."""
    cdef Py_ssize_t done
    while size > 0:
        done = write(fd, data, size)
        if done < 0:
            if errno == EINTR:
                continue
            return errno
        data += done
        size -= done
    return 0


cdef int column_line(int column, char* out) noexcept nogil:
    """Writes the line of `column` (>= 0), its digits and a newline, into
    `out` (room for 12 bytes); returns its length."""
    cdef int size = 0, k
    while True:  # the digits backwards, then turned round
        out[size] = ord('0') + column % 10
        size += 1
        column //= 10
        if column == 0:
            break
    for k in range(size // 2):
        out[k], out[size - 1 - k] = out[size - 1 - k], out[k]
    out[size] = ord('\n')
    return size + 1


cdef class ColumnLines:
    """The protocol's column lines (`lines[k]` names column k), the only
    answers the relay reads itself."""

    def __cinit__(self, lines):
        self.count = len(lines)
        self.text = <char (*)[MAX_LINE_TEXT]>malloc(self.count * MAX_LINE_TEXT)
        self.size = <int*>malloc(self.count * sizeof(int))
        if self.text == NULL or self.size == NULL:
            raise MemoryError
        for column, line in enumerate(lines):
            if not isinstance(line, bytes) or not 0 < len(line) <= MAX_LINE_TEXT or not line.isdigit() \
                    or int(line) != column:
                raise ValueError(f"line {line!r} for column {column}: the relay reads column k from "
                                 f"the decimal digits of k, at most {MAX_LINE_TEXT} of them")
            memcpy(self.text[column], <const char*>line, len(line))
            self.size[column] = len(line)

    def __dealloc__(self):
        free(self.text)
        free(self.size)

    cdef int c_column(self, const char* line, Py_ssize_t size) noexcept nogil:
        """The column `line` names if it is one of the lines, else -1."""
        cdef int value = 0
        cdef Py_ssize_t k
        if size < 1 or size > MAX_LINE_TEXT:
            return -1
        for k in range(size):
            if line[k] < ord('0') or line[k] > ord('9'):
                return -1
            value = value * 10 + (line[k] - ord('0'))
        if value >= self.count or self.size[value] != size or memcmp(self.text[value], line, size) != 0:
            return -1
        return value
