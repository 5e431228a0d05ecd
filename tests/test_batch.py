"""The batched stepper (clinea.core.batch) against the one Board: the same
random games played move by move on Boards and in a batch give the same
observations, masks, rewards and dones, on bitboard sizes and beyond."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinea.core import Board
from clinea.core.batch import BatchBoards


def expected_planes(board: Board) -> np.ndarray:
    """The side to move's planes, written plainly from Board.cell."""
    me = board.side_to_move + 1
    out = np.zeros((board.rows, board.columns, 2), dtype=np.int8)
    for col in range(board.columns):
        for row in range(board.rows):
            cell = board.cell(col, row)
            if cell:
                out[board.rows - 1 - row, col, 0 if cell == me else 1] = 1
    return out


def expected_mask(board: Board) -> np.ndarray:
    mask = np.zeros(board.columns, dtype=np.int8)
    mask[board.legal_columns()] = 1
    return mask


@st.composite
def rules(draw):
    # up to 11x10: bitboards (7x6), the three-word path (9x8) and the cell array (11x10)
    columns = draw(st.integers(1, 11))
    rows = draw(st.integers(1, 10))
    c = draw(st.integers(1, 5))
    p = draw(st.integers(1, (columns * rows + 1) // 2))
    return columns, rows, c, p


@given(rules(), st.integers(1, 4), st.booleans(), st.lists(st.lists(st.integers(0, 10 ** 6), min_size=4, max_size=4),
                                                         max_size=60))
@settings(max_examples=150)
def test_a_batch_plays_what_boards_play(size, count, auto_reset, turns):
    batch = BatchBoards(count, *size, auto_reset=auto_reset)
    boards = [Board(*size) for _ in range(count)]
    observations, masks = batch.reset()
    for turn in turns:
        for i, board in enumerate(boards):
            assert np.array_equal(observations[i], expected_planes(board))
            assert np.array_equal(masks[i], expected_mask(board))
        actions = []
        for i, board in enumerate(boards):
            legal = board.legal_columns()
            actions.append(legal[turn[i] % len(legal)] if legal else turn[i] % board.columns)
        observations, masks, rewards, dones = batch.step(np.array(actions))
        for i, board in enumerate(boards):
            if board.is_over():  # only without auto-reset: the action is ignored
                assert not auto_reset and dones[i] and rewards[i] == 0
                continue
            board.play(actions[i])
            assert dones[i] == board.is_over()
            assert rewards[i] == (1.0 if board.winner is not None else 0.0)
            if not auto_reset:
                assert batch.board(i) == board
            elif board.is_over():
                boards[i] = Board(*size)
    for i, board in enumerate(boards):
        assert np.array_equal(observations[i], expected_planes(board))
        assert np.array_equal(masks[i], expected_mask(board))


def test_a_column_that_cannot_be_played_is_refused_before_any_board_moves():
    batch = BatchBoards(2, 3, 2, 3)
    batch.step([0, 0])
    batch.step([0, 1])  # column 0 of board 0 is now full
    before = [batch.board(0), batch.board(1)]
    with pytest.raises(ValueError, match=r"board 0: column 0 cannot be played, legal are \[1, 2\]"):
        batch.step([0, 2])
    with pytest.raises(ValueError, match="board 1: column 7 cannot be played"):
        batch.step([1, 7])
    with pytest.raises(ValueError, match="board 1: column -1 cannot be played"):
        batch.step([1, -1])
    assert [batch.board(0), batch.board(1)] == before


@pytest.mark.parametrize("actions", [[0], [0, 1, 2], [[0, 1]], [0.0, 1.0], ["a", "b"]])
def test_actions_of_the_wrong_shape_or_type_are_refused(actions):
    with pytest.raises(ValueError, match="actions must be 2 integer columns"):
        BatchBoards(2).step(actions)


def test_reset_names_the_boards_it_empties():
    batch = BatchBoards(3, auto_reset=False)
    batch.step([3, 3, 3])
    observations, masks = batch.reset([0, 2])
    assert batch.board(0).moves_played == 0 and batch.board(1).moves() == [3] and batch.board(2).moves_played == 0
    assert observations[1].sum() == 1 and observations[0].sum() == 0
    with pytest.raises(ValueError, match=r"index 3 is out of range: allowed 0..2"):
        batch.reset([3])
    with pytest.raises(ValueError, match="count=0 is out of range"):
        BatchBoards(0)


def test_a_won_board_without_auto_reset_stays_finished_until_reset():
    batch = BatchBoards(1, 4, 4, 2, auto_reset=False)
    batch.step([0])
    _, masks, rewards, dones = batch.step([1])
    assert not dones[0] and rewards[0] == 0 and masks.all()
    _, masks, rewards, dones = batch.step([0])  # first player: two in column 0
    assert dones[0] and rewards[0] == 1 and not masks.any()
    _, masks, rewards, dones = batch.step([3])  # ignored
    assert dones[0] and rewards[0] == 0 and batch.board(0).moves() == [0, 1, 0]
