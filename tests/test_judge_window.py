"""The judge's graphical board for real, headless: SDL's dummy video driver
renders into memory, so the pixels of the window are read back and events
are posted as a person's clicks and keys would arrive."""
import os
import random

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from judge_helpers import bot, records, run_judge

from clinea.core import Board
from clinea.judge.referee import BotSeat, referee
from clinea.judge.ui import MatchStopped
from clinea.judge.window import HOLE, LAST_MARK, TOKEN, Window
from clinea.players.bot import FunctionBot

SIZE = (5, 4, 3, 10)


@pytest.fixture(scope="module")
def window():
    previous = os.environ.get("SDL_VIDEODRIVER")
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    try:
        win = Window(SIZE)
        yield win
        win.close()
    finally:
        if previous is None:
            del os.environ["SDL_VIDEODRIVER"]
        else:
            os.environ["SDL_VIDEODRIVER"] = previous


def cell_pixels(window, col, row):
    """Every pixel colour in the square of a cell."""
    cx, cy = window.cell_centre(col, row)
    half = window.cell // 2
    return {tuple(window.surface.get_at((x, y)))[:3]
            for x in range(cx - half, cx + half) for y in range(cy - half, cy + half)}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([("azul", "rojo"), ("rojo", "azul")]))
def test_a_screenshot_shows_every_token_in_its_cell_and_marks_the_last(window, seed, colours):
    rng = random.Random(seed)
    board = Board(*SIZE)
    window.game(("first", "second"), colours, board)
    while not board.is_over() and rng.random() < 0.95:
        board.play(rng.choice(board.legal_columns()))
    window.draw(board)
    last = (board.moves()[-1], board.height(board.moves()[-1]) - 1) if board.moves() else None
    for col in range(SIZE[0]):
        for row in range(SIZE[1]):
            owner = board.cell(col, row)
            expected = HOLE if owner == 0 else TOKEN[colours[owner - 1]]
            centre = tuple(window.surface.get_at(window.cell_centre(col, row)))[:3]
            assert centre == expected, (col, row, board.moves())
            assert (LAST_MARK in cell_pixels(window, col, row)) == ((col, row) == last)


def test_moves_drop_into_place_through_the_referees_view(window):
    board = Board(*SIZE)
    view = window.game(("a", "b"), ("azul", "rojo"), board)
    for col in (2, 2, 4):
        board.play(col)
        view(board)
    assert tuple(window.surface.get_at(window.cell_centre(2, 0)))[:3] == TOKEN["azul"]
    assert tuple(window.surface.get_at(window.cell_centre(2, 1)))[:3] == TOKEN["rojo"]
    assert tuple(window.surface.get_at(window.cell_centre(4, 0)))[:3] == TOKEN["azul"]
    assert window.status == "a (azul) plays 4"


def click(window, col):
    x, y = window.cell_centre(col, SIZE[1] - 1)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1))


def test_clicks_in_a_column_play_there_in_a_refereed_game(window):
    pygame.event.clear()
    for _ in range(3):
        click(window, 3)
    board = Board(*SIZE)
    human = window.human("you")
    leftmost = FunctionBot(lambda b: b.legal_columns()[0], "leftmost")
    result = referee((human, BotSeat(leftmost)), board, colours=("azul", "rojo"),
                     on_move=window.game(("you", "leftmost"), ("azul", "rojo"), board))
    assert result.moves == [3, 0, 3, 0, 3] and result.winner == 0
    assert tuple(window.surface.get_at(window.cell_centre(3, 2)))[:3] == TOKEN["azul"]


def test_a_full_column_is_refused_and_a_digit_key_plays(window):
    pygame.event.clear()
    board = Board(*SIZE).play_moves([1, 1, 1, 1])
    window.game(("you", "bot"), ("azul", "rojo"), board)
    click(window, 1)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_4, unicode="4", mod=0, scancode=0))
    assert window.human("you").ask(board, 1, None) == 4
    assert "column 1 is full" in window.status


def test_closing_the_window_stops_the_match(window):
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    with pytest.raises(MatchStopped):
        window.human("you").ask(Board(*SIZE), None, None)


def test_the_judge_opens_the_window_when_sdl_has_a_driver(tmp_path):
    done = run_judge(["--blue_player", *bot("random_bot.py"), "--red_player", *bot("random_bot.py"),
                      "--columns", "4", "--rows", "3", "--c", "3", "--iterations", "1", "--ui", "true",
                      "--results", str(tmp_path / "r.jsonl")],
                     env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    (game,) = records(tmp_path / "r.jsonl")
    winner = "a draw" if game["winner"] is None else f"{game['winner']} wins"
    assert done.stdout.startswith(f"game 0: {winner}\n")
    assert " plays " not in done.stdout  # the moves went to the window, not the terminal


def test_without_a_display_the_judge_says_so_once_and_draws_in_the_terminal(tmp_path):
    env = {key: value for key, value in os.environ.items()
           if key not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    done = run_judge(["--blue_player", *bot("random_bot.py"), "--red_player", *bot("random_bot.py"),
                      "--columns", "4", "--rows", "3", "--c", "3", "--iterations", "1", "--ui", "true"], env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "clinea judge: no display (neither DISPLAY nor WAYLAND_DISPLAY is set): showing the board in the terminal"]
    assert " plays " in done.stdout and "0 1 2 3" in done.stdout
