"""Every registered player through every bridge."""
import pytest

from clinea.core import Board
from clinea.players.make_bot import make_bot


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_a_player_without_a_verbose_option_is_made_in_process(name):
    """--verbose exists only for players that report; building one of the
    others in process (the Kaggle and OpenSpiel bridges do) must not read it."""
    bot = make_bot(name)
    assert bot.verbose is False
    board = Board(7, 6, 4, 21)
    bot.new_game(board.copy(), 0)
    assert bot.choose(board.copy()) in board.legal_columns()
