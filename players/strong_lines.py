"""strong's own lines on standard 7x6, worked out once: from the empty board
(strong first), every first move strong answers without losing and every
two-move opening strong does not lose, with either colour, the positions its play
reaches against the replies that keep its value (in a draw, every drawing
reply; in a win, the replies that lose slowest, as a perfect opponent
plays), with the move that keeps that value: every move of strong's before
the book's ply, and past it every move of a won line and the draws whose
proof takes more than MIN_NODES nodes, up to MAX_STONES stones.

Why: the opening book (clinea.core.book) scores every 12-stone position, so
every move before it is a lookup, once the book is loaded; the lines load
first (3-6 ms against the book's and the tables' 0.1 s), so a fresh
process's first moves are proven ones too; the moves at 12 to 18 stones are the ones
whose proof does not fit in 0.05 s once the machine is busy (measured on the
lines of opening `4 1`, with a fresh table: a median of 0.81 M nodes at 12
stones and up to 6.9 M, 0.15 M at 15 stones and up to 1.4 M, under 0.2 M
past 18). Against a perfect player at 100,000 nodes a move, without the
lines strong lost the value in games from drawn openings; with the drawn
lines alone it lost 12 of 98, all from won openings. strong's moves are
deterministic (the solver's first move in its order that keeps the value)
and the replies kept are few, so the positions are tens of thousands; the
moves a line does not store, strong proves in time. A won line is stored
whole so that strong's moves along it do not depend on whether an exact
solve (the shortest win) finished in time.

Built by `make lines` (`python -m clinea.players.strong_lines`), about 20
minutes of CPU; the file ships with the package.
"""
from __future__ import annotations

import argparse
import os
import sys
from array import array
from bisect import bisect_left
from typing import Protocol

from clinea.bounded import MIB, read_file
from clinea.core import Board, Rules
from clinea.core.book import BOOK_PLY
from clinea.core.solver import Solver
from clinea.core.timeman import unbounded

LINES_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "strong_lines_7x6.bin")
# The shipped file is 4 MB (some 400,000 lines).
FILE_LIMIT = 64 * MIB
#: how far the lines are followed, and what a proof must cost to be kept
MAX_STONES = 20
MIN_NODES = 30_000
STANDARD = Rules()  # 7x6, c = 4, 21 tokens each: the game of the opening book



class LinesLookup(Protocol):
    """What strong reads its lines through: the stored lines, or a wrapper that notes the reads."""

    def __len__(self) -> int: ...

    def lookup(self, board: Board) -> tuple[int, int] | None: ...

class StrongLines:
    """The stored positions: `lookup(board)` gives (column, value) or None.

    The file: a header line, then the sorted 64-bit position keys
    (Board.key(), little-endian), a byte for each column and a signed byte
    for each value. Not compressed: a fresh process reads its first moves
    here, and unpacking the 4 MB took 20 ms (more than a 0.02 s move waits)
    where reading them takes 3-6. No numpy: importing it would add 0.07 s to
    every start of the player."""

    MAGIC = b"clinea strong lines 2\n"

    def __init__(self, keys: array[int], moves: bytes, values: array[int]):
        self.keys, self.moves, self.values = keys, moves, values

    def __len__(self) -> int:
        return len(self.keys)

    @classmethod
    def load(cls, path: str = LINES_FILE) -> StrongLines:
        """The lines in `path`; none if there is no such file (a checkout
        rebuilding it: strong then proves every move itself)."""
        try:
            data = read_file(path, FILE_LIMIT)
        except FileNotFoundError:
            return cls.of({})
        if not data.startswith(cls.MAGIC) or (len(data) - len(cls.MAGIC)) % 10:
            raise ValueError(f"{path}: not a file of strong's lines (rebuild it with make lines)")
        body = memoryview(data)[len(cls.MAGIC):]  # slices without copies
        count = len(body) // 10
        keys = array("Q")
        keys.frombytes(body[:8 * count])
        if sys.byteorder != "little":
            keys.byteswap()
        values = array("b")
        values.frombytes(body[9 * count:])
        return cls(keys, bytes(body[8 * count:9 * count]), values)

    @classmethod
    def of(cls, kept: dict[int, tuple[int, int]]) -> StrongLines:
        """The lines of `build`'s answer."""
        keys = sorted(kept)
        return cls(array("Q", keys), bytes(kept[k][0] for k in keys), array("b", (kept[k][1] for k in keys)))

    def save(self, path: str) -> None:
        keys = array("Q", self.keys)
        if sys.byteorder != "little":
            keys.byteswap()
        with open(path, "wb") as file:
            file.write(self.MAGIC + keys.tobytes() + bytes(self.moves) + self.values.tobytes())

    def lookup(self, board: Board) -> tuple[int, int] | None:
        """(column, win / draw value for the side to move that the column
        keeps) if `board`, a standard 7x6 position, is stored."""
        if board.rules != STANDARD:
            return None
        key = board.key()
        at = bisect_left(self.keys, key)
        if at == len(self.keys) or self.keys[at] != key:
            return None
        return self.moves[at], self.values[at]


