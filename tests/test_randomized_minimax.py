"""Randomized minimax against a plain-Python k-ply search on the reference
rules: it never plays a move that loses within k plies when another move
does not, it takes a win in one, and it picks uniformly among equals."""
import copy
import random
from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from reference_rules import ReferenceGame

from clinea.core import Board
from clinea.core.lookahead import DRAW, LOSS, UNKNOWN, WIN, RandomizedMinimax
from clinea.players.randomized_minimax_player import RandomizedMinimaxBot


def after(game: ReferenceGame, col: int) -> ReferenceGame:
    game = copy.deepcopy(game)
    game.play(col)
    return game


def opponent_forces_win(game: ReferenceGame, plies: int) -> bool:
    """With the opponent of the player who just moved to move on `game`, can
    it force a win within `plies` plies?"""
    if plies <= 0 or game.over():
        return False
    for col in game.legal():
        reply = after(game, col)
        if reply.winner is not None:
            return True
        if reply.over() or plies < 3:
            continue
        # every answer of ours must still leave it a forced win
        if all(not answered.over() and opponent_forces_win(answered, plies - 2)
               for answered in (after(reply, ours) for ours in reply.legal())):
            return True
    return False


def loses_within(game: ReferenceGame, col: int, k: int) -> bool:
    """Playing `col` (ply 1) lets the opponent force a win by ply k."""
    return opponent_forces_win(after(game, col), k - 1)


@st.composite
def games_with_moves(draw):
    """A random game prefix deep enough for tactics (threats arise after a
    third of the board or so), on boards the plain search finishes quickly."""
    columns = draw(st.integers(3, 6))
    rows = draw(st.integers(3, 5))
    c = draw(st.integers(3, 4))
    p = draw(st.integers(columns * rows // 3, (columns * rows + 1) // 2))
    game = ReferenceGame(columns, rows, c, p)
    moves = []
    count = draw(st.integers(columns * rows // 4, 2 * columns * rows // 3))
    # hypothesis's integer lists lean to zeros (stacks in column 0); a seeded
    # generator spreads the stones the way games do
    rng = random.Random(draw(st.integers(0, 2 ** 32)))
    for _ in range(count):
        if game.over():
            break
        moves.append(rng.choice(game.legal()))
        game.play(moves[-1])
    return game, moves


@settings(max_examples=100)
@given(games_with_moves(), st.integers(1, 4), st.integers(0, 2 ** 32))
def test_never_plays_a_move_that_loses_within_k_when_another_does_not(position, k, seed):
    game, moves = position
    assume(not game.over())
    board = Board.from_moves(moves, game.columns, game.rows, game.c, game.p)
    col = RandomizedMinimaxBot(k, seed).choose(board)
    assert board.moves() == moves
    assert col in game.legal()
    losing = {m for m in game.legal() if loses_within(game, m, k)}
    if losing != set(game.legal()):
        assert col not in losing
    wins_now = [m for m in game.legal() if after(game, m).winner is not None]
    if wins_now:
        assert col in wins_now


@settings(max_examples=40)
@given(games_with_moves(), st.integers(1, 3))
def test_values_agree_with_the_plain_search_on_losses(position, k):
    game, moves = position
    assume(not game.over())
    board = Board.from_moves(moves, game.columns, game.rows, game.c, game.p)
    values = RandomizedMinimax(k, 1).values(board)
    for col, value in values.items():
        assert (value == LOSS) == loses_within(game, col, k)
        assert value in (LOSS, UNKNOWN, DRAW) or value >= WIN


def test_prefers_a_sure_draw_over_an_open_game():
    # 2x2, c=3: nobody can win; with p=1 the second player's move ends the game drawn
    board = Board.from_moves([0], 2, 2, 3, 1)
    assert set(RandomizedMinimax(1, 3).values(board).values()) == {DRAW}
    # 4x4, c=4, p=3: the second player's last token cannot make four, so
    # every move of the first player's last token ends the game drawn...
    board = Board.from_moves([0, 1, 0, 1], 4, 4, 4, 3)
    assert set(RandomizedMinimax(2, 3).values(board).values()) == {DRAW}
    # with more tokens left the same position is open: nothing is sure in 2 plies
    board = Board.from_moves([0, 1, 0, 1], 4, 4, 4, 8)
    assert set(RandomizedMinimax(2, 3).values(board).values()) == {UNKNOWN}


def test_chooses_uniformly_among_equal_moves():
    # from the empty 7x6 board nothing is decided within 2 plies: every column is equal
    bot = RandomizedMinimax(2, 12345)
    counts = Counter(bot.choose(Board()) for _ in range(3500))
    assert set(counts) == set(range(7))
    # 500 expected per column; a loose bound (about 5 standard deviations)
    assert all(400 <= n <= 600 for n in counts.values())


def test_seed_makes_games_repeatable():
    def game(seed):
        a, b = RandomizedMinimaxBot(3, seed), RandomizedMinimaxBot(3, seed + 1)
        board = Board()
        while not board.is_over():
            board.play((a if board.side_to_move == 0 else b).choose(board))
        return board.moves()
    assert game(7) == game(7)
    assert game(7) != game(8)
