"""Game analysis: marks checked against the plain reference negamax on
small boards, the notation conversion, and `clinea analyze` end to end on
a real results file of `clinea judge`."""
import functools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinea.arena.analysis import analyse, outcome, solver_notation
from clinea.core import Board
from clinea.core.solver import Solver
from clinea.solving.reference_solver import ReferenceSolver

REPO = Path(__file__).resolve().parents[1]


def random_game(columns, rows, c, p, seed):
    rng = random.Random(seed)
    board = Board(columns, rows, c, p)
    while not board.is_over():
        board.play(rng.choice(board.legal_columns()))
    return board.moves()


def reference_value(reference: ReferenceSolver, moves) -> int:
    """The value for the side to move after `moves`, a finished game
    scoring as the loss it is for the side to move (as the solver does)."""
    board = Board.from_moves(moves, reference.columns, reference.rows, reference.c, (reference.max_moves + 1) // 2)
    if board.winner is not None:
        # the winner's last stone came after len(moves) - 1 others
        return -((reference.max_moves + 2 - len(moves)) // 2)
    if board.is_over():
        return 0
    return reference.solve(tuple(moves))


@functools.cache
def reference_for(size) -> ReferenceSolver:
    """One per size, so its memo serves every example."""
    return ReferenceSolver(*size)


@given(st.sampled_from([(4, 4, 3, 8), (4, 3, 3, 6), (5, 3, 3, 5), (3, 4, 3, 4)]), st.integers(0, 10**6),
       st.booleans())
@settings(max_examples=40)
def test_every_mark_is_the_reference_value_and_lost_results_follow(size, seed, weak):
    moves = random_game(*size, seed)
    game = analyse(size, moves, Solver(16), time_limit=0, weak=weak)
    reference = reference_for(size)
    values = [reference_value(reference, moves[:ply]) for ply in range(len(moves) + 1)]
    if weak:
        values = [(v > 0) - (v < 0) for v in values]
    for ply, mark in enumerate(game.marks):
        assert (mark.ply, mark.player, mark.column) == (ply + 1, ply % 2, moves[ply])
        assert (mark.before, mark.after) == (values[ply], -values[ply + 1])
        expected_loss = {("win", "draw"): "win", ("win", "loss"): "win", ("draw", "loss"): "draw"}.get(
            (outcome(mark.before), outcome(mark.after)))
        assert mark.lost == expected_loss and mark.kept == (expected_loss is None)
    # decided: the first position from which the first player's result never changes again
    first = [outcome(v if ply % 2 == 0 else -v) for ply, v in enumerate(values)]
    assert all(result == first[-1] for result in first[game.decided_at:])
    assert game.decided_at == 0 or first[game.decided_at - 1] != first[-1]
    for player in (0, 1):
        kept, judged = game.kept_counts(player)
        assert judged == len(moves[player::2]) and kept == sum(m.kept for m in game.marks if m.player == player)


def test_unsolved_positions_are_unknown_not_judged():
    moves = random_game(9, 8, 5, 36, seed=3)
    game = analyse((9, 8, 5, 36), moves, Solver(16), time_limit=0.0005)
    assert game.marks[0].before is None and game.marks[0].kept is None
    assert game.first_player_values[-1] is not None  # the end is always known


@given(st.integers(1, 14), st.lists(st.integers(0, 10**6), max_size=30))
def test_notation_is_the_solvers_one_based_moves(columns, choices):
    board = Board(columns, 4, 99)
    for choice in choices:
        if board.is_over():
            break
        board.play(board.legal_columns()[choice % len(board.legal_columns())])
    text = solver_notation(board.moves(), columns, 4, 99, board.p)
    assert Board.from_string(text, columns, 4, 99).moves() == board.moves()
    assert text == "".join(str(col + 1) for col in board.moves()) if columns <= 9 else "," in text or len(
        board.moves()) <= 1


def test_the_standard_notation_of_a_known_game():
    assert solver_notation([3, 3, 4, 2], 7, 6, 4, 21) == "4453"
    assert solver_notation([9, 0], 10, 6, 4, 30) == "10,1"


def run(*argv, cwd):
    return subprocess.run([sys.executable, "-m", "clinea", *argv], capture_output=True, text=True, timeout=240,
                          cwd=cwd)


def test_analyze_a_judge_results_file_end_to_end(tmp_path):
    judged = run("judge", "--player", "strong --time-per-move 0.05", "--player", "greedy", "--iterations", "2",
                 "--columns", "5", "--rows", "4", "--c", "3", "--p", "10", "--results", "r.jsonl", "--quiet",
                 cwd=tmp_path)
    assert judged.returncode == 0, judged.stderr
    analysed = run("analyze", "r.jsonl", "--jsonl", "a.jsonl", "--plot", "a.png", "--quiet", cwd=tmp_path)
    assert analysed.returncode == 0, analysed.stderr
    records = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()[1:]]
    games = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert [g["id"] for g in games] == [r["id"] for r in records]
    for record, game in zip(records, games):
        assert game["moves"] == record["moves"]
        assert game["notation"] == "".join(str(col + 1) for col in record["moves"])
        expected = analyse((5, 4, 3, 10), record["moves"], Solver(16), time_limit=0)
        assert [(m["before"], m["after"], m["lost"]) for m in game["marks"]] == [
            (m.before, m.after, m.lost) for m in expected.marks]
        assert f"game {record['id']}:" in analysed.stdout
        # strong solves 5x4 outright: it never throws anything away
        strong = record["players"].index("strong")
        assert all(m["kept"] for m in game["marks"] if m["player"] == strong)
    assert (tmp_path / "a.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "moves that kept the value: " in analysed.stdout.splitlines()[-1]


def test_analyze_a_move_string_on_standard_7x6(tmp_path):
    result = run("analyze", "4453326", "--quiet", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("game 4453326: 7x6 c=4 p=21")
    # 4 4 5: the first player's third move (column 5) throws the win away
    assert "threw away a win" in lines[2 + 2]


def test_the_table_numbers_columns_from_0_as_the_results_file_prompt_and_window_do(tmp_path):
    # the move string is the solver's 1-based notation; the table is the judge's 0-based columns
    result = run("analyze", "4453326", "--quiet", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    header, *rows = result.stdout.splitlines()[1:9]
    assert header.split()[:3] == ["ply", "player", "col"]
    assert [int(row.split()[2]) for row in rows] == [3, 3, 4, 2, 2, 1, 5]


@pytest.mark.parametrize("content, message", [
    ("4453329", "move 7: column 9 is out of range: allowed 1..7"),
    ("file:{\"type\":\"run\",\"argv\":[]}\n{\"id\":1,\"moves\":[1]}\n", "game 1: not a judge record: a game record without"),
    ("file:{\"type\":\"run\",\"argv\":[]}\n" + json.dumps(dict(
        id="g", columns=3, rows=2, c=3, p=3, players=["a", "b"], colours=["azul", "rojo"], opening=[],
        moves=[0, 0, 0], times=[0, 0, 0], winner=None, reason="draw", forfeit=None, extra="ignored")) + "\n",
     "game g: move 3: column 0 is full"),
    ("file:{\"type\":\"run\",\"argv\":[]}\nnot json\n", "clinea analyze: "),
    ("file:{\"type\":\"run\",\"argv\":[]}\n" + "[" * 100_000 + "\n", "nested deeper than can be read"),
    ("file:{\"type\":\"run\",\"argv\":[]}\n" + " " * (5 << 20) + "\n", "bad.jsonl: line 2 is longer than 4 MiB"),
])
def test_bad_input_exits_2_with_one_line(tmp_path, content, message):
    argument = content
    if content.startswith("file:"):
        (tmp_path / "bad.jsonl").write_text(content[len("file:"):])
        argument = "bad.jsonl"
    result = run("analyze", argument, "--quiet", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr
