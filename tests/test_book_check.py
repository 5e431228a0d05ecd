"""`clinea check-book` in small: book codes decode to the positions the
book holds, sampled entries agree with our solver, a planted wrong entry is
caught, strong's game from the empty board records what it reads (the
book's entries through the solver, its own lines) and the command prints
what it checked."""
import random

from clinea.core import Board
from clinea.core.book import BOOK_PLY, OpeningBook, standard_book
from clinea.core.solver import Solver
from clinea.solving.book_check import (
    CheckReport,
    check_book_entries,
    check_lines,
    decode,
    main,
    sample,
    strong_game,
)


def test_decoded_codes_are_12_stone_positions_the_book_finds():
    book = standard_book()
    codes = book.codes()
    for index in random.Random(5).sample(range(len(book)), 200):
        board = decode(codes[index])
        assert board.moves_played == BOOK_PLY and not board.is_over()
        assert book.score(board) is not None


def test_sampled_entries_agree_with_the_solver():
    report = check_book_entries(sample(len(standard_book()), 2e-6, seed=11), "sample", time_limit=60)
    assert report.checked == 9 and report.mismatches == [] and report.unknown == 0


def test_a_wrong_entry_is_caught():
    book = standard_book()
    codes = book.codes()
    index = sample(len(book), 1e-6, seed=2)[0]
    right = book.score(decode(codes[index]))
    values = bytearray(len(book))  # every other entry is never looked at
    values[index] = 0 if right != 0 else 99  # a draw where it is none, a quick win where it is a draw
    wrong = OpeningBook(codes, memoryview(values).cast("b"))
    report = check_book_entries([index], "planted", time_limit=60, book=wrong)
    assert report.checked == 1 and len(report.mismatches) == 1
    assert f"entry {index}" in report.mismatches[0]


def test_lookups_are_recorded_only_while_asked_for():
    book = standard_book()
    board = Board.from_string("4444443")  # 7 stones: the search reads 12-stone entries
    book.record_lookups(True)
    assert book.looked_up() == []
    solver = Solver(20)
    value = solver.solve(board)
    read = book.looked_up()
    book.record_lookups(False)
    assert value is not None and read
    codes = book.codes()
    assert all(decode(codes[i]).moves_played == BOOK_PLY for i in read)


def test_strong_game_records_its_reads_and_they_check():
    run = strong_game(time_per_move=0.05)
    assert len(run.moves) >= 7 and Board.from_string(run.moves).is_over()
    assert run.lines, "strong plays its first moves from its own lines"
    assert all(Board.from_string(moves).moves_played < 30 for moves, _, _ in run.lines)
    lines = check_lines(run.lines[:6], time_limit=60)
    assert lines.checked == min(6, len(run.lines)) and lines.mismatches == []
    entries = check_book_entries(run.book_entries[:3], "strong's book reads", time_limit=60)
    assert entries.mismatches == []


def test_the_command_prints_what_it_checked(capsys):
    assert main(["--fraction", "1e-6", "--seed", "4", "--time-per-move", "0.05", "--game-entries", "2"]) == 0
    out = capsys.readouterr().out
    assert "strong's game from the empty board" in out
    assert "random sample of the book (5 of" in out and "5 checked, 0 mismatches" in out
    assert "strong's lines read in the game:" in out
    assert "book entries strong read (2 of" in out or "book entries strong read (0 of 0)" in out


def test_report_line_names_counts_and_time():
    report = CheckReport("x", checked=3, unknown=1, mismatches=["m"], seconds=1.25)
    assert report.line() == "x: 3 checked, 1 mismatches, 1 out of time, 1.2 s"
