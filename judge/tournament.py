"""Matches and tournaments: who plays whom, with which colour, who moves
first and from which opening; and the run itself, game by game or several
at once, each finished game going straight to the result log.

Every game has a stable id derived from the schedule, which depends only on
the options and the seed; so a resumed run skips exactly the games already
logged.
"""
from __future__ import annotations

import itertools
import os
import random
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from clinea.core import Board, Rules
from clinea.judge.course_log import CourseTranscript
from clinea.judge.openings import opening_stream
from clinea.judge.placement import Cores, Placement
from clinea.judge.process_seat import ProcessSeat, Transcript
from clinea.judge.record import GameRecord
from clinea.judge.referee import Clock, GameResult, Seat, TimeControl, referee
from clinea.judge.sandbox import Sandbox, program_folders
from clinea.protocol import COLOURS


@dataclass
class Player:
    name: str
    command: list[str] | None  # None: a human at the terminal
    time_control: TimeControl | None = None  # a game clock of its own (--tc), else the run's


@dataclass
class GameSpec:
    id: str
    first: str                     # the player who makes the first ply
    second: str
    colours: tuple[str, str]       # colours of first and second
    opening: list[int] = field(default_factory=list)


def random_opening(rng: random.Random, rules: Rules, plies: int) -> list[int]:
    """`plies` uniformly random moves that do not end the game (fewer if the
    board leaves no such move)."""
    board = Board(*rules)
    for _ in range(plies):
        safe = [col for col in board.legal_columns()
                if not board.is_winning_move(col) and board.moves_played + 1 < board.max_moves]
        if not safe:
            break
        board.play(rng.choice(safe))
    return board.moves()


def pair_openings(rng: random.Random, rules: Rules, plies: int,
                  book: Sequence[list[int]] | None, order: str) -> Iterator[list[int]]:
    """The opening of each game pair: from the `book` (clinea.judge.openings)
    when there is one, else `plies` random plies."""
    if book:
        return opening_stream(book, order, rng)
    return (random_opening(rng, rules, plies) for _ in itertools.count())


def course_schedule(blue: str, red: str, games: int | None, first: str | None, seed: int,
                    rules: Rules, openings: int = 0, book: Sequence[list[int]] | None = None,
                    order: str = "sequential") -> Iterator[GameSpec]:
    """The course judge's match: `blue` always azul, `red` always rojo; the
    first player is `first` ("azul"/"rojo") or drawn at random per game. With
    openings (K random plies or a `book`), games go in pairs from the same
    opening with the first move swapped.
    Made as they are played: a million games cost no memory up front, and
    `games` None is the course's match without --iterations: until stopped."""
    rng = random.Random(seed)
    opening: list[int] = []
    stream = pair_openings(rng, rules, openings, book, order) if openings or book else None
    for k in itertools.count() if games is None else range(games):
        if stream is not None:
            if k % 2 == 0:
                opening = next(stream)
            blue_first = (k % 2 == 0) if first is None else first == "azul"
        else:
            blue_first = rng.random() < 0.5 if first is None else first == "azul"
        names = (blue, red) if blue_first else (red, blue)
        colours = ("azul", "rojo") if blue_first else ("rojo", "azul")
        yield GameSpec(f"{k}", names[0], names[1], colours, list(opening))


def pairings(names: Sequence[str], kind: str) -> list[tuple[str, str]]:
    """Round-robin: every pair once; gauntlet: the first player against each other."""
    if kind == "gauntlet":
        return [(names[0], other) for other in names[1:]]
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]


def tournament_schedule(names: Sequence[str], kind: str, games: int | None, seed: int,
                        rules: Rules, openings: int = 0, book: Sequence[list[int]] | None = None,
                        order: str = "sequential") -> Iterator[GameSpec]:
    """Every pairing plays `games` games: game k has player A first when k is
    even, and A azul when k // 2 is even, so each four games cover every
    colour and move order; with openings, games 2j and 2j+1 share one (a
    book's sequential order starts over for each pairing, so every pairing
    plays the same openings). `games` None: endless, for a single pairing
    stopped by its SPRT."""
    rng = random.Random(seed)
    for a, b in pairings(names, kind):
        opening: list[int] = []
        stream = pair_openings(rng, rules, openings, book, order) if openings or book else None
        for k in itertools.count() if games is None else range(games):
            if stream and k % 2 == 0:
                opening = next(stream)
            yield pairing_game(a, b, k, opening)


