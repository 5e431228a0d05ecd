"""`clinea check-book`: the opening book we ship, checked against our own
solver. A published 12-ply book for 7x6 was once found to hold two wrong
entries; this proves a random sample of the book's entries again, each
without the book, and every entry `strong` reads in a game from the empty
board (the book's, recorded as the solver looks them up, and those of
strong's own lines, clinea.players.strong_lines, with the move each keeps).
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from clinea.core import Board, Rules
from clinea.core.book import BOOK_PLY, OpeningBook, standard_book
from clinea.core.solver import Solver
from clinea.core.timeman import Limits
from clinea.players.options import bounded_float, bounded_int, command_parser
from clinea.players.strong_lines import LinesLookup
from clinea.progress import progress_bar

STANDARD = Rules()
COLUMNS, ROWS = STANDARD.columns, STANDARD.rows
CODE_BITS = 32  # 12 stones: 2 bits each, a 0 closing each of 7 columns, one more 0


def decode(code: int) -> Board:
    """The position of a book code (see clinea.core.book: the columns left to
    right, each bottom to top, '10' a stone of the first player, '11' of the
    second, '0' closing a column)."""
    bits = [(code >> (CODE_BITS - 1 - i)) & 1 for i in range(CODE_BITS)]
    at = 0
    columns: list[list[int]] = []
    for _ in range(COLUMNS):
        stones = []
        while bits[at]:
            stones.append(2 if bits[at + 1] else 1)
            at += 2
        at += 1
        if len(stones) > ROWS:
            raise ValueError(f"code {code:#010x}: a column of {len(stones)} stones")
        columns.append(stones)
    grid = [[columns[col][row] if row < len(columns[col]) else 0 for col in range(COLUMNS)] for row in range(ROWS)]
    return Board.from_grid(grid, c=STANDARD.c, top_first=False)


@dataclass
class CheckReport:
    """What a check looked at and what it found."""
    what: str
    checked: int = 0
    unknown: int = 0
    mismatches: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def line(self) -> str:
        unknown = f", {self.unknown} out of time" if self.unknown else ""
        return (f"{self.what}: {self.checked} checked, {len(self.mismatches)} mismatches{unknown}, "
                f"{self.seconds:.1f} s")


def check_book_entries(indices: Iterable[int], what: str, time_limit: float,
                       book: OpeningBook | None = None) -> CheckReport:
    """The score `book` (default: the one we ship) holds for each entry (by
    its index) against our solver's, solved to the end of the game without
    the book."""
    book = standard_book() if book is None else book
    codes = book.codes()
    indices = list(indices)
    solver = Solver(23, book=False)
    report = CheckReport(what)
    start = time.monotonic()
    bar = progress_bar(len(indices), unit="position", desc=what)
    try:
        for index in indices:
            board = decode(codes[index])
            stored = book.score(board)
            ours = solver.solve(board, limits=Limits(time=time_limit))
            if ours is None:
                report.unknown += 1
            elif stored != ours:
                report.mismatches.append(f"entry {index} ({board.to_string()}): book {stored}, ours {ours}")
            report.checked += ours is not None
            bar.update(1)
    finally:
        bar.close()
    report.seconds = time.monotonic() - start
    return report


def sample(size: int, fraction: float, seed: int) -> list[int]:
    """At least `fraction` of `size` indices, drawn at random, sorted."""
    count = min(size, max(1, math.ceil(size * fraction)))
    return sorted(random.Random(seed).sample(range(size), count))


@dataclass
class StrongRun:
    """What strong read in one game against itself from the empty board."""
    book_entries: list[int]
    lines: list[tuple[str, int, int]]  # (moves, column, value) of each lines lookup
    moves: str


def strong_game(time_per_move: float) -> StrongRun:
    """strong against strong from the empty 7x6 board, in this process, with
    the book's lookups recorded (the solver's search reads them in C) and
    the lines' lookups caught on their way out."""
    from clinea.players.strong_player import StrongBot

    book = standard_book()
    bots = [StrongBot(time_per_move=time_per_move, ponder=False) for _ in range(2)]
    read: list[tuple[str, int, int]] = []
    board = Board(*STANDARD)
    book.record_lookups(True)
    try:
        for me, bot in enumerate(bots):
            bot.new_game(board.copy(), me)
            bot.ready()  # the set-up (its thread loads the lines too) ends before they are wrapped
            lines = bot._stored_lines()
            if lines is not None:
                bot.lines = RecordingLines(lines, read)
        while not board.is_over():
            board.play(bots[board.side_to_move].choose(board.copy()))
    finally:
        book.record_lookups(False)
    return StrongRun(book.looked_up(), read, board.to_string())


