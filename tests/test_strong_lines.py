"""strong's stored lines on 7x6: every stored move keeps the value the
solver gives the position, the builder keeps strong's own moves and the hard
proofs of its lines, and strong plays a stored move without a search."""
import random
import threading

import pytest

from clinea.core import Board
from clinea.core.solver import Solver
from clinea.players.strong_lines import LINES_FILE, StrongLines, build, roots
from clinea.players.strong_player import StrongBot

SOLVER = Solver(22)


def keeps(board: Board, move: int, value: int) -> bool:
    """Whether `move` keeps at least `value` (1 win, 0 draw) for the side to move, by the solver."""
    if board.is_winning_move(move):
        return True
    board.play(move)
    try:
        return -SOLVER.solve(board, weak=True) >= value
    finally:
        board.undo()


def value_keeping_replies(board: Board, ours: int) -> list[int]:
    """The opponent's replies that keep `ours`, strong's value: in a draw,
    the drawing ones; in a win, those that lose slowest."""
    scores = {}
    for col in board.legal_columns():
        board.play(col)
        if not board.is_over():
            scores[col] = SOLVER.solve(board, weak=ours == 0)
        board.undo()
    if not scores:
        return []
    keep = 0 if ours == 0 else min(scores.values())
    return [col for col, score in scores.items() if score == keep]


def walk(lines: StrongLines, opening: list[int], strong_first: bool, rng: random.Random):
    """A game from `opening`: strong plays the stored move where there is one
    and its own proven move elsewhere, the opponent a random reply keeping
    strong's value. Yields each position with a stored move."""
    board = Board.from_moves(opening)
    strong = 0 if strong_first else 1
    ours = None
    while not board.is_over() and board.moves_played < 22:
        if board.side_to_move == strong:
            stored = lines.lookup(board)
            if stored is not None:
                yield board.copy(), stored
                move, ours = stored
            else:
                move, ours = SOLVER.play_value(board, weak=True)
            if ours < 0:
                return
        else:
            if ours is None:  # strong moves second: its value is the opening's, negated
                ours = -SOLVER.solve(board, weak=True)
            replies = value_keeping_replies(board, ours)
            if not replies:
                return
            move = rng.choice(replies)
        board.play(move)


def test_the_shipped_lines_keep_the_value_along_strongs_drawn_lines():
    lines = StrongLines.load()
    assert len(lines) > 1000, f"{LINES_FILE} is missing or nearly empty: run make lines"
    rng = random.Random(7)
    checked = 0
    for opening, strong_first in rng.sample(roots(), 6):
        for board, (move, value) in walk(lines, opening, strong_first, rng):
            assert SOLVER.solve(board, weak=True) == value, board.moves()
            assert keeps(board, move, value), board.moves()
            checked += 1
    assert checked >= 6  # the walks reach stored positions: they are strong's lines


def test_the_builder_keeps_strongs_moves_and_the_hard_proofs_with_moves_that_keep_their_value(tmp_path):
    # a drawn line of opening 4 1 two moves before the book's ply, strong to
    # move: a proof at 12 stones there takes up to 3.4 M nodes
    start = [4, 1, 3, 5, 1, 3, 3, 3, 3, 4]
    kept = build(max_stones=13, min_nodes=100_000, starts=[(start, True)], show_progress=False)
    # what is saved is what is loaded
    StrongLines.of(kept).save(str(tmp_path / "lines.bin"))
    lines = StrongLines.load(str(tmp_path / "lines.bin"))
    assert len(lines) == len(kept)
    # the stored positions the walks along the lines reach: the moves before
    # the book's ply are strong's exact ones, past it the draws kept are hard
    found = {}
    rng = random.Random(1)
    for _ in range(4):
        for board, stored in walk(lines, start, True, rng):
            found[board.key()] = (board, stored)
    assert any(board.moves_played >= 12 for board, _ in found.values())
    cold = Solver(22)
    for board, (move, value) in found.values():
        assert SOLVER.solve(board, weak=True) == value
        assert keeps(board, move, value)
        if board.moves_played < 12:
            assert move == SOLVER.play_value(board)[0]
        elif value == 0:
            cold.reset()
            cold.play_value(board, weak=True)
            assert cold.nodes > 100_000


def test_strong_plays_a_stored_move_without_searching():
    lines = StrongLines.load()
    rng = random.Random(3)
    board, (move, value) = next(walk(lines, [4, 1], True, rng))
    bot = StrongBot(time_per_move=3600.0, max_nodes=1, ponder=False)  # no budget for any proof
    bot.new_game(board.copy(), board.side_to_move)
    assert bot.choose(board.copy()) == move
    assert bot.last.proven and bot.last.score == value
    assert bot.kept == (board.moves() + [move], value)


class HeldSolver:
    """strong's solver with its set-up (the book, the tables) held back
    until released: the first moves of a fresh process on a busy machine."""

    def __init__(self, solver: Solver):
        self.solver, self.release = solver, threading.Event()

    def prepare(self, board: Board) -> None:
        self.release.wait()
        self.solver.prepare(board)

    def __getattr__(self, name: str):
        return getattr(self.solver, name)


@pytest.mark.parametrize("opening", [moves for moves, _ in roots() if len(moves) < 2])
def test_the_first_moves_come_from_the_lines_before_the_solver_is_set_up(opening):
    # a fresh strong at 0.05 s a move, first on the empty board, played its
    # alpha-beta search's column 2 (a draw) there before its book was loaded;
    # the quick move's centre gives the win up after the openings 1 and 5
    board = Board.from_moves(opening)
    bot = StrongBot(time_per_move=0.05, ponder=False)
    held = HeldSolver(bot.solver)
    bot.solver = held
    try:
        bot.new_game(board.copy(), board.side_to_move)
        move = bot.choose(board.copy())
        assert not bot.ready(0), "the solver's set-up was held back"
    finally:
        held.release.set()
        bot.ready()
    value = SOLVER.solve(board, weak=True)
    assert bot.last.proven and bot.last.score == value, (opening, bot.last)
    assert keeps(board, move, value), (opening, move)


def test_a_file_of_something_else_is_refused_with_its_name(tmp_path):
    path = tmp_path / "lines.bin"
    for content in (b"not lines", StrongLines.MAGIC + bytes(15)):  # no header; not whole entries
        path.write_bytes(content)
        with pytest.raises(ValueError, match="lines.bin: not a file of strong's lines"):
            StrongLines.load(str(path))


@pytest.mark.parametrize("size", [(9, 8, 5, 36), (7, 6, 4, 10), (6, 7, 4, 21)])
def test_only_the_standard_game_is_looked_up(size):
    lines = StrongLines.load()
    columns, rows, c, p = size
    assert lines.lookup(Board(columns, rows, c, p)) is None


def test_a_file_past_the_bound_is_refused_before_it_is_read_whole(tmp_path):
    path = tmp_path / "lines.bin"
    with open(path, "wb") as file:
        file.write(StrongLines.MAGIC)
        file.truncate(65 << 20)  # sparse: 65 MiB, nearly none of it on disk
    with pytest.raises(ValueError, match=f"{path}: larger than 64 MiB"):
        StrongLines.load(str(path))
