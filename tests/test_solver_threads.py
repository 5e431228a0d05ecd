"""The solver's parallel solve (Solver(threads=N), `clinea solve --threads`):
the same scores as one thread on every word type, with the table shared
across positions and threads; a budget and `stop` end every thread."""
import random
import subprocess
import sys
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pons import pons_lines, sign

from clinea.core import Board
from clinea.core.solver import Solver
from clinea.core.timeman import Limits


@pytest.mark.parametrize("threads", [2, 3])
@pytest.mark.parametrize("name, take", [
    ("Test_L2_R2", slice(0, 1000, 40)),
    ("Test_L1_R1", slice(0, 1000, 40)),
    ("Test_L2_R1", slice(0, 60)),
])
def test_standard_positions_match_exactly_on_several_threads(threads, name, take):
    # one solver for the file: what every thread leaves in the shared table
    # must hold for the next position (the helpers start at once)
    solver = Solver(20, threads=threads, book=False, solo_nodes=0)
    for moves, expected in pons_lines(name)[take]:
        board = Board.from_string(moves)
        assert solver.solve(board) == expected, moves
        assert solver.solve(board, weak=True) == sign(expected), moves


def random_position(game: tuple[int, int, int, int | None], left: int, seed: int) -> Board | None:
    """A random game of `game` stopped `left` moves before its end, or
    None when it ended first."""
    rng = random.Random(seed)
    board = Board(*game)
    while board.max_moves - board.moves_played > left and not board.is_over():
        board.play(rng.choice(board.legal_columns()))
    return None if board.is_over() else board


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([(7, 6, 4, None), (6, 7, 4, None), (9, 8, 5, None), (10, 9, 4, None),
                        (14, 12, 6, 30), (15, 13, 4, 24), (16, 14, 5, 26)]),
       st.integers(10, 20), st.integers(0, 2**32), st.integers(2, 4))
def test_several_threads_score_as_one_on_every_word_type(game, left, seed, threads):
    board = random_position(game, left, seed)
    if board is None:
        return
    alone, together = Solver(18), Solver(18, threads=threads, solo_nodes=0)
    for weak in (False, True):
        expected = alone.solve(board, weak=weak, limits=Limits(nodes=1_000_000))
        if expected is None:
            continue
        assert together.solve(board, weak=weak) == expected, (board.moves(), weak)
        scores = alone.analyze(board, weak=weak, limits=Limits(nodes=1_000_000))
        if scores is not None:  # a bad move's exact score may cost far more than the position's
            assert together.analyze(board, weak=weak) == scores, board.moves()


def test_a_node_budget_ends_every_thread_and_leaves_the_table_sound():
    solver = Solver(20, threads=2, book=False, solo_nodes=0)
    empty = Board(7, 6, 4)
    started = time.monotonic()
    assert solver.solve(empty, limits=Limits(nodes=20_000)) is None
    assert time.monotonic() - started < 10
    # the budget is each thread's, and the count every thread's
    assert 20_000 <= solver.nodes <= 2 * 20_001
    for moves, expected in pons_lines("Test_L2_R2")[:30]:
        assert solver.solve(Board.from_string(moves)) == expected, moves


def test_stop_from_another_thread_ends_every_thread():
    solver = Solver(20, threads=2, book=False)
    answers = []
    search = threading.Thread(target=lambda: answers.append(solver.solve(Board(7, 6, 4))))
    search.start()
    time.sleep(0.3)
    solver.stop()
    search.join(timeout=20)
    assert not search.is_alive()
    assert answers == [None]
    moves, expected = pons_lines("Test_L2_R1")[0]
    assert solver.solve(Board.from_string(moves)) is None  # stopped until resume
    solver.resume()
    assert solver.solve(Board.from_string(moves)) == expected


def test_a_position_is_searched_alone_first_and_with_the_helpers_only_past_solo_nodes():
    # positions that take fewer nodes than solo_nodes are searched as by one
    # thread, node for node (no helper started); a costlier one gets the
    # helpers after solo_nodes, and their nodes add to the count
    alone = Solver(20, book=False)
    together = Solver(20, book=False, threads=2, solo_nodes=50_000)
    solved_alone = 0
    for moves, expected in pons_lines("Test_L2_R2")[:40] + pons_lines("Test_L1_R2")[:3]:
        board = Board.from_string(moves)
        alone.reset()
        together.reset()
        assert alone.solve(board) == expected == together.solve(board), moves
        if alone.nodes <= 50_000:
            assert together.nodes == alone.nodes, moves
            solved_alone += 1
        else:
            assert together.nodes > 50_000, moves
    assert 0 < solved_alone < 43
    # the call's own budget still ends the solo search
    together.reset()
    assert together.solve(Board(7, 6, 4), limits=Limits(nodes=20_000)) is None
    assert together.nodes == 20_001


def test_the_helpers_own_tables_are_forgotten_with_the_game():
    # the same cells under other rules (a token limit that ends the game
    # two or four stones early) are other positions with other values, near
    # the end where the helpers' own tables keep them: one two-thread solver
    # going from one game to the other and back answers as fresh one-thread
    # solvers do
    together = Solver(18, threads=2, book=False, solo_nodes=0)
    openings = [moves for moves, _ in pons_lines("Test_L2_R2")[:60] if len(moves) <= 18][:12]
    games = [(7, 6, 4, None), (7, 6, 4, 20), (7, 6, 4, None), (7, 6, 4, 19)]
    cases = [(moves, rules) for rules in games for moves in openings]
    for moves, rules in cases:
        board = Board.from_moves([int(ch) - 1 for ch in moves], *rules)
        if board.is_over():
            continue
        expected = Solver(18, book=False).solve(board)
        assert together.solve(board) == expected, (moves, rules)


def test_solo_nodes_out_of_range_is_named():
    with pytest.raises(ValueError, match=r"solo_nodes=-1 is out of range: allowed 0 \(the threads at once\) or more"):
        Solver(threads=2, solo_nodes=-1)


@pytest.mark.parametrize("threads", [0, 65, -1])
def test_a_thread_count_out_of_range_is_named(threads):
    with pytest.raises(ValueError, match=rf"threads={threads} is out of range: allowed 1\.\.64"):
        Solver(threads=threads)


def test_cli_with_threads_reproduces_a_standard_file():
    cases = pons_lines("Test_L2_R2")[:40]
    text = "".join(f"{moves}\n" for moves, _ in cases)
    result = subprocess.run([sys.executable, "-m", "clinea", "solve", "--threads", "2", "--no-book"],
                            input=text, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [f"{moves} {score}" for moves, score in cases]
