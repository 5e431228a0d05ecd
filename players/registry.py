"""Every player clinea can run, by name: the built-in ones listed here, and
those third-party packages register under the `clinea.players` entry-point
group. `clinea play NAME`, `clinea judge --player NAME`, the `players/NAME`
launchers, the `clinea-NAME` commands and the benchmarks all read this.

Adding a built-in player is one module in players/ and one line in BUILTIN.
Values are "module:Class" so that listing players imports none of them.

A package of yours registers a player in its pyproject.toml:

    [project.entry-points."clinea.players"]
    mybot = "mypackage.mybot:MyBot"     # a Bot subclass
"""
from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from types import ModuleType

from clinea.bounded import MIB, check_size
from clinea.core import Board
from clinea.players.bot import Bot, FunctionBot
from clinea.players.options import command_parser

# A bot's source file, which Python reads whole to import it (`clinea play
# mybot.py`, a Kaggle agent file): a generous bound on hand-written code.
BOT_FILE_LIMIT = 4 * MIB
BUILTIN: dict[str, str] = {
    "random": "clinea.players.random_player:RandomBot",
    "evaluator": "clinea.players.evaluator_player:EvaluatorBot",
    "strong": "clinea.players.strong_player:StrongBot",
    "greedy": "clinea.players.greedy_player:GreedyBot",
    "randomized_minimax": "clinea.players.randomized_minimax_player:RandomizedMinimaxBot",
    "minimax": "clinea.players.minimax_player:MinimaxBot",
    "alphabeta": "clinea.players.alphabeta_player:AlphabetaBot",
    "kaggle": "clinea.bridges.kaggle_player:KaggleAgentBot",
    "openspiel_mcts": "clinea.bridges.openspiel_mcts_player:OpenSpielMCTSBot",
}
#: what a built-in player needs beyond clinea's own dependencies: the extra
#: that installs it and the top-level modules its module imports (looked up,
#: not imported: finding jax-heavy packages costs a directory scan, importing
#: them seconds)
REQUIRES: dict[str, tuple[str, tuple[str, ...]]] = {
    "kaggle": ("kaggle", ("kaggle_environments",)),
    "openspiel_mcts": ("openspiel", ("pyspiel",)),
}
ENTRY_POINT_GROUP = "clinea.players"
COMMAND_PREFIX = "clinea-"  # clinea-strong runs the player strong


def players() -> dict[str, str]:
    """Every runnable player, name -> "module:Class": the built-in ones, then
    the installed packages' (a built-in name cannot be taken over)."""
    import importlib.metadata  # tens of ms with the scan below: only when asked for

    found = dict(BUILTIN)
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(entry.name, entry.value)
    return found


def load(name: str) -> type[Bot]:
    """The Bot class registered as `name`. A built-in name is looked up
    without scanning the installed packages, so a player starts sooner."""
    target = BUILTIN.get(name)
    if target is None:
        registered = players()
        if name not in registered:
            raise KeyError(f"unknown player {name!r}: choose one of {', '.join(sorted(registered))}")
        target = registered[name]
    module, _, attribute = target.partition(":")
    bot = getattr(importlib.import_module(module), attribute)
    if not (isinstance(bot, type) and issubclass(bot, Bot)):
        raise TypeError(f"player {name!r} names {target}, which is not a Bot class")
    return bot


def install_command(extra: str) -> str:
    """The one command that installs clinea's optional `extra`."""
    return f"pip install 'clinea[{extra}]'"


#: the share of a seat's limit on one answer a registered player is told to
#: think for: the rest is its start-up, the pipes and a loaded machine's delays
ANSWER_SHARE = 0.8
#: the shortest --time-per-move every clinea player takes
MIN_BUDGET = 0.01


def registered_command(words: Sequence[str], answer_seconds: float | None = None) -> list[str] | None:
    """The command that runs `words` when its first word is a registered
    player's name (`strong --time-per-move 0.1`): `clinea play` with this
    Python, as the judge and the engine start it; else None. A referee
    that forfeits an answer after `answer_seconds` passes it on to a player
    that thinks for --time-per-move and was not given one: left at its
    default (strong's 1 s), it would lose every game on a shorter limit."""
    if not words or os.sep in words[0] or words[0] not in players():
        return None
    return [sys.executable, "-m", "clinea.players", *words, *answer_budget(words, answer_seconds)]


