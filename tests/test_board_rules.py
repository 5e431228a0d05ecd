"""Differential tests: the Cython board against the plain reference rules,
move by move, on random games of random sizes."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_rules import ReferenceGame

from clinea.core import Board, IllegalMove


def assert_same_state(board: Board, ref: ReferenceGame) -> None:
    assert board.legal_columns() == ref.legal()
    assert board.winner == ref.winner
    assert board.is_draw() == ref.draw()
    assert board.is_over() == ref.over()
    assert board.moves_played == ref.moves
    assert board.side_to_move == ref.moves % 2
    for col in range(ref.columns):
        assert board.height(col) == sum(1 for v in ref.grid[col] if v)


def play_both(columns, rows, c, p, choices):
    """Plays one game on both implementations, checking after every move;
    `choices` picks among the legal columns."""
    board = Board(columns, rows, c, p)
    ref = ReferenceGame(columns, rows, c, p)
    assert_same_state(board, ref)
    for choice in choices:
        legal = ref.legal()
        if not legal:
            break
        col = legal[choice % len(legal)]
        expected_win = _reference_wins_with(ref, col)
        assert board.is_winning_move(col) == expected_win
        board.play(col)
        ref.play(col)
        assert_same_state(board, ref)
    return board, ref


def _reference_wins_with(ref: ReferenceGame, col: int) -> bool:
    trial = ReferenceGame(ref.columns, ref.rows, ref.c, ref.p)
    trial.grid = [column[:] for column in ref.grid]
    trial.moves = ref.moves
    trial.play(col)
    return trial.winner is not None


@st.composite
def games(draw, max_side=10):
    columns = draw(st.integers(1, max_side))
    rows = draw(st.integers(1, max_side))
    c = draw(st.integers(1, max(columns, rows) + 1))
    p = draw(st.integers(1, (columns * rows + 1) // 2 + 1))
    choices = draw(st.lists(st.integers(0, 10**6), max_size=columns * rows))
    return columns, rows, c, p, choices


@given(games())
@settings(max_examples=400)
def test_random_sizes_agree_with_reference(game):
    play_both(*game)


@given(games(max_side=14).filter(lambda g: g[0] * (g[1] + 1) > 64))
@settings(max_examples=100)
def test_generic_boards_beyond_64_cells_agree(game):
    assert not Board(*game[:4]).is_bitboard
    play_both(*game)


# Shapes whose bits (columns * (rows + 1), the sentinel row included) sit
# on either side of the wide bitboard's word boundaries: 64, 128, 192.
WORD_BOUNDARY_SHAPES = [(13, 4), (5, 12), (16, 3), (8, 15), (1, 64), (2, 63), (13, 9), (16, 7),
                        (4, 31), (12, 15), (16, 11), (8, 23), (14, 12), (1, 128), (3, 63), (2, 96),
                        (21, 11), (16, 15), (11, 17)]


@st.composite
def wide_games(draw):
    columns, rows = draw(st.sampled_from(WORD_BOUNDARY_SHAPES))
    c = draw(st.integers(1, min(max(columns, rows) + 1, 9)))
    p = draw(st.integers(1, (columns * rows + 1) // 2 + 1))
    choices = draw(st.lists(st.integers(0, 10**6), max_size=min(columns * rows, 120)))
    return columns, rows, c, p, choices


def test_word_boundary_shapes_take_the_path_their_size_says():
    for columns, rows in WORD_BOUNDARY_SHAPES:
        board = Board(columns, rows)
        bits = columns * (rows + 1)
        assert (board.is_bitboard, board.is_wide) == (bits <= 64, 64 < bits <= 192), (columns, rows)


@given(wide_games())
@settings(max_examples=150, deadline=None)
def test_wide_bitboards_across_word_boundaries_agree(game):
    """Wins, winning moves and legal columns on the multi-word path, and
    every position back again by undo."""
    board, _ = play_both(*game)
    while board.moves_played:
        board.undo()
        ref = ReferenceGame(*game[:4])
        for col in board.moves():
            ref.play(col)
        assert_same_state(board, ref)
        for col in ref.legal():
            assert board.is_winning_move(col) == _reference_wins_with(ref, col)
        if board.moves_played % 7:
            break  # a few positions per game: the reference is slow


@pytest.mark.parametrize(
    "columns, rows, c, p, games",
    [(7, 6, 4, 21, 300), (1, 6, 1, 3, 300), (1, 8, 4, 4, 300), (5, 1, 3, 3, 300), (7, 6, 4, 5, 300),
     (4, 4, 3, 8, 300), (9, 6, 5, 27, 150), (8, 7, 4, 28, 150), (12, 11, 5, 66, 40), (3, 3, 4, 5, 300),
     (1, 1, 1, 1, 10), (9, 8, 5, 36, 60), (10, 9, 4, 45, 40), (14, 12, 6, 84, 10)],
)
def test_thousands_of_seeded_games(columns, rows, c, p, games):
    # the reference rescans the whole board after every move: big boards cost
    rng = random.Random(columns * 1000 + rows * 10 + c)
    for _ in range(games):
        play_both(columns, rows, c, p, [rng.randrange(10**6) for _ in range(columns * rows)])


def test_c_one_wins_at_the_first_stone():
    board = Board(5, 5, c=1)
    board.play(2)
    assert board.winner == 0 and board.is_over() and board.legal_columns() == []


def test_token_limit_ends_game_in_a_draw():
    board = Board(7, 6, c=4, p=2)
    board.play_moves([0, 6, 1, 5])
    assert board.is_draw() and board.legal_columns() == []


@pytest.mark.parametrize("kwargs, name", [
    (dict(columns=0), "columns"), (dict(rows=0), "rows"), (dict(c=0), "c"), (dict(p=0), "p"),
    (dict(columns=129), "columns"), (dict(rows=10**6), "rows"), (dict(c=-3), "c"),
])
def test_bad_geometry_is_refused_with_name_and_range(kwargs, name):
    with pytest.raises(ValueError) as info:
        Board(**kwargs)
    assert name in str(info.value) and ".." in str(info.value)


def test_boards_up_to_128_by_128():
    board = Board(128, 128, c=5)
    board.play(127)
    assert board.cell(127, 0) == 1 and not board.is_bitboard


@given(games(), st.integers(-5, 20))
def test_illegal_play_raises_and_changes_nothing(game, col):
    board, _ = play_both(*game)
    if board.can_play(col):
        return
    before = (board.moves(), board.grid(), board.key(), board.winner)
    with pytest.raises(IllegalMove):
        board.play(col)
    assert (board.moves(), board.grid(), board.key(), board.winner) == before


@given(games())
def test_undo_restores_every_earlier_position(game):
    board, _ = play_both(*game)
    history = board.moves()
    snapshots = []
    replay = Board(*game[:4])
    for col in history:
        snapshots.append((replay.grid(), replay.key(), replay.legal_columns()))
        replay.play(col)
    for col, snapshot in zip(reversed(history), reversed(snapshots)):
        assert board.undo() == col
        assert (board.grid(), board.key(), board.legal_columns()) == snapshot
        assert board.winner is None


@given(games(max_side=14))
def test_key_depends_only_on_position(game):
    """Transpositions (same stones, different order) share a key; a copy is
    independent of its original."""
    board, _ = play_both(*game)
    moves = board.moves()
    if len(moves) < 3 or board.winner is not None:
        return
    swapped = moves[:]
    swapped[0], swapped[2] = swapped[2], swapped[0]
    other = Board(*game[:4])
    try:
        other.play_moves(swapped)
    except IllegalMove:
        return
    assert (other.key() == board.key()) == (other.grid() == board.grid())
    copy = board.copy()
    copy.undo()
    assert board.moves() == moves


@given(games(max_side=9))
def test_move_strings_round_trip(game):
    board, _ = play_both(*game)
    assert Board.from_string(board.to_string(), *game[:4]).moves() == board.moves()


def test_wide_boards_use_separated_notation():
    board = Board.from_string("10,3,12", columns=12, rows=4, c=3)
    assert board.moves() == [9, 2, 11] and board.to_string() == "10,3,12"


@pytest.mark.parametrize("text, position", [("44x3", "move 3"), ("4480", "move 3"), ("1111111", "move 7")])
def test_malformed_move_strings_name_the_position(text, position):
    with pytest.raises(ValueError) as info:
        Board.from_string(text)
    assert position in str(info.value)


def test_render_shows_stones_and_colours():
    board = Board.from_string("44")
    plain = board.render(color=False)
    lines = plain.splitlines()
    assert [line.split()[3] for line in lines[-4:-1]] == [".", "O", "X"]
    assert "\x1b[" in board.render(color=True) and "\x1b[" not in plain


def test_numpy_integers_are_columns():
    numpy = pytest.importorskip("numpy")
    board = Board()
    board.play(numpy.int64(3))
    assert board.moves() == [3] and board.can_play(numpy.int32(3)) and not board.can_play(3.0)
