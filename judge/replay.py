"""`clinea replay`: one seat of one judged game, played again.

The seat's program is started as the judge started it (the same command in
the same folder, the same sandbox and seat limits, the same clock, grace
and start-up grace, all kept in the results file's header, see
clinea.judge.seat_settings) and is sent exactly the lines it received in
that game: its colours, the sizes, `vos`/`el` with the opening, and the
opponent's recorded moves, each after the opponent's recorded thinking
time. The judge's own referee and process seat do the talking and the
judging, so a forfeit is found as the judge found it; the replay shows the
transcript (what was sent, what the program answered, its stderr), the
verdict beside the game's, and the program's exit status.

A program that answers otherwise than in the game (a random bot seeded
per game, one whose state came from earlier games of the same process)
has left the game: the replay stops there and says so, since the
opponent's recorded moves no longer answer its own.
"""
from __future__ import annotations

import argparse
import io
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from clinea.core import Board
from clinea.judge import seat_settings
from clinea.judge.player_process import kill_all
from clinea.judge.process_seat import ProcessSeat
from clinea.judge.record import GameRecord
from clinea.judge.referee import Seat, referee
from clinea.judge.results import ResultsError, find_game, key_path
from clinea.judge.sandbox import Sandbox, SandboxError, program_folders
from clinea.judge.seat_settings import SeatSettings
from clinea.players.options import command_parser

# The verdict of a replay that played the seat's moves as in the game, up
# to where it was asked to stop or the opponent's forfeit ended the game.
AS_RECORDED = "as in the game"
DIVERGED = "left the game"
# A transcript line longer than this is shown cut, with its length.
SHOWN_LINE = 240

EPILOG = """examples:
  clinea judge --player mine=./mybot.py --player strong --iterations 20 --results run.jsonl
  clinea replay run.jsonl 'mine|strong|7' --seat mine        (why did game 7 end in a forfeit?)
  clinea replay run.jsonl 3 --seat azul --ply 12 --repeat 10 (the first 12 plies, ten times)
GAME is the game's id in the file ("id": a number for a blue/red match, A|B|K in a
tournament). The exit status is 0 when every replay ended as the game did for that
seat, 1 when one did not (another verdict, or different answers), 2 for bad arguments."""


class ReplayEnd(Exception):
    """The replay stops before the game's end: `kind` is AS_RECORDED or
    DIVERGED, the message says where and why."""

    def __init__(self, kind: str, detail: str):
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


@dataclass(frozen=True)
class Outcome:
    """How the seat's part of a game ended: `kind` is a forfeit's kind,
    "connect" or "draw" (the game's end by the rules), AS_RECORDED or
    DIVERGED; `detail` says the rest."""
    kind: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}" if self.detail else self.kind


@dataclass(frozen=True)
class Replay:
    """One replay: what the game had for the seat (`expected`), what the
    replay gave (`outcome`), the seat's transcript lines (`> ` sent,
    `< ` answered, `! ` stderr, `# ` notes) and its exit status (None:
    still running at the end, killed)."""
    expected: Outcome
    outcome: Outcome
    transcript: list[str]
    exit_status: int | None

    @property
    def same(self) -> bool:
        return self.outcome.kind == self.expected.kind


class ScriptedSeat(Seat):
    """The opponent: plays the game's recorded moves, each after its
    recorded thinking time, and stops the replay where the record does."""

    timed = False

    def __init__(self, record: GameRecord, me: int):
        self.record = record
        self.me = me
        self.name = record.players[me]

    def ask(self, board: Board, last: int | None, timeout: float | None) -> object:
        ply = board.moves_played
        record = self.record
        if ply >= len(record.moves):
            raise ReplayEnd(AS_RECORDED, f"{self.name} forfeited at ply {ply + 1} in the game ({record.reason})")
        time.sleep(record.times[ply - len(record.opening)])
        return record.moves[ply]


