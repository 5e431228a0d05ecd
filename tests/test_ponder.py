"""Thinking on the opponent's time: the driver starts and stops it around the
opponent's answers, and what strong proves while pondering, kept in its
solver's table for the rest of the game, never changes a proven value."""
import io
import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinea.core import Board
from clinea.core.solver import Solver
from clinea.core.timeman import Limits
from clinea.players import serve
from clinea.players.bot import Bot
from clinea.players.strong_player import StrongBot


class Recorder(Bot):
    """Plays the first legal column and logs the driver's calls."""

    def __init__(self):
        self.calls = []

    def choose(self, board):
        self.calls.append(("choose", board.moves_played))
        return board.legal_columns()[0]

    def ponder(self, board):
        self.calls.append(("ponder", board.moves_played))

    def stop_pondering(self):
        self.calls.append(("stop",))


def test_the_driver_ponders_after_each_move_and_stops_when_the_answer_comes():
    bot = Recorder()
    lines = ["azul rojo", "7 6 4 21", "vos", "1", "1", "perdiste", "salir"]
    serve(bot, io.StringIO("".join(line + "\n" for line in lines)), io.StringIO(), io.StringIO())
    assert bot.calls == [("choose", 0), ("ponder", 1), ("stop",),
                         ("choose", 2), ("ponder", 3), ("stop",),
                         ("choose", 4), ("ponder", 5),
                         ("stop",),  # on the result word
                         ("stop",)]  # and once more as the session ends


def ponder_fully(bot, board):
    """Ponders `board` until the bot's node budget for it runs out: the same
    work on any machine."""
    bot.ponder(board.copy())
    if bot.pondering is not None:
        bot.pondering.join()
    bot.stop_pondering()


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32), st.integers(9, 16), st.integers(2_000, 60_000))
def test_pondered_moves_keep_the_value_a_fresh_solver_gives(seed, stones, nodes):
    rng = random.Random(seed)
    board = Board()
    while board.moves_played < stones and not board.is_over():
        board.play(rng.choice(board.legal_columns()))
    if board.is_over():
        return
    fresh = Solver(20)
    bot = StrongBot(time_per_move=3600.0, tt_log2=12, max_nodes=nodes)
    bot.new_game(Board(), 0)
    # the game goes on with random replies: every proven answer, made with
    # the table the pondering and the earlier moves filled, is checked
    for _ in range(4):
        if board.is_over():
            return
        move = bot.choose(board.copy())
        if bot.last.source == "solver":
            assert bot.last.proven
            truth = fresh.solve(board, weak=bot.last.weak)
            after = board.copy()
            after.play(move)
            kept = (1 if bot.last.weak else truth) if after.winner is not None else -fresh.solve(after, weak=bot.last.weak)
            if bot.last.weak:
                # the value strong's previous move proved, kept whatever the
                # reply, or the exact value where the reply gave more
                assert bot.last.score <= truth and kept >= bot.last.score, (board.moves(), move)
            else:
                assert bot.last.score == truth == kept, (board.moves(), move)
        board.play(move)
        if board.is_over():
            return
        ponder_fully(bot, board)
        board.play(rng.choice(board.legal_columns()))


def test_pondering_stops_at_once_and_leaves_the_solver_usable():
    board = Board.from_moves([3, 3, 3, 3, 3, 1, 1, 1, 1, 5, 5])  # the opponent to move, 12 stones next
    bot = StrongBot(time_per_move=3600.0, ponder=True)
    bot.new_game(Board(), 1)
    bot.ponder(board.copy())
    assert bot.pondering is not None
    bot.stop_pondering()  # long before its replies are solved: no node limit here
    assert bot.pondering is None
    board.play(5)
    bot.limits = Limits(time=3600.0, nodes=12_000_000)
    assert bot.choose(board) == 5 and bot.last.proven and bot.last.score == 1


def test_no_ponder_thinks_only_on_its_own_time():
    bot = StrongBot(time_per_move=1.0, ponder=False)
    bot.new_game(Board(), 0)
    bot.ponder(Board.from_moves([3]))
    assert bot.pondering is None


@pytest.mark.parametrize("cores, ponders", [({0}, False), ({0, 1}, True)])
def test_by_default_strong_ponders_only_with_a_core_to_spare(monkeypatch, cores, ponders):
    # on one core the thinking would run on the opponent's only core, on its clock
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: cores)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    bot = StrongBot(time_per_move=1.0)
    bot.new_game(Board(), 0)
    bot.ponder(Board.from_moves([3]))
    try:
        assert (bot.pondering is not None) == ponders
    finally:
        bot.stop_pondering()


@pytest.mark.parametrize("load, ponders", [(1.9, True), (2.0, False), (30.0, False)])
def test_by_default_timed_strong_ponders_only_while_the_machine_has_a_core_to_spare(monkeypatch, load, ponders):
    # on a busy machine the thinking thread waits for a core before it can
    # stop, and the next move waits for it
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    for bot, expected in ((StrongBot(time_per_move=1.0), ponders), (StrongBot(time_per_move=1.0, ponder=True), True)):
        bot.new_game(Board(9, 8, 5), 0)
        bot.ponder(Board.from_moves([3], 9, 8, 5))
        try:
            assert (bot.pondering is not None) == expected
        finally:
            bot.stop_pondering()


@pytest.mark.parametrize("solve", [True, False])
def test_on_a_wide_board_the_next_move_starts_from_the_tree_grown_while_pondering(solve):
    # 9x8 c5 (81 bits): the Monte Carlo search goes on below our move while
    # the opponent thinks, and the next search keeps what lies below the reply
    kept = {}
    for ponder in (False, True):
        bot = StrongBot(time_per_move=3600.0, max_nodes=3000, solve=solve, ponder=ponder)
        board = Board(9, 8, 5)
        bot.new_game(board.copy(), 0)
        board.play(bot.choose(board.copy()))
        bot.ponder(board.copy())
        assert (bot.pondering is not None) == ponder
        if ponder:
            bot.pondering.join(timeout=60)  # its node limit ends it
            assert not bot.pondering.is_alive()
        bot.stop_pondering()
        board.play(4)
        assert bot.choose(board.copy()) in board.legal_columns()
        kept[ponder] = bot.mcts.nodes_kept
    assert kept[True] > kept[False] > 0


def test_on_a_wide_board_pondering_stops_at_once():
    bot = StrongBot(time_per_move=3600.0, ponder=True)
    board = Board.from_moves([4], 9, 8, 5)
    bot.new_game(Board(9, 8, 5), 0)
    bot.ponder(board.copy())  # no limit but the opponent's answer
    assert bot.pondering is not None and bot.pondering.is_alive()
    thread = bot.pondering
    bot.stop_pondering()
    assert bot.pondering is None and not thread.is_alive()
    board.play(4)
    bot.limits = Limits(time=3600.0, nodes=500)
    assert bot.choose(board.copy()) in board.legal_columns() and bot.mcts.simulations == 500