def answer_budget(words: Sequence[str], answer_seconds: float | None) -> list[str]:
    """`--time-per-move S` for the registered player `words` within a limit
    of `answer_seconds` an answer, when it needs one; else nothing."""
    if not answer_seconds:
        return []
    from clinea.players.driver import build_parser
    from clinea.players.options import bare_words_to_options, named_option, option_actions

    try:
        parser = build_parser(load(words[0]), words[0])
    except Exception:  # a plug-in that does not import here: it will say so in its seat
        return []
    actions = option_actions(parser)
    thinking = actions.get("--time-per-move")
    if thinking is None or not isinstance(thinking.default, float):
        return []
    if any(named_option(word, actions) == "--time-per-move" for word in bare_words_to_options(list(words[1:]), parser)):
        return []  # the user chose its time
    budget = max(MIN_BUDGET, ANSWER_SHARE * answer_seconds)
    return [] if budget >= thinking.default else ["--time-per-move", f"{budget:g}"]


def missing_extra(name: str) -> str | None:
    """The extra the player `name` needs and cannot find (a module of
    REQUIRES is not installed), or None when it can run."""
    extra, modules = REQUIRES.get(name, (None, ()))
    if any(importlib.util.find_spec(module) is None for module in modules):
        return extra
    return None


def is_bot_file(word: str) -> bool:
    return word.endswith(".py") and os.path.isfile(word)


#: a bot file's source is read whole to tell a bot from a program; no bot is this long
MAX_SOURCE_BYTES = 4 << 20


def declares_bot(path: str) -> bool:
    """Whether the Python file `path` defines what `load_file` loads, read
    without running it: a top-level `choose` (a function, an assignment or
    an import), or a top-level class with a base named like a bot
    (`Bot`, `clinea.players.Bot`, `StrongBot`). A file that does neither is
    a program of its own (one speaking the protocol runs it at import)."""
    with open(path, "rb") as file:
        source = file.read(MAX_SOURCE_BYTES + 1)
    if len(source) > MAX_SOURCE_BYTES:
        raise ValueError(f"{path} is over {MAX_SOURCE_BYTES >> 20} MB: not a bot's source")
    try:
        tree = ast.parse(source, filename=path)
    except (SyntaxError, ValueError):
        return True  # load_file reports it
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(ast.unparse(base).endswith("Bot") for base in node.bases):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "choose":
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any(
                (alias.asname or alias.name) == "choose" for alias in node.names):
            return True
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and any(
                isinstance(target, ast.Name) and target.id == "choose"
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])):
            return True
    return False


def import_file(path: str, prefix: str) -> ModuleType:
    """A user's Python file (a bot, a Kaggle agent), read within
    BOT_FILE_LIMIT and imported as `prefix` + its name, so its
    `if __name__ == "__main__":` block stays idle; its folder goes first on
    sys.path for its own helper modules."""
    check_size(path, BOT_FILE_LIMIT)
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(prefix + name, os.path.abspath(path))
    if spec is None or spec.loader is None:
        raise ValueError(f"{path}: not a Python file Python can import")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    spec.loader.exec_module(module)
    return module


def load_file(path: str) -> type[Bot]:
    """The bot a user's Python file defines: a Bot subclass (the last one
    defined there), else a `choose(board)` function."""
    module = import_file(path, "clinea_bot_")
    name = os.path.splitext(os.path.basename(path))[0]
    import inspect

    own = [value for value in vars(module).values()
           if inspect.isclass(value) and issubclass(value, Bot) and value.__module__ == module.__name__]
    if own:
        return own[-1]
    choose: Callable[[Board], int] | None = getattr(module, "choose", None)
    if not callable(choose):
        raise ValueError(f"{path} defines neither a Bot subclass nor a choose(board) function "
                         f"(a Kaggle agent file runs as: clinea play kaggle {path})")
    function = choose

    class FileBot(FunctionBot):
        __doc__ = (module.__doc__ or f"The bot in {path}.").strip()

        def __init__(self) -> None:
            super().__init__(function, name)

    FileBot.name = name
    return FileBot


