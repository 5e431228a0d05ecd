"""clinea's strongest pure-Python ConnectX agent, one file for a Kaggle
submission (written by `clinea export kaggle`, which embeds the 7x6
opening book; imports only the standard library).

Search: negamax with alpha-beta on bitboards held in Python integers
(a column of rows + 1 bits, the top one always empty so lines do not
wrap), iterative deepening, a transposition table kept between moves,
the immediate-win, forced-block and do-not-play-under-a-threat pruning of
exact Connect-4 solvers, and moves ordered by the table's best move, the
threats a move makes and the centre. Wins and losses are exact scores
(the sooner the better), everything else a threat-and-centre evaluation, so
late in the game the same search is an exact solver.

Clock: every move has an answer before the search starts (win, block, the
most central safe column) and the search stops itself by its own clock
well inside ConnectX's `actTimeout`. The overage bank
(`remainingOverageTime`) is kept whole by default (BANK_RESERVE is all of
it): it absorbs Kaggle's own overhead on a loaded machine, so no move
times out, and every move stays within `actTimeout`. With a smaller
reserve (`clinea export kaggle --overage-reserve`) the bank is drawn on
only where the answer is unsettled (the best move changed in the last
iteration and the game is still close to even), never below the reserve.

Book (7x6, four in a row only): the move clinea's exact solver chose for
the positions the agent can meet up to BOOK_PLIES stones, playing its own
book moves against any reply (`clinea.bridges.kaggle_book` says which),
keyed by the position (its bitboards' `cur + mask`, unique: per column the
side to move's stones plus a run of ones as high as the column). It stays
a sorted array of entries, searched by bisection: decoding it into a dict
of 75,000 positions cost up to a second of the first move.
"""
from __future__ import annotations

import base64
import sys
import time
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Callable
from typing import Any

BOOK_7X6 = ""
BOOK_PLIES = 0
BOOK_ENTRY = "Q"  # a book entry, 8 bytes little-endian: a 7x6 key (49 bits), then a column (4)

WIN = 1_000_000          # a win with the n-th stone scores WIN - n for the winner
ACT_MARGIN = 0.45        # seconds kept back from actTimeout: Kaggle's own overhead
BANK_RESERVE = 60.0      # overage seconds never spent (all of ConnectX's 60)
BANK_MOVE_CAP = 4.0      # at most this much overage on one move
UNSETTLED = 60           # evaluations closer to even than this (two threats) may draw on the bank
TABLE_LIMIT = 400_000    # entries before the transposition table is cleared (about 80 MB)
EXACT, LOWER, UPPER = 0, 1, 2


class Timeout(Exception):
    """The search ran out of its time."""


def popcount_by_text(bits: int) -> int:
    return bin(bits).count("1")


popcount: Callable[[int], int] = getattr(int, "bit_count", popcount_by_text)  # Python 3.10 on: ten times faster


def compile_lines(inarow: int, directions: tuple[int, ...], cells: int) -> Callable[[int], int]:
    """winning_cells(stones) for lines of `inarow` along the bit shifts
    `directions` (the first vertical): the empty cells where a stone
    completes a line (and some occupied ones, to be masked), as one
    straight-line function (a loop over shifts costs three times as much
    in CPython). A cell wins when `taken` stones lie before it and
    `inarow - 1 - taken` after it along one direction."""
    need = inarow - 1
    body = ["def winning_cells(stones):", "    won = 0"]
    for index, shift in enumerate(directions):
        upward = index == 0  # vertical: an empty cell has no stones above it
        for k in range(1, need + 1):
            body.append(f"    a{k} = {f'a{k - 1} & ' if k > 1 else ''}(stones << {k * shift})")
            if not upward:
                body.append(f"    b{k} = {f'b{k - 1} & ' if k > 1 else ''}(stones >> {k * shift})")
        if not need:
            terms = ["-1"]
        elif upward:
            terms = [f"a{need}"]
        else:
            terms = [f"a{taken} & b{need - taken}" if 0 < taken < need else f"a{need}" if taken else f"b{need}"
                     for taken in range(need + 1)]
        body.append("    won |= " + " | ".join(f"({term})" for term in terms))
    body.append(f"    return won & {cells}")
    namespace: dict[str, Any] = {}
    exec("\n".join(body), namespace)  # noqa: S102 - code made here from integers only
    winning_cells: Callable[[int], int] = namespace["winning_cells"]
    return winning_cells


