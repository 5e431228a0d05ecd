"""clinea as a Gymnasium environment against a clinea player: Gymnasium's
own checker, and episodes whose outcome the rules decide."""
import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

from clinea.bridges.gymnasium_env import ENV_ID, ClineaGymEnv
from clinea.core import Board
from clinea.players.random_player import RandomBot


@pytest.mark.parametrize("options", [
    dict(opponent="random"),
    dict(opponent="greedy", columns=5, rows=4, c=3, p=5, seat=1),
    dict(opponent="randomized_minimax --depth 2", columns=9, rows=8, c=5, seat=None),
])
def test_gymnasiums_check_env_passes_without_a_warning(options):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make(ENV_ID, **options).unwrapped, skip_render_check=False)


def column_zero(board):
    return 0 if board.can_play(0) else board.legal_columns()[0]


@pytest.mark.parametrize("seat", [0, 1])
def test_stacking_column_one_beats_an_opponent_that_stacks_column_zero(seat):
    env = ClineaGymEnv(opponent=column_zero, seat=seat)
    observation, info = env.reset(seed=3)
    assert observation.sum() == seat and info["seat"] == seat
    rewards = []
    for _ in range(4):
        observation, reward, terminated, truncated, info = env.step(1)
        rewards.append(reward)
        if terminated:
            break
    # the first to complete a column wins: the agent when it moves first
    assert rewards[-1] == (1.0 if seat == 0 else -1.0) and terminated and not truncated
    board = Board.from_moves([1, 0] * 3 + [1] if seat == 0 else [0, 1] * 3 + [0], 7, 6, 4)
    assert env.board == board
    with pytest.raises(ValueError, match="the game is over: call reset"):
        env.step(2)


def test_a_seeded_reset_repeats_the_random_opponents_game():
    def episode(env, seed):
        env.reset(seed=seed)
        for _ in range(21):
            mask = env.action_masks()
            _, reward, terminated, _, _ = env.step(int(mask.nonzero()[0][0]))
            if terminated:
                return env.board.moves(), reward
        raise AssertionError("a 7x6 game lasts 42 moves at most")

    env = ClineaGymEnv(opponent="random", seat=None)
    first = episode(env, 11)
    assert episode(env, 11) == first
    assert any(episode(env, seed) != first for seed in range(12, 20))


def test_the_token_limit_ends_the_episode_in_a_draw():
    env = ClineaGymEnv(opponent=column_zero, columns=4, rows=4, c=4, p=2)
    env.reset()
    assert env.step(3)[1:3] == (0.0, False)
    observation, reward, terminated, _, info = env.step(3)
    assert (reward, terminated) == (0.0, True) and env.board.is_draw() and not info["action_mask"].any()


def test_a_full_column_loses_and_a_non_column_is_refused():
    env = ClineaGymEnv(opponent=column_zero, columns=3, rows=2, c=3)
    env.reset()
    env.step(1)
    env.step(2)
    _, reward, terminated, _, info = env.step(0)  # column 0 is full: the opponent stacked it
    assert (reward, terminated, info["illegal_move"]) == (-1.0, True, 0)
    env.reset()
    with pytest.raises(ValueError, match=r"action must be a column 0..2, got 1.5"):
        env.step(1.5)
    with pytest.raises(ValueError, match=r"seat=2 is out of range"):
        ClineaGymEnv(seat=2)


def test_an_opponent_bot_object_plays_and_is_kept():
    bot = RandomBot(seed=1)
    env = ClineaGymEnv(opponent=bot, columns=4, rows=4, c=3)
    env.reset(seed=1)
    env.step(0)
    assert env.opponent is bot and env.board.moves_played == 2
    assert env.action_masks().nonzero()[0].tolist() == env.board.legal_columns()


def test_strong_with_a_time_budget_punishes_an_agent_that_only_stacks():
    env = ClineaGymEnv(opponent="strong --time-per-move 0.02")
    _, info = env.reset(seed=1)
    terminated, reward = False, 0.0
    while not terminated:
        _, reward, terminated, _, info = env.step(int(info["action_mask"].nonzero()[0][0]))
    assert reward == -1.0 and env.board.winner == 1
