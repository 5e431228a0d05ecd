"""The small-board optimality check against a plain negamax, and the
Connect-4 report's searches in whole games (win table, timing with and
without pruning)."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from clinea.core import Board, Rules
from clinea.core.solver import Solver
from clinea.training import optimality, search_games
from clinea.training.search_table import SEARCHES

TINY = Rules(4, 3, 3, 6)


def plain_value(board: Board) -> int:
    """Weak negamax value for the side to move: 1 win, 0 draw, -1 loss."""
    if board.is_over():
        return 0 if board.winner is None else -1
    best = -1
    for col in board.legal_columns():
        board.play(col)
        best = max(best, -plain_value(board))
        board.undo()
        if best == 1:
            break
    return best


def plain_optimal_columns(board: Board) -> set[int]:
    values = {}
    for col in board.legal_columns():
        board.play(col)
        values[col] = -plain_value(board)
        board.undo()
    top = max(values.values())
    return {col for col, v in values.items() if v == top}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_the_optimal_columns_are_those_a_plain_negamax_finds(seed):
    solver = Solver()
    for board in optimality.random_positions(TINY, 3, seed):
        scores = solver.analyze(board, weak=True)
        assert optimality.optimal_columns(scores) == plain_optimal_columns(board.copy())


def test_the_check_counts_the_moves_a_plain_negamax_calls_optimal():
    from clinea.core.features import feature_count
    from clinea.training.games import greedy
    rng = random.Random(3)
    values = [rng.uniform(-1, 1) for _ in range(feature_count(TINY.c))]
    positions = optimality.random_positions(TINY, 12, 5)
    player = greedy(values, TINY.c)
    expected = sum(player.choose(b.copy()) in plain_optimal_columns(b.copy()) for b in positions)
    found = optimality.check(values, TINY, positions, Solver())
    assert (found.positions, found.optimal) == (12, expected)


def test_timed_positions_follow_real_games_and_every_search_times_each():
    positions = search_games.game_positions(30, 2, 4)
    assert len(positions) == 30 and positions[0].moves() == []
    for before, after in zip(positions, positions[1:]):
        # the next position is one ply on, or a new game from the empty board
        assert after.moves()[:-1] == before.moves() or after.moves() == []
    seconds = search_games.pruning_timing(10, 3, 4)
    assert list(seconds) == list(SEARCHES) and all(len(t) == 10 and min(t) > 0 for t in seconds.values())


def test_the_win_table_counts_every_game_and_a_deeper_search_wins_against_random():
    rows = search_games.win_table([1, 3], 10, seed=2)
    assert [r.depth for r in rows] == [1, 3]
    for row in rows:
        assert row.tally.games == 20 and row.seconds_per_move > 0
    # against a player that moves at random, a depth-3 search loses almost nothing
    assert rows[1].tally.wins >= 15
