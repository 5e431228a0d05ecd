"""The old names of the modules that moved into rooms: importing one
still works for a release, with a DeprecationWarning naming the new place,
and gives the very module the new name gives (one module, two names).

One finder on sys.meta_path does it for every old name, not a file per old
module: a name in MOVED, or below one (clinea.integrations.kaggle), is
imported under its new name and put in sys.modules under the old one too.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

#: old module (or package) -> where it lives now (CHANGELOG.md); goes after one release
MOVED = {
    "clinea.analysis": "clinea.arena.analysis",
    "clinea.analyze": "clinea.arena.analyze",
    "clinea.view": "clinea.arena.view",
    "clinea.ratings": "clinea.arena.ratings",
    "clinea.league": "clinea.arena.league.run",
    "clinea.league_folder": "clinea.arena.league.folder",
    "clinea.league_schedule": "clinea.arena.league.schedule",
    "clinea.league_standings": "clinea.arena.league.standings",
    "clinea.solve": "clinea.solving.solve",
    "clinea.solved_board": "clinea.solving.solved_board",
    "clinea.solved_tables": "clinea.solving.solved_tables",
    "clinea.solved_ray": "clinea.solving.solved_ray",
    "clinea.book_check": "clinea.solving.book_check",
    "clinea.reference_solver": "clinea.solving.reference_solver",
    "clinea.signature": "clinea.solving.signature",
    "clinea.engine": "clinea.bridges.engine",
    "clinea.export": "clinea.bridges.export",
    "clinea.judge.program_bot": "clinea.bridges.program_bot",
    "clinea.integrations": "clinea.bridges",
}


def new_name(name: str) -> str | None:
    """Where the module `name` lives now, or None if it did not move."""
    for old, new in MOVED.items():
        if name == old or name.startswith(old + "."):
            return new + name[len(old):]
    return None


class MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the old names; loads each as the module of its new name."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        return importlib.util.spec_from_loader(fullname, self) if new_name(fullname) else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # a placeholder, replaced in sys.modules by exec_module

    def exec_module(self, module: ModuleType) -> None:
        new = new_name(module.__name__)
        assert new is not None  # find_spec answered only for moved names
        warnings.warn(f"{module.__name__} moved to {new}; the old name goes in the next release",
                      DeprecationWarning, stacklevel=2)  # the warnings skip the import system's frames
        # the import system returns what sys.modules holds after exec_module:
        # the new module itself, its own __spec__ untouched
        sys.modules[module.__name__] = importlib.import_module(new)


def install() -> None:
    """Puts the finder first on sys.meta_path (once): after a package's
    alias, a path finder would load a child's file again, as a second
    module under its old name."""
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedFinder())
