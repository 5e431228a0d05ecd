"""The rooms import downwards only: the core knows no player, the players
no judge, the judge no feature, and the features (solving, arena, bridges)
stand on the rest without leaning on each other's sides. A module that
reaches up (as players/program_bot.py once imported the judge's seat, or
the judge imported the replay page) fails here, whether the import is at
the top of the file or inside a function."""
from __future__ import annotations

import ast
import glob
import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: room -> the checkout's files in it (globs) and the import names it answers to
ROOMS = {
    # the base every room stands on: bounded reads, progress bars, the Ray connection
    "base": (["clinea/bounded.py", "clinea/progress.py", "clinea/ray_cluster.py"],
             {"clinea.bounded", "clinea.progress", "clinea.ray_cluster", "clinea.__version__"}),
    "core": (["core/*.py", "core/*.pyx"], {"clinea.core"}),
    "protocol": (["clinea/protocol.py"], {"clinea.protocol"}),
    "players": (["players/*.py"], {"clinea.players"}),
    "judge": (["judge/*.py"], {"clinea.judge"}),
    "training": (["training/*.py"], {"clinea.training"}),
    "solving": (["solving/*.py"], {"clinea.solving"}),
    "arena": (["arena/*.py", "arena/*/*.py"], {"clinea.arena"}),
    "bridges": (["bridges/*.py"], {"clinea.bridges"}),
    "serve": (["serve/*.py"], {"clinea.serve"}),
    # the commands compose the rooms; nothing imports them (a folder's
    # __main__ is `python -m` of its command)
    "commands": (["clinea/__init__.py", "clinea/__main__.py", "clinea/main.py", "clinea/match.py",
                  "clinea/newbot.py", "clinea/_moved.py", "*/__main__.py"],
                 {"clinea.main", "clinea.match", "clinea.newbot", "clinea._moved"}),
}
#: room -> the rooms below it that it may import (besides itself)
BELOW = {
    "base": set(),
    "core": {"base"},
    "protocol": {"core"},
    "players": {"base", "core", "protocol"},
    "judge": {"base", "core", "protocol", "players"},
    "training": {"base", "core", "protocol", "players", "judge"},
    # the solved tables cut their boards into Ray tasks with training's chunks
    "solving": {"base", "core", "players", "training"},
    # the analysis replays the judge's results with the solver
    "arena": {"base", "core", "protocol", "players", "judge", "solving"},
    "bridges": {"base", "core", "protocol", "players", "judge"},
    # the course's web service runs the arena's league games and replay page
    "serve": {"base", "core", "protocol", "players", "judge", "arena"},
    "commands": set(ROOMS) - {"commands"},
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


def room_of_name(name: str) -> str | None:
    """The room an imported dotted name is in (the longest package that holds it)."""
    holders = [(len(package), room) for room, (_, packages) in ROOMS.items() for package in packages
               if name == package or name.startswith(package + ".")]
    return max(holders)[1] if holders else None


def files_of(room: str) -> set[str]:
    globs, _ = ROOMS[room]
    found = {os.path.relpath(path, REPO) for pattern in globs for path in glob.glob(os.path.join(REPO, pattern))}
    if room != "commands":
        found -= files_of("commands")
    return found


def allowed(name: str, room: str) -> bool:
    return room_of_name(name) in BELOW[room] | {room}


@pytest.mark.parametrize("room", sorted(ROOMS))
def test_a_room_imports_only_what_is_below_it(room):
    files = files_of(room)
    assert files
    upward = [f"{path}:{line}: {name}" for path in sorted(files)
              for line, name in imported_names(os.path.join(REPO, path)) if not allowed(name, room)]
    assert upward == []


def test_every_module_of_the_package_is_in_a_room():
    """A module in a new folder, or new at the root, gets a place in the
    rules here before it can hide from them."""
    with open(os.path.join(REPO, "setup.py"), encoding="utf-8") as source:
        tree = ast.parse(source.read())
    folders = next(ast.literal_eval(node.value) for node in tree.body
                   if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "PACKAGES").values()
    modules = {os.path.relpath(path, REPO) for folder in folders
               for path in glob.glob(os.path.join(REPO, folder, "*.py")) + glob.glob(os.path.join(REPO, folder, "*.pyx"))}
    placed = [path for room in ROOMS for path in files_of(room)]
    assert sorted(modules - set(placed)) == []
    assert len(placed) == len(set(placed))  # in one room each


def test_the_rooms_stand_on_one_another_without_a_loop():
    """Each room may reach only rooms that cannot reach back, however far."""
    def reach(room: str, seen: frozenset[str] = frozenset()) -> set[str]:
        assert room not in seen, f"a loop: {' -> '.join(seen)} -> {room}"
        return set().union(*(reach(lower, seen | {room}) | {lower} for lower in BELOW[room]))
    for room in ROOMS:
        assert room not in reach(room)


def test_the_root_is_small():
    """The package root keeps the `clinea` command and the base: at most 10 modules."""
    assert len(glob.glob(os.path.join(REPO, "clinea", "*.py"))) <= 10


def test_the_check_sees_an_upward_import(tmp_path):
    """The rule catches what it is for: an import inside a function too."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from clinea.judge.referee import referee\n    return referee\n")
    assert imported_names(str(bad)) == [(2, "clinea.judge.referee.referee")]
    assert not allowed("clinea.judge.referee.referee", "players")
    assert not allowed("clinea.arena.view.write_view", "judge")
    assert not allowed("clinea.arena.view", "bridges")
    assert allowed("clinea.solving.solve.position", "arena")
