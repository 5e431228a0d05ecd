"""kaggle: a Kaggle ConnectX agent as a clinea player, so `clinea judge`
and the course judge can play it.

    clinea play kaggle negamax                 # Kaggle's built-in agents
    clinea play kaggle my_submission.py        # a file defining agent(obs, config)
    clinea judge --blue_player players/kaggle negamax --red_player players/strong

A file agent is found as Kaggle finds it: the function `agent` if the file
defines one, else the last callable the file defines. It needs nothing but
clinea; Kaggle's built-in "negamax" and "random" need kaggle-environments
(`pip install 'clinea[kaggle]'`). ConnectX has no token limit: on a game
with fewer tokens than cells the agent plays as if the board could fill.
"""
from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

from clinea.bridges import require
from clinea.bridges.kaggle import kaggle_board
from clinea.core import Board
from clinea.players.bot import Bot
from clinea.players.driver import main_for
from clinea.players.registry import import_file

KAGGLE_BUILTIN = ("negamax", "random")
#: what ConnectX's configuration says about time (seconds), shown to agents
#: that budget their thinking by it
ACT_TIMEOUT = 2.0
OVERAGE_TIME = 60.0


class Struct(dict[str, Any]):
    """A dict whose keys read as attributes: what Kaggle passes to agents
    (they use both `obs.board` and `obs["board"]`)."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def load_agent(source: str) -> Callable[..., Any]:
    """Kaggle's built-in agent `source` ("negamax", "random"), or the agent
    the Python file `source` defines. Raises ValueError naming the problem."""
    if source in KAGGLE_BUILTIN:
        connectx = require("kaggle_environments.envs.connectx.connectx", "kaggle")
        builtin: Callable[..., Any] = connectx.agents[source]
        return builtin
    if source.endswith(".py") and not os.path.exists(source):
        raise ValueError(f"agent {source!r}: no such file")
    if not (source.endswith(".py") and os.path.isfile(source)):
        raise ValueError(f"agent {source!r} is neither one of Kaggle's ({', '.join(KAGGLE_BUILTIN)}) "
                         "nor a .py file")
    module = import_file(source, "kaggle_agent_")  # its folder on sys.path for its helpers, as on Kaggle
    agent: object = getattr(module, "agent", None)
    if callable(agent):
        return agent
    found: list[Callable[..., Any]] = [value for value in vars(module).values() if callable(value)]
    if not found:
        raise ValueError(f"{source} defines no agent(observation, configuration) function")
    return found[-1]


class KaggleAgentBot(Bot):
    """A Kaggle ConnectX agent: Kaggle's negamax or random, or a file's agent."""

    name = "kaggle"
    example_options = ("negamax",)

    def __init__(self, agent: Callable[..., Any] | str) -> None:
        self.agent = load_agent(agent) if isinstance(agent, str) else agent
        self.name = agent if isinstance(agent, str) else getattr(agent, "__name__", "kaggle")

    def choose(self, board: Board) -> int:
        observation = Struct(board=kaggle_board(board), mark=board.side_to_move + 1,
                             step=board.moves_played, remainingOverageTime=OVERAGE_TIME)
        configuration = Struct(rows=board.rows, columns=board.columns, inarow=board.c,
                               actTimeout=ACT_TIMEOUT, timeout=ACT_TIMEOUT, episodeSteps=1000)
        arguments = [observation, configuration]
        code = getattr(self.agent, "__code__", None)
        if code is not None:  # Kaggle passes only as many arguments as the function takes
            arguments = arguments[:code.co_argcount]
        column: int = self.agent(*arguments)  # what an agent answers is the judge's to check
        return column

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        # plays with no argument, as every other player does
        parser.add_argument("agent", nargs="?", default="negamax",
                            help=f"one of Kaggle's agents ({', '.join(KAGGLE_BUILTIN)}) or a .py file "
                                 "defining agent(observation, configuration) (default: negamax)")

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> KaggleAgentBot:
        try:
            return cls(args.agent)
        except (ImportError, SyntaxError) as error:  # a missing extra, a broken file: one line, not a trace
            raise ValueError(str(error)) from None


def main(argv: list[str] | None = None) -> int:
    return main_for(KaggleAgentBot, argv)
