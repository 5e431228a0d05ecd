"""Rules: the one value for (columns, rows, c, p) that the board, the
protocol's players, the judge and the integrations share."""
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clinea.core import MAX_SIDE, MAX_TOKENS, Board, Rules


@given(st.integers(1, 40), st.integers(1, 40), st.integers(1, 50), st.one_of(st.none(), st.integers(1, 900)))
def test_a_board_keeps_the_rules_it_was_built_with(columns, rows, c, p):
    rules = Rules(columns, rows, c, p)
    board = Board(*rules)
    assert board.rules == rules
    assert (board.columns, board.rows, board.c, board.p) == tuple(rules)
    assert board.max_moves == rules.max_moves == min(2 * rules.p, columns * rows)
    assert rules.p == ((columns * rows + 1) // 2 if p is None else p)
    assert Board(columns, rows, c, p).rules == rules


def test_rules_are_the_four_tuples_they_replace():
    rules = Rules(9, 8, 5)
    columns, rows, c, p = rules
    assert (columns, rows, c, p) == (9, 8, 5, 36) == rules
    assert json.loads(json.dumps(rules)) == [9, 8, 5, 36]
    assert Rules() == (7, 6, 4, 21)
    assert str(rules) == "9x8 c=5 p=36"
    assert Board.from_moves([4, 4], *rules).rules == rules


@pytest.mark.parametrize("arguments, name, allowed", [
    ((0, 6, 4, 21), "columns", f"1..{MAX_SIDE}"), ((7, MAX_SIDE + 1, 4, 21), "rows", f"1..{MAX_SIDE}"),
    ((7, 6, 0, 21), "c", f"1..{MAX_TOKENS}"), ((7, 6, 4, 0), "p", f"1..{MAX_TOKENS}"),
    ((7.0, 6, 4, 21), "columns", f"1..{MAX_SIDE}"), ((7, 6, True, 21), "c", f"1..{MAX_TOKENS}"),
])
def test_a_bad_value_is_named_with_its_range(arguments, name, allowed):
    for build in (Rules, Board):
        with pytest.raises(ValueError) as error:
            build(*arguments)
        assert name in str(error.value) and allowed in str(error.value)
