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
from clinea.judge.record import End, GameRecord
from clinea.judge.referee import BotSeat, referee
from clinea.judge.table import Table
from clinea.judge.tournament import GameSpec
from clinea.judge.ui import MatchStopped
from clinea.judge.window import BACKGROUND, HOLE, LAST_MARK, TEXT, TOKEN, WIN_MARK, Window
from clinea.judge.winning_line import winning_line
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


def reference_line(board):
    """Every cell of a run of c or more of the last mover's that holds the
    last move, found by scanning every line of the board from its start."""
    if board.winner is None:
        return set()
    col = board.moves()[-1]
    last = (col, board.height(col) - 1)
    owner = board.cell(*last)
    found = set()
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for x in range(board.columns):
            for y in range(board.rows):
                before = (x - dx, y - dy)
                if board.cell(x, y) != owner or (0 <= before[0] < board.columns and 0 <= before[1] < board.rows
                                                  and board.cell(*before) == owner):
                    continue  # not the start of a run
                run = []
                at = (x, y)
                while 0 <= at[0] < board.columns and 0 <= at[1] < board.rows and board.cell(*at) == owner:
                    run.append(at)
                    at = (at[0] + dx, at[1] + dy)
                if len(run) >= board.c and last in run:
                    found.update(run)
    return found


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([(5, 4, 3, 10), (7, 6, 4, 21), (4, 4, 2, 8), (6, 5, 1, 15)]))
def test_the_winning_line_is_every_run_of_c_through_the_last_move(seed, size):
    rng = random.Random(seed)
    board = Board(*size)
    while not board.is_over():
        board.play(rng.choice(board.legal_columns()))
    line = winning_line(board)
    assert len(line) == len(set(line)) and set(line) == reference_line(board), board.moves()
    assert (line != []) == (board.winner is not None)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_the_winning_line_carries_gold_rings_and_nothing_else_does(window, seed):
    rng = random.Random(seed)
    board = Board(*SIZE)
    window.game(("first", "second"), ("azul", "rojo"), board)
    while not board.is_over():
        board.play(rng.choice(board.legal_columns()))
    window.draw(board)
    won = reference_line(board)
    for col in range(SIZE[0]):
        for row in range(SIZE[1]):
            assert (WIN_MARK in cell_pixels(window, col, row)) == ((col, row) in won), (col, row, board.moves())
            owner = board.cell(col, row)
            assert tuple(window.surface.get_at(window.cell_centre(col, row)))[:3] == (
                HOLE if owner == 0 else TOKEN[("azul", "rojo")[owner - 1]])


def status_line_shows(window, line, text):
    """Whether status line `line` (0: the heading) shows exactly `text`,
    pixel for pixel as the window's font renders it."""
    rendered = window.font.render(text, True, TEXT)
    expected = pygame.Surface(rendered.get_size())
    expected.fill(BACKGROUND)
    expected.blit(rendered, (0, 0))
    x, y = 6, window.board_bottom + 6 + line * 24
    width, height = rendered.get_size()
    return all(window.surface.get_at((x + i, y + j)) == expected.get_at((i, j))
               for i in range(width) for j in range(height))


def test_the_game_number_and_the_running_score_head_the_window(window):
    table = Table(SIZE, window)
    scores = []
    for number, (winner, moves) in enumerate([("a", [0, 1, 0, 1, 0]), (None, []), ("b", [0, 1, 0, 1, 2, 1])]):
        spec = GameSpec(str(number), "a", "b", ("azul", "rojo"))
        view = table.view(spec)
        scores.append(window.heading)
        board = Board(*SIZE)
        for col in moves:
            board.play(col)
            view(board)
        record = GameRecord(str(number), *SIZE, ("a", "b"), ("azul", "rojo"), (), tuple(moves), (0.0,) * len(moves),
                            winner, End.CONNECT if winner else End.DRAW, "", None)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, unicode=" ", mod=0, scancode=0))
        table.result(record)
        assert status_line_shows(window, 0, window.heading)
    assert scores == ["game 0 · a 0 · b 0 · draws 0", "game 1 · a 1 · b 0 · draws 0", "game 2 · a 1 · b 0 · draws 1"]
    assert window.heading == "game 2 · a 1 · b 1 · draws 1"
    assert status_line_shows(window, 1, "b (rojo) wins") and not status_line_shows(window, 1, "a (azul) wins")


def test_the_last_board_stays_until_a_click_or_a_key(window):
    board = Board(*SIZE).play_moves([0, 1, 0, 1, 0])
    window.game(("a", "b"), ("azul", "rojo"), board)
    window.board = board.copy()
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(1, 1), buttons=(0, 0, 0)))
    assert not window.wait_for_click(0.1)  # moving the mouse is no click
    previous = window.hold
    window.hold = None  # as on a screen: until a click
    try:
        window.status = "a wins"
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(5, 5), button=1))
        window.keep_last_board()  # returns at the click
        assert window.status == "a wins (click or press a key to close)"
        assert status_line_shows(window, 1, window.status)
        assert WIN_MARK in cell_pixels(window, 0, 2)  # the final board, its line marked
    finally:
        window.hold = previous


def test_a_headless_window_does_not_hold_its_last_board(window):
    # nobody can click a dummy driver's window: a judge run there must end by itself
    assert window.hold == 0.0
    window.board = Board(*SIZE)
    pygame.event.clear()
    window.keep_last_board()


def key(digit):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_0 + digit, unicode=str(digit), mod=0, scancode=0))


def test_a_column_off_the_board_is_told_from_a_full_one(window):
    pygame.event.clear()
    board = Board(*SIZE).play_moves([1, 1, 1, 1])
    window.game(("you", "bot"), ("azul", "rojo"), board)
    key(9)
    key(2)
    assert window.human("you").ask(board, 1, None) == 2
    assert window.status == "column 9 is off the board: the columns are 0..4"
    assert status_line_shows(window, 1, window.status)
    click(window, 1)
    key(3)
    assert window.human("you").ask(board, 1, None) == 3
    assert window.status == "column 1 is full: play one of [0, 2, 3, 4]"


def test_a_ghost_token_hovers_over_the_column_under_the_mouse(window):
    pygame.event.clear()
    board = Board(*SIZE).play_moves([0])
    window.game(("bot", "you"), ("azul", "rojo"), board)
    human = window.human("you")
    human.start(board, 1, "rojo")
    x, _ = window.cell_centre(3, 0)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, 5), rel=(1, 1), buttons=(0, 0, 0)))
    key(4)
    assert human.ask(board, 0, None) == 4
    assert window.ghost is None  # gone once the move is made
    # the band above the board, under the column digits: the ghost over column 3 only, half rojo
    radius = int(window.cell * 0.4)
    faded = tuple(part // 2 for part in TOKEN["rojo"])
    below_digits = window.top // 2 + radius // 2
    for col in range(SIZE[0]):
        pixel = tuple(window.surface.get_at((col * window.cell + window.cell // 2, below_digits)))[:3]
        assert pixel == (faded if col == 3 else BACKGROUND), col
