"""One Bot from any way of naming a player, for code that plays bots in
process (the Kaggle and OpenSpiel bridges): a Bot, a `choose(board)`
function, a registered player's name with its options, a bot file, or a
program that speaks the referee protocol.
"""
from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Callable, Sequence

from clinea.core import Board
from clinea.players import registry
from clinea.players.bot import Bot, FunctionBot
from clinea.players.driver import bot_from_options

PlayerSpec = Bot | Callable[[Board], int] | str | Sequence[str]


def make_bot(player: PlayerSpec) -> Bot:
    """The Bot `player` describes:

    - a Bot: itself;
    - a function `choose(board) -> column`: a FunctionBot;
    - a string, read as a command line: "strong --time-per-move 0.5" (a
      registered name and its options), "mybot.py --seed 3" (a bot file:
      one defining `choose` or a Bot subclass), or "./myprogram ARGS" (any
      program speaking the protocol, an executable .py file too);
    - a list of strings: the same command line, already split.

    Raises ValueError naming the problem (unknown player, bad options).
    """
    if isinstance(player, Bot):
        return player
    if callable(player):
        return FunctionBot(player, getattr(player, "__name__", "function-bot"))
    words = shlex.split(player) if isinstance(player, str) else [str(word) for word in player]
    if not words:
        raise ValueError("an empty player: give a registered name, a bot file or a program")
    name, options = words[0], words[1:]
    if os.sep not in name and name in registry.players():
        return bot_from_options(registry.load(name), options, f"clinea play {name}")
    # an executable .py file that defines no bot is a protocol program: loading
    # it would run its protocol loop inside this process
    if registry.is_bot_file(name) and (registry.declares_bot(name) or not os.access(name, os.X_OK)):
        return bot_from_options(registry.load_file(name), options, f"clinea play {name}")
    path = name if os.sep in name else shutil.which(name)
    if path is None or not os.access(path, os.X_OK) or os.path.isdir(path):
        raise ValueError(f"player {name!r} is neither a registered player ({', '.join(sorted(registry.players()))}), "
                         "a .py bot file, nor an executable program")
    from clinea.bridges.program_bot import ProgramBot  # starts processes: only when asked for

    return ProgramBot(words)