def launched_player(exe: str, args: Sequence[str] = ()) -> str | None:
    """The clinea player a program starts: a registered name as the judge
    takes it, or a launcher in players/ reached through any links (read
    as players/launch reads it), else None."""
    if os.sep not in exe:
        return exe if exe in players() else None
    if os.path.basename(os.path.realpath(exe)) != "launch":
        return None
    path = exe
    name = os.path.basename(path)
    while os.path.islink(path):
        target = os.path.join(os.path.dirname(path), os.readlink(path))
        if os.path.basename(target) == "launch":
            break
        path, name = target, os.path.basename(target)
    if name == "launch":
        return args[0] if args else None
    return name


def player_options(name: str) -> dict[str, bool]:
    """{long option: whether it takes a value} of the registered player `name`."""
    from clinea.players.driver import build_parser
    from clinea.players.options import option_actions

    actions = option_actions(build_parser(load(name), name))
    return {option: action.nargs != 0 for option, action in actions.items() if option.startswith("--")}


def program_options(exe: str, args: Sequence[str]) -> dict[str, bool] | None:
    """player_options of the clinea player `exe args...` starts; None for
    any other program, whose options cannot be known."""
    name = launched_player(exe, args)
    if name is None:
        return None
    try:
        return player_options(name)
    except Exception:  # a plug-in that does not import here: unknown, as any program
        return None


def write_launchers(directory: str) -> list[str]:
    """Makes `directory/NAME` a link to `directory/launch` for every built-in
    player that can run here (the launcher reads the player's name from the
    link): the executables the course judge is given. A player whose extra
    is missing gets no launcher, and loses the one an earlier install wrote:
    it would exit at its first line and leave the judge a dead seat.
    Returns the names written."""
    written = []
    for name in BUILTIN:
        link = os.path.join(directory, name)
        ours = os.path.islink(link) and os.readlink(link) == "launch"
        if missing_extra(name):
            if ours:
                os.remove(link)
            continue
        if ours:
            continue
        if os.path.lexists(link):
            os.remove(link)
        os.symlink("launch", link)
        written.append(name)
    return written


def listing(registered: dict[str, str]) -> list[str]:
    """`clinea play --list`: a line per player, naming the extra that a
    player which cannot run here needs."""
    lines = []
    for name in sorted(registered):
        extra = missing_extra(name)
        needs = f"   (needs: {install_command(extra)})" if extra else ""
        lines.append(f"{name:20} {registered[name]}{needs}")
    return lines


def build_parser(registered: dict[str, str]) -> argparse.ArgumentParser:
    parser = command_parser("clinea play", "Run a player program on stdin/stdout (the referee protocol): "
                            "a registered player by name, or your own bot file.",
                            "players: " + ", ".join(sorted(registered)) + "\nexamples:\n  clinea play random --seed 3\n"
                            "  clinea play mybot.py\n  clinea play strong --help\n  clinea play --list")
    parser.add_argument("player", help="a registered name, or a .py file with choose(board) or a Bot")
    parser.add_argument("--list", action="store_true", help="list the registered players and exit (default: off)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """`clinea play NAME|FILE.py [OPTIONS]`, and `clinea-NAME [OPTIONS]`."""
    from clinea.players.driver import main_for

    argv = sys.argv[1:] if argv is None else list(argv)
    command = os.path.basename(sys.argv[0])
    if command.startswith(COMMAND_PREFIX) and command[len(COMMAND_PREFIX):] in BUILTIN:
        return main_for(load(command[len(COMMAND_PREFIX):]), argv, program=command)
    if argv and argv[0] in BUILTIN:
        return main_for(load(argv[0]), argv[1:], program=f"clinea play {argv[0]}")
    registered = players()
    if argv and argv[0] == "--list":
        print("\n".join(listing(registered)))
        return 0
    if argv and is_bot_file(argv[0]):
        try:
            bot_class = load_file(argv[0])
        except (ValueError, SyntaxError, ImportError) as error:
            print(f"clinea play {argv[0]}: {error}", file=sys.stderr)
            return 2
        return main_for(bot_class, argv[1:], program=f"clinea play {argv[0]}")
    if not argv or argv[0] not in registered:
        parser = build_parser(registered)
        if argv and not argv[0].startswith("-"):
            parser.error(f"{argv[0]!r} is neither a registered player ({', '.join(sorted(registered))}) "
                         "nor a .py file")
        parser.parse_args(argv[:1])
        return 2
    return main_for(load(argv[0]), argv[1:], program=f"clinea play {argv[0]}")
