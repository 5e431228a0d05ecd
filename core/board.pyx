# cython: boundscheck=False, wraparound=False
"""The game position: one type for every board size.

Boards whose cells fit a 64-bit word (columns * (rows + 1) <= 64) keep the
position as two bitboards; larger ones keep a cell array, and those up to
192 bits (9x8, 10x9, 14x12...) also each player's stones as a multi-word
bitboard (widebits.pxd) for the bit-parallel evaluation. Every path sits
behind the same methods, so players, the solver, the judge and training
never need to know which one they hold.
"""
import operator
import os
import sys

cimport cython

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint8_t, uint16_t, uint64_t
from libc.string cimport memcpy, memset

from .bitboard cimport (
    BitPosition, Geometry, bit_key, bit_play, bottom_cell, first_good_row, has_alignment,
)
from .widebits cimport (
    WIDE_BITS, Wide, wide_and, wide_clear, wide_not, wide_or, wide_set,
    wide_test, wide_zero,
)
from .words cimport winning_cells
from .rng cimport Rng, rng_next, rng_seed

from clinea.core.rules import MAX_SIDE, Rules, check_range

REPLAY_BUDGET = 1 << 20
"""Dead-end positions `from_grid` explores before it calls a grid hopeless:
positions from real games need none or a handful."""

cdef enum:
    C_MAX_SIDE = 128

# One random word per (cell, player) for Zobrist keys on the generic path.
cdef uint64_t ZOBRIST[C_MAX_SIDE * C_MAX_SIDE * 2]


cdef void _fill_zobrist():
    cdef Rng rng
    rng_seed(&rng, 0x636C696E6561)  # fixed, so keys are stable across runs
    for i in range(C_MAX_SIDE * C_MAX_SIDE * 2):
        ZOBRIST[i] = rng_next(&rng)


_fill_zobrist()


cdef class _Shape:
    """The rules of a board size and its Geometry (bit masks included),
    worked out once: boards are built per game and copied per search, and
    training plays hundreds of thousands of games."""
    cdef Geometry g
    cdef object rules


cdef dict _SHAPES = {}


cdef _Shape shape_of(columns, rows, c, p):
    """The _Shape of those arguments, validated as Rules validates them
    (remembered only for plain ints, so a bool or a float is refused every
    time)."""
    key = (columns, rows, c, p)
    cacheable = (type(columns) is int and type(rows) is int and type(c) is int
                 and (p is None or type(p) is int))
    cdef _Shape shape = _SHAPES.get(key) if cacheable else None
    if shape is not None:
        return shape
    shape = _Shape()
    shape.rules = Rules(columns, rows, c, p)
    fill_geometry(&shape.g, shape.rules)
    if cacheable and len(_SHAPES) < 4096:
        _SHAPES[key] = shape
    return shape


cdef void fill_geometry(Geometry* g, rules) except *:
    cdef int col, row, bit
    cdef bint central
    g.columns, g.rows, g.c, g.p = rules
    g.max_moves = rules.max_moves
    g.stride = g.rows + 1
    g.bitboard = g.columns * g.stride <= 64
    g.wide = not g.bitboard and g.columns * g.stride <= WIDE_BITS
    g.vertical_wins = g.c <= g.rows
    g.horizontal_wins = g.c <= g.columns
    g.diagonal_wins = g.c <= min(g.columns, g.rows)
    g.bottom = 0
    g.cells = 0
    g.central = 0
    g.first_good_rows = 0
    g.wide_bottom = wide_zero()
    g.wide_cells = wide_zero()
    g.wide_central = wide_zero()
    g.wide_first_good_rows = wide_zero()
    if not (g.bitboard or g.wide):
        return
    for col in range(g.columns):
        for row in range(g.rows):
            bit = col * g.stride + row
            central = (g.columns - 1) // 2 <= col <= g.columns // 2
            if g.bitboard:
                g.cells |= (<uint64_t>1) << bit
                if row == 0:
                    g.bottom |= (<uint64_t>1) << bit
                if central:
                    g.central |= (<uint64_t>1) << bit
                if first_good_row(g, row):
                    g.first_good_rows |= (<uint64_t>1) << bit
            else:
                wide_set(&g.wide_cells, bit)
                if row == 0:
                    wide_set(&g.wide_bottom, bit)
                if central:
                    wide_set(&g.wide_central, bit)
                if first_good_row(g, row):
                    wide_set(&g.wide_first_good_rows, bit)


