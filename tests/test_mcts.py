"""The Monte Carlo tree search: legal moves, tactics in one move, proven
values against the exact solver, a bounded arena, determinism, the kept
subtree, and its two rollout paths against each other."""
import random
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinea.core import Board, play_random_game
from clinea.core.mcts import Mcts, rollout_winner
from clinea.core.solver import Solver
from clinea.core.timeman import Limits

# bitboard, wide (65, 100, 182 bits) and tight-p shapes
SHAPES = [(4, 4, 3, None), (5, 4, 4, None), (7, 6, 4, None), (9, 8, 5, None), (10, 9, 4, None),
          (14, 12, 6, None), (7, 6, 4, 6), (9, 8, 4, 10)]
WIDE_SHAPES = [(9, 8, 5, None), (10, 9, 4, None), (14, 12, 6, None), (9, 8, 4, 10), (13, 13, 3, None)]


def position(shape, seed, share=None):
    """A position of a random game of `shape`, not over: a random cut
    (or `share` of the way) through it."""
    game = play_random_game(Board(*shape), seed)
    moves = game.moves()
    cut = int(share * (len(moves) - 1)) if share is not None else random.Random(seed).randrange(len(moves))
    return Board.from_moves(moves[:cut], *shape)


def wins_in_one(board):
    return [col for col in board.legal_columns() if board.is_winning_move(col)]


def loses_in_one(board, col):
    """Whether playing `col` lets the opponent win on its next move."""
    board.play(col)
    try:
        return not board.is_over() and bool(wins_in_one(board))
    finally:
        board.undo()


@settings(max_examples=60)
@given(st.sampled_from(SHAPES), st.integers(0, 2**32))
def test_plays_legal_moves_takes_a_win_and_blocks_a_loss_in_one(shape, seed):
    board = position(shape, seed)
    before = board.moves()
    found = Mcts(seed=seed).search(board, Limits(nodes=600))
    assert board.moves() == before
    legal = board.legal_columns()
    assert found.move in legal and found.source == "mcts"
    if wins_in_one(board):
        assert board.is_winning_move(found.move) and found.proven and found.score == 1
    elif any(not loses_in_one(board, col) for col in legal):
        assert not loses_in_one(board, found.move)


@settings(max_examples=40)
@given(st.sampled_from([(4, 4, 3), (5, 4, 4), (5, 5, 4)]), st.integers(0, 2**32), st.floats(0.3, 0.9))
def test_proven_values_agree_with_the_exact_solver(shape, seed, share):
    board = position(shape, seed, share)
    solver = Solver(16)
    mcts = Mcts(arena_nodes=1 << 16, seed=seed)
    found = mcts.search(board, Limits(nodes=20000))
    truth = solver.solve(board, weak=True)
    assert mcts.root_proof in (None, truth)
    if mcts.root_proof is not None:
        assert found.proven and found.score == truth
        assert solver.solve(board.copy(), weak=True) == truth
        after = board.copy()
        after.play(found.move)
        assert (1 if after.is_over() and after.winner is not None else -solver.solve(after, weak=True)) == truth
    for col, _visits, _mean, proof in mcts.root_children():
        if proof is not None:
            after = board.copy()
            after.play(col)
            value = 1 if after.winner is not None else (0 if after.is_over() else -solver.solve(after, weak=True))
            assert proof == value, (board.moves(), col)


@settings(max_examples=80)
@given(st.sampled_from(SHAPES), st.integers(0, 2**32), st.floats(0.0, 1.0))
def test_a_move_leaving_a_win_in_one_is_proven_lost_when_the_root_is_expanded(shape, seed, share):
    # one simulation expands the root and nothing below it: every proof of
    # a root move is the expansion's own, checked against playing it out
    board = position(shape, seed, share)
    mcts = Mcts(seed=seed)
    mcts.search(board, Limits(nodes=1))
    for col, _visits, _mean, proof in mcts.root_children():
        if board.is_winning_move(col):
            assert proof == 1
        else:
            assert (proof == -1) == loses_in_one(board, col), (board.moves(), col)


def test_a_search_from_a_move_proven_lost_at_expansion_still_answers():
    # 7x6: the first player holds two open ends of three in a row, so every
    # move of the second loses at once; after one of them, the kept node was
    # proven at its parent's expansion and never expanded
    board = Board.from_moves([2, 2, 3, 3, 4])
    mcts = Mcts(seed=1)
    mcts.search(board, Limits(nodes=50))
    assert mcts.root_proof == -1
    board.play(0)
    found = mcts.search(board, Limits(nodes=50))
    assert board.is_winning_move(found.move) and found.proven and mcts.root_proof == 1


