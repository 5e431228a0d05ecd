"""strong's search for a winning column beside the proof of a drawing one
(players/win_race.py), on its own and inside strong."""
import argparse

from clinea.core import Board
from clinea.core.solver import Solver
from clinea.core.timeman import Limits
from clinea.players.strong_player import StrongBot
from clinea.players.win_race import WinRace

# Test_L1_R2, 13 stones (0-based moves): column 1 wins, column 3 draws, the
# rest lose; its drawing column and its winning one are both hard to prove
WON = [4, 5, 4, 6, 2, 4, 5, 1, 0, 6, 1, 3, 6]
# Test_L1_R2, 14 stones (1-based digits): drawn, no column wins
DRAWN = "13612437461153"


def test_the_won_position_is_what_the_tests_say():
    assert Solver(20).analyze(Board.from_moves(WON), weak=True) == [-1, 1, -1, 0, -1, -1, -1]


def test_the_race_proves_the_winning_column_and_calls_on_win_before_it_says_so():
    race = WinRace()
    seen = []
    race.start(Board.from_moves(WON), Limits(), on_win=lambda: seen.append(race.done.is_set()))
    result = race.wait(None)
    assert result is not None and result.proven and (result.move, result.score) == (1, 1)
    assert seen == [False]


def test_the_race_proves_that_no_column_wins_a_drawn_position():
    race = WinRace()
    race.start(Board.from_string(DRAWN), Limits(), on_win=lambda: None)
    result = race.wait(None)
    assert result is not None and result.proven and result.move is None


def test_a_race_cut_short_by_its_wait_is_stopped_and_the_next_one_runs_whole():
    race = WinRace()
    race.start(Board.from_moves(WON), Limits(), on_win=lambda: None)
    assert race.wait(0.0) is None  # not done at once: told to stop, not waited for
    race.start(Board.from_moves(WON), Limits(), on_win=lambda: None)
    result = race.wait(None)
    assert result is not None and result.proven and result.move == 1


def test_strong_plays_the_win_the_race_found_and_its_own_solver_runs_after():
    board = Board.from_moves(WON)
    bot = StrongBot(time_per_move=2.0, ponder=False, race=True)
    bot.new_game(board.copy(), board.side_to_move)
    assert bot.ready(None)
    assert bot.choose(board.copy()) == 1
    assert bot.last.source == "solver" and bot.last.proven and bot.last.score > 0
    assert bot.win_race.result is not None and bot.win_race.result.move == 1
    # the race's win may have stopped the draw's proof: that stop is lifted
    assert bot.exact_solver.solve(board, weak=True) == 1


def test_strong_races_where_asked_and_never_with_a_node_limit():
    assert StrongBot(race=True, ponder=False)._racing()
    assert not StrongBot(race=False, ponder=False)._racing()
    assert not StrongBot(race=True, max_nodes=100_000, ponder=False)._racing()
    assert not StrongBot(race=True, solve=False, ponder=False)._racing()
    parser = argparse.ArgumentParser()
    StrongBot.add_arguments(parser)
    assert not StrongBot.from_args(parser.parse_args(["--no-race"])).races
    assert StrongBot.from_args(parser.parse_args([])).races_by_default


def test_a_node_limited_strong_leaves_the_race_alone():
    board = Board.from_moves(WON)
    bot = StrongBot(time_per_move=3600.0, max_nodes=200_000, ponder=False, race=True)
    bot.new_game(board.copy(), board.side_to_move)
    bot.choose(board.copy())
    assert bot.win_race.thread is None



class LateWinRace:
    """A race not done by the move's end (`wait` gives nothing) whose win
    comes later, from its thread, after strong moved: `finish_late`."""

    def __init__(self):
        self.on_win = None

    def start(self, board, limits, on_win):
        self.on_win = on_win

    def stop(self):
        pass

    def wait(self, seconds):
        return None

    def finish_late(self):
        self.on_win()


def test_a_win_found_after_strong_moved_does_not_stop_its_next_search():
    board = Board.from_moves(WON)
    bot = StrongBot(time_per_move=0.5, ponder=False, race=True)
    bot.new_game(board.copy(), board.side_to_move)
    assert bot.ready(None)
    race = bot.win_race = LateWinRace()
    assert bot.choose(board.copy()) in (1, 3)  # the draw's proof and the exact solve: a column keeping the draw
    race.finish_late()
    assert bot.exact_solver.solve(board, weak=True) == 1
