"""`clinea export kaggle`: the written file is a ConnectX agent Kaggle's
environment runs from its path, it imports nothing of clinea (nor anything
compiled), and the alphabeta one plays exactly clinea's alphabeta moves."""
import ast
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kaggle_environments import evaluate

from clinea.core import Board
from clinea.core.solver import Solver
from clinea.integrations.kaggle_agent_alphabeta import agent as alphabeta_agent
from clinea.integrations.kaggle_player import KaggleAgentBot
from clinea.players.alphabeta_player import AlphabetaBot

# the standard library modules an exported file may import (typing and
# __future__ for its annotations: type checkers read them, Kaggle ignores them)
PURE = {"random", "typing", "__future__"}


def export(tmp_path, name, *extra):
    return subprocess.run([sys.executable, "-m", "clinea", "export", "kaggle", name, "-o", "main.py", *extra],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)


@pytest.mark.parametrize("name", ["random", "alphabeta"])
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
    if name == "alphabeta":  # exact, first on a board the first player wins: it wins every game
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
    assert result.stderr == ("clinea export: 'strong' cannot be exported as pure Python: allowed random, alphabeta "
                             "(the others need the compiled core)\n")
    (tmp_path / "main.py").write_text("mine")
    assert export(tmp_path, "random").returncode == 2 and (tmp_path / "main.py").read_text() == "mine"
