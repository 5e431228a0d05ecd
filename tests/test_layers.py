"""The layers import downwards only: the core knows no player, the players
no judge, the judge no training and no bridge. A module that reaches up
(as players/program_bot.py once imported the judge's seat) fails here,
whether the import is at the top of the file or inside a function."""
from __future__ import annotations

import ast
import glob
import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# folder -> the clinea packages and modules it may import (besides itself)
ALLOWED = {
    "core": {"clinea.core", "clinea.bounded"},
    "players": {"clinea.core", "clinea.players", "clinea.protocol", "clinea.bounded", "clinea.progress",
                # `clinea play --list` names the extra a missing player needs
                "clinea.bridges.install_command"},
    "judge": {"clinea.core", "clinea.players", "clinea.judge", "clinea.protocol", "clinea.bounded",
              "clinea.progress", "clinea.ray_cluster", "clinea.bridges.engine",
              # `clinea judge --view` writes the replay page at the end of a run
              "clinea.arena.view"},
}


def imported_names(path: str) -> list[tuple[int, str]]:
    """(line, dotted name) of every clinea import in a Python or Cython file;
    Cython's own cimports included, its declarations skipped."""
    with open(path, encoding="utf-8") as source:
        text = source.read()
    found = []
    if path.endswith(".py"):
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
            elif isinstance(node, ast.Import):
                found += [(node.lineno, alias.name) for alias in node.names]
        return [(line, name) for line, name in found if name.startswith("clinea")]
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if len(words) >= 2 and words[0] in ("from", "import", "cimport") and words[1].startswith("clinea"):
            found.append((number, words[1] + ("." + words[3].rstrip(",") if len(words) > 3 else "")))
    return found


def allowed(name: str, folder: str) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in ALLOWED[folder])


@pytest.mark.parametrize("folder", sorted(ALLOWED))
def test_a_layer_imports_only_what_is_below_it(folder):
    files = glob.glob(os.path.join(REPO, folder, "*.py")) + glob.glob(os.path.join(REPO, folder, "*.pyx"))
    assert files
    upward = [f"{os.path.relpath(path, REPO)}:{line}: {name}"
              for path in sorted(files) for line, name in imported_names(path) if not allowed(name, folder)]
    assert upward == []


def test_the_check_sees_an_upward_import(tmp_path):
    """The rule catches what it is for: an import inside a function too."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from clinea.judge.referee import referee\n    return referee\n")
    assert imported_names(str(bad)) == [(2, "clinea.judge.referee.referee")]
    assert not allowed("clinea.judge.referee.referee", "players")
