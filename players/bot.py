"""The drop-in bot API: what a player is, for the protocol driver, the judge's
in-process games and training alike.

A bot sees only positions; the driver keeps the board from the moves on the
wire, so a bot never parses input or tracks state itself.
"""
from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from clinea.core import Board
from clinea.core.cbot import CBot


class Bot:
    """Base class of every player. Subclasses override `choose`, and
    `new_game` if they keep per-game state (a transposition table, a clock)."""

    #: short name, used by `clinea play NAME` and in judge reports
    name = "bot"
    #: whether the bot reports figures on stderr: the driver then offers --verbose
    reports = False
    #: set by the driver from --verbose
    verbose = False
    #: options shown in --help's examples, as on the command line
    example_options: tuple[str, ...] = ()

    def new_game(self, board: Board, me: int) -> None:
        """Called before every game with the empty board; `me` is 0 if this
        bot moves first, 1 if second."""

    def choose(self, board: Board) -> int:
        """Returns a legal 0-based column for the side to move on `board`.
        `board` belongs to the caller: play on a copy, or undo what you play."""
        raise NotImplementedError

    def ponder(self, board: Board) -> None:
        """Called after this bot's move, with the position the opponent now
        faces (the bot's own copy), while the opponent thinks. It must
        return at once: a bot that thinks on the opponent's time does so in
        a thread, until `stop_pondering`."""

    def stop_pondering(self) -> None:
        """Called as soon as the opponent's answer, the game's end or the
        end of the input arrives: whatever `ponder` started stops now."""

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        """Adds this bot's command-line options (depth, weights, time, seed...)."""

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Bot:
        """Builds the bot from the options `add_arguments` declared."""
        return cls()


@runtime_checkable
class CoreBot(Protocol):
    """A bot that also plays in C: the judge's in-process games and training
    run a whole game between two of them in the core's loop."""

    def core_for(self, board: Board) -> CBot:
        """The C bot that plays as this bot does on boards like `board`."""
        ...


class FunctionBot(Bot):
    """A bot made of one function, for the "copy this file, change one
    function" scripts: `choose(board) -> column`."""

    def __init__(self, choose: Callable[[Board], int], name: str = "function-bot"):
        self._choose = choose
        self.name = name

    def choose(self, board: Board) -> int:
        return self._choose(board)