class ReplayedSeat(ProcessSeat):
    """The judge's process seat, keeping its program's exit status."""

    exit_status: int | None = None

    def kill(self) -> None:
        if self.process is not None:
            self.exit_status = self.process.exit_status(0)
        super().kill()


def expected_outcome(record: GameRecord, seat: int, stop: int) -> Outcome:
    """What the game had for player `seat` within its first `stop` plies."""
    if stop <= len(record.moves):
        return Outcome(AS_RECORDED, f"up to ply {stop}")
    if record.forfeit is not None and record.forfeit != record.players[seat]:
        return Outcome(AS_RECORDED, f"up to {record.forfeit}'s forfeit")
    return Outcome(record.end, record.detail)


def follow(record: GameRecord, stop: int, seat: int) -> Callable[[Board], None]:
    """The referee's `on_move` of a replay: stops it at a move the game did
    not have, or once `stop` plies are played."""
    def on_move(board: Board) -> None:
        ply = board.moves_played
        played = board.moves()[-1]
        if ply > len(record.moves) or record.moves[ply - 1] != played:
            had = f"played {record.moves[ply - 1]}" if ply <= len(record.moves) else f"forfeited ({record.reason})"
            raise ReplayEnd(DIVERGED, f"{record.players[seat]} played {played} at ply {ply}, where in the game it {had}")
        if ply >= stop and not board.is_over():
            raise ReplayEnd(AS_RECORDED, f"up to ply {stop}")
    return on_move


def replay_once(path: str, record: GameRecord, settings: SeatSettings, seat: int, stop: int) -> Replay:
    """Plays player `seat` of `record` (from the results file `path`) again,
    up to ply `stop` or the game's end."""
    name = record.players[seat]
    command = settings.program(name)
    others = [folder for other, words in settings.commands.items() if other != name and words
              for folder in program_folders(words, settings.cwd)]
    sandbox = Sandbox(settings.sandbox, settings.limits, (path, key_path(path)))
    log = io.StringIO()
    program = ReplayedSeat(name, command, log, cwd=settings.cwd, sandbox=sandbox, others=others)
    seats: list[Seat] = [program, program]
    seats[1 - seat] = ScriptedSeat(record, 1 - seat)
    board = Board(record.columns, record.rows, record.c, record.p)
    try:
        result = referee(seats, board, record.opening, settings.clock(*record.players), record.colours,
                         follow(record, stop, seat))
        if result.forfeit is None:
            program.close()
        outcome = Outcome(str(result.end), result.detail)
    except ReplayEnd as end:
        outcome = Outcome(end.kind, end.detail)
    finally:
        program.kill()
        program.flush_log()
        sandbox.close()
    return Replay(expected_outcome(record, seat, stop), outcome, log.getvalue().splitlines(), program.exit_status)


def shown(line: str) -> str:
    return line if len(line) <= SHOWN_LINE else f"{line[:SHOWN_LINE]}... ({len(line) - 2} characters)"


def exit_words(status: int | None) -> str:
    if status is None:
        return "still running at the end of the replay (killed)"
    return f"killed by signal {-status}" if status < 0 else f"exit status {status}"


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("clinea replay",
                            "Play one seat of a judged game again: its program gets exactly the lines it got in "
                            "that game, under the same limits; shows what it answered, its stderr, its exit status "
                            "and whether it ended as in the game.",
                            EPILOG)
    parser.add_argument("results", metavar="RESULTS.jsonl", help="a results file of clinea judge --results")
    parser.add_argument("game", metavar="GAME", help="the game's id in the file")
    parser.add_argument("--seat", metavar="NAME",
                        help="the player to replay (default: the one that forfeited the game)")
    parser.add_argument("--ply", type=int, metavar="N",
                        help="stop after ply N of the game, counted from the empty board with the opening "
                             "(default: the whole game, up to its forfeit)")
    parser.add_argument("--repeat", type=int, default=1, metavar="K",
                        help="replay K times, 1..1000, and count how many end as in the game; the first "
                             "replay's transcript is shown, and any other that ends otherwise (default 1)")
    return parser


