"""Board.from_grid: a position from its cells (Kaggle's flat list, rows of
0/1/2), checked against games played move by move on the reference rules."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_rules import ReferenceGame

from clinea.core import Board


@st.composite
def played_games(draw, max_side=9):
    """A game in progress or over, played on the reference rules: its
    geometry and the reference's cells (grid[col][row], row 0 at the bottom)."""
    columns = draw(st.integers(1, max_side))
    rows = draw(st.integers(1, max_side))
    c = draw(st.integers(1, max(columns, rows) + 1))
    ref = ReferenceGame(columns, rows, c, (columns * rows + 1) // 2)
    for choice in draw(st.lists(st.integers(0, 10**6), max_size=columns * rows)):
        if ref.over():
            break
        legal = ref.legal()
        ref.play(legal[choice % len(legal)])
    return ref


def reference_rows_top_first(ref: ReferenceGame) -> list[list[int]]:
    return [[ref.grid[col][row] for col in range(ref.columns)] for row in reversed(range(ref.rows))]


@given(played_games())
@settings(max_examples=300)
def test_rows_give_the_same_stones_side_to_move_and_winner(ref):
    board = Board.from_grid(reference_rows_top_first(ref), c=ref.c)
    assert board.rules == (ref.columns, ref.rows, ref.c, ref.p)
    assert [[board.cell(col, row) for row in range(ref.rows)] for col in range(ref.columns)] == ref.grid
    assert board.moves_played == ref.moves
    assert board.side_to_move == ref.moves % 2
    assert board.winner == ref.winner
    assert board.legal_columns() == ref.legal()


@given(played_games())
@settings(max_examples=100)
def test_kaggle_flat_list_and_bottom_first_rows_agree(ref):
    rows = reference_rows_top_first(ref)
    flat = [cell for row in rows for cell in row]  # Kaggle: row-major, top row first
    from_flat = Board.from_grid(flat, c=ref.c, columns=ref.columns, mark=ref.moves % 2 + 1)
    from_rows = Board.from_grid(rows[::-1], c=ref.c, top_first=False)
    assert from_flat.grid() == from_rows.grid() == rows[::-1]


def test_history_replays_to_the_same_board():
    board = Board.from_moves([3, 3, 2, 4, 1, 5, 0])  # 0-1-2-3 across: the first player won
    rebuilt = Board.from_grid(board.grid(), top_first=False)
    assert rebuilt.winner == 0 and rebuilt.moves_played == 7
    assert Board.from_moves(rebuilt.moves()) == board


def test_a_big_generic_board_is_rebuilt_without_recursion_limits():
    board = Board(60, 60, c=200)  # nobody can win: a long game
    for ply in range(3000):
        board.play((ply * 7 + ply // 60) % 60 if board.can_play((ply * 7 + ply // 60) % 60)
                   else board.legal_columns()[0])
    rebuilt = Board.from_grid(board.grid(), c=200, top_first=False)
    assert rebuilt.grid() == board.grid() and not rebuilt.is_bitboard


@pytest.mark.parametrize("grid, kwargs, message", [
    ([[0, 3]], {}, "is 3: allowed 0, 1, 2"),
    ([[0, True]], {}, "is True: allowed 0, 1, 2"),
    ([[1, 0], [0, 0]], {}, "floats over an empty cell"),
    ([[0, 0], [1, 1]], {}, "2 stones of player 1 and 0 of player 2"),
    ([[0, 0], [2, 0]], {}, "0 stones of player 1 and 1 of player 2"),
    ([[0, 0], [1, 0]], {"mark": 1}, "mark 1 is not the side to move: the stones say player 2 moves"),
    ([[0, 0], [0]], {}, "row 1 has 1 cells, row 0 has 2"),
    ([], {}, "an empty grid"),
    ([0, 0, 0], {"columns": 2}, "a flat grid of 3 cells does not split into rows of 2 columns"),
    ([0, 0], {"columns": 0}, "columns=0 is out of range: allowed 1..128"),
    ([[1, 1, 1, 2, 2, 2, 0, 0]], {"c": 3, "top_first": False}, "no order of moves reaches this grid"),
    ([[1, 2, 1, 2]], {"p": 1}, "4 stones: more than the 2 a game allows"),
])
def test_grids_no_game_reaches_are_refused_with_the_reason(grid, kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        Board.from_grid(grid, **kwargs)
