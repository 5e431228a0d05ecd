"""The players clinea ships, by name: what `clinea play NAME`, the
`players/NAME` executables and the benchmarks iterate over.

Values are "module:Class" so that listing players imports none of them.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from clinea.players.bot import Bot

PLAYERS: dict[str, str] = {
    "random": "clinea.players.random_player:RandomBot",
    "evaluator": "clinea.players.evaluator_player:EvaluatorBot",
    "strong": "clinea.players.strong_player:StrongBot",
    "greedy": "clinea.players.greedy_player:GreedyBot",
    "randomized_minimax": "clinea.players.randomized_minimax_player:RandomizedMinimaxBot",
    "minimax": "clinea.players.minimax_player:MinimaxBot",
    "alphabeta": "clinea.players.alphabeta_player:AlphabetaBot",
}


def load(name: str) -> type[Bot]:
    """The Bot class registered as `name`."""
    if name not in PLAYERS:
        raise KeyError(f"unknown player {name!r}: choose one of {', '.join(sorted(PLAYERS))}")
    module, _, attribute = PLAYERS[name].partition(":")
    return getattr(importlib.import_module(module), attribute)


def main(argv: list[str] | None = None) -> int:
    """`clinea play NAME [OPTIONS]`: run a registered player on stdin/stdout."""
    from clinea.players.driver import main_for

    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in PLAYERS:
        parser = argparse.ArgumentParser(
            prog="clinea play",
            description="Run a player program on stdin/stdout (the referee protocol).",
            epilog="players: " + ", ".join(sorted(PLAYERS))
            + "\nexample:\n  clinea play random --seed 3\n  clinea play random --help",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        parser.add_argument("player", choices=sorted(PLAYERS))
        parser.parse_args(argv[:1])
    return main_for(load(argv[0]), argv[1:], program=f"clinea play {argv[0]}")
