"""The exported Kaggle agent's pure-Python search (`kaggle_agent_best`)
against the compiled core: its board conversion and its rules on random
positions of any ConnectX size (property tests), and its exact values and
moves against clinea's solver where it searches to the end of the game
(a differential test); its book against the solver."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinea.bridges import kaggle_agent_best as pure
from clinea.bridges.export import agent_source
from clinea.bridges.kaggle import kaggle_board
from clinea.bridges.kaggle_book import SHORT_WIN, book_entries, stones_to_win, stored_book
from clinea.core import Board
from clinea.core.solver import Solver

SIZES = st.tuples(st.integers(1, 9), st.integers(1, 8), st.integers(1, 6))


def random_game(columns, rows, inarow, seed, stop=None):
    """A board after random moves of a game (until it ends, or `stop` moves)."""
    rng = random.Random(seed)
    board = Board(columns, rows, inarow)
    while not board.is_over() and (stop is None or board.moves_played < stop):
        board.play(rng.choice(board.legal_columns()))
    return board


def converted(game, board):
    """(cur, mask, n) of a clinea board through Kaggle's flat layout."""
    return game.from_board(kaggle_board(board), board.side_to_move + 1)


@given(SIZES, st.integers(0, 10**6), st.integers(0, 80))
@settings(max_examples=150)
def test_the_flat_board_becomes_the_bitboards_of_the_side_to_move(size, seed, stop):
    board = random_game(*size, seed, stop)
    game = pure.Game(*size)
    cur, mask, n = converted(game, board)
    assert n == board.moves_played
    grid = board.grid()  # bottom row first
    for col in range(board.columns):
        for row in range(board.rows):
            bit = 1 << (col * (board.rows + 1) + row)
            assert bool(mask & bit) == (grid[row][col] != 0)
            assert bool(cur & bit) == (grid[row][col] == board.side_to_move + 1)


@given(SIZES, st.integers(0, 10**6), st.integers(0, 80))
@settings(max_examples=150)
def test_moves_and_wins_of_the_bitboards_are_the_core_s(size, seed, stop):
    board = random_game(*size, seed, stop)
    if board.is_over():
        return
    game = pure.Game(*size)
    cur, mask, _ = converted(game, board)
    winning = game.winning_cells(cur)
    for col in range(board.columns):
        bit = game.move_bit(mask, col)
        assert bool(bit) == board.can_play(col)
        if bit:
            assert bool(winning & bit) == board.is_winning_move(col)
            after = board.copy()
            after.play(col)
            assert converted(game, after)[:2] == (cur ^ mask, mask | bit)


def exact(game, board):
    """The pure search's (column, value) given all the time it needs."""
    cur, mask, n = converted(game, board)
    return game.search(cur, mask, n, budget=60.0)


@given(st.sampled_from([(4, 4, 3), (5, 4, 3), (4, 3, 3), (3, 3, 2), (5, 4, 4), (7, 6, 4), (9, 8, 5)]),
       st.integers(0, 10**6))
