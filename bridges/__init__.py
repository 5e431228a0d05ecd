"""Bridges to the ecosystem: Kaggle's ConnectX (`clinea.bridges.kaggle`,
its agents and `export`, `clinea export kaggle`), OpenSpiel
(`clinea.bridges.openspiel`, `.openspiel_game`), PettingZoo and Gymnasium
(`clinea.bridges.pettingzoo`, `.gymnasium_env`), and player programs driven
from Python (`engine`, and `program_bot`: a program as a Bot). The
ecosystems need their optional extra (`pip install 'clinea[kaggle]'`,
`'clinea[openspiel]'`, `'clinea[rl]'`); the core install stays small without
them, and this module imports none of them.
"""
from __future__ import annotations

import importlib
from types import ModuleType

from clinea.players.registry import install_command

__all__ = ["MissingExtra", "install_command", "require"]


class MissingExtra(ImportError):
    """An optional package an integration needs is not installed."""


def require(module: str, extra: str) -> ModuleType:
    """Imports `module`, or raises MissingExtra with the one command that
    installs it: the error a user without the extra sees."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise MissingExtra(f"{module} is not installed ({error}): {install_command(extra)}") from None
