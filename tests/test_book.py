"""The opening book of standard Connect-4: its file format, its coverage of
12-stone positions, its scores against our own search, and the solver and
`clinea solve` with and without it."""
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pons import pons_lines

from clinea.core import Board
from clinea.core.book import BOOK_PLY, OpeningBook, standard_book
from clinea.core.solver import Solver

BOOK = standard_book()


def playable_twelve(columns: list[int]) -> Board | None:
    """The board after up to 12 legal moves from `columns` (each taken
    modulo the playable ones), if it has 12 stones, the game goes on and the
    side to move cannot win at once: the positions the book must hold."""
    board = Board()
    for choice in columns:
        if board.moves_played == BOOK_PLY or board.is_over():
            break
        legal = board.legal_columns()
        board.play(legal[choice % len(legal)])
    if board.moves_played != BOOK_PLY or board.is_over():
        return None
    if any(board.is_winning_move(col) for col in board.legal_columns()):
        return None
    return board


def mirrored(board: Board) -> Board:
    return Board.from_moves([6 - col for col in board.moves()])


@given(st.lists(st.integers(0, 6), min_size=12, max_size=30))
def test_every_searchable_twelve_stone_position_is_in_the_book_and_so_is_its_mirror(columns):
    board = playable_twelve(columns)
    if board is None:
        return
    score = BOOK.score(board)
    assert score is not None, board.to_string()
    assert BOOK.score(mirrored(board)) == score
    # a score the side to move (the first player, 7th stone next) can have
    assert -15 <= score <= 15


def test_book_scores_agree_with_a_search_to_the_end():
    rng = random.Random(12)
    solver = Solver(20, book=False)
    checked = 0
    while checked < 10:
        board = playable_twelve([rng.randrange(7) for _ in range(40)])
        if board is None:
            continue
        assert BOOK.score(board) == solver.solve(board), board.to_string()
        checked += 1


def test_book_score_refuses_other_games_and_plies():
    with pytest.raises(ValueError, match="12 stones"):
        BOOK.score(Board.from_string("4453"))
    with pytest.raises(ValueError, match="7x6 c=4 p=21"):
        BOOK.score(Board.from_moves([0, 1, 1, 0] * 3, 8, 6, 4))


def entry(board: Board, value: int) -> tuple[int, int]:
    """The file's code of `board` (12 stones), built column by column from
    its moves: 10 for the first player's stones, 11 for the second's, 0
    closing each column and the code."""
    stacks = [[] for _ in range(7)]
    for index, col in enumerate(board.moves()):
        stacks[col].append("10" if index % 2 == 0 else "11")
    bits = "".join("".join(stack) + "0" for stack in stacks) + "0"
    assert len(bits) == 32
    code = int(bits, 2)
    return code - (1 << 32) if code >= 1 << 31 else code, value


def write_book(path, entries):
    data = np.array(sorted(entries), dtype=[("code", ">i4"), ("value", "i1")])
    data.tofile(path)


def test_a_book_file_is_read_as_documented(tmp_path):
    # three positions with made-up values: a win, a loss, a draw
    boards = [Board.from_string(moves) for moves in ("444444333333", "111122223333", "123456712345")]
    values = [71, -88, 0]   # wins in 29 plies, loses in 12, draw
    write_book(tmp_path / "book.dat", [entry(board, value) for board, value in zip(boards, values)])
    book = OpeningBook.from_file(tmp_path / "book.dat")
    assert len(book) == 3
    assert [book.score(board) for board in boards] == [1, -10, 0]
    assert [book.score(mirrored(board)) for board in boards] == [1, -10, 0]
    assert book.score(Board.from_string("444444777777")) is None


def test_an_unsorted_file_is_refused(tmp_path):
    boards = [Board.from_string("444444333333"), Board.from_string("111122223333")]
    data = np.array(sorted(entry(board, 0) for board in boards)[::-1], dtype=[("code", ">i4"), ("value", "i1")])
    data.tofile(tmp_path / "book.dat")
    with pytest.raises(ValueError, match="not strictly increasing"):
        OpeningBook.from_file(tmp_path / "book.dat")


def test_solver_with_and_without_the_book_agree_with_the_files():
    with_book, without = Solver(20), Solver(20, book=False)
    cases = pons_lines("Test_L1_R1")[:60] + pons_lines("Test_L1_R2")[:6] + pons_lines("Test_L1_R3")[::100][:3]
    for moves, expected in cases:
        board = Board.from_string(moves)
        assert with_book.solve(board) == expected, moves
        assert with_book.solve(board, weak=True) == (expected > 0) - (expected < 0), moves
    assert with_book.uses_book
    for moves, expected in cases[:60]:
        assert without.solve(Board.from_string(moves)) == expected, moves
    assert not without.uses_book


def test_the_empty_board_is_a_first_player_win_with_its_last_stone():
    solver = Solver(20)
    assert solver.solve(Board()) == 1
    assert solver.analyze(Board()) == [-2, -1, 0, 1, 0, -1, -2]


def test_the_book_stays_out_of_other_games():
    for game in [(7, 6, 4, 20), (7, 6, 5, None), (6, 7, 4, None), (8, 6, 4, None)]:
        solver = Solver(16)
        solver.prepare(Board(*game))
        assert not solver.uses_book, game


def test_cli_no_book_gives_the_same_scores():
    lines = "\n".join(moves for moves, _ in pons_lines("Test_L1_R1")[:30]) + "\n"
    runs = [subprocess.run([sys.executable, "-m", "clinea", "solve", *flags], input=lines,
                           capture_output=True, text=True, timeout=300) for flags in ([], ["--no-book"])]
    assert [run.returncode for run in runs] == [0, 0], runs[0].stderr + runs[1].stderr
    assert runs[0].stdout == runs[1].stdout
    expected = [f"{moves} {score}" for moves, score in pons_lines("Test_L1_R1")[:30]]
    assert runs[0].stdout.splitlines() == expected


def test_a_book_file_over_the_bound_is_refused_naming_it(tmp_path):
    path = tmp_path / "book.dat"
    with open(path, "wb") as file:
        file.truncate(65 << 20)  # sparse: costs no disk
    with pytest.raises(ValueError, match=f"{path}: larger than 64 MiB"):
        OpeningBook.from_file(path)