@settings(max_examples=30)
def test_searched_to_the_end_its_value_and_move_are_the_solver_s(size, seed):
    """Positions near enough the end for pure Python (7x6 from 32 stones,
    9x8 c5 from 64, 5x4 from 6): the value, win distance included, is the
    solver's exact score, and the move chosen keeps it."""
    columns, rows, inarow = size
    start = {(7, 6, 4): 32, (9, 8, 5): 64, (5, 4, 3): 6, (5, 4, 4): 6}.get(size, 0)
    board = random_game(columns, rows, inarow, seed, stop=start)
    if board.is_over():
        return
    game, solver = pure.Game(*size), Solver(16)
    col, value, _ = exact(game, board)
    scores = solver.analyze(board)
    best = max(score for score in scores if score is not None)
    if value is None:  # no search: a win, or at most one move that does not lose at once
        assert scores[col] == best, board.to_string()
        return
    moves_to_end = board.columns * board.rows
    if value > 0:
        clinea_score = (moves_to_end + 1 - (pure.WIN - 1 - value)) // 2
    elif value < 0:
        clinea_score = -((moves_to_end + 1 - (pure.WIN - 1 + value)) // 2)
    else:
        clinea_score = 0
    assert clinea_score == best, board.to_string()
    assert scores[col] == best, board.to_string()


def board_of(game, key):
    """The 7x6 board of a book key (cur + mask: per column, the side to
    move's stones plus a run of ones as high as the column)."""
    columns = [(key >> (col * game.stride)) & ((1 << game.stride) - 1) for col in range(game.columns)]
    heights = [(value + 1).bit_length() - 1 for value in columns]
    n = sum(heights)
    mover = n % 2 + 1
    flat = [0] * game.size
    for col, (value, height) in enumerate(zip(columns, heights, strict=True)):
        mine = value + 1 - (1 << height)
        for level in range(height):
            flat[(game.rows - 1 - level) * game.columns + col] = mover if mine >> level & 1 else 3 - mover
    return Board.from_grid(flat, c=4, columns=game.columns, mark=mover)


def keeps_value(solver, board, col):
    value = solver.solve(board, weak=True)
    after = board.copy()
    after.play(col)
    return value == (1 if board.is_winning_move(col) else -solver.solve(after, weak=True))


def test_every_book_move_keeps_the_solver_s_value():
    """A sample of the stored book, and a book of 3 plies written and read again."""
    plies, encoded = stored_book()
    game, solver = pure.Game(7, 6, 4), Solver()
    entries = pure.read_book(encoded)
    assert len(entries) > 1000 and plies >= 8
    small = book_entries(3, solver=solver)
    again = pure.read_book(pure.encode_book(small))
    assert len(again) == len(small) > 7 and all(pure.book_move(again, key) == col for key, col in small.items())
    others = [entry >> 4 for entry in entries if entry >> 4 not in small][:200]
    assert len(others) == 200 and all(pure.book_move(again, key) is None for key in others)
    sample = [(entry >> 4, entry & 15) for entry in entries[:: max(1, len(entries) // 60)]] + list(small.items())
    for key, col in sample:
        board = board_of(game, key)
        assert board.moves_played <= plies and keeps_value(solver, board, col), board.to_string()
    assert len(sample) >= 50


def played(moves):
    board = Board(7, 6, 4)
    for col in moves:
        board.play(col)
    return board


def winning(solver, board, col):
    """Whether playing `col` keeps the side to move's win on `board`."""
    after = played(board.moves() + [col])
    return board.is_winning_move(col) or solver.solve(after, weak=True) == -1


def test_a_search_answered_from_the_table_of_an_earlier_move_still_finds_the_win():
    """Found against Kaggle's negamax (7x6, moving first, seed 169 of
    benchmarks/kaggle_lost_wins.py with the 12-stone book): after a 9-ply search of its move at 18 stones, the agent's
    search at 20 stones was answered by the table's horizon values at depth
    2, took them for exact, and played a drawing column in no time."""
    line = [3, 5, 1, 2, 1, 6, 1, 1, 3, 6, 3, 3, 3, 6, 6, 1, 5, 6, 3, 5]
    game, solver = pure.Game(7, 6, 4), Solver()
    before = played(line[:18])
    game.search(*converted(game, before), budget=60.0, max_depth=9)
    board = played(line)
    col, value, _ = game.search(*converted(game, board), budget=60.0)
    assert solver.solve(board, weak=True) == 1
    assert value is not None and value > pure.WIN // 2 and winning(solver, board, col), (col, value)


def exported_agent():
    """The namespace of the file `clinea export kaggle` writes (book embedded)."""
    namespace: dict = {}
    exec(agent_source("best"), namespace)  # noqa: S102 - the file Kaggle runs
    return namespace


#: 7x6 positions where the agent, moving first against Kaggle's negamax past
#: the 12-stone book, gave the win away (benchmarks/kaggle_lost_wins.py: seed
#: 1014 with --act-timeout 0.9, seeds 137 and 151 with 2 s; from the first
#: its search still plays a draw after 20 s: its evaluation misjudges it)
LOST_WINS = [
    [3, 5, 1, 2, 1, 3, 1, 1, 3, 3, 5, 3, 3, 6],
    [3, 5, 1, 2, 1, 5, 1, 1, 3, 5, 5, 2, 3, 3],
    [3, 5, 1, 2, 1, 6, 1, 1, 3, 6, 3, 3, 3, 6, 6, 6],
]


@pytest.mark.parametrize("line", LOST_WINS)
def test_the_exported_agent_keeps_the_win_where_its_search_lost_it(line):
    board, solver = played(line), Solver()
    assert solver.solve(board, weak=True) == 1
    agent = exported_agent()
    col = agent["agent"]({"board": kaggle_board(board), "mark": 1, "remainingOverageTime": 60.0},
                         {"columns": 7, "rows": 6, "inarow": 4, "actTimeout": 2.0})
    assert winning(solver, board, col), (board.to_string(), col)


@given(st.integers(0, 10**6))
@settings(max_examples=40, deadline=None)
def test_moving_first_the_book_wins_or_leaves_a_short_win_to_the_search(seed):
    """A random opponent against the exported book: at each of the agent's
    turns up to the book's depth, the position is in the book with a move
    that keeps the win, or the agent wins it within SHORT_WIN stones (its
    search proves that at once)."""
    plies, encoded = stored_book()
    entries = pure.read_book(encoded)
    game, solver, rng = pure.Game(7, 6, 4), Solver(), random.Random(seed)
    board = Board(7, 6, 4)
    while board.moves_played <= plies and not board.is_over():
        cur, mask, n = converted(game, board)
        col = pure.book_move(entries, cur + mask)
        if col is None:
            score = solver.solve(board)
            assert n > 12 and score > 0 and stones_to_win(n, score) <= SHORT_WIN, board.to_string()
            return
        assert winning(solver, board, col), board.to_string()
        board.play(col)
        if not board.is_over():
            board.play(rng.choice(board.legal_columns()))
