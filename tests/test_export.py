"""`clinea export kaggle`: the written file is a ConnectX agent Kaggle's
environment runs from its path, it imports nothing of clinea (nor anything
compiled), the alphabeta one plays exactly clinea's alphabeta moves, and
`--check` plays a file in Kaggle's environment without clinea and reports
what went wrong."""
import ast
import random
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kaggle_environments import evaluate

from clinea.bridges.kaggle_agent_alphabeta import agent as alphabeta_agent
from clinea.bridges.kaggle_player import KaggleAgentBot
from clinea.core import Board
from clinea.core.solver import Solver
from clinea.players.alphabeta_player import AlphabetaBot

# the standard library modules an exported file may import (typing and
# __future__ for its annotations: type checkers read them, Kaggle ignores them)
PURE = {"random", "time", "zlib", "base64", "sys", "array", "bisect", "typing", "collections.abc", "__future__"}


def export(tmp_path, *arguments):
    return subprocess.run([sys.executable, "-m", "clinea", "export", "kaggle", *arguments, "-o", "main.py"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)


@pytest.mark.parametrize("name", ["best", "random", "alphabeta"])
def test_the_file_runs_in_kaggle_from_its_path_and_imports_nothing_else(tmp_path, name):
    assert export(tmp_path, name).returncode == 0
    source = (tmp_path / "main.py").read_text()
    imported = {alias.name for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)}
    assert imported <= PURE
    configuration = {"rows": 4, "columns": 5, "inarow": 3}
    rewards = evaluate("connectx", [str(tmp_path / "main.py"), "random"], configuration=configuration,
                       num_episodes=2)
    assert all(sorted(r) in ([-1, 1], [0, 0]) for r in rewards)
    if name in ("alphabeta", "best"):  # exact, first on a board the first player wins: it wins every game
        assert Solver().solve(Board(5, 4, 3), weak=True) == 1 and rewards == [[1, -1], [1, -1]]


@given(st.sampled_from([(5, 4, 3), (4, 4, 3), (4, 3, 3), (3, 3, 2), (6, 5, 4), (7, 6, 4)]),
       st.integers(0, 10**6))
@settings(max_examples=25)
def test_exported_alphabeta_plays_clinea_alphabetas_moves(size, seed):
    """Checked from every position of a random game that is near enough
    its end for pure Python (6x5 from 16 stones on, 7x6 from 28)."""
    start = {(6, 5, 4): 16, (7, 6, 4): 28}.get(size, 0)
    rng = random.Random(seed)
    exported, clinea = KaggleAgentBot(alphabeta_agent), AlphabetaBot(16)
    board = Board(*size)
    while not board.is_over():
        if board.moves_played >= start:
            assert exported.choose(board.copy()) == clinea.choose(board.copy()), board.to_string()
        board.play(rng.choice(board.legal_columns()))


def test_players_on_the_compiled_core_are_refused_with_the_choices(tmp_path):
    result = export(tmp_path, "strong")
    assert result.returncode == 2 and not (tmp_path / "main.py").exists()
    assert result.stderr == ("clinea export: 'strong' cannot be exported as pure Python: allowed best, random, "
                             "alphabeta (the others need the compiled core)\n")
    (tmp_path / "main.py").write_text("mine")
    assert export(tmp_path, "random").returncode == 2 and (tmp_path / "main.py").read_text() == "mine"


def check(tmp_path, *arguments):
    return subprocess.run([sys.executable, "-m", "clinea", "export", "kaggle", "--check", "main.py", *arguments],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path)


def test_the_default_export_passes_its_check_in_kaggle_s_environment_on_7x6_and_a_small_board(tmp_path):
    assert export(tmp_path).returncode == 0
    source = (tmp_path / "main.py").read_text()
    assert "BOOK_PLIES = 0" not in source and len(source) < 1 << 20
    result = check(tmp_path, "--board", "7x6x4", "--board", "5x4x3", "--opponent", "random")
    assert result.returncode == 0, result.stdout + result.stderr
    figures = re.search(r"episodes (\d+), errors (\d+), timeouts (\d+), moves (\d+), median move ([\d.]+) s, "
                        r"slowest move ([\d.]+) s", result.stdout)
    # no move past ConnectX's own clock (its timeouts); how fast is the benchmark's to print, not asserted here
    assert figures and figures.group(1, 2, 3) == ("4", "0", "0") and int(figures.group(4)) > 4
    assert float(figures.group(5)) <= float(figures.group(6))
    tallies = re.findall(r"^(\d+x\d+) inarow \d+ +vs random +(first|second)\s*: W (\d+) D (\d+) L (\d+)$",
                         result.stdout, re.M)
    assert sorted((board, seat) for board, seat, *_ in tallies) == [
        ("5x4", "first"), ("5x4", "second"), ("7x6", "first"), ("7x6", "second")]
    # moving first on boards the first player wins, against random: won
    assert all(wins == "1" for board, seat, wins, *_ in tallies if seat == "first")


def test_the_check_reports_a_file_that_needs_clinea_as_an_error_in_every_game(tmp_path):
    """A file that imports clinea fails in the clean interpreter as on
    Kaggle, though clinea is installed where the check runs."""
    (tmp_path / "main.py").write_text("import clinea\n\ndef agent(observation, configuration):\n    return 0\n")
    result = check(tmp_path, "--board", "4x4x3", "--opponent", "random")
    assert result.returncode == 1, result.stdout + result.stderr
    assert re.search(r"^episodes 2, errors 2, timeouts 0", result.stdout, re.M)
    assert "stderr (ERROR)" in result.stdout and "clinea" in result.stdout.split("stderr (ERROR)", 1)[1]
