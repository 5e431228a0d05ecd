"""What a league folder holds: its settings (league.toml) and its bots.

A bot is an executable file in the folder, a `.py` file (run as `clinea
play FILE.py`: a choose(board) or a Bot subclass), or a subfolder holding
an executable `bot` or a `bot.py` (a folder of its own keeps its files out
of the other bots' sight in the sandbox). Its name is the file's name
without `.py`, or the subfolder's. Registered players (`clinea play
--list`) join by name in league.toml's [players] table. Hidden files and
folders (the league's own state lives in `.league/`) and everything else
are ignored.

A file is taken once it has stayed the same (size and modification time)
for one look more, so a bot still being copied in never plays half-written.
"""
from __future__ import annotations

import itertools
import os
import re
import shlex
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from clinea.bounded import KIB, read_text
from clinea.core import MAX_SIDE, MAX_TOKENS, Rules
from clinea.players import registry

if TYPE_CHECKING:  # the judge's modules import nothing of the league
    from clinea.judge.seat_settings import SeatSettings

CONFIG = "league.toml"
#: a config is a few lines: more than this is not one
CONFIG_LIMIT = 64 * KIB
#: entries of the folder looked at, at most (a league is not a file dump)
MAX_ENTRIES = 10_000
#: a player's name goes into game ids (`a|b|k`) and file names
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}\Z")

#: the fixed-rating opponents every bot meets: random, greedy, the evaluator
#: at two depths and strong at a short budget (`[baselines]` replaces them)
DEFAULT_BASELINES = {
    "random": "random --seed 1",
    "greedy": "greedy",
    "evaluator-2": "evaluator --depth 2",
    "evaluator-4": "evaluator --depth 4",
    "strong-0.05": "strong --time-per-move 0.05",
}

EXAMPLE = """\
# clinea league settings: every key is optional (these are the defaults)
[game]
columns = 7
rows = 6
c = 4
p = 21
time_per_move = 1.0      # seconds per answer, as clinea judge --time-per-move

[league]
concurrency = 2          # games at once
poll = 1.0               # seconds between looks at the folder
calibration_games = 10   # games per pair of baselines, played once to fix their ratings
rating_games = 4         # games against each baseline before a bot counts as rated
max_games = 200          # games per pairing, after which it rests
prior_draws = 1.0        # virtual draws per pairing in the Elo fit (keeps a perfect score finite)
refresh = 5.0            # seconds between rewrites of standings.html/.txt (the page reloads as often)
solve_time = 0.02        # solver seconds per position on the replay page
replays = 1000           # the latest games shown on the replay page (the standings count them all)
sandbox = "auto"         # the judge's --sandbox: auto, strict or off

[players]                # registered players entered by name, with their options
# "evaluator-3" = "evaluator --depth 3"

# [baselines]            # replaces the default baselines (before the league's first game only)
# random = "random --seed 1"
"""


class LeagueError(ValueError):
    """A league folder or setting that cannot be used: the message says which and why."""


@dataclass(frozen=True)
class Settings:
    """The league's settings; `game` ones are fixed for the folder's life."""
    columns: int = 7
    rows: int = 6
    c: int = 4
    p: int = 21
    time_per_move: float = 1.0
    concurrency: int = 2
    poll: float = 1.0
    calibration_games: int = 10
    rating_games: int = 4
    max_games: int = 200
    prior_draws: float = 1.0
    refresh: float = 5.0
    solve_time: float = 0.02
    replays: int = 1000
    sandbox: str = "auto"
    players: Mapping[str, str] = field(default_factory=dict)
    baselines: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_BASELINES))

    @property
    def rules(self) -> Rules:
        return Rules(self.columns, self.rows, self.c, self.p)

    def game(self) -> dict[str, Any]:
        """What makes two runs of the folder the same league."""
        return {"board": [self.columns, self.rows, self.c, self.p], "time_per_move": self.time_per_move,
                "baselines": dict(self.baselines), "calibration_games": self.calibration_games,
                "prior_draws": self.prior_draws}


