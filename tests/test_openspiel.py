"""OpenSpiel, both ways: clinea players as pyspiel bots on connect_four of
any size, and OpenSpiel's MCTS as a clinea player under the judge."""
import json
import subprocess
import sys
from pathlib import Path

import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinea.bridges.openspiel import as_spiel_bot, board_from_state, load_game, state_from_board
from clinea.bridges.openspiel_mcts_player import OpenSpielMCTSBot
from clinea.core import Board
from clinea.core.solver import Solver

REPO = Path(__file__).resolve().parents[1]


def mcts(game, simulations=200, solve=False):
    return pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, simulations, 50, solve, 0, False)


@pytest.mark.parametrize("size", [(7, 6, 4), (5, 4, 3), (6, 5, 3)])
def test_a_perfect_player_never_scores_below_the_games_value(size):
    """strong is exact on these boards (the book on 7x6, a solve on the
    small ones): against MCTS it gets at least the game's value from
    either seat, through pyspiel.evaluate_bots."""
    game = load_game(*size)
    value = Solver().solve(Board(*size), weak=True)
    for seat in (0, 1):
        bots = [mcts(game), mcts(game)]
        bots[seat] = as_spiel_bot("strong --time-per-move 0.1")
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seat)
        assert returns[seat] >= (value if seat == 0 else -value)


@given(st.integers(1, 9), st.integers(1, 8), st.integers(2, 5), st.lists(st.integers(0, 100), max_size=72))
@settings(max_examples=150)
def test_states_and_boards_convert_both_ways(columns, rows, c, choices):
    state = load_game(columns, rows, c).new_initial_state()
    board = Board(columns, rows, c)
    for choice in choices:
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert legal == board.legal_columns()
        state.apply_action(legal[choice % len(legal)])
        board.play(legal[choice % len(legal)])
    assert state.is_terminal() == board.is_over()
    assert board_from_state(state) == board
    assert state_from_board(board).history() == state.history()
    if board.is_over():  # OpenSpiel agrees on who won
        assert state.returns()[0] == (0 if board.winner is None else (1 if board.winner == 0 else -1))


def test_the_bot_restarts_and_a_protocol_program_plays_two_games():
    game = load_game(5, 4, 3)
    program = as_spiel_bot([str(REPO / "players" / "strong"), "--time-per-move", "0.1"])
    value = Solver().solve(Board(5, 4, 3), weak=True)
    try:
        for seat in (1, 0):
            bots = [mcts(game), mcts(game)]
            bots[seat] = program
            returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 1)
            assert returns[seat] >= (value if seat == 0 else -value)
    finally:
        program.bot.close()


def test_mcts_player_with_solve_takes_a_win_in_one():
    board = Board.from_moves([0, 6, 0, 6, 0], 7, 6, 4)  # column 0 holds three: the mover must block
    bot = OpenSpielMCTSBot(simulations=300, solve=True)
    bot.new_game(Board(7, 6, 4), 0)
    board.play(6)  # the second player played elsewhere: now the first wins at 0
    assert bot.choose(board) == 0


@pytest.mark.parametrize("option, message", [
    (["--simulations", "0"], "simulations=0 is out of range: allowed 1..1000000000"),
    (["--uct-c", "-1"], "uct-c=-1.0 is out of range: allowed more than 0"),
])
def test_bad_options_exit_2_naming_the_value(option, message):
    result = subprocess.run([str(REPO / "players" / "openspiel_mcts"), *option], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and result.stderr.splitlines()[-1].endswith(message)


def test_mcts_under_the_judge_on_a_non_standard_board_and_7x6(tmp_path):
    for size, games in ((("6", "5", "4", "15"), 2), (("7", "6", "4", "21"), 2)):
        results = tmp_path / f"{size[0]}.jsonl"
        argv = [sys.executable, "-m", "clinea", "judge", "--player", "mcts=openspiel_mcts --simulations 100",
                "--player", "strong --time-per-move 0.1", "--iterations", str(games), "--results", str(results),
                "--columns", size[0], "--rows", size[1], "--c", size[2], "--p", size[3], "--quiet"]
        finished = subprocess.run(argv, capture_output=True, text=True, timeout=240, cwd=tmp_path)
        assert finished.returncode == 0, finished.stderr
        records = [json.loads(line) for line in results.read_text().splitlines()[1:]]
        assert len(records) == games and all(r["forfeit"] is None for r in records)
        if size[0] == "7":  # perfect from the first move on 7x6: strong wins the game it opens
            assert any(r["players"][0] == "strong" and r["winner"] == "strong" for r in records)


def test_without_the_extra_the_player_says_how_to_install_it():
    """The base install has no pyspiel: the player refuses in one line
    naming the extra (pyspiel is hidden from this interpreter here)."""
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "from clinea.players.registry import main\n"
            "sys.exit(main(['openspiel_mcts']))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1].endswith("pip install 'clinea[openspiel]'")
