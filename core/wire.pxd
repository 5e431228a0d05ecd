cdef int write_all(int fd, const char* data, Py_ssize_t size) noexcept nogil
cdef int column_line(int column, char* out) noexcept nogil

cdef class ColumnLines:
    cdef char (*text)[8]
    cdef int* size
    cdef int count

    cdef int c_column(self, const char* line, Py_ssize_t size) noexcept nogil
