"""clinea's rules as an OpenSpiel game ("clinea", token limit included):
OpenSpiel's random-simulation checks, its MCTS, and clinea bots through
as_spiel_bot, with outcomes checked against the plain reference rules."""
import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from open_spiel.python.algorithms import mcts
from reference_rules import ReferenceGame

import clinea.bridges.openspiel_game  # noqa: F401  (registers "clinea")
from clinea.bridges.openspiel import as_spiel_bot, board_from_state
from clinea.core import Board
from clinea.core.solver import Solver

PARAMETERS = [{}, {"columns": 5, "rows": 4, "c": 3, "p": 4}, {"columns": 9, "rows": 8, "c": 5, "p": 30},
              {"columns": 3, "rows": 1, "c": 4, "p": 1}]


@pytest.mark.parametrize("parameters", PARAMETERS)
def test_openspiels_random_simulation_checks_pass(parameters):
    game = pyspiel.load_game("clinea", parameters)
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


def test_the_game_describes_its_rules():
    game = pyspiel.load_game("clinea", {"columns": 9, "rows": 8, "c": 5, "p": 30})
    assert game.num_distinct_actions() == 9 and game.max_game_length() == 60
    assert pyspiel.load_game("clinea").max_game_length() == 42
    with pytest.raises(Exception, match="c=0 is out of range"):
        pyspiel.load_game("clinea", {"c": 0})


@given(st.integers(1, 8), st.integers(1, 7), st.integers(1, 5), st.integers(1, 30),
       st.lists(st.integers(0, 100), max_size=60))
@settings(max_examples=100)
def test_games_end_as_the_reference_rules_say(columns, rows, c, tokens, choices):
    p = min(tokens, (columns * rows + 1) // 2)
    state = pyspiel.load_game("clinea", {"columns": columns, "rows": rows, "c": c, "p": p}).new_initial_state()
    reference = ReferenceGame(columns, rows, c, p)
    choices = iter(choices)
    while not state.is_terminal():
        assert state.legal_actions() == reference.legal() and state.current_player() == reference.moves % 2
        column = reference.legal()[next(choices, 0) % len(reference.legal())]
        state.apply_action(column)
        reference.play(column)
    assert reference.over() and state.returns() == (
        [0.0, 0.0] if reference.winner is None else ([1.0, -1.0] if reference.winner == 0 else [-1.0, 1.0]))
    player = state.move_number() % 2
    tensor = np.array(state.observation_tensor(player)).reshape(2, rows, columns)
    assert tensor[0, rows - 1].tolist() == [float(reference.grid[col][0] == player + 1) for col in range(columns)]


def test_openspiels_python_mcts_plays_a_whole_game():
    game = pyspiel.load_game("clinea", {"columns": 5, "rows": 4, "c": 3, "p": 6})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bots = [mcts.MCTSBot(game, 2.0, 30, evaluator, random_state=np.random.RandomState(seat)) for seat in (0, 1)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 1)
    assert sum(returns) == 0 and set(returns) <= {-1.0, 0.0, 1.0}


@pytest.mark.parametrize("parameters", [{"columns": 5, "rows": 4, "c": 3, "p": 4}, {"columns": 4, "rows": 4, "c": 3}])
def test_a_perfect_clinea_player_gets_the_games_value_against_mcts(parameters):
    """strong solves these small boards, token limit included: through
    as_spiel_bot it scores at least the solver's value from either seat
    against OpenSpiel's C++ MCTS."""
    game = pyspiel.load_game("clinea", parameters)
    rules = (parameters["columns"], parameters["rows"], parameters["c"], parameters.get("p"))
    value = Solver().solve(Board(*rules), weak=True)
    for seat in (0, 1):
        bots = [pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seat), 2.0, 100, 50, False, seat, False)
                for _ in (0, 1)]
        bots[seat] = as_spiel_bot("strong --time-per-move 0.1")
        state = game.new_initial_state()
        returns = pyspiel.evaluate_bots(state, bots, seat)
        assert returns[seat] >= (value if seat == 0 else -value)


def test_states_convert_to_boards_with_their_token_limit():
    state = pyspiel.load_game("clinea", {"columns": 4, "rows": 4, "c": 4, "p": 2}).new_initial_state()
    for column in (0, 1, 2, 3):
        state.apply_action(column)
    assert board_from_state(state) == Board.from_moves([0, 1, 2, 3], 4, 4, 4, 2)
    assert board_from_state(state).is_draw() and state.is_terminal()
