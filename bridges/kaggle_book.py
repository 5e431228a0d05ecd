"""The 7x6 opening book that `clinea export kaggle` embeds in its agent:
the move clinea's exact solver chooses at every position the agent can
meet while it follows the book, up to a number of stones.

    python -m clinea.bridges.kaggle_book    # rewrites kaggle_book_7x6.txt

The tree is the agent's own (its move, then every reply), so it holds one
position per reply rather than every position of that many stones.
Moving first (7x6 is a first-player win) it goes deeper, as a winning
strategy: a winning move at the agent's turns, every reply of the
opponent, and past the second player's depth the positions its search
wins by itself left out (see book_entries). A position the agent wins
keeps a winning move, one it draws a drawing move (the solver's weak
mode, its cheapest proof); one it loses gets the move that loses slowest
(the exact score), the best chance against an opponent that is not
perfect.
"""
from __future__ import annotations

import importlib.resources
import sys
import time
from collections.abc import Callable
from pathlib import Path

from clinea.bridges import kaggle_agent_best as agent
from clinea.bridges.kaggle import kaggle_board
from clinea.core import Board
from clinea.core.solver import Solver
from clinea.core.timeman import unbounded
from clinea.players.options import command_parser

BOOK_FILE = "kaggle_book_7x6.txt"
#: the stored book's header line: "plies N", N the most stones of a position in it
HEADER = "plies"
#: moving first, positions won with at most this many more of the agent's
#: stones are left to its search (a 5-ply win: found at once even on a loaded machine)
SHORT_WIN = 3
#: moving first, the book's depth by default, and the most allowed
FIRST_PLIES, MOST_FIRST_PLIES = 18, 24


def book_entries(plies: int, first_plies: int | None = None, solver: Solver | None = None,
                 progress: Callable[[int], object] | None = None) -> dict[int, int]:
    """{position key (the agent's `cur + mask`): column} of every position
    the agent meets when it plays the book's moves and the opponent
    anything: moving second (after any opening column) up to `plies`
    stones, moving first from the empty board up to `first_plies` (default
    `plies`).

    Moving first on 7x6 the agent always has a win. Past `plies` stones the
    book leaves out, with everything after them, the positions the agent
    wins with at most SHORT_WIN more stones (the solver's exact score): its
    search proves such a win on its first iterations, so the book's
    entries go to the positions where its evaluation can miss the win."""
    exact = solver or Solver()
    game = agent.Game(7, 6, 4)
    book: dict[int, int] = {}
    left_to_search: set[int] = set()
    deepest_first = plies if first_plies is None else first_plies

    def ours(board: Board, first: bool) -> None:
        n = board.moves_played
        if n > (deepest_first if first else plies) or board.is_over():
            return
        cur, mask, _ = game.from_board(kaggle_board(board), board.side_to_move + 1)
        if cur + mask in book or cur + mask in left_to_search:
            return
        if first and n > plies:
            score = unbounded(exact.solve(board))
            if score > 0 and stones_to_win(n, score) <= SHORT_WIN:
                left_to_search.add(cur + mask)
                return
        found, _ = unbounded(exact.play_value(board, weak=True))
        if found is None:  # lost: the slowest loss
            found, _ = unbounded(exact.play_value(board, weak=False))
        if found is None:  # pragma: no cover - an open game always has a move
            raise AssertionError(f"the solver found no move in {board.moves()}")
        col = found
        book[cur + mask] = col
        if progress is not None and len(book) % 5000 == 0:
            progress(len(book))
        board.play(col)
        if not board.is_over():
            for reply in board.legal_columns():
                board.play(reply)
                ours(board, first)
                board.undo()
        board.undo()

    empty = Board(7, 6, 4)
    ours(empty, True)
    for opening in range(7):
        empty.play(opening)
        ours(empty, False)
        empty.undo()
    return book


def stones_to_win(n: int, score: int) -> int:
    """The stones the side to move still plays to win with exact score
    `score` (> 0) at `n` stones down on 7x6 (the solver's score counts the
    winner's stones left unplayed: (43 - stones at the win) // 2)."""
    return (45 - n) // 2 - score


def stored_book() -> tuple[int, str]:
    """(plies, encoded book) of the book kept in the package."""
    text = importlib.resources.files("clinea.bridges").joinpath(BOOK_FILE).read_text("ascii")
    header, _, encoded = text.partition("\n")
    name, _, plies = header.partition(" ")
    if name != HEADER or not plies.isdigit():
        raise ValueError(f"{BOOK_FILE}: its first line is {header[:40]!r}, expected '{HEADER} N'")
    return int(plies), encoded.strip()


def main(argv: list[str] | None = None) -> int:
    parser = command_parser("python -m clinea.bridges.kaggle_book",
                            "Compute the 7x6 opening book of the exported Kaggle agent with clinea's solver.",
                            "example:\n  python -m clinea.bridges.kaggle_book --plies 12 --first-plies 18")
    parser.add_argument("--plies", type=int, default=12, help="moving second: book positions with up to this "
                                                             "many stones (allowed 0..16, default 12)")
    parser.add_argument("--first-plies", type=int, default=FIRST_PLIES,
                        help=f"moving first: up to this many stones (allowed 0..{MOST_FIRST_PLIES}, "
                             f"default {FIRST_PLIES})")
    parser.add_argument("-o", "--output", default=str(Path(agent.__file__).with_name(BOOK_FILE)),
                        help="the file to write (default: the package's)")
    args = parser.parse_args(argv)
    if not 0 <= args.plies <= 16:
        parser.error(f"--plies {args.plies} is out of range: allowed 0..16")
    if not 0 <= args.first_plies <= MOST_FIRST_PLIES:
        parser.error(f"--first-plies {args.first_plies} is out of range: allowed 0..{MOST_FIRST_PLIES}")
    started = time.monotonic()
    book = book_entries(args.plies, args.first_plies, progress=lambda count: print(
        f"{count} positions, {time.monotonic() - started:.0f} s", file=sys.stderr))
    encoded = agent.encode_book(book)
    deepest = max(args.plies, args.first_plies)
    Path(args.output).write_text(f"{HEADER} {deepest}\n{encoded}\n", encoding="ascii")
    print(f"wrote {args.output}: {len(book)} positions, up to {args.first_plies} stones moving first and "
          f"{args.plies} second, {len(encoded)} bytes, "
          f"{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