class _Builder:
    """Walks strong's lines and keeps the positions it needs."""

    def __init__(self, max_stones: int, min_nodes: int):
        self.max_stones = max_stones
        self.min_nodes = min_nodes
        # the replies' values with a warm table; strong's own proofs (cost and
        # move) with a cold one of strong's size, as a move in a game starts
        self.values = Solver(23)
        self.proofs = Solver(22)
        self.kept: dict[int, tuple[int, int]] = {}
        self.seen: set[int] = set()

    def strong_to_move(self, board: Board) -> None:
        key = board.key()
        if key in self.seen:
            return
        self.seen.add(key)
        if board.moves_played < BOOK_PLY:
            # strong's exact move there, through the book: kept too, so that
            # strong follows these lines even when a busy machine cuts its
            # exact solve short and leaves it the win / draw / loss move
            found, score = unbounded(self.values.play_value(board))
            value = (score > 0) - (score < 0)
            keep = True
        else:
            self.proofs.reset()
            found, value = unbounded(self.proofs.play_value(board, weak=True))
            # a won line is kept whole: which of its moves strong plays
            # must not depend on whether an exact solve finished in time
            keep = value > 0 or self.proofs.nodes > self.min_nodes
        # no move is found only where every move loses, which strong's lines never reach
        if found is None:
            raise AssertionError(f"strong's lines reached a lost position: {board.moves()}")
        move = found
        if keep:
            self.kept[key] = (move, value)
        if board.moves_played >= BOOK_PLY and board.moves_played >= self.max_stones:
            return
        if value < 0:
            return
        board.play(move)
        if not board.is_over():
            self.opponent_to_move(board, value)
        board.undo()

    def opponent_to_move(self, board: Board, ours: int) -> None:
        """Follows the replies to strong's move that keep `ours`, strong's
        value: in a draw, every drawing reply (and strong's move after a
        reply that loses); in a win, the replies that lose slowest, which a
        perfect opponent plays."""
        scores: dict[int, int] = {}
        for col in board.legal_columns():
            board.play(col)
            if not board.is_over():
                scores[col] = unbounded(self.values.solve(board, weak=ours == 0))
            board.undo()
        if ours > 0 and scores:
            slowest = min(scores.values())
            scores = {col: 1 for col, score in scores.items() if score == slowest}
        for col, score in scores.items():
            if score >= 0:
                board.play(col)
                self.strong_to_move(board)
                board.undo()


def roots() -> list[tuple[list[int], bool]]:
    """(opening, whether strong moved first) for the empty board (strong
    first), every one-move opening strong answers without losing, and every
    two-move opening of 7x6 that strong does not lose, with either colour:
    the first moves too, since a fresh process's first game reads the lines
    before its solver and book are set up."""
    solver = Solver(20)
    found: list[tuple[list[int], bool]] = [([], True)]
    for a in range(7):
        if unbounded(solver.solve(Board.from_moves([a]), weak=True)) >= 0:
            found.append(([a], False))
    for a in range(7):
        for b in range(7):
            first = unbounded(solver.solve(Board.from_moves([a, b]), weak=True))
            if first >= 0:
                found.append(([a, b], True))
            if first <= 0:
                found.append(([a, b], False))
    return found


def build(max_stones: int = MAX_STONES, min_nodes: int = MIN_NODES,
          starts: list[tuple[list[int], bool]] | None = None, show_progress: bool = True) -> dict[int, tuple[int, int]]:
    """{position key: (column, value)} over strong's lines from `starts`
    ((moves, whether strong moved first), strong not losing there; default
    `roots()`)."""
    from clinea.progress import progress_bar
    builder = _Builder(max_stones, min_nodes)
    starts = roots() if starts is None else starts
    bar = progress_bar(len(starts), unit="opening", desc="strong's lines") if show_progress else None
    for moves, strong_first in starts:
        board = Board.from_moves(moves)
        if (board.side_to_move == 0) == strong_first:
            builder.strong_to_move(board)
        else:
            builder.opponent_to_move(board, -unbounded(builder.values.solve(board, weak=True)))
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()
    return builder.kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="example:\n  python -m clinea.players.strong_lines --out /tmp/lines.bin",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-stones", type=int, default=MAX_STONES,
                        help=f"follow the lines up to this many stones, {BOOK_PLY}..42 (default {MAX_STONES})")
    parser.add_argument("--min-nodes", type=int, default=MIN_NODES,
                        help=f"keep the draws past the book whose proof takes more nodes than this, 0 or more "
                             f"(default {MIN_NODES})")
    parser.add_argument("--out", default=LINES_FILE, help=f"the file to write (default {LINES_FILE})")
    args = parser.parse_args(argv)
    if not BOOK_PLY <= args.max_stones <= 42:
        parser.error(f"--max-stones {args.max_stones}: allowed {BOOK_PLY}..42")
    if args.min_nodes < 0:
        parser.error(f"--min-nodes {args.min_nodes}: allowed 0 or more")
    kept = build(args.max_stones, args.min_nodes)
    StrongLines.of(kept).save(args.out)
    print(f"{len(kept)} positions to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
