"""clinea as a PettingZoo AEC environment: PettingZoo's own checkers on
several rules, and games played through it against the one Board."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, render_test, seed_test

from clinea.bridges.pettingzoo import ClineaAECEnv, env
from clinea.bridges.rl_board import STONE_COLOURS, picture
from clinea.core import Board

SIZES = [dict(), dict(columns=5, rows=4, c=3, p=4), dict(columns=9, rows=8, c=5), dict(columns=3, rows=1, c=4)]


@pytest.mark.parametrize("size", SIZES)
def test_pettingzoos_api_test_passes(size):
    api_test(env(**size), num_cycles=200)


@pytest.mark.parametrize("size", SIZES[:2])
def test_pettingzoos_seed_test_passes(size):
    seed_test(lambda: env(**size), num_cycles=200)


def test_pettingzoos_render_test_passes():
    render_test(lambda render_mode=None: env(render_mode=render_mode))


@given(st.integers(1, 9), st.integers(1, 8), st.integers(1, 5), st.integers(1, 40),
       st.lists(st.integers(0, 100), max_size=80))
@settings(max_examples=100)
def test_a_game_through_the_environment_is_the_boards_game(columns, rows, c, tokens, choices):
    p = min(tokens, (columns * rows + 1) // 2)
    game = env(columns=columns, rows=rows, c=c, p=p)
    game.reset()
    board = Board(columns, rows, c, p)
    choices = iter(choices)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        seat = int(agent[-1])
        assert termination == board.is_over()
        if termination:
            expected = 0 if board.winner is None else (1 if board.winner == seat else -1)
            assert reward == expected
            game.step(None)
            continue
        assert seat == board.side_to_move
        legal = board.legal_columns()
        assert observation["action_mask"].nonzero()[0].tolist() == legal
        for col in range(columns):
            for row in range(rows):
                cell = board.cell(col, row)
                assert observation["observation"][rows - 1 - row, col].tolist() == [cell == seat + 1,
                                                                                    cell == 2 - seat]
        other = "player_1" if seat == 0 else "player_0"
        assert not game.observe(other)["action_mask"].any()
        column = legal[next(choices, 0) % len(legal)]
        game.step(column)
        board.play(column)
    assert board.is_over() and game.agents == []


def test_a_full_column_loses_for_the_agent_that_chose_it():
    game = env(columns=3, rows=2, c=3)
    game.reset()
    game.step(0)
    game.step(0)
    game.step(0)  # player_0 into the full column 0
    assert game.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert game.infos["player_0"] == {"illegal_move": 0}
    assert all(game.terminations.values())
    fresh = ClineaAECEnv(columns=3, rows=2)
    fresh.reset()
    with pytest.raises(ValueError, match=r"action must be a column 0..2, got 'x'"):
        fresh.step("x")


def test_the_picture_shows_each_stone_in_its_cell():
    board = Board.from_moves([3, 3, 0], 7, 6, 4)
    image = picture(board)
    cell = image.shape[0] // 6
    assert image.shape == (6 * cell, 7 * cell, 3) and image.dtype == np.uint8

    def centre(col, row):  # row 0 at the bottom
        return image[(5 - row) * cell + cell // 2, col * cell + cell // 2].tolist()

    assert centre(3, 0) == STONE_COLOURS[1].tolist() and centre(0, 0) == STONE_COLOURS[1].tolist()
    assert centre(3, 1) == STONE_COLOURS[2].tolist()
    assert centre(1, 0) == STONE_COLOURS[0].tolist() and centre(3, 2) == STONE_COLOURS[0].tolist()


def test_the_render_modes_draw_the_board(capsys):
    for mode in ("ansi", "human", "rgb_array"):
        game = env(columns=4, rows=3, render_mode=mode)
        game.reset()
        game.step(2)
        shown = game.render()
        if mode == "ansi":
            assert shown == Board.from_moves([2], 4, 3).render(color=False)
        elif mode == "rgb_array":
            assert np.array_equal(shown, picture(Board.from_moves([2], 4, 3)))
        else:
            assert shown is None
            assert capsys.readouterr().out.count(Board.from_moves([2], 4, 3).render(color=False)) == 2
    with pytest.raises(ValueError, match="render_mode='window' is not one of ansi, rgb_array, human"):
        env(render_mode="window")


def test_the_environment_refuses_to_move_or_observe_before_reset():
    game = env()
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        game.step(3)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before observe\(\)"):
        game.observe("player_0")
