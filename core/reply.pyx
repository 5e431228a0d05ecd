# cython: boundscheck=False, wraparound=False
"""The player's side of the wire, between moves, in C: the opponent's column
read from stdin and played on the Board, the bot asked, its column played
and written to stdout, with no Python per move but the bot's own `choose`.

As the judge's relay (clinea.core.relay), it reads only the protocol's own
column lines (clinea.protocol.COLUMN_LINES) and hands everything else back
to the player driver (clinea.players.driver), which parses it with the
protocol module and says what is wrong: a result word, a malformed or
illegal line, end of input, a signal, an answer of the bot's that the Board
refuses. Measured: the driver's Python between two moves cost about 7 us,
most of a random player's move.
"""
from cpython.bytes cimport PyBytes_FromStringAndSize
from posix.unistd cimport read

from .board cimport Board
from .wire cimport ColumnLines, column_line, write_all

# What reply() returns first: Python takes over with the bytes given back
# (maybe none); the bot answered something the Board refuses (given back);
# writing the answer failed (the errno given back).
TAKE_OVER, BAD_ANSWER, WRITE_FAILED = 0, 1, 2

DEF CHUNK = 65536


def reply(Board board, int stdin, int stdout, ColumnLines lines, choose, stop_pondering, ponder):
    """Plays the opponent's columns from `stdin` on `board` and answers each
    with `choose(copy of board)` on `stdout`, until a line is not a column
    line, or the game is over and its result word comes. `stop_pondering()`
    is called after every line read and `ponder(copy of board)` after every
    answer (None: not called).

    Returns (TAKE_OVER, bytes read and not used), (BAD_ANSWER, the bot's
    answer: the board is unchanged and nothing was written) or
    (WRITE_FAILED, errno)."""
    cdef char buffer[CHUNK]
    cdef char out[16]
    cdef Py_ssize_t got
    cdef int column, size, error
    cdef int columns = board.c_geometry().columns
    while True:
        with nogil:
            got = read(stdin, buffer, CHUNK)
        if got <= 0:
            # end of input, or a signal whose handler must run, or an error:
            # the driver's own read finds it again
            return TAKE_OVER, b""
        if stop_pondering is not None:
            stop_pondering()
        # one whole column line, legal, and nothing after it: anything else is the driver's to parse
        column = lines.c_column(buffer, got - 1) if buffer[got - 1] == ord('\n') else -1
        if column < 0 or column >= columns or board.c_is_over() or not board.c_can_play(column):
            return TAKE_OVER, PyBytes_FromStringAndSize(buffer, got)
        board.c_play(column)
        if board.c_is_over():
            continue  # the result word comes next
        answer = choose(board.copy())
        if type(answer) is not int or not 0 <= answer < columns or not board.c_can_play(answer):
            return BAD_ANSWER, answer
        column = answer
        board.c_play(column)
        size = column_line(column, out)
        with nogil:
            error = write_all(stdout, out, size)
        if error:
            return WRITE_FAILED, error
        if ponder is not None and not board.c_is_over():
            ponder(board.copy())