def test_stop_ends_a_search_in_another_thread_and_resume_lets_searches_run():
    board = Board(9, 8, 5)
    mcts = Mcts(seed=2)
    done = []
    thread = threading.Thread(target=lambda: done.append(mcts.search(board, Limits(time=600))))
    thread.start()
    time.sleep(0.05)
    mcts.stop()
    thread.join(timeout=10)
    assert not thread.is_alive() and done[0].move in board.legal_columns()
    # stopped, a search does the one simulation that gives it a move
    assert mcts.search(board, Limits(nodes=500)).nodes == 1
    mcts.resume()
    assert mcts.search(board, Limits(nodes=500)).nodes == 500


def test_proves_small_end_games_within_a_budget():
    # 4x4 c3 from eight stones on: the whole tree fits, every root is settled
    proven = 0
    for seed in range(30):
        board = position((4, 4, 3), seed, 0.6)
        if board.moves_played < 6:
            continue
        mcts = Mcts(arena_nodes=1 << 16, seed=seed)
        mcts.search(board, Limits(nodes=20000))
        assert mcts.root_proof == Solver(16).solve(board, weak=True)
        proven += 1
    assert proven >= 10


@settings(max_examples=30)
@given(st.sampled_from(SHAPES), st.integers(0, 2**32), st.integers(0, 60))
def test_a_tiny_arena_never_overflows(shape, seed, extra):
    board = position(shape, seed, 0.2)
    mcts = Mcts(arena_nodes=board.columns + 1 + extra, seed=seed)
    for _ in range(3):  # the kept subtrees too
        found = mcts.search(board, Limits(nodes=3000))
        assert mcts.nodes_used <= mcts.arena_nodes
        assert found.move in board.legal_columns()
        board.play(found.move)
        if board.is_over():
            break


def test_an_arena_too_small_for_the_root_and_no_limit_are_refused():
    with pytest.raises(ValueError, match="arena_nodes=5 cannot hold"):
        Mcts(arena_nodes=5).search(Board(9, 8, 5), Limits(nodes=10))
    with pytest.raises(ValueError, match="arena_nodes=1 is out of range"):
        Mcts(arena_nodes=1)
    with pytest.raises(ValueError, match="set time or nodes"):
        Mcts().search(Board(), Limits())
    over = Board.from_moves([0, 1, 0, 1, 0, 1, 0])
    with pytest.raises(ValueError, match="game is over"):
        Mcts().search(over, Limits(nodes=10))


@settings(max_examples=20)
@given(st.sampled_from(SHAPES), st.integers(0, 2**32))
def test_a_search_is_the_same_for_the_same_seed(shape, seed):
    board = position(shape, seed, 0.3)
    runs = []
    for _ in range(2):
        mcts = Mcts(seed=seed)
        first = mcts.search(board, Limits(nodes=400))
        runs.append((first.move, first.score, mcts.root_children()))
    assert runs[0] == runs[1]


def test_the_subtree_below_a_played_line_is_kept_and_stays_true():
    # along a 5x4 c4 game, each search starts from the last one's subtree;
    # whatever it proves agrees with the solver
    board = Board(5, 4, 4)
    mcts = Mcts(arena_nodes=1 << 18, seed=3)
    solver = Solver(18)
    kept = []
    rng = random.Random(5)
    while not board.is_over():
        found = mcts.search(board, Limits(nodes=3000))
        kept.append(mcts.nodes_kept)
        if mcts.root_proof is not None:
            assert mcts.root_proof == solver.solve(board, weak=True)
        board.play(found.move if rng.random() < 0.5 else rng.choice(board.legal_columns()))
    assert kept[0] == 0 and sum(k > 0 for k in kept[1:]) >= len(kept) // 2
    # another game's position starts a new tree
    mcts.search(Board.from_moves([4], 5, 4, 4), Limits(nodes=10))
    assert mcts.nodes_kept == 0


# one word, three, four (15x13, 16x14), and past 256 bits the Board's own rollout
WORD_SHAPES = SHAPES + WIDE_SHAPES + [(4, 4, 1, None), (5, 3, 2, None), (8, 7, 9, None), (15, 13, 5, None),
                                      (16, 14, 4, 30), (17, 15, 5, None)]


@settings(max_examples=120)
@given(st.sampled_from(WORD_SHAPES), st.integers(0, 2**32), st.integers(0, 2**63))
def test_the_mask_rollout_plays_the_board_rollout_s_game(shape, seed, rollout_seed):
    # the same policy from the same random numbers: the same winner, on every word type
    board = position(shape, seed)
    assert rollout_winner(board, rollout_seed, True) == rollout_winner(board, rollout_seed, False)
    assert board.moves() == position(shape, seed).moves()
