"""The course's league, running itself inside the server.

Worker threads take the next game in order of need: a new upload's smoke
game against random (its verdict and stderr stored with the game), the
teacher's final round robin once started, then the arena league's schedule
(clinea.arena.league.schedule: the baselines' calibration, every new
version's rating games against the baselines before anything else, then
the field). Each game is played by the judge (clinea.judge.tournament's
Runner, or its Ray backend with --ray) on sandboxed seats with ponder off,
and written to the store with its result in one transaction under its
stable id: after a kill, the games in the store are skipped and only those
in flight are played again.

The standings are fitted from the stored games each time they are asked
for (clinea.arena.league.standings, random anchored at 0).
"""
from __future__ import annotations

import contextlib
import functools
import os
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

from clinea.arena.league.folder import registered_command
from clinea.arena.league.schedule import LeagueSchedule
from clinea.arena.league.standings import Standings, standings
from clinea.core import Rules
from clinea.judge.player_process import end_all_games
from clinea.judge.record import GameRecord
from clinea.judge.referee import Clock
from clinea.judge.sandbox import Sandbox, SeatLimits
from clinea.judge.tournament import GameSpec, Player, Runner, safe_name, tournament_schedule
from clinea.ray_cluster import first_line
from clinea.serve.course import Course
from clinea.serve.store import FINAL, LEAGUE, SMOKE, Game, Version

#: the fixed opponents every version meets: random (anchored at Elo 0) and a weak heuristic
BASELINES = {"random": "random --seed 1", "greedy": "greedy"}
ANCHORS = {"random": 0.0}
CALIBRATION_GAMES = 4   # random against greedy, once in the course's life
RATING_GAMES = 2        # games against each baseline before a new version counts as rated
MAX_GAMES = 40          # games a pairing, after which it rests
PRIOR_DRAWS = 1.0
FINAL_OPENING_PLIES = 2  # the final's game pairs start from the same random opening, colours swapped
FINAL_SEED = 50
IDLE = 0.2              # seconds a worker waits when no game is due
CLOSE_WAIT = 30.0       # seconds the server waits for its league's threads on the way out
STDERR_LIMIT = 64 * 1024  # bytes of a seat's stderr kept per game


@dataclass(frozen=True)
class Task:
    round: str
    spec: GameSpec
    version: Version | None = None  # the upload a smoke game checks


def seat_stderr(logs: str, name: str) -> str:
    """The stderr lines (`! `) of a seat's transcript in `logs`, the last STDERR_LIMIT bytes at most."""
    path = os.path.join(logs, f"{safe_name(name)}.log")
    try:
        with open(path, "rb") as file:
            file.seek(max(0, os.fstat(file.fileno()).st_size - STDERR_LIMIT))
            text = file.read(STDERR_LIMIT).decode("utf-8", "replace")
    except OSError:
        return ""
    return "".join(line[2:] for line in text.splitlines(keepends=True) if line.startswith("! "))


def version_command(entry: str) -> list[str]:
    """How a seat runs an upload: a .py file as `clinea play FILE.py` does
    (a choose(board) or a Bot subclass, no #! line needed), anything else
    as the program it is."""
    return [sys.executable, "-m", "clinea.players", entry] if entry.endswith(".py") else [entry]


def final_specs(names: list[str], games: int, rules: tuple[int, int, int, int]) -> Iterator[GameSpec]:
    """The final round robin: `games` a pair, each pair of games from one opening with colours swapped."""
    for spec in tournament_schedule(sorted(names), "round-robin", games, FINAL_SEED, Rules(*rules),
                                    openings=FINAL_OPENING_PLIES):
        yield replace(spec, id=f"final|{spec.id}")


