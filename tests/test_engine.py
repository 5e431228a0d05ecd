"""clinea.bridges.engine: a protocol program driven from Python. Its answers are
checked against the rules reference, and every way a program can fail comes
back as a PlayResult naming the forfeit, never as an exception; the next
play starts the program afresh."""
import os

import pytest
from judge_helpers import REPO, bot, processes
from reference_rules import ReferenceGame

from clinea import Board
from clinea.bridges.engine import Engine, Limits, PlayResult

PLAYERS_DIR = os.path.join(REPO, "players")


FIVE_SECONDS = Limits(time=5)


def play_out(engine, first: bool, limits=FIVE_SECONDS) -> list[PlayResult]:
    """A whole game of `engine` against the leftmost legal column, the
    engine moving first or second; every engine move is checked legal."""
    board, reference, results = Board(7, 6, c=4, p=21), ReferenceGame(7, 6, 4, 21), []
    engine_turn = first
    while not reference.over():
        if engine_turn:
            result = engine.play(board, limits)
            results.append(result)
            assert result.ok and result.column in reference.legal(), result
            column = result.column
        else:
            column = reference.legal()[0]
        board.play(column)
        reference.play(column)
        engine_turn = not engine_turn
    return results


@pytest.mark.parametrize("first", [True, False])
def test_a_program_plays_whole_games_moving_first_or_second(first):
    with Engine.popen([os.path.join(PLAYERS_DIR, "strong"), "time-per-move=0.02"]) as engine:
        for _ in range(2):  # a second game on the same engine
            results = play_out(engine, first)
            assert results and all(0 <= result.time < 5 for result in results)


def test_a_position_with_an_opening_starts_a_new_game_there():
    with Engine.popen(f"{os.path.join(PLAYERS_DIR, 'strong')} time-per-move=0.02") as engine:
        board = Board.from_string("4453")
        result = engine.play(board, Limits(time=5))
        assert result.ok and result.column in board.legal_columns()


@pytest.mark.parametrize("kind,forfeit,detail", [
    ("negative", "illegal move", "column -1"),
    ("listo", "garbage", "got 'listo'"),
    ("segfault", "crash", "exit status -11"),
    ("late_answer", "timeout", "no answer within 0.300 s"),
])
def test_a_failing_program_is_a_result_and_the_next_game_starts_afresh(kind, forfeit, detail):
    with Engine.popen(bot("misbehave.py", kind)) as engine:
        board = Board(7, 6, c=4, p=21)
        first = engine.play(board, Limits(time=0.3 if kind == "late_answer" else 5))
        if kind == "late_answer":  # the fresh process's start-up grace covers its first answer
            assert first.ok
        board.play(first.column)
        board.play(0 if first.column != 0 else 1)
        result = engine.play(board, Limits(time=0.3))
        assert (result.column, result.forfeit) == (None, forfeit) and detail in result.detail, result
        again = engine.play(Board(7, 6, c=4, p=21), Limits(time=5))
        assert again.ok


def test_closing_the_engine_ends_the_program_and_all_it_started():
    engine = Engine.popen(bot("misbehave.py", "setsid_every_move"))
    board = Board(7, 6, c=4, p=21)
    assert engine.play(board, Limits(time=5)).ok
    pid = engine.seat.process.pid
    engine.close()
    assert all(found != pid or state == "Z" for found, state, _, _ in processes())
