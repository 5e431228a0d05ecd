"""`clinea solve`: exact scores of positions, one per line, in the format of
the standard test files, so its output can be compared with them directly."""
import argparse
import itertools
import sys
import time

from clinea.bounded import MIB, TooLarge, bounded_lines
from clinea.core import Board, parse_moves
from clinea.core.solver import DEFAULT_TT_LOG2, MAX_THREADS, MAX_TT_LOG2, MIN_TT_LOG2, Solver
from clinea.players.options import add_board_options, bounded_int, command_parser

# The longest game, 16,384 moves of a 128x128 board written "128,", is 64 KB.
LINE_LIMIT = MIB

EPILOG = """input: one position per line, the moves from the empty board, 1-based:
digits ("4453") or, on boards wider than 9 columns, numbers joined by commas
("10,3,4"). Everything after the first blank on a line is ignored (such as
the score column of the test files); an empty line is the empty board. A
comma with no number on one side (",,", "1,,2", "1,2,") is an invalid line.

output: "<moves> <score>", the score for the side to move: 0 draw,
(S + 1 - k) when it wins with its k-th stone, -(S + 1 - k) when it loses to
the opponent's k-th stone, S being the winner's own most stones: (m + 1) // 2
for the first player, m // 2 for the second, m = min(2p, columns*rows)
(22 - k on 7x6; a win after n stones scores (m + 1 - n) // 2). --analyze prints the score of each column instead ("." if full).

examples:
  clinea solve < tests/data/pons/Test_L3_R1
  echo 4453 | clinea solve --analyze --nodes --time
  echo '' | clinea solve --no-book --weak --threads 2 --time
  echo 2,10,3 | clinea solve --columns 10 --rows 8 --c 5 --p 12 --weak"""


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("clinea solve", "Solve positions exactly, read from stdin one per line.", EPILOG)
    parser.add_argument("--analyze", action="store_true", help="print the score of every column (default: off)")
    parser.add_argument("--weak", action="store_true", help="only win/draw/loss: 1, 0, -1, faster (default: off)")
    add_board_options(parser)
    parser.add_argument("--nodes", action="store_true", help="add a column: nodes searched (default: off)")
    parser.add_argument("--time", action="store_true", help="add a column: microseconds spent (default: off)")
    parser.add_argument("--no-book", action="store_true",
                        help="search 7x6 positions to the end rather than to the opening book's 12 stones (default: off)")
    parser.add_argument("--tt-log2", type=bounded_int("--tt-log2", MIN_TT_LOG2, MAX_TT_LOG2), default=DEFAULT_TT_LOG2,
                        help=f"the large transposition table: 2**N entries of 8 bytes, {MIN_TT_LOG2}..{MAX_TT_LOG2} "
                             f"(default {DEFAULT_TT_LOG2})")
    parser.add_argument("--threads", type=bounded_int("--threads", 1, MAX_THREADS), default=1,
                        help=f"threads sharing the table on each position, 1..{MAX_THREADS}; the scores are the same, "
                             "the nodes (all threads') vary run to run (default 1)")
    return parser


def move_text(line: str) -> str:
    """The moves of a line: its first blank-separated field ('' if none)."""
    fields = line.split(maxsplit=1)
    return fields[0] if fields else ""


def position(empty: Board, text: str) -> Board:
    """The board after the 1-based moves in `text`; ValueError names the
    first bad move in the input's own 1-based numbering."""
    board = empty.copy()
    for index, col in enumerate(parse_moves(text, empty.columns)):
        if board.is_over():
            raise ValueError(f"move {index + 1} (column {col + 1}): the game is already over")
        if not board.can_play(col):
            raise ValueError(f"move {index + 1}: column {col + 1} is full")
        board.play(col)
    return board


def solve_line(solver: Solver, board: Board, args: argparse.Namespace) -> str:
    start = time.perf_counter()
    if args.analyze:
        scores = solver.analyze(board, weak=args.weak)
        assert scores is not None  # None only when a node or time budget runs out, and none is given
        result = " ".join("." if score is None else str(score) for score in scores)
    else:
        result = str(solver.solve(board, weak=args.weak))
    elapsed = time.perf_counter() - start
    if args.nodes:
        result += f" {solver.nodes}"
    if args.time:
        result += f" {elapsed * 1e6:.0f}"
    return result


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        empty = Board(args.columns, args.rows, args.c, args.p)
        solver = Solver(args.tt_log2, book=not args.no_book, threads=args.threads)
        solver.prepare(empty)  # before any --time column is measured
    except ValueError as error:
        parser.error(str(error))
    invalid = 0
    lines = bounded_lines(sys.stdin.buffer, "stdin", LINE_LIMIT)
    for lineno in itertools.count(1):
        try:
            line = next(lines, None)
        except TooLarge as error:  # the rest of that line cannot be skipped without reading it
            print(f"clinea solve: {error}", file=sys.stderr, flush=True)
            return 1
        if line is None:
            break
        text = move_text(line.decode("utf-8", "replace"))
        try:
            board = position(empty, text)
        except ValueError as error:
            invalid += 1
            print(f"clinea solve: line {lineno}: {text!r}: {error}", file=sys.stderr, flush=True)
            continue
        print(f"{text} {solve_line(solver, board, args)}", flush=True)
    return 1 if invalid else 0