class CourseLeague:
    def __init__(self, course: Course, concurrency: int, ray_address: str | None = None):
        self.course = course
        self.store = course.store
        settings = course.settings
        self.rules = (settings.columns, settings.rows, settings.c, settings.p)
        self.time_per_move = settings.time_per_move
        self.concurrency = concurrency
        self.ray_address = ray_address
        # strict: a student's bot never runs outside a confined seat (no bubblewrap, no games)
        self.sandbox = Sandbox("strict", SeatLimits(), course.hidden())
        self.baselines = {name: registered_command(line, self.time_per_move) for name, line in BASELINES.items()}
        self.schedule = LeagueSchedule(BASELINES, CALIBRATION_GAMES, RATING_GAMES, MAX_GAMES)
        for game_id in self.store.game_ids(LEAGUE):
            self.schedule.finished(game_id)
        self.lock = threading.Lock()
        self.checking: set[int] = set()        # versions whose smoke game is in flight
        self.final_in_flight: set[str] = set()
        self.final_specs: tuple[object, list[GameSpec]] = (None, [])  # (the final's settings, its games)
        self.stop = threading.Event()
        self.threads: list[threading.Thread] = []
        self.fitted: dict[tuple[object, ...], Standings] = {}  # the last standings, by what they were fitted from
        self.records: dict[str, dict[int, GameRecord]] = {}  # the stored games by round, by row id

    # ------------------------------------------------------------ choice

    def next_task(self) -> Task | None:
        with self.lock:
            for version in self.store.versions("WHERE v.verdict = 'checking' ORDER BY v.id"):
                if version.id not in self.checking:
                    self.checking.add(version.id)
                    return Task(SMOKE, GameSpec(f"smoke|{version.player}", version.player, "random",
                                                ("azul", "rojo")), version)
            done = set(self.store.game_ids(FINAL)) | self.final_in_flight
            for spec in self.final_schedule():
                if spec.id not in done:
                    self.final_in_flight.add(spec.id)
                    return Task(FINAL, spec)
            self.schedule.bots = sorted(version.player for version in self.store.current_versions())
            due = self.schedule.next(self.schedule.calibrated())
            return None if due is None else Task(LEAGUE, due)

    def final_schedule(self) -> list[GameSpec]:
        """The final round robin's games once the teacher has started it
        (made once: its openings are drawn from a fixed seed)."""
        final = self.store.setting("final")
        if final is None:
            return []
        key = (tuple(final["players"]), final["games"])
        if self.final_specs[0] != key:
            self.final_specs = (key, list(final_specs(final["players"], final["games"], self.rules)))
        return self.final_specs[1]

    def finished(self, task: Task, record: GameRecord | None) -> None:
        with self.lock:
            if task.round == SMOKE and task.version is not None:
                self.checking.discard(task.version.id)
            elif task.round == FINAL:
                self.final_in_flight.discard(task.spec.id)
            elif record is None:
                self.schedule.dropped(task.spec.id)
            else:
                self.schedule.finished(task.spec.id)

    # ------------------------------------------------------------ games

    def players(self) -> list[Player]:
        """The baselines and every version, failed and replaced ones too:
        a game seats two of them, and each seat's sandbox hides the folders
        of all the others (the judge's Runner starts a seat's process at its
        first game only)."""
        found = [Player(name, command) for name, command in self.baselines.items()]
        for version in self.store.versions("WHERE v.entry != ''"):
            found.append(Player(version.player, version_command(version.entry)))
        return found

    def play(self, spec: GameSpec) -> tuple[GameRecord | None, tuple[str, str]]:
        """One game on the judge's seats, and each seat's stderr (none on
        Ray, where it stays on the node); no record when a player of it has
        no program."""
        players = self.players()
        if self.stop.is_set() or not {spec.first, spec.second} <= {player.name for player in players}:
            return None, ("", "")
        records: list[GameRecord] = []
        clock = functools.partial(Clock, per_move=self.time_per_move)  # a Ray table is sent it: no closure

        with tempfile.TemporaryDirectory(prefix="clinea-serve-") as logs:
            if self.ray_address is not None:
                from clinea.judge.ray_backend import RayRunner
                playing = [player for player in players if player.name in (spec.first, spec.second)]
                RayRunner(self.ray_address, playing, Rules(*self.rules), clock, 1, None, self.sandbox).run(
                    [spec], records.append)
            else:
                Runner(players, Rules(*self.rules), clock, 1, log_dir=logs, sandbox=self.sandbox,
                       same_core=False).run([spec], records.append)
            stderr = (seat_stderr(logs, spec.first), seat_stderr(logs, spec.second))
        return (records[0] if records else None), stderr

    def run_task(self, task: Task) -> None:
        record: GameRecord | None = None
        try:
            record, stderr = self.play(task.spec)
            if task.round == SMOKE and task.version is not None:
                self.store_smoke(task.version, record, stderr)
            elif record is not None and not self.stop.is_set():
                self.store.add_game(Game(0, task.spec.id, task.round, record, stderr))
        finally:
            self.finished(task, record if not self.stop.is_set() else None)

    def store_smoke(self, version: Version, record: GameRecord | None, stderr: tuple[str, str]) -> None:
        if self.stop.is_set():
            return  # the server is going down: the game was cut, and is played again next time
        if record is None:
            self.store.set_verdict(version.id, "failed", "the game could not be played", stderr[0], None)
            return
        failed = record.forfeit == version.player
        reason = f"{record.reason} against random" if failed else ""
        self.store.set_verdict(version.id, "failed" if failed else "passed", reason, stderr[0],
                               Game(0, record.id, SMOKE, record, stderr))

    def work(self) -> None:
        while not self.stop.is_set():
            task = self.next_task()
            if task is None:
                self.stop.wait(IDLE)
                continue
            try:
                self.run_task(task)
            # one game's failure (a full disk, Ray, a node that cannot start a bot: SystemExit) must not end the league
            except (Exception, SystemExit) as error:
                print(f"clinea serve: game {task.spec.id} not played: {first_line(error)}",
                      file=sys.stderr, flush=True)
                self.stop.wait(1.0)

    # ------------------------------------------------------------ life

    def start(self) -> None:
        self.ray = contextlib.ExitStack()
        if self.ray_address is not None:
            from clinea.ray_cluster import joined
            # joined once for the server's life: each game's runner finds Ray connected
            self.ray.enter_context(joined(self.ray_address))
        for _ in range(self.concurrency):
            thread = threading.Thread(target=self.work, daemon=True, name="clinea-serve-league")
            thread.start()
            self.threads.append(thread)

    def close(self) -> None:
        """Ends the games in flight (they count for nothing: played again at
        the next start) and waits for the league's threads, ending what seat
        a thread was starting meanwhile: none is left starting a process as
        the interpreter exits."""
        self.stop.set()
        deadline = time.monotonic() + CLOSE_WAIT
        while any(thread.is_alive() for thread in self.threads) and time.monotonic() < deadline:
            end_all_games()
            for thread in self.threads:
                thread.join(timeout=0.1)
        self.sandbox.close()
        self.ray.close()

    # ------------------------------------------------------------ standings

    def standings(self, final: bool = False) -> Standings:
        """Fitted from the stored games: the live league's, or the final's;
        fitted again only when a game or a version has come since (every
        page and API call shows them, the games come every few seconds)."""
        round_name = FINAL if final else LEAGUE
        if final:
            names = (self.store.setting("final") or {}).get("players", [])
        else:
            names = list(BASELINES) + [version.player for version in self.store.current_versions()]
        bots = [name for name in names if name not in BASELINES]
        with self.lock:
            records = self.records.setdefault(round_name, {})
            for game in self.store.games("WHERE round = ? AND id > ? ORDER BY id", round_name, next(reversed(records), 0)):
                records[game.id] = game.record  # games are only ever added: read each once
            key = (round_name, tuple(names), len(records))
            if key in self.fitted:
                return self.fitted[key]
            rated = {name: self.schedule.rated(name) for name in bots}
            games = list(records.values())
        table = standings(games, list(BASELINES), bots, ANCHORS, rated, PRIOR_DRAWS)
        with self.lock:
            self.fitted = {old: kept for old, kept in self.fitted.items() if old[0] != round_name} | {key: table}
        return table
