"""`clinea league DIR`: a folder of bots becomes a running league.

The bots (clinea.arena.league.folder) play the fixed-rating baselines and each
other on the judge's sandboxed seats (clinea.judge.tournament.Runner), the
folder looked at every `poll` seconds: a bot dropped in joins, a bot
removed leaves at once (its games in flight are stopped and do not count).
Every finished game goes to `.league/results.jsonl` the moment it ends,
sealed, with the judge's `--results` format and reader, so a league killed
in any way, SIGKILL included, resumes where it was: the games' ids
(clinea.arena.league.schedule) say which are done, none is played twice and only
the games in flight are played again.

The baselines' ratings are measured once, from their calibration games
(random anchored at 0, or the first baseline), and stored in
`.league/anchors.json`; from then on they are fixed and every other rating
is fitted on their scale (clinea.arena.ratings). The standings go to
`standings.txt`, `standings.json` and `standings.html` (the replay page of
`clinea view` with the standings above it, reloading itself) every
`refresh` seconds while games come in.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from clinea.arena.league.folder import (
    CONFIG,
    EXAMPLE,
    FolderWatch,
    LeagueError,
    Settings,
    read_settings,
    registered_command,
)
from clinea.arena.league.schedule import LeagueSchedule
from clinea.arena.league.standings import html_section, json_rows, standings, text
from clinea.arena.ratings import FitError, fit, pair_scores
from clinea.bounded import KIB, json_value, read_text
from clinea.judge import reaper
from clinea.judge.cli import EXIT_RESULTS_UNWRITABLE
from clinea.judge.player_process import end_all_games, kill_all
from clinea.judge.record import GameRecord
from clinea.judge.referee import CRASH, Clock
from clinea.judge.report import points_of
from clinea.judge.results import ResultLog, ResultsError
from clinea.judge.sandbox import Sandbox, SandboxError, SeatLimits
from clinea.judge.tournament import GameSpec, Player, Runner
from clinea.players.options import command_parser

if TYPE_CHECKING:  # the page's code is loaded when a page is written
    from clinea.arena.view import Page

STATE = ".league"
RESULTS = "results.jsonl"
ANCHORS = "anchors.json"
#: the rating the first baseline (random, by default) is anchored at
ANCHOR_ELO = 0.0
ANCHORS_LIMIT = 64 * KIB
# new games valued for the page in one round, and the page thread's niceness
PAGE_BATCH = 200
PAGE_NICENESS = 10
# how long a worker waits between looks for a game to play when none is due
IDLE = 0.1

EPILOG = f"""The folder: executables, .py bots (choose(board) or a Bot subclass) and
subfolders holding a `bot` or `bot.py` are the bots, named after the file
(mybot.py -> mybot) or the subfolder; {CONFIG} (optional) sets the board,
the clock and the league, and enters registered players by name. Drop a
bot in and it is rated within a minute or so; remove it and its games stop.
The standings go to standings.txt and standings.html (the replay page of
`clinea view`, reloading itself); the games to .league/results.jsonl.
Ctrl-C stops; a league killed any way resumes where it was when started again.

{CONFIG}, every key optional:

