"""The old names of the modules that moved into rooms (clinea._moved) still
import, for one release, as the very modules of their new names, with a
DeprecationWarning that names the new place and the line that imported."""
from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from clinea._moved import MOVED


def forget(name: str) -> None:
    """`name` and what is below it, out of sys.modules and off its parent."""
    for loaded in [key for key in sys.modules if key == name or key.startswith(name + ".")]:
        del sys.modules[loaded]
    parent, _, child = name.rpartition(".")
    if hasattr(sys.modules.get(parent), child):
        delattr(sys.modules[parent], child)


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_name_is_the_new_module_with_a_warning(old):
    new = importlib.import_module(MOVED[old])
    forget(old)
    with pytest.warns(DeprecationWarning, match=f"{old} moved to {MOVED[old]};"):
        assert importlib.import_module(old) is new
    assert new.__spec__.name == MOVED[old]  # the module keeps its own name and spec
    with pytest.warns(DeprecationWarning):
        forget(old)
        exec(f"from {old.rpartition('.')[0]} import {old.rpartition('.')[2]} as again", namespace := {})
    assert namespace["again"] is new


def test_a_module_below_a_moved_package_is_the_new_one():
    from clinea.bridges import make_bot

    forget("clinea.integrations")
    with pytest.warns(DeprecationWarning) as caught:
        from clinea.integrations.make_bot import make_bot as old_make_bot
    assert old_make_bot is make_bot.make_bot
    assert [str(warning.message).split(";")[0] for warning in caught] == [
        "clinea.integrations moved to clinea.bridges", "clinea.integrations.make_bot moved to clinea.bridges.make_bot"]


def test_a_name_that_did_not_move_is_not_found():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("clinea.no_such_module")


def test_the_warning_names_the_importing_line():
    """Python's default filters show a DeprecationWarning raised in __main__
    only: the warning is raised at the line that imports, not in importlib."""
    done = subprocess.run([sys.executable, "-c", "import clinea.view"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    assert "<string>:1: DeprecationWarning: clinea.view moved to clinea.arena.view" in done.stderr
