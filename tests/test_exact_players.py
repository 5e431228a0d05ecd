"""minimax and alphabeta: the same exact values (one without pruning, one
with), the same moves, moves that keep the game's value, and --verbose."""
import subprocess
from pathlib import Path

import pytest
from pons import pons_lines, sign

from clinea.core import Board
from clinea.core.minimax import minimax_analyze, minimax_value
from clinea.core.solver import Solver
from clinea.players.alphabeta_player import AlphabetaBot
from clinea.players.minimax_player import MinimaxBot
from clinea.solving.reference_solver import ReferenceSolver

PLAYERS_DIR = Path(__file__).resolve().parents[1] / "players"


@pytest.mark.parametrize("game, limit", [
    ((4, 4, 3, 4), None),
    ((3, 4, 3, None), None),
    ((4, 4, 3, None), None),
    ((5, 4, 4, 5), 3000),
])
def test_minimax_and_alphabeta_agree_with_the_reference(game, limit):
    reference = ReferenceSolver(*game)
    minimax, alphabeta = MinimaxBot(), AlphabetaBot(14)
    solver = Solver(14)
    for moves in reference.reachable(limit=limit):
        board = Board.from_moves(moves, *game)
        value, nodes = minimax_value(board)
        assert value == sign(reference.solve(moves)), moves
        assert solver.solve(board, weak=True) == value, moves
        values, _ = minimax_analyze(board)
        assert values == alphabeta.solver.analyze(board, weak=True), moves
        col = minimax.choose(board)
        assert alphabeta.choose(board) == col, moves
        assert values[col] == value
        assert board.moves() == moves  # the caller's board is left as it was


def test_finished_positions():
    won = Board.from_moves([0, 1, 0, 1, 0], 4, 4, 3)
    assert minimax_value(won)[0] == -1
    assert minimax_analyze(won)[0] == [None] * 4
    assert minimax_value(Board.from_moves([0, 1], 4, 4, 3, 1))[0] == 0


def test_exact_players_keep_the_sign_of_standard_positions():
    minimax, alphabeta = MinimaxBot(), AlphabetaBot(18)
    solver = Solver(18)
    checked = 0
    for moves, score in pons_lines("Test_L3_R1")[:300]:
        board = Board.from_string(moves)
        col = alphabeta.choose(board)
        if board.is_winning_move(col):
            assert score > 0
        else:
            board.play(col)
            assert sign(-solver.solve(board)) == sign(score), moves
            board.undo()
        if board.moves_played >= 36:  # few enough moves left for full-width minimax
            assert minimax.choose(board) == col
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("name", ["minimax", "alphabeta"])
def test_verbose_reports_nodes_on_stderr(name):
    result = subprocess.run([str(PLAYERS_DIR / name), "--verbose"], input="azul rojo\n4 4 3 4\nvos\nsalir\n",
                            capture_output=True, text=True, timeout=60)
    assert result.stdout.splitlines()[0] in {"0", "1", "2", "3"}
    assert "nodes" in result.stderr and name in result.stderr


@pytest.mark.parametrize("name,size", [
    ("minimax", (5, 4, 3, 10)),     # full-width minimax: minutes for the first move
    ("minimax", (7, 6, 4, 6)),      # the token limit does not shrink the tree enough
    ("alphabeta", (9, 8, 5, 36)),   # no opening book, a huge tree
])
def test_an_exact_player_out_of_its_depth_says_so_at_the_start_and_answers_in_time(tmp_path, name, size):
    from judge_helpers import run_judge, transcript
    columns, rows, c, p = size
    done = run_judge(["--blue_player", str(PLAYERS_DIR / name), "time-per-move=0.2",
                      "--red_player", str(PLAYERS_DIR / "random"), "seed=1",
                      "--columns", str(columns), "--rows", str(rows), "--c", str(c), "--p", str(p),
                      "--first", "azul", "--iterations", "1", "--time-per-move", "3", "--quiet",
                      "--log-dir", str(tmp_path)], timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr  # no forfeit: every answer came in time
    lines = transcript(tmp_path, "azul")
    said = [i for i, line in enumerate(lines) if "cannot finish on this board" in line]
    assert len(said) == 1 and f"({columns}x{rows}, c {c}, p {p})" in lines[said[0]]
    # this wording is the first move's (stderr and stdout reach the transcript
    # through different pipes, so their order there proves nothing), and it is
    # said once: not the mid-game wording again later
    assert not any("does not finish within" in line for line in lines)


@pytest.mark.parametrize("bot", [AlphabetaBot, MinimaxBot], ids=["alphabeta", "minimax"])
@pytest.mark.parametrize("columns, rows, c, p", [(7, 6, 8, 21), (9, 8, 10, 36), (7, 6, 4, 3)])
def test_where_no_line_can_be_made_the_exact_players_know_the_draw_without_searching(bot, columns, rows, c, p):
    """c longer than both sides of the board, or more than a player's
    tokens: every game is a draw, which the players know at once, even
    with a budget no exact search of these boards fits in."""
    player = bot(time_per_move=0.01)
    board = Board(columns, rows, c=c, p=p)
    player.new_game(board, 0)
    while not board.is_over():
        column = player.choose(board)
        assert board.can_play(column)
        assert not player.warned, "it searched as if a line could be made"
        board.play(column)
    assert board.winner is None