{EXAMPLE}
examples:
  mkdir league && clinea new-bot league/mybot.py && clinea league league
  clinea league league --example-config > league/{CONFIG}"""


class League:
    """A league folder at work: its settings, players, games and standings."""

    def __init__(self, folder: str, settings: Settings, sandbox: Sandbox):
        self.folder = folder
        self.settings = settings
        self.state = os.path.join(folder, STATE)
        self.results_path = os.path.join(self.state, RESULTS)
        self.anchors_path = os.path.join(self.state, ANCHORS)
        self.baselines = list(settings.baselines)
        self.schedule = LeagueSchedule(self.baselines, settings.calibration_games, settings.rating_games,
                                       settings.max_games)
        self.records: list[GameRecord] = []
        self.log = ResultLog(self.results_path, self._loaded)
        self._check_header()
        self.anchors = self._read_anchors()
        if self.anchors is None and self.schedule.calibrated():
            self._anchor()  # killed between the last calibration game and the anchors' file
        self.bots: dict[str, tuple[str, ...]] = {}  # playing now: name -> command
        self.registered = {name: tuple(registered_command(line, settings.time_per_move))
                           for name, line in settings.players.items()}
        self.watch = FolderWatch(folder, set(self.baselines) | set(self.registered))
        try:
            self.config_stamp: int | None = os.stat(os.path.join(folder, CONFIG)).st_mtime_ns
        except OSError:
            self.config_stamp = None
        self.lock = threading.Lock()
        self.changed = threading.Event()
        size = settings.rules

        def clock() -> Clock:
            return Clock(per_move=settings.time_per_move)

        players = [Player(name, registered_command(settings.baselines[name], settings.time_per_move))
                   for name in self.baselines]
        self.runner = Runner(players, size, clock, settings.concurrency, sandbox=sandbox)
        self.stopping = False  # set on the way out: a crash then is the league's own kill
        self.page: Page | None = None
        self.paged = 0  # records already on the page
        self.page_due = threading.Event()
        self.page_news: tuple[list[GameRecord], str, str] = ([], "", "")

    # ------------------------------------------------------------ state

    def _loaded(self, record: GameRecord) -> None:
        self.records.append(record)
        self.schedule.finished(record.id)

    def _check_header(self) -> None:
        """A new folder gets its run header; a folder's later runs must keep its game settings."""
        game = self.settings.game()
        if self.log.header is None:
            self.log.write_header({"argv": ["league", os.path.abspath(self.folder)], "league": game})
            return
        stored = self.log.header.get("league")
        if not isinstance(stored, dict):
            raise LeagueError(f"{self.results_path}: the results of a `clinea judge` run, not of a league: "
                              "start the league in another folder")
        if stored != game:
            differences = [f"{key}: {stored.get(key)!r} before, {value!r} now" for key, value in game.items()
                           if stored.get(key) != value]
            raise LeagueError(f"{self.folder}: {CONFIG} changed what its games were played under "
                              f"({'; '.join(differences)}): put it back, or start a league in another folder")

    def _read_anchors(self) -> dict[str, float] | None:
        if not os.path.exists(self.anchors_path):
            return None
        try:
            data = json_value(read_text(self.anchors_path, ANCHORS_LIMIT))
        except (OSError, ValueError) as error:
            raise LeagueError(f"{self.anchors_path}: unreadable ({error}): remove it to measure the baselines "
                              "again from their games") from None
        if not (isinstance(data, dict) and set(data) == set(self.baselines)
                and all(isinstance(v, (int, float)) for v in data.values())):
            raise LeagueError(f"{self.anchors_path}: not the ratings of the baselines {', '.join(self.baselines)}")
        return {name: float(value) for name, value in data.items()}

    def _anchor(self) -> None:
        """Once the calibration games are in: the baselines' ratings, fitted
        from those games alone (the first baseline at ANCHOR_ELO), stored for
        good. Written whole (a rename), so a kill leaves the old state or the new."""
        calibration = [(r.players[0], r.players[1], points_of(r, r.players[0])) for r in self.records
                       if set(r.players) <= set(self.baselines)]
        ratings = fit(pair_scores(calibration), {self.baselines[0]: ANCHOR_ELO}, self.settings.prior_draws)
        self.anchors = {name: round(ratings[name].elo, 1) for name in self.baselines if name in ratings}
        if len(self.anchors) != len(self.baselines):
            raise FitError("a baseline played no calibration game")
        temporary = self.anchors_path + ".new"
        with open(temporary, "w", encoding="utf-8") as file:
            json.dump(self.anchors, file, indent=1)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, self.anchors_path)
        print("clinea league: baselines anchored: "
              + ", ".join(f"{name} {elo:+.0f}" for name, elo in self.anchors.items()), file=sys.stderr, flush=True)

    # ------------------------------------------------------------ players

    def look(self) -> None:
        """Looks at the folder: new bots join, removed ones leave. (The
        runner's lock is never taken under the league's: on_record takes
        them the other way round.)"""
        self.reread_players()
        wanted = {name: entry.command for name, entry in self.watch.look().items()}
        wanted.update(self.registered)
        with self.lock:
            leaving = [name for name, command in self.bots.items() if wanted.get(name) != command]
            for name in leaving:
                del self.bots[name]  # from now on its games count for nothing
            self.schedule.bots = sorted(self.bots)
        for name in leaving:
            self.runner.remove_player(name)
            print(f"clinea league: {name} left", file=sys.stderr, flush=True)
        joining = {name: command for name, command in wanted.items() if name not in self.bots}
        for name, command in joining.items():
            self.runner.add_player(Player(name, list(command)))
            print(f"clinea league: {name} joined", file=sys.stderr, flush=True)
        with self.lock:
            self.bots.update(joining)
            self.schedule.bots = sorted(self.bots)
        if leaving or joining:
            self.changed.set()

    def reread_players(self) -> None:
        """[players] of league.toml again: registered players come and go
        like bots. A config that cannot be read, or changes what the games
        are played under, keeps the players as they were (said once)."""
        path = os.path.join(self.folder, CONFIG)
        try:
            stamp = os.stat(path).st_mtime_ns
        except OSError:
            stamp = None
        if stamp == self.config_stamp:
            return
        self.config_stamp = stamp
        try:
            settings = read_settings(self.folder)
            if settings.game() != self.settings.game():
                raise LeagueError(f"{path}: changes what the games are played under: "
                                  "ignored (a restart refuses it)")
        except LeagueError as error:
            self.watch.warn(f"{CONFIG}@{stamp}", str(error))
            return
        self.registered = {name: tuple(registered_command(line, settings.time_per_move))
                           for name, line in settings.players.items()}
        self.watch.taken = set(self.baselines) | set(self.registered)

    # ------------------------------------------------------------ games

    def specs(self, stop: threading.Event) -> Iterator[GameSpec]:
        """The games to play, chosen as workers get free; waits while none is due."""
        while not stop.is_set():
            with self.lock:
                spec = self.schedule.next(self.anchors is not None)
            if spec is not None:
                yield spec
            else:
                time.sleep(IDLE)

    def on_record(self, record: GameRecord) -> None:
        """A game ended (under the runner's lock): to the file at once, unless
        a player left meanwhile (its game was stopped, and counts for nothing)."""
        with self.lock:
            present = set(self.baselines) | set(self.bots)
            if not set(record.players) <= present or (self.stopping and record.end == CRASH):
                self.schedule.dropped(record.id)
                return
            self.log.append(record)
            self.records.append(record)
            self.schedule.finished(record.id)
            if self.anchors is None and self.schedule.calibrated():
                self._anchor()
            self.changed.set()

    def on_skip(self, spec: GameSpec) -> None:
        """A game not played: a player of it left before it started."""
        with self.lock:
            self.schedule.dropped(spec.id)

    # ------------------------------------------------------------ standings

    def write_standings(self) -> None:
        """standings.txt and .json, each written whole (a rename); the page
        (standings.html) is the page thread's, told there is news."""
        with self.lock:
            bots = sorted(self.bots)
            records = list(self.records)
            rated = {name: self.schedule.rated(name) for name in bots}
            anchors = self.anchors
        table = standings(records, self.baselines, bots, anchors, rated, self.settings.prior_draws)
        s = self.settings
        title = (f"clinea league {os.path.basename(os.path.abspath(self.folder))}: {s.columns}x{s.rows}, "
                 f"c = {s.c}, p = {s.p}, {s.time_per_move:g} s a move")
        write_whole(os.path.join(self.folder, "standings.txt"), text(table, title))
        write_whole(os.path.join(self.folder, "standings.json"),
                    json.dumps({"games": table.games, "anchored": anchors is not None, "players": json_rows(table)},
                               indent=1) + "\n")
        with self.lock:
            self.page_news = (records, html_section(table, title), title)
        self.page_due.set()

    def write_page(self) -> None:
        """standings.html: the replay page of the latest games, valued here
        (at most PAGE_BATCH new games a time, so the page keeps up however
        fast games come), with the latest standings above them."""
        from clinea.arena.view import Page, render

        with self.lock:
            records, section, title = self.page_news
        page = self.page if self.page is not None else Page(self.settings.solve_time)
        self.page = page
        start = max(self.paged, len(records) - self.settings.replays)
        for record in records[start:start + PAGE_BATCH]:
            page.add(self.results_path, record)
        self.paged = min(len(records), start + PAGE_BATCH)
        if self.paged < len(records):
            self.page_due.set()  # more to value: the next round goes on at once
        del page.games[:-self.settings.replays or None]
        data = page.data(self.results_path, self.log.header or {})
        write_whole(os.path.join(self.folder, "standings.html"), render(data, self.settings.refresh, section, title))

    def page_loop(self, stop: threading.Event) -> None:
        """The page thread: rewrites standings.html when there is news, at
        a low priority (valuing games must not slow the games' seats)."""
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), PAGE_NICENESS)
        except (AttributeError, OSError):  # not Linux, where a thread has a priority of its own
            pass
        while not stop.is_set():
            if self.page_due.wait(0.2):
                self.page_due.clear()
                self.write_page()

    # ------------------------------------------------------------ run

    def run(self, stop: threading.Event) -> None:
        """Plays until `stop` is set, looking at the folder and rewriting the standings."""
        errors: list[BaseException] = []

        def guarded(work: Callable[[], None]) -> Callable[[], None]:
            def body() -> None:
                try:
                    work()
                except BaseException as error:  # surfaced below, in the main thread
                    errors.append(error)
                    stop.set()
            return body

        self.look()
        self.write_standings()
        games = threading.Thread(target=guarded(lambda: self.runner.run(self.specs(stop), self.on_record,
                                                                        self.on_skip)), daemon=True)
        pages = threading.Thread(target=guarded(lambda: self.page_loop(stop)), daemon=True)
        games.start()
        pages.start()
        written = time.monotonic()
        while not stop.is_set():
            stop.wait(self.settings.poll)
            self.look()
            if self.changed.is_set() and time.monotonic() - written >= self.settings.refresh:
                self.changed.clear()
                self.write_standings()
                written = time.monotonic()
        with self.lock:
            self.stopping = True
        self.runner.stop.set()
        end_all_games()  # the games in flight end now as crashes, not written: played again next time
        games.join(timeout=10)
        self.log.close()
        pages.join(timeout=60)
        self.write_standings()
        if not pages.is_alive():
            self.write_page()
        if errors and not isinstance(errors[0], KeyboardInterrupt):
            raise errors[0]


