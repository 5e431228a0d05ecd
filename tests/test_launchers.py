"""The players/NAME launchers and `clinea play --list` offer a player only
where it can run: one whose extra is missing gets no launcher (it would exit
at its first line and leave the judge a dead seat) and --list names the
command that installs it."""
import os
import shutil
from pathlib import Path

import pytest

from clinea.players import registry

REPO = Path(__file__).resolve().parents[1]
NO_SUCH_MODULE = "clinea_test_module_that_is_not_installed"


@pytest.fixture
def players_dir(tmp_path) -> Path:
    """A copy of players/launch alone, as a fresh checkout has it."""
    shutil.copy2(REPO / "players" / "launch", tmp_path / "launch")
    return tmp_path


@pytest.fixture
def random_needs_a_missing_extra(monkeypatch):
    """`random` declared as needing an extra whose module is not installed."""
    monkeypatch.setitem(registry.REQUIRES, "random", ("nosuchextra", (NO_SUCH_MODULE,)))


def launchers(directory: Path) -> set[str]:
    return {entry.name for entry in directory.iterdir() if entry.is_symlink() and os.readlink(entry) == "launch"}


def test_every_player_that_can_run_gets_its_launcher(players_dir):
    assert set(registry.write_launchers(str(players_dir))) == set(registry.BUILTIN)
    assert launchers(players_dir) == set(registry.BUILTIN)
    assert registry.write_launchers(str(players_dir)) == []  # already there: nothing rewritten


def test_a_player_whose_extra_is_missing_gets_no_launcher(players_dir, random_needs_a_missing_extra):
    written = registry.write_launchers(str(players_dir))
    assert "random" not in written and not os.path.lexists(players_dir / "random")
    assert launchers(players_dir) == set(registry.BUILTIN) - {"random"}


def test_a_stale_launcher_is_removed_once_the_extra_is_missing(players_dir, monkeypatch):
    registry.write_launchers(str(players_dir))
    assert (players_dir / "random").is_symlink()
    monkeypatch.setitem(registry.REQUIRES, "random", ("nosuchextra", (NO_SUCH_MODULE,)))
    registry.write_launchers(str(players_dir))
    assert not os.path.lexists(players_dir / "random")
    assert launchers(players_dir) == set(registry.BUILTIN) - {"random"}


def test_a_file_of_the_users_own_is_left_alone(players_dir, random_needs_a_missing_extra):
    (players_dir / "random").write_text("mine\n")
    registry.write_launchers(str(players_dir))
    assert (players_dir / "random").read_text() == "mine\n"


def test_the_extras_the_suite_installs_are_found():
    """`make test` installs every extra: each declared module is there, so no
    player loses its launcher in the suite (the bridge tests run them all)."""
    assert [name for name in registry.BUILTIN if registry.missing_extra(name)] == []


def test_list_names_the_extra_a_missing_player_needs(capsys, random_needs_a_missing_extra):
    assert registry.main(["--list"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert set(registry.BUILTIN) <= set(lines)
    assert lines["random"].endswith("(needs: pip install 'clinea[nosuchextra]')")
    assert [name for name, line in lines.items() if "needs:" in line] == ["random"]
