"""The weighted evaluation against a plain window count, and the
fixed-depth searches (minimax, alpha-beta in column order and centre first)
against plain minimax with the same evaluation."""
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clinea.core import Board
from clinea.core.depthsearch import MODES, DepthLimited
from clinea.core.evaluate import FEATURES, Evaluation
from clinea.core.search import WIN_SCORE

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def random_position(columns, rows, c, p, seed, fraction=None):
    """A board after some random legal moves (the game may be over)."""
    rng = random.Random(seed)
    board = Board(columns, rows, c, p)
    limit = board.max_moves if fraction is None else int(board.max_moves * fraction)
    target = rng.randint(0, limit)
    while board.moves_played < target and not board.is_over():
        board.play(rng.choice(board.legal_columns()))
    return board


def reference_features(board):
    """Every window of c cells enumerated cell by cell, nothing shared with the core."""
    cols, rows, c, p, moves = board.columns, board.rows, board.c, board.p, board.moves_played
    grid = {(x, y): board.cell(x, y) for x in range(cols) for y in range(rows)}
    tokens_left = [p - (moves + 1) // 2, p - moves // 2]
    counts = [dict.fromkeys(FEATURES, 0) for _ in range(2)]
    threat_cells = [set(), set()]
    for (x, y), stone in grid.items():
        for dx, dy in DIRECTIONS:
            if stone and grid.get((x + dx, y + dy)) == stone:
                counts[stone - 1]["consecutive"] += 1
            window = [(x + k * dx, y + k * dy) for k in range(c)]
            if not all(cell in grid for cell in window):
                continue
            stones = [grid[cell] for cell in window]
            for side in (0, 1):
                own = stones.count(side + 1)
                if own == 0 or stones.count(2 - side) or c - own > tokens_left[side]:
                    continue
                counts[side]["alignments"] += 1
                counts[side]["weighted"] += own * own
                if dx and dy:
                    counts[side]["diagonals"] += 1
                if own == c - 1:
                    threat_cells[side].add(window[stones.index(0)])
    for side in (0, 1):
        counts[side]["threats"] = len(threat_cells[side])
        # off the 64-bit path (see evaluate.pyx), the lower of two threats in a
        # column comes first: one above an opponent's threat is not good
        counts[side]["good_threats"] = sum(
            1 for x, y in threat_cells[side]
            if zugzwang_wins(board, side, x, y)
            and (board.is_bitboard or not any(ox == x and oy < y for ox, oy in threat_cells[1 - side])))
    # Allis: White's odd threat beats Black's even ones. The side that would
    # not make the last move of a full board needs a good threat, and with
    # one it takes the zugzwang over (off the 64-bit path too)
    last_mover = (cols * rows - 1) % 2
    if not board.is_bitboard and counts[1 - last_mover]["good_threats"]:
        counts[last_mover]["good_threats"] = 0
    central = {cols // 2, (cols - 1) // 2}
    for (x, _y), stone in grid.items():
        if stone and x in central:
            counts[stone - 1]["central"] += 1
    return tuple(counts)


def zugzwang_wins(board, side, x, y):
    """Whether `side`'s threat on the empty cell (x, y) wins the zugzwang:
    when every other empty cell is filled, whoever must then play into
    column x under the threat (or on it, if nothing is under it) decides
    it, and the game must last until `side` plays the threat."""
    empty = board.columns * board.rows - board.moves_played
    moves_left = board.max_moves - board.moves_played
    playable = y == board.height(x)
    # the cells of column x the others are filled without: from the one
    # under the threat up, or from the threat up when it is playable
    kept = board.rows - y + (0 if playable else 1)
    before = empty - kept
    forced = (board.moves_played + before) % 2
    if playable:
        return forced == side and before + 1 <= moves_left
    return forced == 1 - side and before + 2 <= moves_left


def test_zugzwang_parity_on_7x6_is_allis_odd_and_even_threats():
    """On 7x6 the first player's good threats are on rows 1, 3, 5 counting
    from 1, the second player's on 2, 4, 6, at any point of the game."""
    for moves in ([], [3], [3, 3, 2], [0, 1, 2, 3, 4, 5, 6]):
        board = Board.from_moves(moves)
        for x in range(7):
            for y in range(board.height(x), 6):
                assert zugzwang_wins(board, 0, x, y) == (y % 2 == 0)
                assert zugzwang_wins(board, 1, x, y) == (y % 2 == 1)


def test_zugzwang_parity_on_10x9_is_the_other_way_round():
    """90 cells, 9 rows: filling all but a column's top from row r - 1 up
    takes 90 - 9 + r - 1 moves, so the first player's good threats are on
    odd rows (0-based), unlike 7x6: the 10x9 games lost in zugzwang."""
    board = Board(10, 9, 4)
    for y in range(9):
        assert zugzwang_wins(board, 0, 4, y) == (y % 2 == 1)
        assert zugzwang_wins(board, 1, 4, y) == (y % 2 == 0)
    # with 6 tokens each the game ends after 12 moves, long before any zugzwang
    assert not any(zugzwang_wins(Board(10, 9, 4, 6), side, 4, y) for side in (0, 1) for y in range(9))


sizes = st.tuples(st.integers(1, 12), st.integers(1, 12), st.integers(1, 6), st.integers(1, 80))


@given(sizes, st.integers(0, 2**32), st.lists(st.integers(-50, 50), min_size=7, max_size=7))
def test_features_and_score_match_a_plain_window_count(size, seed, weights):
    board = random_position(*size, seed)
    evaluation = Evaluation(weights)
    expected = reference_features(board)
    assert evaluation.features(board) == expected
    assert evaluation.features(board, cell_path=True) == expected
    me = board.side_to_move
    assert evaluation.evaluate(board) == sum(
        w * (expected[me][name] - expected[1 - me][name]) for w, name in zip(weights, FEATURES))


@given(st.sampled_from([(13, 4), (8, 15), (2, 63), (16, 7), (12, 15), (16, 11), (8, 23), (1, 128),
                        (9, 8), (10, 9), (14, 12)]),
       st.integers(1, 7), st.integers(0, 2**32), st.floats(0.0, 1.0))
def test_wide_bitboard_features_match_a_plain_window_count(shape, c, seed, fraction):
    """The bit-parallel count on the multi-word path, shapes on either side
    of its word boundaries."""
    columns, rows = shape
    board = random_position(columns, rows, c, (columns * rows + 1) // 2, seed, fraction)
    assert board.is_wide
    expected = reference_features(board)
    assert Evaluation().features(board) == expected
    assert Evaluation().features(board, cell_path=True) == expected


def test_evaluation_on_a_board_beyond_64_cells_matches_the_reference():
    for seed in range(5):
        board = random_position(20, 20, 5, 200, seed, fraction=0.3)
        assert not board.is_bitboard
        assert Evaluation().features(board) == reference_features(board)


def test_bad_weights_are_named():
    for weights in ([1] * 6, [1] * 6 + [10**6], [1.5] * 7):
        try:
            Evaluation(weights)
        except ValueError as error:
            assert "weight" in str(error)
        else:
            raise AssertionError(f"accepted {weights}")


def minimax(board, depth, evaluation, ply=0):
    """Negamax without pruning, same conventions as the core: a side that has
    just lost at ply q scores -(WIN - q), a draw 0, the horizon evaluates."""
    if board.winner is not None:
        return -(WIN_SCORE - ply)
    if board.is_draw():
        return 0
    if depth == 0:
        return evaluation.evaluate(board)
    best = None
    for col in board.legal_columns():
        board.play(col)
        value = -minimax(board, depth - 1, evaluation, ply + 1)
        board.undo()
        best = value if best is None else max(best, value)
    return best


CASES = [(7, 6, 4, 21), (5, 4, 3, 10), (4, 4, 3, 3), (9, 8, 5, 36), (6, 5, 4, 6)]


def tree_size(board, depth):
    """Nodes of the whole game tree to `depth` plies, the root included."""
    if board.is_over() or depth == 0:
        return 1
    size = 1
    for col in board.legal_columns():
        board.play(col)
        size += tree_size(board, depth - 1)
        board.undo()
    return size


@given(st.sampled_from(CASES), st.integers(0, 2**32), st.integers(0, 3), st.sampled_from(MODES))
def test_every_mode_finds_the_minimax_value(case, seed, depth, mode):
    board = random_position(*case, seed)
    search = DepthLimited((2, 1, 3, 4, 1, 5, 3))
    before = board.moves()
    assert search.value(board, depth, mode) == minimax(board, depth, search.evaluation)
    assert board.moves() == before  # the caller's board is untouched
    tree = tree_size(board, depth)
    assert search.nodes == tree if mode == "minimax" else search.nodes <= tree


@given(st.sampled_from(CASES), st.integers(0, 2**32), st.integers(1, 3))
def test_best_move_reaches_the_minimax_value(case, seed, depth):
    board = random_position(*case, seed)
    if board.is_over():
        return
    search = DepthLimited()
    move, value = search.best_move(board, depth)
    assert value == minimax(board, depth, search.evaluation)
    board.play(move)
    assert -minimax(board, depth - 1, search.evaluation, 1) == value
    assert search.nodes > 0


def test_pruning_visits_fewer_nodes_and_the_centre_first_fewest():
    board = Board.from_string("4453")
    search = DepthLimited()
    nodes = {}
    for mode in MODES:
        search.value(board, 5, mode)
        nodes[mode] = search.nodes
    assert nodes["minimax"] == tree_size(board, 5)
    assert nodes["ordered"] < nodes["alphabeta"] / 2 < nodes["minimax"] / 4


def test_depth_limited_search_names_bad_arguments():
    with pytest.raises(ValueError, match="depth=-1"):
        DepthLimited().value(Board(), -1)
    with pytest.raises(ValueError, match="'sideways'.*minimax, alphabeta, ordered"):
        DepthLimited().value(Board(), 2, "sideways")


def test_evaluator_reports_nodes_on_stderr_with_verbose():
    import re
    import subprocess
    from pathlib import Path

    player = Path(__file__).resolve().parents[1] / "players" / "evaluator"
    result = subprocess.run([str(player), "--verbose", "--depth", "3"], input="azul rojo\n7 6 4 21\nvos\n",
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert result.stdout.strip() in {str(col) for col in range(7)}
    nodes = int(re.search(r"nodes (\d+)", result.stderr).group(1))
    assert 7 < nodes < 7 ** 3 + 7 ** 2 + 7 + 1  # pruned, yet more than the root's children