class Game:
    """One ConnectX configuration: its bitboard layout, move order, lines
    (`winning_cells(stones)`, made by compile_lines), and a transposition
    table kept between moves."""

    def __init__(self, columns: int, rows: int, inarow: int) -> None:
        self.columns, self.rows, self.inarow = columns, rows, inarow
        self.stride = stride = rows + 1
        self.size = columns * rows
        self.bottom = sum(1 << (col * stride) for col in range(columns))
        self.cells = self.bottom * ((1 << rows) - 1)
        self.column_bits = [((1 << rows) - 1) << (col * stride) for col in range(columns)]
        self.order = sorted(range(columns), key=lambda col: (abs(2 * col - (columns - 1)), col))
        middle = [col for col in range(columns) if abs(2 * col - (columns - 1)) <= max(1, columns // 3)]
        self.centre = sum(self.column_bits[col] for col in middle)
        self.inner = sum(self.column_bits[col] for col in self.order[:max(1, (columns + 1) // 4)])
        odd_rows = sum(1 << (col * stride + row) for col in range(columns) for row in range(0, rows, 2))
        self.odd_rows, self.even_rows = odd_rows, self.cells & ~odd_rows
        self.winning_cells = compile_lines(inarow, (1, stride, stride + 1, stride - 1), self.cells)
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.nodes = 0
        self.deadline = 0.0
        self.horizon = False

    # -- rules ---------------------------------------------------------
    def move_bit(self, mask: int, col: int) -> int:
        """The cell a stone dropped in `col` takes (0: the column is full)."""
        return (mask + (1 << (col * self.stride))) & self.column_bits[col] & ~mask

    def from_board(self, board: list[int], mark: int) -> tuple[int, int, int]:
        """(stones of `mark`, all stones, stones down) of ConnectX's flat
        board (row-major, top row first)."""
        mine = mask = 0
        columns, rows = self.columns, self.rows
        for col in range(columns):
            for level in range(rows):
                cell = board[(rows - 1 - level) * columns + col]
                if cell:
                    bit = 1 << (col * self.stride + level)
                    mask |= bit
                    if cell == mark:
                        mine |= bit
        return mine, mask, popcount(mask)

    # -- search --------------------------------------------------------
    def evaluate(self, cur: int, mask: int, mine_won: int, theirs_won: int, n: int) -> int:
        """Heuristic value for the side to move of a quiet position:
        threats (more for those on the rows its parity claims), centre."""
        empty = self.cells & ~mask
        mine, theirs = mine_won & empty, theirs_won & empty
        first = n % 2 == 0
        good_mine = self.odd_rows if first else self.even_rows
        good_theirs = self.even_rows if first else self.odd_rows
        opp = cur ^ mask
        return (24 * (popcount(mine) - popcount(theirs))
                + 16 * (popcount(mine & good_mine) - popcount(theirs & good_theirs))
                + 3 * (popcount(cur & self.centre) - popcount(opp & self.centre))
                + 2 * (popcount(cur & self.inner) - popcount(opp & self.inner)))

    def negamax(self, cur: int, mask: int, n: int, depth: int, alpha: int, beta: int) -> int:
        """Value for the side to move (stones `cur`, all `mask`, `n` down)
        searched `depth` plies; exact where it is a win or a loss."""
        self.nodes += 1
        if not self.nodes & 255 and time.perf_counter() > self.deadline:
            raise Timeout
        size = self.size
        if n >= size:
            return 0
        possible = (mask + self.bottom) & self.cells
        mine_won = self.winning_cells(cur)
        if mine_won & possible:
            return WIN - n - 1
        opp = cur ^ mask
        theirs_won = self.winning_cells(opp)
        forced = possible & theirs_won
        if forced:
            if forced & (forced - 1):
                return -(WIN - n - 2)
            possible = forced
        moves = possible & ~(theirs_won >> 1)
        if not moves:
            return -(WIN - n - 2)
        if n + 1 >= size:
            return 0
        best_possible = WIN - n - 3 if n + 3 <= size else 0
        worst_possible = -(WIN - n - 4) if n + 4 <= size else 0
        if beta > best_possible:
            beta = best_possible
        if alpha < worst_possible:
            alpha = worst_possible
        if alpha >= beta:
            return alpha
        if depth <= 0:
            self.horizon = True
            return self.evaluate(cur, mask, mine_won, theirs_won, n)
        key = cur + mask
        entry = self.table.get(key)
        first = -1
        if entry is not None:
            entry_depth, kind, value, first = entry
            proven = abs(value) > WIN // 2
            if (entry_depth >= depth or proven) and (
                    kind == EXACT or kind == LOWER and value >= beta or kind == UPPER and value <= alpha):
                # a value an earlier search cut at its horizon is as unsettled as one cut here:
                # without this, a search answered from the table took itself for exact and stopped
                self.horizon = self.horizon or not proven
                return value
        children = self.ordered(cur, mask, moves, first, depth)
        alpha_in = alpha
        best, best_col = -WIN - 1, -1
        for col, bit in children:
            value = -self.negamax(opp, mask | bit, n + 1, depth - 1, -beta, -alpha)
            if value > best:
                best, best_col = value, col
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        kind = UPPER if best <= alpha_in else LOWER if best >= beta else EXACT
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        self.table[key] = (depth, kind, best, best_col)
        return best

    def ordered(self, cur: int, mask: int, moves: int, first: int, depth: int) -> list[tuple[int, int]]:
        """(column, bit) of the columns in `moves`: the table's move first,
        then, far from the leaves, those making most threats, centre first."""
        children = []
        for col in self.order:
            bit = moves & self.column_bits[col]
            if bit:
                children.append((col, bit))
        if depth >= 3 and len(children) > 1:
            empty = self.cells & ~mask
            scored = [(-popcount(self.winning_cells(cur | bit) & empty & ~bit), index, col, bit)
                      for index, (col, bit) in enumerate(children)]
            scored.sort()
            children = [(col, bit) for _, _, col, bit in scored]
        if first >= 0:
            for index, (col, _) in enumerate(children):
                if col == first:
                    if index:
                        children.insert(0, children.pop(index))
                    break
        return children

    def safe_answer(self, cur: int, mask: int) -> int:
        """The answer ready before any search: a winning column, else the
        block, else the most central column that does not let the opponent
        win at once, else the most central legal one."""
        possible = (mask + self.bottom) & self.cells
        legal = [col for col in self.order if possible & self.column_bits[col]]
        mine_won = self.winning_cells(cur)
        for col in legal:
            if mine_won & possible & self.column_bits[col]:
                return col
        theirs_won = self.winning_cells(cur ^ mask)
        for col in legal:
            if theirs_won & possible & self.column_bits[col]:
                return col
        for col in legal:
            if not theirs_won & ((possible & self.column_bits[col]) << 1):
                return col
        return legal[0]

    def search(self, cur: int, mask: int, n: int, budget: float,
               extra: float = 0.0, max_depth: int | None = None) -> tuple[int, int | None, int]:
        """(column, value, depth reached) within `budget` seconds, and up to
        `extra` more while the best move keeps changing (and no deeper than
        `max_depth` plies: a search that does not depend on the clock)."""
        start = time.perf_counter()
        self.deadline = start + budget
        answer = self.safe_answer(cur, mask)
        possible = (mask + self.bottom) & self.cells
        mine_won = self.winning_cells(cur)
        if mine_won & possible:
            return answer, WIN - n - 1, 0
        theirs_won = self.winning_cells(cur ^ mask)
        forced = possible & theirs_won
        moves = (forced or possible) & ~(theirs_won >> 1)
        if popcount(moves) <= 1:
            return answer, None, 0
        best_col, best_value, reached = answer, None, 0
        opp = cur ^ mask
        depth = 1
        while n + depth <= self.size + 1 and (max_depth is None or depth <= max_depth):
            self.horizon = False
            first = best_col
            children = self.ordered(cur, mask, moves, first, depth + 2)
            alpha, beta = -WIN, WIN
            found_col: int | None = None
            found_value: int | None = None
            try:
                for col, bit in children:
                    value = -self.negamax(opp, mask | bit, n + 1, depth - 1, -beta, -alpha)
                    if found_value is None or value > found_value:
                        found_col, found_value = col, value
                        alpha = max(alpha, value)
            except Timeout:
                if found_col is not None and found_value is not None and (
                        best_value is None or found_value > best_value or found_col == best_col):
                    best_col, best_value = found_col, found_value
                break
            if found_col is None or found_value is None:
                break  # no child searched: nothing new to play
            changed = found_col != best_col
            best_col, best_value, reached = found_col, found_value, depth
            if not self.horizon or abs(best_value) > WIN // 2:
                break  # exact: a proven result, or searched to the end
            elapsed = time.perf_counter() - start
            if changed and extra > 0 and elapsed > budget * 0.3 and abs(best_value) < UNSETTLED:
                self.deadline, extra = self.deadline + extra, 0.0
            if elapsed > (self.deadline - start) * 0.45:
                break  # the next iteration would not finish
            depth += 1
        return best_col, best_value, reached


_games: dict[tuple[int, int, int], Game] = {}
_book: dict[str, array[int]] = {}


def read_book(encoded: str) -> array[int]:
    """The sorted entries (key << 4 | column) of an encoded book (see encode_book)."""
    entries = array(BOOK_ENTRY, zlib.decompress(base64.b64decode(encoded)))
    if sys.byteorder == "big":
        entries.byteswap()
    return entries


def book_move(entries: array[int], key: int) -> int | None:
    """The book's column for the position `key`, None when it has none."""
    at = bisect_left(entries, key << 4)
    if at < len(entries) and entries[at] >> 4 == key:
        return entries[at] & 15
    return None


def encode_book(book: dict[int, int]) -> str:
    """{position key: column} as stored: the entries key << 4 | column,
    sorted, 8 bytes little-endian each, zlib, base64 (whose decoder is
    compiled, base85's is not)."""
    raw = b"".join(((key << 4) | col).to_bytes(8, "little") for key, col in sorted(book.items()))
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def field(record: Any, name: str, default: Any = None) -> Any:
    """`record[name]` of a dict (Kaggle's Structs are dicts too), else the attribute."""
    if isinstance(record, dict):
        return record.get(name, default)
    return getattr(record, name, default)


def choose(game: Game, board: list[int], mark: int, act_timeout: float = 2.0, overage: float = 0.0) -> int:
    """The column to play (0-based) on ConnectX's flat `board` for `mark`."""
    start = time.perf_counter()
    cur, mask, n = game.from_board(board, mark)
    if BOOK_7X6 and (game.columns, game.rows, game.inarow) == (7, 6, 4) and n <= BOOK_PLIES:
        if "book" not in _book:
            _book["book"] = read_book(BOOK_7X6)
        col = book_move(_book["book"], cur + mask)
        if col is not None and game.move_bit(mask, col):
            return col
    budget = max(0.05, act_timeout - ACT_MARGIN - (time.perf_counter() - start))
    extra = 0.0
    if overage > BANK_RESERVE and n < game.size * 2 // 3:
        extra = min(BANK_MOVE_CAP, (overage - BANK_RESERVE) / 4)
    col, _, _ = game.search(cur, mask, n, budget, extra)
    return col


def agent(observation: Any, configuration: Any) -> int:
    """ConnectX's entry point: the column to play (0-based)."""
    columns = int(field(configuration, "columns", 7))
    rows = int(field(configuration, "rows", 6))
    inarow = int(field(configuration, "inarow", 4))
    board = list(field(observation, "board"))
    mark = int(field(observation, "mark", 1))
    game = _games.get((columns, rows, inarow))
    if game is None:
        game = _games[(columns, rows, inarow)] = Game(columns, rows, inarow)
    try:
        return choose(game, board, mark, float(field(configuration, "actTimeout", 2.0) or 2.0),
                      float(field(observation, "remainingOverageTime", 0.0) or 0.0))
    except Exception:  # a move is always better than a lost game: the first open column
        return next(col for col in range(columns) if board[col] == 0)
