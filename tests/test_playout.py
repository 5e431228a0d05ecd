"""The in-C playout entry points follow the same rules as the reference."""
from hypothesis import given
from hypothesis import strategies as st
from reference_rules import ReferenceGame

from clinea.core import Board, play_random_game, simulate_random_games


@given(st.integers(1, 12), st.integers(1, 12), st.integers(1, 6), st.integers(1, 80), st.integers(0, 2**63))
def test_random_game_is_a_legal_complete_game(columns, rows, c, p, seed):
    game = play_random_game(Board(columns, rows, c, p), seed)
    ref = ReferenceGame(columns, rows, c, p)
    for col in game.moves():
        assert col in ref.legal()
        ref.play(col)
    assert ref.over() and game.is_over()
    assert game.winner == ref.winner


def test_playout_continues_from_the_given_position_without_touching_it():
    start = Board.from_string("4455")
    game = play_random_game(start, 7)
    assert start.moves_played == 4 and game.moves()[:4] == start.moves()


def test_simulation_tallies_add_up_and_depend_on_the_seed():
    a = simulate_random_games(7, 6, 4, None, 2000, 1)
    b = simulate_random_games(7, 6, 4, None, 2000, 2)
    assert a["first"] + a["second"] + a["draws"] == 2000
    assert a != b
    assert 7 * 2000 <= a["moves"] <= 42 * 2000
    # random play on 7x6 favours the first player (about 55 %)
    assert a["first"] > a["second"]


def test_simulation_respects_the_token_limit():
    tally = simulate_random_games(7, 6, 4, 3, 500, 3)
    assert tally["moves"] <= 6 * 500 and tally["draws"] > 0
