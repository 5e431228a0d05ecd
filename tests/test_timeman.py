"""The time manager: limits are checked, shared between the searches of a
move and obeyed. Budgets here are nodes, never the clock, so the tests do
not depend on the machine's load."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinea.core import Board
from clinea.core.search import Search
from clinea.core.solver import Solver
from clinea.core.timeman import (
    MIN_SECONDS,
    PRECISE_TIME_FRACTION,
    TIME_FRACTION,
    TIME_RESERVE,
    TIME_RESERVE_SHARE,
    Limits,
    SearchResult,
    TimeManager,
    move_budget,
)
from clinea.players.strong_player import StrongBot


def random_position(columns, rows, c, p, stones, seed):
    rng = random.Random(seed)
    board = Board(columns, rows, c, p)
    while board.moves_played < stones and not board.is_over():
        board.play(rng.choice(board.legal_columns()))
    return board


@pytest.mark.parametrize("field, value, allowed", [
    ("time", -1.0, "0 \\(no limit\\) or more seconds"),
    ("time", float("nan"), "0 \\(no limit\\) or more seconds"),
    ("nodes", -5, "0 \\(no limit\\) or more"),
    ("depth", -2, "0 \\(no limit\\) or more plies"),
])
def test_bad_limits_name_the_value_and_the_range(field, value, allowed):
    with pytest.raises(ValueError, match=f"{field}={value}.*{allowed}"):
        Limits(**{field: value})


def test_the_move_s_nodes_are_shared_between_its_searches():
    clock = TimeManager(Limits(nodes=1000, depth=3))
    assert clock.share() == Limits(time=0.0, nodes=1000, depth=3)
    clock.spent(SearchResult(move=0, score=0, nodes=700))
    assert clock.share(0.5).nodes == 300 and clock.share(0.2).nodes == 200 and not clock.exhausted()
    assert clock.until(0.9).nodes == 200
    clock.spent(SearchResult(move=0, score=0, nodes=400))
    assert clock.exhausted() and clock.share().nodes == 1  # never "no limit" once spent


def test_a_share_of_time_never_exceeds_what_is_left_of_the_budget():
    clock = TimeManager(Limits(time=2.0))
    assert clock.budget == move_budget(2.0) < 2.0
    first = clock.share(0.25)
    assert 0 < first.time <= 0.25 * clock.budget
    assert clock.share().time <= clock.budget
    unlimited = TimeManager(Limits())
    assert unlimited.share(0.5).time == 0.0 and unlimited.left() == 0.0 and not unlimited.exhausted()


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([(7, 6, 4, 21), (9, 8, 5, 36), (6, 5, 4, 15)]), st.integers(0, 20),
       st.integers(0, 2**32), st.integers(50, 20_000))
def test_strong_spends_no_more_nodes_than_its_limit_over_the_whole_move(game, stones, seed, nodes):
    board = random_position(*game, stones, seed)
    if board.is_over():
        return
    bot = StrongBot(time_per_move=3600.0, tt_log2=12, max_nodes=nodes)
    bot.new_game(Board(*game), 0)
    assert bot.choose(board) in board.legal_columns()
    # each search may count the one node it refused
    assert bot.last.nodes <= nodes + 3


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 6), st.integers(100, 5000))
def test_search_obeys_depth_and_node_limits(seed, depth, nodes):
    board = random_position(9, 8, 5, 36, 10, seed)
    if board.is_over():
        return
    search = Search(tt_log2=12)
    result = search.think(board, Limits(nodes=nodes, depth=depth))
    assert result.move in board.legal_columns()
    assert result.depth <= depth and result.nodes <= nodes and search.nodes == result.nodes


def test_solver_search_is_play_value_within_limits():
    board = Board.from_moves([3, 3, 3, 3, 3, 1, 1, 1, 1, 5, 5, 5])
    solver = Solver(20)
    cut = solver.search(board, Limits(nodes=1000), weak=True)
    assert not cut.proven and cut.move is None and cut.nodes <= 1001
    full = solver.search(board, weak=True)
    assert full.proven and (full.move, full.score) == solver.play_value(board, weak=True) == (5, 1)
    assert full.source == "solver" and full.weak


@given(st.floats(0.005, 3600), st.sampled_from([TIME_FRACTION, PRECISE_TIME_FRACTION]))
def test_the_searches_get_most_of_a_move_and_the_answer_keeps_a_reserve(time_per_move, fraction):
    budget = move_budget(time_per_move, fraction)
    kept = time_per_move - budget
    assert kept >= (1 - fraction) * time_per_move + min(TIME_RESERVE, TIME_RESERVE_SHARE * time_per_move) - 1e-9
    assert budget >= 0.6 * time_per_move or budget == MIN_SECONDS
    assert TimeManager(Limits(time=time_per_move), fraction).budget == budget
    assert budget >= move_budget(time_per_move) if fraction == PRECISE_TIME_FRACTION else budget == move_budget(time_per_move)