GAME_KEYS = ("columns", "rows", "c", "p", "time_per_move")
LEAGUE_KEYS = ("concurrency", "poll", "calibration_games", "rating_games", "max_games", "prior_draws",
               "refresh", "solve_time", "replays", "sandbox")
# (low, high) of each number; None: no bound
RANGES = {"columns": (1, MAX_SIDE), "rows": (1, MAX_SIDE), "c": (1, MAX_TOKENS), "p": (1, MAX_TOKENS),
          "time_per_move": (0.001, None), "concurrency": (1, 64), "poll": (0.05, 3600),
          "calibration_games": (1, None), "rating_games": (1, None), "max_games": (1, None),
          "prior_draws": (0.1, None), "refresh": (0.5, 3600), "solve_time": (0.001, 60),
          "replays": (0, None)}


def read_settings(folder: str) -> Settings:
    """The folder's league.toml (defaults where a key or the file is
    missing); LeagueError names a bad key or value and what is allowed."""
    path = os.path.join(folder, CONFIG)
    if not os.path.exists(path):
        return Settings()
    try:
        data = tomllib.loads(read_text(path, CONFIG_LIMIT))
    except (OSError, ValueError) as error:  # tomllib's errors are ValueErrors, and so are read_text's
        raise LeagueError(f"{path}: {error}") from None
    known: dict[str, tuple[str, ...] | None] = {"game": GAME_KEYS, "league": LEAGUE_KEYS, "players": None,
                                                "baselines": None}
    values: dict[str, Any] = {}
    for table, content in data.items():
        if table not in known or not isinstance(content, dict):
            raise LeagueError(f"{path}: [{table}] is not a table of a league (allowed: {', '.join(known)})")
        keys = known[table]
        if keys is None:
            values[table] = players_table(path, table, content)
            continue
        for key, value in content.items():
            if key not in keys:
                raise LeagueError(f"{path}: [{table}] {key!r} is unknown (allowed: {', '.join(keys)})")
            values[key] = checked(path, key, value)
    settings = Settings(**values)
    if not settings.baselines:
        raise LeagueError(f"{path}: [baselines] is empty: a league needs at least one baseline to anchor it")
    clash = set(settings.players) & set(settings.baselines)
    if clash:
        raise LeagueError(f"{path}: {', '.join(sorted(clash))} is both a baseline and a player")
    return settings


def checked(path: str, key: str, value: Any) -> Any:
    """`value` for the setting `key`, of its type and in its range."""
    default = {f.name: f.default for f in fields(Settings)}[key]
    if key == "sandbox":
        if value not in ("auto", "strict", "off"):
            raise LeagueError(f"{path}: sandbox {value!r} is out of range: allowed auto, strict, off")
        return value
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not numeric or (isinstance(default, int) and not isinstance(value, int)):
        raise LeagueError(f"{path}: {key} {value!r}: expected {'an integer' if isinstance(default, int) else 'a number'}")
    low, high = RANGES[key]
    if value < low or (high is not None and value > high):
        allowed = f"{low}..{high}" if high is not None else f"{low} or more"
        raise LeagueError(f"{path}: {key} {value} is out of range: allowed {allowed}")
    return float(value) if isinstance(default, float) else value


def players_table(path: str, table: str, content: dict[str, Any]) -> dict[str, str]:
    """[players] or [baselines]: name = "registered-player OPTIONS"."""
    registered = registry.players()
    out = {}
    for name, line in content.items():
        if not NAME.match(name):
            raise LeagueError(f"{path}: [{table}] name {name!r}: letters, digits, '_.+-', at most 64")
        words = shlex.split(line) if isinstance(line, str) else []
        if not words or words[0] not in registered:
            raise LeagueError(f"{path}: [{table}] {name} = {line!r}: expected a registered player and its options "
                              f"(one of {', '.join(sorted(registered))})")
        out[name] = line
    return out


def registered_command(line: str, answer_seconds: float) -> list[str]:
    """How the judge runs a registered player with its options (a line
    read_settings checked names one), its answers limited to `answer_seconds`."""
    command = registry.registered_command(shlex.split(line), answer_seconds)
    if command is None:
        raise LeagueError(f"{line!r}: not a registered player")
    return command