class IllegalMove(ValueError):
    """A column that cannot be played now: out of range, full, or the game is over."""


@cython.final
cdef class Board:
    """A position of C en linea: `columns` x `rows`, `c` in a row wins,
    `p` tokens per player (default: enough to fill the board); the same
    arguments as `Rules`, so `Board(*rules)` is the empty board of `rules`.

    Columns are 0-based. Player 0 moves first, player 1 second.
    """

    def __cinit__(self, columns=7, rows=6, c=4, p=None):
        cdef _Shape shape = shape_of(columns, rows, c, p)
        self.rules_ = shape.rules
        self.g = shape.g
        cdef int ncells = self.g.columns * self.g.rows
        self.cells = <uint8_t*>PyMem_Malloc(ncells * sizeof(uint8_t))
        self.heights = <int*>PyMem_Malloc(self.g.columns * sizeof(int))
        self.history = <uint16_t*>PyMem_Malloc(ncells * sizeof(uint16_t))
        if not self.cells or not self.heights or not self.history:
            raise MemoryError()
        self.c_reset()

    def __dealloc__(self):
        PyMem_Free(self.cells)
        PyMem_Free(self.heights)
        PyMem_Free(self.history)

    # ------------------------------------------------------------------ C API

    cdef bint c_can_play(self, int col) noexcept nogil:
        return 0 <= col < self.g.columns and self.heights[col] < self.g.rows

    cdef int c_legal_columns(self, int* out) noexcept nogil:
        """Writes the playable columns to `out`; returns how many (0 once the game is over)."""
        cdef int n = 0
        if self.c_is_over():
            return 0
        for col in range(self.g.columns):
            if self.heights[col] < self.g.rows:
                out[n] = col
                n += 1
        return n

    cdef void c_play(self, int col) noexcept nogil:
        """Plays `col` for the side to move. The caller has checked legality."""
        cdef int row = self.heights[col]
        cdef int who = self.moves_played & 1
        if self.g.bitboard:
            bit_play(&self.g, &self.bits, col)
            # after the move, the mover's stones are the ones not in `current`
            if has_alignment(&self.g, self.bits.current ^ self.bits.mask):
                self.winner_ = who
        else:
            self.cells[col * self.g.rows + row] = who + 1
            self.zobrist ^= ZOBRIST[(col * C_MAX_SIDE + row) * 2 + who]
            if self.g.wide:
                if self.wide_wins_ready:
                    if wide_test(&self.wide_wins[who], col * self.g.stride + row):
                        self.winner_ = who
                elif self.c_grid_aligned(col, row):
                    self.winner_ = who
                wide_set(&self.wide[who], col * self.g.stride + row)
                self.wide_wins_ready = False
            elif self.c_grid_aligned(col, row):
                self.winner_ = who
        self.heights[col] = row + 1
        self.history[self.moves_played] = col
        self.moves_played += 1

    cdef void c_undo(self) noexcept nogil:
        """Takes back the last move. The caller has checked there is one."""
        self.moves_played -= 1
        cdef int col = self.history[self.moves_played]
        cdef int row = self.heights[col] - 1
        cdef int who = self.moves_played & 1
        self.heights[col] = row
        if self.g.bitboard:
            self.bits.mask ^= bottom_cell(&self.g, col) << row
            self.bits.current ^= self.bits.mask
            self.bits.moves -= 1
        else:
            self.cells[col * self.g.rows + row] = 0
            self.zobrist ^= ZOBRIST[(col * C_MAX_SIDE + row) * 2 + who]
            if self.g.wide:
                wide_clear(&self.wide[who], col * self.g.stride + row)
                self.wide_wins_ready = False
        # play never continues after a win, so the earlier position had none
        self.winner_ = -1

    cdef void c_reset(self) noexcept nogil:
        """Back to the empty board, keeping the geometry and the memory."""
        memset(self.cells, 0, self.g.columns * self.g.rows * sizeof(uint8_t))
        memset(self.heights, 0, self.g.columns * sizeof(int))
        self.bits.current = 0
        self.bits.mask = 0
        self.bits.moves = 0
        self.wide[0] = wide_zero()
        self.wide[1] = wide_zero()
        self.wide_wins_ready = False
        self.moves_played = 0
        self.winner_ = -1
        self.zobrist = 0

    cdef bint c_is_over(self) noexcept nogil:
        return self.winner_ >= 0 or self.moves_played >= self.g.max_moves

    cdef bint c_wins_with(self, int col) noexcept nogil:
        """Whether the side to move wins at once by playing `col` (assumed legal)."""
        cdef int row = self.heights[col]
        cdef bint wins
        cdef BitPosition after
        if self.g.bitboard:
            after = self.bits
            bit_play(&self.g, &after, col)
            return has_alignment(&self.g, after.current ^ after.mask)
        if self.g.wide:
            self.c_wide_threats()
            return wide_test(&self.wide_wins[self.moves_played & 1], col * self.g.stride + row)
        self.cells[col * self.g.rows + row] = (self.moves_played & 1) + 1
        wins = self.c_grid_aligned(col, row)
        self.cells[col * self.g.rows + row] = 0
        return wins

    cdef bint c_opponent_wins_at(self, int col, int row) noexcept nogil:
        """Whether the side NOT to move would make c in a row with a stone on
        (col, row), an empty cell; the board is left unchanged."""
        cdef uint64_t cell
        cdef bint wins
        if self.g.bitboard:
            cell = bottom_cell(&self.g, col) << row
            return has_alignment(&self.g, (self.bits.current ^ self.bits.mask) | cell)
        if self.g.wide:
            self.c_wide_threats()
            return wide_test(&self.wide_wins[1 - (self.moves_played & 1)], col * self.g.stride + row)
        self.cells[col * self.g.rows + row] = 2 - (self.moves_played & 1)
        wins = self.c_grid_aligned(col, row)
        self.cells[col * self.g.rows + row] = 0
        return wins

    cdef void c_wide_threats(self) noexcept nogil:
        """Fills wide_wins for the position, once per position: the search
        asks about every column of it."""
        if self.wide_wins_ready:
            return
        cdef Wide empty = wide_and(self.g.wide_cells, wide_not(wide_or(self.wide[0], self.wide[1])))
        self.wide_wins[0] = winning_cells(self.wide[0], empty, &self.g)
        self.wide_wins[1] = winning_cells(self.wide[1], empty, &self.g)
        self.wide_wins_ready = True

    cdef uint64_t c_key(self) noexcept nogil:
        if self.g.bitboard:
            return bit_key(&self.bits)
        return self.zobrist

    cdef bint c_grid_aligned(self, int col, int row) noexcept nogil:
        """Whether the stone at (col, row) is part of c in a row: O(c)."""
        cdef int rows = self.g.rows
        cdef int columns = self.g.columns
        cdef uint8_t who = self.cells[col * rows + row]
        cdef int dcol, drow, d, x, y, run
        cdef int directions[4][2]
        directions[0][0] = 1; directions[0][1] = 0
        directions[1][0] = 0; directions[1][1] = 1
        directions[2][0] = 1; directions[2][1] = 1
        directions[3][0] = 1; directions[3][1] = -1
        for d in range(4):
            dcol = directions[d][0]
            drow = directions[d][1]
            run = 1
            x = col + dcol
            y = row + drow
            while run < self.g.c and 0 <= x < columns and 0 <= y < rows and self.cells[x * rows + y] == who:
                run += 1
                x += dcol
                y += drow
            x = col - dcol
            y = row - drow
            while run < self.g.c and 0 <= x < columns and 0 <= y < rows and self.cells[x * rows + y] == who:
                run += 1
                x -= dcol
                y -= drow
            if run >= self.g.c:
                return True
        return False

    # ------------------------------------------------------------- Python API

    @property
    def columns(self) -> int:
        return self.g.columns

    @property
    def rows(self) -> int:
        return self.g.rows

    @property
    def c(self) -> int:
        return self.g.c

    @property
    def p(self) -> int:
        return self.g.p

    @property
    def max_moves(self) -> int:
        """Moves after which the game is a draw if nobody has won: min(2p, cells)."""
        return self.g.max_moves

    @property
    def is_bitboard(self) -> bool:
        """Whether this position is held as 64-bit bitboards (else as a cell array)."""
        return self.g.bitboard

    @property
    def is_wide(self) -> bool:
        """Whether this position also keeps multi-word bitboards (boards of
        65 to 192 bits with the sentinel row: 9x8, 10x9, 14x12...)."""
        return self.g.wide

    @property
    def moves_played(self) -> int:
        return self.moves_played

    @property
    def side_to_move(self) -> int:
        """0 if the first player is to move, 1 for the second."""
        return self.moves_played & 1

    def legal_columns(self) -> list[int]:
        """Playable columns, left to right; empty once the game is over."""
        if self.c_is_over():
            return []
        return [col for col in range(self.g.columns) if self.heights[col] < self.g.rows]

    def can_play(self, col) -> bool:
        """Whether `col` is a legal move now."""
        try:
            self._check_playable(col)
        except IllegalMove:
            return False
        return True

    def _check_playable(self, col):
        """Returns `col` as an int if it can be played now, else raises IllegalMove."""
        if isinstance(col, bool):
            raise IllegalMove(f"column must be an integer, got {col!r}")
        try:
            col = operator.index(col)  # numpy integers are columns too
        except TypeError:
            raise IllegalMove(f"column must be an integer, got {col!r}") from None
        if self.c_is_over():
            raise IllegalMove(f"column {col}: the game is already over")
        if not 0 <= col < self.g.columns:
            raise IllegalMove(f"column {col} is out of range: allowed 0..{self.g.columns - 1}")
        if self.heights[col] >= self.g.rows:
            raise IllegalMove(f"column {col} is full")
        return col

    def play(self, col) -> None:
        """Drops a token of the side to move in `col` (0-based).

        Raises IllegalMove (a ValueError) and leaves the board unchanged if the
        column is out of range or full, or the game is over."""
        self.c_play(self._check_playable(col))

    def undo(self) -> int:
        """Takes back the last move and returns its column."""
        if self.moves_played == 0:
            raise IllegalMove("no move to undo")
        col = self.history[self.moves_played - 1]
        self.c_undo()
        return col

    def is_winning_move(self, col) -> bool:
        """Whether the side to move wins at once by playing `col` (which must be legal)."""
        return self.c_wins_with(self._check_playable(col))

    def last_move_won(self) -> bool:
        """Whether the last move made c in a row."""
        return self.winner_ >= 0

    @property
    def winner(self):
        """0 or 1 for the player who has won, None while nobody has."""
        return None if self.winner_ < 0 else self.winner_

    def is_draw(self) -> bool:
        """Nobody won and the tokens ran out or the board is full."""
        return self.winner_ < 0 and self.moves_played >= self.g.max_moves

    def is_over(self) -> bool:
        return self.c_is_over()

    def key(self) -> int:
        """A 64-bit key of the position, for transposition tables."""
        return self.c_key()

    def height(self, col: int) -> int:
        """Number of stones in `col`."""
        if not 0 <= col < self.g.columns:
            raise IndexError(f"column {col} is out of range: allowed 0..{self.g.columns - 1}")
        return self.heights[col]

    def cell(self, col: int, row: int) -> int:
        """0 if empty, 1 for a stone of the first player, 2 for the second; row 0 is the bottom."""
        if not (0 <= col < self.g.columns and 0 <= row < self.g.rows):
            raise IndexError(f"cell ({col}, {row}) is off the {self.g.columns}x{self.g.rows} board")
        return self.c_cell(col, row)

    def grid(self) -> list[list[int]]:
        """The board as rows of cell values (see `cell`), bottom row first."""
        return [[self.cell(col, row) for col in range(self.g.columns)] for row in range(self.g.rows)]

    def moves(self) -> list[int]:
        """Columns played so far, 0-based, in order."""
        return [self.history[i] for i in range(self.moves_played)]

    def copy(self) -> Board:
        cdef Board other = Board.__new__(Board, self.g.columns, self.g.rows, self.g.c, self.g.p)
        cdef int ncells = self.g.columns * self.g.rows
        other.bits = self.bits
        other.wide[0] = self.wide[0]
        other.wide[1] = self.wide[1]
        other.wide_wins[0] = self.wide_wins[0]
        other.wide_wins[1] = self.wide_wins[1]
        other.wide_wins_ready = self.wide_wins_ready
        memcpy(other.cells, self.cells, ncells * sizeof(uint8_t))
        memcpy(other.heights, self.heights, self.g.columns * sizeof(int))
        memcpy(other.history, self.history, self.moves_played * sizeof(uint16_t))
        other.moves_played = self.moves_played
        other.winner_ = self.winner_
        other.zobrist = self.zobrist
        return other

    def __copy__(self):
        return self.copy()

    def __reduce__(self):
        return (_rebuild, (self.g.columns, self.g.rows, self.g.c, self.g.p, self.moves()))

    def __eq__(self, other):
        if not isinstance(other, Board):
            return NotImplemented
        return (self.rules_ == (<Board>other).rules_ and self.moves_played == other.moves_played
                and self.grid() == other.grid())

    __hash__ = None

    @property
    def rules(self) -> Rules:
        """The rules of this game: (columns, rows, c, p)."""
        return self.rules_

    # ------------------------------------------------------ move sequences

    def play_moves(self, moves) -> Board:
        """Plays 0-based columns in order; on an illegal one, raises naming its
        position and leaves the board as it was before the call."""
        start = self.moves_played
        for index, col in enumerate(moves):
            try:
                self.play(col)
            except IllegalMove as error:
                while self.moves_played > start:
                    self.c_undo()
                raise IllegalMove(f"move {index + 1}: {error}") from None
        return self

    @classmethod
    def from_moves(cls, moves, columns=7, rows=6, c=4, p=None) -> Board:
        """A board after the 0-based `moves`."""
        return cls(columns, rows, c, p).play_moves(moves)

    @classmethod
    def from_string(cls, text: str, columns=7, rows=6, c=4, p=None) -> Board:
        """A board after the 1-based moves in `text`: digits ("4453", the
        notation of the standard test files) or, for boards wider than 9
        columns, numbers separated by commas or spaces ("10,3,4")."""
        return cls(columns, rows, c, p).play_moves(parse_moves(text, columns))

    @classmethod
    def from_grid(cls, grid, c=4, p=None, columns=None, mark=None, top_first=True) -> Board:
        """A board holding the stones of `grid`: rows of cells (0 empty, 1 the
        first player, 2 the second) or, with `columns` given, the same rows
        laid end to end in one flat list, as Kaggle's `observation.board`.
        `top_first`: the first row is the top one, as Kaggle, OpenSpiel and
        `render` show a board (False: bottom first, as `grid()` returns).
        `mark` (1 or 2), when given, must be the side to move.

        The board gets a move history that reaches the grid without an
        earlier win (found by a search that remembers dead ends); raises
        ValueError naming what is wrong when the grid cannot arise in a game:
        values other than 0/1/2, ragged rows, stones floating over empty
        cells, stone counts that do not alternate, more than 2p stones."""
        if columns is not None:
            columns = check_range("columns", columns, 1, MAX_SIDE)
            cells = list(grid)
            if not cells or len(cells) % columns:
                raise ValueError(f"a flat grid of {len(cells)} cells does not split into rows of {columns} columns")
            rows_list = [cells[i:i + columns] for i in range(0, len(cells), columns)]
        else:
            rows_list = [list(row) for row in grid]
            if not rows_list or not rows_list[0]:
                raise ValueError("an empty grid: need at least one row of at least one cell")
            columns = len(rows_list[0])
            for index, row in enumerate(rows_list):
                if len(row) != columns:
                    raise ValueError(f"row {index} has {len(row)} cells, row 0 has {columns}")
        if top_first:
            rows_list.reverse()
        board = cls(columns, len(rows_list), c, p)
        # stacks[col]: the column's stones from the bottom, ending at its first empty cell
        stacks = [[] for _ in range(columns)]
        for col in range(columns):
            for row, values in enumerate(rows_list):
                value = values[col]
                if isinstance(value, bool) or value not in (0, 1, 2):
                    raise ValueError(f"cell (column {col}, row {row} from the bottom) is {value!r}: allowed 0, 1, 2")
                if value and len(stacks[col]) < row:
                    raise ValueError(f"the stone at column {col}, row {row} from the bottom floats over an empty cell")
                if value:
                    stacks[col].append(value - 1)
        counts = [sum(stack.count(who) for stack in stacks) for who in (0, 1)]
        if counts[0] - counts[1] not in (0, 1):
            raise ValueError(f"{counts[0]} stones of player 1 and {counts[1]} of player 2: "
                             "the first player has as many stones as the second, or one more")
        to_move = counts[0] - counts[1]
        if mark is not None and mark != to_move + 1:
            raise ValueError(f"mark {mark!r} is not the side to move: the stones say player {to_move + 1} moves")
        if counts[0] + counts[1] > board.max_moves:
            raise ValueError(f"{counts[0] + counts[1]} stones: more than the {board.max_moves} a game allows")
        if not board._replay_stacks(stacks, counts[0] + counts[1]):
            raise ValueError("no order of moves reaches this grid without a win before its last stone")
        return board

    def _replay_stacks(self, stacks, int total) -> bool:
        """Plays the stones of `stacks` (each column's players from the
        bottom) in an order that ends at the grid with nobody winning before
        the last stone: a depth-first search, iterative so that big boards
        do not hit the recursion limit, that remembers the positions found
        to lead nowhere, so each is tried once (and at most REPLAY_BUDGET).
        Leaves the board at the grid and returns True, or empty and False."""
        cdef int col, who
        dead = set()
        next_column = [0]  # per depth, the next column to try
        while next_column:
            if self.moves_played == total:
                return True
            who = self.moves_played & 1
            col = next_column[len(next_column) - 1]  # no [-1]: this module turns wraparound off
            while col < self.g.columns:
                if (self.heights[col] < len(stacks[col]) and stacks[col][self.heights[col]] == who
                        and not (self.moves_played + 1 < total and self.c_wins_with(col))):
                    self.c_play(col)
                    if self.c_key() not in dead:
                        break
                    self.c_undo()
                col += 1
            if col < self.g.columns:
                next_column[len(next_column) - 1] = col + 1
                next_column.append(0)
                continue
            next_column.pop()
            if next_column:
                dead.add(self.c_key())
                if len(dead) > REPLAY_BUDGET:
                    raise ValueError(f"gave up finding an order of moves for this grid after {REPLAY_BUDGET} positions")
                self.c_undo()
        return False

    def to_string(self) -> str:
        """The moves in the notation `from_string` reads."""
        if self.g.columns <= 9:
            return "".join(str(col + 1) for col in self.moves())
        return ",".join(str(col + 1) for col in self.moves())

    # ------------------------------------------------------------ rendering

    def render(self, color=None) -> str:
        """The board as text, top row first; `color` None means: colour when
        stdout is a terminal and NO_COLOR is not set."""
        if color is None:
            color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        if color:
            stones = (".", "\x1b[1;34mX\x1b[0m", "\x1b[1;31mO\x1b[0m")
        else:
            stones = (".", "X", "O")
        width = len(str(self.g.columns - 1))
        pad = " " * (width - 1)  # every stone shows as one character
        lines = []
        for row in reversed(range(self.g.rows)):
            lines.append(" ".join(pad + stones[self.cell(col, row)] for col in range(self.g.columns)))
        lines.append(" ".join(str(col).rjust(width) for col in range(self.g.columns)))
        return "\n".join(lines)

    def __str__(self):
        return self.render(color=False)

    def __repr__(self):
        return (f"Board(columns={self.g.columns}, rows={self.g.rows}, c={self.g.c}, "
                f"p={self.g.p}, moves={self.to_string()!r})")


