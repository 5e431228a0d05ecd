"""One run of the judge, from its schedule to its summary, with no command
line in sight: `clinea judge` parses and wires, a `Match` plays.

A Match owns what a run keeps while it plays: the schedule still to play,
the results file (a game is counted once the file holds it, never before),
the standings, the SPRT stop, the interrupt flag (Ctrl-C ends the games in
flight and counts the ones already told their result) and how the run
ended. Watchers (the progress bar, the window) are hooks called with each
counted game.
"""
from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from clinea.judge.player_process import end_all_games, kill_all
from clinea.judge.record import GameRecord
from clinea.judge.referee import CRASH
from clinea.judge.report import Standings, summary
from clinea.judge.results import ResultLog
from clinea.judge.stats import Sprt, SprtDecision, sprt_decision
from clinea.judge.tournament import GameSpec
from clinea.judge.ui import MatchStopped
from clinea.ray_cluster import RayFailure

if TYPE_CHECKING:
    from clinea.judge.sandbox import Sandbox


class GameRunner(Protocol):
    """What plays the games: the local Runner or Ray's."""

    stop: threading.Event

    def run(self, specs: Iterable[GameSpec], on_record: Callable[[GameRecord], None]) -> None: ...


@dataclass
class MatchEnd:
    """How a run ended: played out (every field empty), or why not."""
    decision: SprtDecision | None = None  # the SPRT stopped it
    stopped: str | None = None            # the window was closed
    ray_failure: RayFailure | None = None
    unwritable: OSError | None = None     # the results file could not be written (a full disk)
    interrupted: bool = False             # Ctrl-C


class Match:
    """Plays `specs` on `runner`, counting each game in `standings` once
    `log` (if any) holds it. `sprt` tests `pair` (the first name against the
    second) after every game and stops the run at a decision. `header` is
    written to a new results file before the first game. `catch_interrupt`:
    Ctrl-C becomes a flag (not with a human at the terminal, whose input()
    only an exception ends)."""

    def __init__(self, runner: GameRunner, specs: Iterable[GameSpec], standings: Standings,
                 log: ResultLog | None = None, sprt: Sprt | None = None, pair: tuple[str, str] | None = None,
                 header: dict[str, Any] | None = None, catch_interrupt: bool = True) -> None:
        if sprt is not None and pair is None:
            raise ValueError("an SPRT needs the pair of players it tests")
        self.runner = runner
        self.standings = standings
        self.log = log
        self.specs = specs if log is None else (spec for spec in specs if spec.id not in log.done)
        self.sprt = sprt
        self.pair = pair
        self.header = header
        self.catch_interrupt = catch_interrupt
        self.hooks: list[Callable[[GameRecord], object]] = []
        self.forfeits = 0
        self.end = MatchEnd()
        self.interrupted = threading.Event()

    def decide(self) -> SprtDecision | None:
        if self.sprt is None or self.pair is None:
            return None
        first, second = self.pair
        tally = self.standings.tally(first, second)
        return sprt_decision(self.sprt, tally.wins, tally.losses, tally.draws,
                             self.standings.pentanomial(first, second))

    def keep(self, write: Callable[[], None]) -> bool:
        """Runs a write to the results file; on failure stops the run, whose
        file keeps every game written so far, each whole (a torn last line
        is cut by --resume)."""
        if self.end.unwritable is None:
            try:
                write()
                return True
            except OSError as error:
                self.end.unwritable = error
                self.runner.stop.set()
        return False

    def on_record(self, record: GameRecord) -> None:
        if self.interrupted.is_set() and record.end == CRASH:
            # the interrupt's kill ends the games in flight as crashes: no result. Any
            # other end is a finished game, whose players were told its result (the
            # last move may have been on its way as Ctrl-C came): it counts
            return
        log = self.log
        # the file first: the tally counts what the file keeps, and no more
        if log is not None and not self.keep(lambda: log.append(record)):
            return
        self.standings.add(record)
        self.forfeits += record.forfeit is not None
        for hook in self.hooks:
            hook(record)
        if self.sprt is not None and self.end.decision is None:
            self.end.decision = self.decide()
            if self.end.decision is not None:
                self.runner.stop.set()

    def interrupt(self, signum: int | None = None, frame: object = None) -> None:
        """Ctrl-C: no game starts any more and the players die, so the games
        in flight end at once as crashes (and count for nothing; a game that
        ends otherwise, as the last move was already on its way, counts).
        Done as a flag, not as an exception, so that it never falls between
        writing a game to the results file and adding it to the tally; the
        kill runs in a thread of its own, as the handler may interrupt code
        holding the players' lock. A second Ctrl-C raises, for what the kill
        does not end at once (games in flight on Ray's workers)."""
        if self.interrupted.is_set() and signum is not None:
            raise KeyboardInterrupt
        self.interrupted.set()
        self.runner.stop.set()
        threading.Thread(target=end_all_games, daemon=True).start()

    def play(self, sandbox: Sandbox | None = None, on_close: Callable[[MatchEnd], None] | None = None) -> MatchEnd:
        """Plays the schedule to its end, a decision, an interrupt or a
        failure; then closes the results file, calls `on_close` (the
        window, the progress bar), kills what is left of the players and
        closes `sandbox`."""
        as_flag = self.catch_interrupt and threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, self.interrupt) if as_flag else None
        log = self.log
        try:
            if self.sprt is not None:
                self.end.decision = self.decide()
            if log is not None and log.header is None and self.header is not None:
                header = self.header
                self.keep(lambda: log.write_header(header))
            if self.end.decision is None and self.end.unwritable is None:
                self.runner.run(self.specs, self.on_record)
        except KeyboardInterrupt:
            self.interrupt()
            kill_all()
        except MatchStopped as stop:
            self.end.stopped = f"stopped: {stop}"
        except RayFailure as failure:
            self.end.ray_failure = failure
        finally:
            if as_flag:
                signal.signal(signal.SIGINT, previous)
            if log is not None:
                try:
                    log.close()
                except OSError as error:
                    self.end.unwritable = self.end.unwritable or error
            self.end.interrupted = self.interrupted.is_set()
            if on_close is not None:
                on_close(self.end)
            kill_all()  # before the seats' cgroups go: a cgroup with processes stays
            if sandbox is not None:
                sandbox.close()
        return self.end

    def summary(self, names: list[str], games_per_pairing: int | None,
                labels: Mapping[str, str] | None = None) -> str:
        """The tally, as the judge prints it at the end (`labels`: as report.summary)."""
        return summary(self.standings, names, games_per_pairing, self.sprt, self.end.decision, labels)