@dataclass(frozen=True)
class Entry:
    """A bot found in the folder: its name, command and what it was when seen."""
    name: str
    command: tuple[str, ...]
    stamp: tuple[int, int]  # (size, modification time in ns) of its program


def bot_in(folder: str, entry: os.DirEntry[str]) -> Entry | None:
    """The bot a folder entry is, or None when it is none."""
    if entry.name.startswith((".", "_")) or entry.name == CONFIG:
        return None
    if entry.is_dir():
        for program in ("bot", "bot.py"):
            path = os.path.join(entry.path, program)
            if os.path.isfile(path):
                return program_entry(entry.name, path)
        return None
    if not entry.is_file():
        return None
    name, extension = os.path.splitext(entry.name)
    if extension == ".py" or os.access(entry.path, os.X_OK):
        return program_entry(name if extension == ".py" else entry.name, entry.path)
    return None


def program_entry(name: str, path: str) -> Entry | None:
    path = os.path.abspath(path)
    try:
        info = os.stat(path)
    except OSError:
        return None
    if os.access(path, os.X_OK):
        command: tuple[str, ...] = (path,)
    elif path.endswith(".py"):
        command = (sys.executable, "-m", "clinea.players", path)
    else:
        return None
    return Entry(name, command, (info.st_size, info.st_mtime_ns))


class FolderWatch:
    """Looks at a league folder again and again: which bots are there,
    each once it has stopped changing, and which names it cannot take."""

    def __init__(self, folder: str, taken: set[str]):
        self.folder = folder
        self.taken = taken  # baselines' and registered players' names
        self.seen: dict[str, Entry] = {}
        self.warned: set[str] = set()

    def look(self) -> dict[str, Entry]:
        """The bots ready to play now, by name; problems go to stderr once each."""
        found: dict[str, Entry] = {}
        try:
            with os.scandir(self.folder) as scan:
                entries = sorted(itertools.islice(scan, MAX_ENTRIES + 1), key=lambda e: e.name)
        except OSError as error:
            raise LeagueError(f"{self.folder}: {error.strerror}") from None
        if len(entries) > MAX_ENTRIES:
            self.warn("too many", f"{self.folder}: more than {MAX_ENTRIES} entries: only the first "
                                  f"{MAX_ENTRIES} the system lists are looked at")
            entries = entries[:MAX_ENTRIES]
        for item in entries:
            entry = bot_in(self.folder, item)
            if entry is None:
                continue
            if not NAME.match(entry.name) or entry.name in self.taken or entry.name in found:
                why = "not a usable name (letters, digits, '_.+-', at most 64)" if not NAME.match(entry.name) \
                    else "the name is taken"
                self.warn(item.name, f"{item.path}: skipped: {why}")
                continue
            found[entry.name] = entry
        ready = {name: entry for name, entry in found.items()
                 if name in self.seen and self.seen[name] == entry}
        self.seen = found
        return ready

    def warn(self, key: str, text: str) -> None:
        if key not in self.warned:
            self.warned.add(key)
            print(f"clinea league: {text}", file=sys.stderr, flush=True)


def replay_settings(folder: str) -> SeatSettings:
    """How `clinea replay` starts a seat of one of the league's games: the
    league's clock and sandbox (its seats' limits are the judge's
    defaults), each player's command as the folder and league.toml name
    it now (a league's header is written once, before most bots came)."""
    from clinea.judge.process_seat import STARTUP_GRACE
    from clinea.judge.referee import Clock
    from clinea.judge.sandbox import SeatLimits
    from clinea.judge.seat_settings import SeatSettings

    settings = read_settings(folder)
    commands: dict[str, list[str] | None] = {
        name: registered_command(line, settings.time_per_move)
        for name, line in {**settings.baselines, **settings.players}.items()}
    with os.scandir(folder) as entries:
        for entry in entries:
            found = bot_in(folder, entry)
            if found is not None:
                commands[found.name] = list(found.command)
    return SeatSettings(os.path.abspath(folder), commands, settings.time_per_move, None, 0.0, Clock().grace,
                        STARTUP_GRACE, settings.sandbox, SeatLimits())