def _rebuild(columns, rows, c, p, moves):
    return Board.from_moves(moves, columns, rows, c, p)


def parse_moves(text: str, columns: int) -> list[int]:
    """1-based move text to 0-based columns: numbers separated by commas or
    blanks, or digits without separators on boards of up to 9 columns (on
    wider ones a lone number is one move: "10" is column 10, as `to_string`
    writes a one-move game); an empty number (`1,,2`, `1,2,`, `,`) is an
    error, not skipped. Raises ValueError naming the offending position."""
    text = text.strip()
    if not text:
        return []
    if "," in text:
        tokens = [t.strip() for t in text.split(",")]
    elif " " in text or columns > 9:
        tokens = text.split()
    else:
        tokens = list(text)
    moves = []
    for index, token in enumerate(tokens):
        if not token:
            raise ValueError(f"move {index + 1}: empty (a comma with no column number before or after it)")
        if not (token.isascii() and token.isdigit()):
            raise ValueError(f"move {index + 1}: {token[:20]!r} is not a column number")
        if len(token) > len(str(columns)):
            raise ValueError(f"move {index + 1}: column {token[:20]}... is out of range: allowed 1..{columns}")
        col = int(token)
        if not 1 <= col <= columns:
            raise ValueError(f"move {index + 1}: column {col} is out of range: allowed 1..{columns}")
        moves.append(col - 1)
    return moves