def choose_seat(parser: argparse.ArgumentParser, record: GameRecord, name: str | None) -> int:
    """The index of the player to replay."""
    if name is None:
        if record.forfeit is None:
            parser.error(f"game {record.id} ended without a forfeit ({record.reason}): "
                         f"give --seat, one of {', '.join(record.players)}")
        name = record.forfeit
    if name not in record.players:
        parser.error(f"--seat {name!r}: game {record.id} was played by {' and '.join(record.players)}")
    return record.players.index(name)


def main(argv: Sequence[str] | None = None,
         settings_of: Callable[[dict[str, Any]], SeatSettings] = seat_settings.from_header) -> int:
    """`clinea replay`; `settings_of` reads a run header's seat settings
    (the arena's command also knows a league's)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 1 <= args.repeat <= 1000:
        parser.error(f"--repeat {args.repeat} is out of range: allowed 1..1000")
    try:
        header, record, sealed = find_game(args.results, args.game)
        settings = settings_of(header)
    except ResultsError as error:
        parser.error(str(error))
    except LookupError:
        parser.error(f"{args.results}: no game {args.game!r} in it")
    except ValueError as error:
        parser.error(f"{args.results}: its run header: {error}")
    if sealed is False:
        parser.error(f"{args.results}: game {args.game} or the run header was not written by the judge "
                     f"(its seal does not match {key_path(args.results)}): not replayed")
    if not os.path.isdir(settings.cwd):
        parser.error(f"{args.results}: the run's folder {settings.cwd!r} is gone: its programs' paths are relative to it")
    seat = choose_seat(parser, record, args.seat)
    name = record.players[seat]
    if settings.commands.get(name) is None:
        parser.error(f"--seat {name}: a person played it, there is no program to replay")
    lowest = len(record.opening) + 1
    highest = min(record.columns * record.rows, 2 * record.p)  # the longest game there can be
    if args.ply is not None and not lowest <= args.ply <= highest:
        parser.error(f"--ply {args.ply} is out of range: allowed {lowest}..{highest} (after the opening)")
    stop = args.ply or highest + 1
    print(f"game {record.id} of {args.results}: {name} ({record.colours[seat]}, "
          f"{'first' if seat == 0 else 'second'}) against {record.players[1 - seat]}, "
          f"{record.columns}x{record.rows} c={record.c} p={record.p}"
          + (f", opening {' '.join(map(str, record.opening))}" if record.opening else ""))
    print(f"{name}: {' '.join(settings.program(name))} (in {settings.cwd})")
    print(f"{settings.describe()}; sandbox {settings.sandbox}: {settings.limits.describe()}")
    if sealed is None and header.get("sealed"):
        print(f"(the file's seal was not checked: no key {key_path(args.results)})")
    same = 0
    try:
        for attempt in range(1, args.repeat + 1):
            try:
                replay = replay_once(args.results, record, settings, seat, stop)
            except SandboxError as error:
                parser.error(str(error))
            same += replay.same
            if attempt == 1 or not replay.same:
                if args.repeat > 1:
                    print(f"\n-- replay {attempt}")
                print("lines: > sent to the program, < its answers, ! its stderr, # the judge's notes")
                print("\n".join(shown(line) for line in replay.transcript))
                print(f"the game: {replay.expected}")
                print(f"replay:   {replay.outcome}" + ("" if replay.same else "   (NOT as in the game)"))
                print(f"program:  {exit_words(replay.exit_status)}")
            elif args.repeat > 1:
                print(f"-- replay {attempt}: {replay.outcome}")
    finally:
        kill_all()
    if args.repeat > 1:
        print(f"{same}/{args.repeat} replays ended as in the game")
    return 0 if same == args.repeat else 1


if __name__ == "__main__":
    sys.exit(main())