class RecordingLines:
    """strong's lines, noting every hit (the position's moves, column, value)."""

    def __init__(self, lines: LinesLookup, read: list[tuple[str, int, int]]) -> None:
        self.inner, self.read = lines, read

    def __len__(self) -> int:
        return len(self.inner)

    def lookup(self, board: Board) -> tuple[int, int] | None:
        stored = self.inner.lookup(board)
        if stored is not None:
            self.read.append((board.to_string(), *stored))
        return stored


def check_lines(read: list[tuple[str, int, int]], time_limit: float) -> CheckReport:
    """Each lines entry: the stored win/draw/loss value is the position's, and
    the stored column keeps it (solved with the book before 12 stones: the
    book's own entries are what the rest of the check is for)."""
    solver = Solver(23)
    report = CheckReport("strong's lines read in the game")
    start = time.monotonic()
    for moves, column, value in read:
        board = Board.from_string(moves)
        ours = solver.solve(board, weak=True, limits=Limits(time=time_limit))
        child = board.copy()
        child.play(column)
        kept = 1 if child.winner is not None else solver.solve(child, weak=True, limits=Limits(time=time_limit))
        if ours is None or kept is None:
            report.unknown += 1
            continue
        kept = kept if child.winner is not None else -kept
        report.checked += 1
        if ours != value or kept != value:
            report.mismatches.append(f"{moves or '(empty)'}: stored column {column + 1} value {value}, "
                                     f"ours {ours}, the column keeps {kept}")
    report.seconds = time.monotonic() - start
    return report


EPILOG = f"""The book is the 12-ply database of bitbully-databases (every 7x6 position
with {BOOK_PLY} stones, the exact score); each entry checked is solved again by
clinea's solver to the end of the game, without the book.

examples:
  clinea check-book                      # 1 % of the book and a game of strong
  clinea check-book --fraction 0.0002 --seed 3 --time-per-move 0.05"""


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("clinea check-book", __doc__.split("\n\n")[0], EPILOG)
    parser.add_argument("--fraction", type=float, default=0.01,
                        help="share of the book's entries to check, drawn at random, 0..1 (default 0.01)")
    parser.add_argument("--seed", type=int, default=1, help="the sample's random seed (default 1)")
    parser.add_argument("--time-limit", type=bounded_float("--time-limit", 0.0, what="a number of seconds"), default=60.0,
                        help="seconds for each entry's solve, 0 for none; past it the entry counts as out "
                             "of time (default 60)")
    parser.add_argument("--time-per-move", type=bounded_float("--time-per-move", 0.001, 3600, "a number of seconds"),
                        default=0.2,
                        help="strong's time per move in its game, 0.001..3600 (default 0.2)")
    parser.add_argument("--no-game", action="store_true", help="skip strong's game (default: play it)")
    parser.add_argument("--game-entries", type=bounded_int("--game-entries", 0), default=None,
                        help="check only the first N book entries strong read, 0 or more (default: all)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 0 < args.fraction <= 1:
        parser.error(f"--fraction={args.fraction:g} is out of range: allowed above 0, up to 1")
    size = len(standard_book())
    reports = []
    if not args.no_game:
        run = strong_game(args.time_per_move)
        print(f"strong's game from the empty board: {run.moves} ({len(run.moves)} moves), "
              f"{len(run.book_entries)} book entries and {len(run.lines)} lines entries read", flush=True)
        entries = run.book_entries if args.game_entries is None else run.book_entries[:args.game_entries]
        reports.append(check_book_entries(entries, f"book entries strong read ({len(entries)} of "
                                          f"{len(run.book_entries)})", args.time_limit))
        reports.append(check_lines(run.lines, args.time_limit))
    chosen = sample(size, args.fraction, args.seed)
    reports.append(check_book_entries(chosen, f"random sample of the book ({len(chosen)} of {size:,} entries, "
                                      f"seed {args.seed})", args.time_limit))
    for report in reports:
        print(report.line(), flush=True)
        for mismatch in report.mismatches:
            print(f"  MISMATCH {mismatch}", flush=True)
    return 1 if any(report.mismatches for report in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