def write_whole(path: str, content: str) -> None:
    """Writes `path` through a temporary file and a rename: a reader (a
    browser reloading the page) never sees half of it."""
    temporary = path + ".new"
    with open(temporary, "w", encoding="utf-8") as file:
        file.write(content)
    os.replace(temporary, path)


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("clinea league",
                            "Run a folder of bots as a league: every bot dropped in is rated against fixed-rating "
                            "baselines on the judge's sandboxed seats; standings with Elo and 95 % intervals.",
                            EPILOG)
    parser.add_argument("folder", metavar="DIR", nargs="?", help="the league's folder")
    parser.add_argument("--example-config", action="store_true",
                        help=f"print an example {CONFIG} with every setting and exit (default: off)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.example_config:
        print(EXAMPLE, end="")
        return 0
    if args.folder is None:
        parser.error("DIR is required: the folder of the league's bots")
    if os.path.isfile(args.folder):
        parser.error(f"DIR {args.folder!r} is a file, not a folder: give the folder that holds the bots")
    if not os.path.isdir(args.folder):
        parser.error(f"DIR {args.folder!r}: no such folder")
    reaper.become_undumpable()
    stop = threading.Event()
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda number, frame: stop.set())
    try:
        settings = read_settings(args.folder)
        os.makedirs(os.path.join(args.folder, STATE), exist_ok=True)
        hidden = os.path.abspath(os.path.join(args.folder, STATE))
        sandbox = Sandbox(settings.sandbox, SeatLimits(), (hidden,))
        print(sandbox.describe(), file=sys.stderr, flush=True)
        league = League(args.folder, settings, sandbox)
    except (LeagueError, ResultsError, SandboxError, OSError) as error:
        print(f"clinea league: {error}", file=sys.stderr)
        return 2
    try:
        league.run(stop)
    except OSError as error:  # the results file could not be written (a full disk)
        print(f"clinea league: cannot write to {league.results_path} ({error.strerror or error}): stopped; "
              "every game written is kept, and the league resumes from them when started again", file=sys.stderr)
        return EXIT_RESULTS_UNWRITABLE
    finally:
        kill_all()
        sandbox.close()
    print(f"clinea league: stopped; {len(league.records)} games in {league.results_path}", file=sys.stderr)
    return 0