def pairing_game(a: str, b: str, k: int, opening: Sequence[int] = ()) -> GameSpec:
    """Game k of the pairing a-b, under its stable id `a|b|k`: A first
    when k is even, A azul when k // 2 is even."""
    a_colour = COLOURS[(k // 2) % 2]
    b_colour = COLOURS[1 - (k // 2) % 2]
    if k % 2 == 0:
        return GameSpec(f"{a}|{b}|{k}", a, b, (a_colour, b_colour), list(opening))
    return GameSpec(f"{a}|{b}|{k}", b, a, (b_colour, a_colour), list(opening))


def record(spec: GameSpec, rules: Rules, result: GameResult) -> GameRecord:
    """The results-file record of a game played from `spec`."""
    names = (spec.first, spec.second)
    return GameRecord(spec.id, *rules, names, spec.colours, tuple(spec.opening), tuple(result.moves),
                      tuple(round(t, 6) for t in result.times),
                      None if result.winner is None else names[result.winner], result.end, result.detail,
                      None if result.forfeit is None else names[result.forfeit],
                      *measured_cpu(result))


def measured_cpu(result: GameResult) -> tuple[tuple[float | None, ...], tuple[float | None, ...]]:
    """(cpu, waited) of the record, to the microsecond; both empty where no
    answer's CPU was measured (an in-process bot, a seat with no cgroup)."""
    if not any(used is not None or waited is not None for used, waited in result.cpu):
        return (), ()
    cpu, waited = zip(*result.cpu, strict=True)
    return tuple(None if t is None else round(t, 6) for t in cpu), tuple(None if t is None else round(t, 6) for t in waited)


def play_game(seats: dict[str, Seat], spec: GameSpec, rules: Rules, clock: Clock,
              on_move: Callable[[Board], object] | None = None) -> GameRecord:
    """One game from its spec to its record, on `seats` (by player name),
    which stay open for the next game: the unit any runner schedules."""
    result = referee((seats[spec.first], seats[spec.second]), Board(*rules), spec.opening, clock,
                     spec.colours, on_move)
    return record(spec, rules, result)


class Runner:
    """Plays a schedule with `concurrency` workers. Each worker owns one
    process per player, reused from game to game (the course judge's way) and
    restarted by its seat after a forfeit. With `same_core`, each worker and
    its players share a CPU while they answer fast (clinea.judge.placement)."""

    def __init__(self, players: Sequence[Player], rules: Rules,
                 clock_factory: Callable[[], Clock], concurrency: int = 1,
                 log_dir: str | None = None, human_factory: Callable[[str], Seat] | None = None,
                 on_move_factory: Callable[[GameSpec], Callable[[Board], object]] | None = None,
                 course_log_dir: str | None = None, sandbox: Sandbox | None = None, same_core: bool = True):
        self.players = {player.name: player for player in players}
        # every seat confined (clinea.judge.sandbox), out of sight of the others' folders
        self.sandbox = sandbox
        self.folders = {player.name: program_folders(player.command) for player in players if player.command}
        self.rules = rules
        self.clock_factory = clock_factory
        self.concurrency = max(1, concurrency)
        self.log_dir = log_dir
        self.human_factory = human_factory
        self.on_move_factory = on_move_factory
        # the course judge's transcripts, log/player_communicator_<colour>.log
        self.course_log_dir = course_log_dir
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.retired: set[str] = set()  # players removed while the run goes on
        self.live_seats: list[dict[str, Seat]] = []  # each running worker's seats
        self.cores = Cores() if same_core else None
        self.placements: dict[int, Placement] = {}  # each running local worker's

    def seats_for_worker(self, worker: int) -> tuple[dict[str, Seat], list[Transcript]]:
        seats: dict[str, Seat] = {}
        logs: list[Transcript] = []
        for name in list(self.players):
            seats[name] = self.seat(name, worker, logs)
        return seats, logs

    def seat(self, name: str, worker: int, logs: list[Transcript]) -> Seat:
        """Worker `worker`'s seat for player `name` (its transcript, if any,
        added to `logs`); a program's process starts with its first game."""
        player = self.players[name]
        if player.command is None:
            assert self.human_factory is not None, f"{name} is a human seat, and there is no human factory"
            return self.human_factory(name)
        log: Transcript | None = None
        if self.log_dir:
            os.makedirs(self.log_dir, exist_ok=True)
            suffix = "" if self.concurrency == 1 else f".{worker}"
            text = open(os.path.join(self.log_dir, f"{safe_name(name)}{suffix}.log"), "a", encoding="utf-8",
                        buffering=1)  # each of the seat's writes, whole lines, reaches the file at once
            log = text
            logs.append(text)
        elif self.course_log_dir:
            transcript = CourseTranscript.open(self.course_log_dir, name, whole_games=self.concurrency > 1)
            log = transcript
            logs.append(transcript)
        others = [folder for other, folders in self.folders.items() if other != name for folder in folders]
        return ProcessSeat(name, player.command, log, sandbox=self.sandbox, others=others,
                           placement=self.placements.get(worker))

    # A league's players come and go while it runs (clinea.arena.league): a new
    # one gets its seats at its first game, a removed one loses its seats
    # and the games it is playing end at once.

    def add_player(self, player: Player) -> None:
        """Lets `player` into the games scheduled from now on."""
        with self.lock:
            self.players[player.name] = player
            self.folders[player.name] = program_folders(player.command) if player.command else []
            self.retired.discard(player.name)

    def remove_player(self, name: str) -> None:
        """Takes `name` out: its processes are killed (a game it is playing
        ends at once as its crash; the caller decides whether such a game
        counts), and each worker closes its seats before its next game."""
        with self.lock:
            self.players.pop(name, None)
            self.folders.pop(name, None)
            self.retired.add(name)
            seats = [seats[name] for seats in self.live_seats if name in seats]
        for seat in seats:
            if isinstance(seat, ProcessSeat):
                seat.end_game()

    def seat_up(self, seats: dict[str, Seat], logs: list[Transcript], worker: int, spec: GameSpec) -> bool:
        """Before a worker's game: seats for players new since its start,
        none any more for removed ones. False when a player of the game
        was removed since it was scheduled: it is not played."""
        with self.lock:
            gone = [name for name in seats if name in self.retired]
            for name in gone:
                seat = seats.pop(name)
                if isinstance(seat, ProcessSeat):
                    seat.kill()
            if spec.first not in self.players or spec.second not in self.players:
                return False
            for name in (spec.first, spec.second):
                seated = seats.get(name)
                if isinstance(seated, ProcessSeat) and seated.command != self.players[name].command:
                    seated.kill()  # removed and added again as another program meanwhile
                    seated = None
                if seated is None:
                    seats[name] = self.seat(name, worker, logs)
            return True

    def play(self, seats: dict[str, Seat], spec: GameSpec) -> GameRecord:
        """One game of the schedule at one worker's seats (local threads and
        Ray's tables alike)."""
        on_move = self.on_move_factory(spec) if self.on_move_factory else None
        clock = self.clock_factory()
        clock.controls = (self.players[spec.first].time_control, self.players[spec.second].time_control)
        return play_game(seats, spec, self.rules, clock, on_move)

    def run(self, specs: Iterable[GameSpec], on_record: Callable[[GameRecord], None],
            on_skip: Callable[[GameSpec], None] = lambda spec: None) -> None:
        """Plays `specs` (taken one at a time, as workers get free: the schedule may be endless), calling
        `on_record` (under a lock) as each game ends, and `on_skip` for a game
        not played as a player of it was removed meanwhile; `self.stop` set by
        on_record (SPRT) ends the run after the games in flight."""
        todo = iter(specs)
        taking = threading.Lock()
        errors: list[BaseException] = []

        def worker(index: int) -> None:
            placement = None
            if self.cores is not None:
                placement = self.placements[index] = Placement(self.cores)
                placement.settle()  # before its players start: they inherit its CPU
            seats, logs = self.seats_for_worker(index)
            with self.lock:
                self.live_seats.append(seats)
            cut_short = False
            try:
                while not self.stop.is_set():
                    with taking:
                        spec = next(todo, None)
                    if spec is None:
                        return
                    if not self.seat_up(seats, logs, index, spec):
                        on_skip(spec)
                        continue
                    game = self.play(seats, spec)
                    with self.lock:
                        on_record(game)
                    if placement is not None:
                        placement.between_games()
            except BaseException as error:  # surfaced in the main thread below
                errors.append(error)
                self.stop.set()
                cut_short = True
            finally:
                with self.lock:
                    self.live_seats.remove(seats)
                close_seats(seats, logs, cut_short)
                if placement is not None:
                    placement.close()
                    self.placements.pop(index, None)

        if self.concurrency == 1:
            worker(0)
        else:
            threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(self.concurrency)]
            for thread in threads:
                thread.start()
            for thread in threads:
                while thread.is_alive():  # a timed join lets the main thread take signals
                    thread.join(0.2)
        if errors:
            raise errors[0]


def close_seats(seats: dict[str, Seat], logs: Sequence[Transcript], cut_short: bool = False) -> None:
    """The end of a worker: its players are told `salir` and their process
    groups killed, then its transcripts closed. `salir` in the middle of a
    game is a protocol error to a player: a game cut short (Ctrl-C, an
    error) ends its players without a word."""
    for seat in seats.values():
        if isinstance(seat, ProcessSeat):
            if cut_short:
                seat.kill()
            else:
                seat.close()
    for log in logs:
        log.close()


def safe_name(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)
