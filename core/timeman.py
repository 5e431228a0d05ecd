"""Time management: what a search may spend (`Limits`), what it found
(`SearchResult`), and how one move's time and nodes are shared between the
searches that make it (`TimeManager`).

Every searching player goes through here: the players never read a clock
themselves, and the searches (`clinea.core.search`, `clinea.core.solver`)
only obey the budget they are handed (in C, on `clinea.core.clock`'s
monotonic clock, the one `time.monotonic` reads).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TypeVar

from clinea.bounded import TooLarge, read_file

Found = TypeVar("Found")

# The measurements behind these values: docs/TUNING.md.
#: the searches' share of a move, and a reserve for the driver and a loaded machine
TIME_FRACTION = 0.8
#: the share for searches that each stop within a millisecond of their deadline
PRECISE_TIME_FRACTION = 0.95
TIME_RESERVE = 0.02
TIME_RESERVE_SHARE = 0.1
#: the least a search is given: two of its clock reads, so a spent move still finds a move
MIN_SECONDS = 0.0002
#: iterative deepening starts no iteration after this share of its time
ITERATION_START_SHARE = 0.4
#: Linux's scheduling figures of the calling thread: its CPU time, its time
#: waiting for a core and how many times it ran, in one short line
SCHEDSTAT = "/proc/thread-self/schedstat"
SCHEDSTAT_LIMIT = 256


@dataclass(frozen=True)
class Limits:
    """What a search may spend; 0 means no limit.

    `time`: seconds; `nodes`: positions visited; `depth`: plies (iterative
    deepening only). `reserve`: seconds of `time` kept for a machine that
    stops the process between two nodes, the longest such stall known: the
    search stops that long before its deadline, and longer once it sees a
    longer stall itself (`clinea.core.clock`'s Deadline)."""

    time: float = 0.0
    nodes: int = 0
    depth: int = 0
    reserve: float = 0.0

    def __post_init__(self) -> None:
        if not self.time >= 0:
            raise ValueError(f"time={self.time} is out of range: allowed 0 (no limit) or more seconds")
        if self.nodes < 0:
            raise ValueError(f"nodes={self.nodes} is out of range: allowed 0 (no limit) or more")
        if self.depth < 0:
            raise ValueError(f"depth={self.depth} is out of range: allowed 0 (no limit) or more plies")
        if not self.reserve >= 0:
            raise ValueError(f"reserve={self.reserve} is out of range: allowed 0 or more seconds")


def unbounded(found: Found | None) -> Found:
    """What a search given no limit found. Its None means "the budget ran
    out", which cannot happen without a budget: raised as the bug it is."""
    if found is None:
        raise AssertionError("a search without limits reported its budget spent")
    return found


@dataclass
class SearchResult:
    """What a search found.

    `score` is on the scale of the search that found it (see `source`):
    the solver's exact scores (`weak`: only 1 win, 0 draw, -1 loss) or the
    heuristic search's scores, where beyond +-MATE_SCORE a win or loss is
    proven. `proven`: the score is the game-theoretic value, or, from a
    solver search given a score the side to move is known to reach
    (`at_least`), at least that score, which the move keeps. `depth`: the
    last completed iteration of the heuristic search (0 for the solver and
    for a move played without a search)."""

    move: int | None
    score: int | None
    depth: int = 0
    nodes: int = 0
    time: float = 0.0
    proven: bool = False
    weak: bool = False
    source: str = "search"
    #: how long past its deadline (less its reserve) the search's read of
    #: the clock that stopped it came (None: the deadline did not stop it),
    #: and the measured time between its last two reads: its own account of
    #: how soon it saw the deadline
    late: float | None = None
    read_gap: float = 0.0
    #: the longest the machine stopped the search between two of its reads
    #: (seconds it did not run): what its reserve grew to, if it was less
    stall: float = 0.0


class TimeManager:
    """One move's budget, from the player's time per move and node limit:
    ``limits.time`` is the whole move (the searches get `fraction` of it
    less TIME_RESERVE), ``limits.nodes`` is shared by every search of the
    move. Start it when the move starts; `share` hands out sub-limits and
    `spent` books the nodes each search used.

    On a machine with more runnable threads than cores, the player is
    stopped for tens of milliseconds at a time, between any two steps of
    its searches: the move's `lateness` is the longest such stall known,
    which every search handed out keeps in reserve before its deadline
    (`Limits.reserve`), and which grows with the stalls they report."""

    def __init__(self, limits: Limits, fraction: float = TIME_FRACTION, start: float | None = None,
                 lateness: float = 0.0):
        """`start`: when the move's clock started (`time.monotonic()`), if
        before now: the request came while the player was busy setting up,
        or stopping its thinking on the opponent's time. `lateness`: the
        longest stall the machine lately put into a move (seconds)."""
        self.limits = limits
        self.start = time.monotonic() if start is None else start
        self.budget = move_budget(limits.time, fraction) if limits.time else 0.0
        self.lateness = lateness
        #: the longest stall this move's searches saw
        self.stall = 0.0
        self.nodes = 0
        # the move's own account: when each search was handed its limits and
        # its deadline (monotonic seconds), the limits, and what each search booked
        self.deadlines: list[tuple[float, float]] = []
        self.handed: list[Limits] = []
        self.results: list[SearchResult] = []

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def left(self) -> float:
        """Seconds left of the budget (at least MIN_SECONDS), 0 when unlimited."""
        if not self.budget:
            return 0.0
        return max(MIN_SECONDS, self.budget - self.elapsed())

    def nodes_left(self) -> int:
        """Nodes left of the move's node limit (at least 1), 0 when unlimited."""
        if not self.limits.nodes:
            return 0
        return max(1, self.limits.nodes - self.nodes)

    def reached(self, fraction: float = 1.0) -> bool:
        """Whether `fraction` of the move's budget is spent (time or nodes),
        its reserve for the machine's stalls counted spent."""
        return bool((self.budget and self.elapsed() >= fraction * self.budget - self.lateness - MIN_SECONDS)
                    or (self.limits.nodes and self.nodes >= fraction * self.limits.nodes))

    def exhausted(self) -> bool:
        """Whether nothing is left to hand out."""
        return self.reached(1.0)

    def share(self, fraction: float = 1.0) -> Limits:
        """Limits for the next search: `fraction` of the move's budget
        (seconds and nodes), but no more than is left; the move's depth."""
        seconds, nodes = 0.0, 0
        if self.budget:
            seconds = max(MIN_SECONDS, min(self.left(), fraction * self.budget))
        if self.limits.nodes:
            nodes = max(1, min(self.limits.nodes - self.nodes, int(fraction * self.limits.nodes)))
        return self._limits(seconds, nodes)

    def until(self, fraction: float) -> Limits:
        """Limits for the next search: until `fraction` of the move's budget
        is spent since the move started (plans made of stages)."""
        seconds, nodes = 0.0, 0
        if self.budget:
            seconds = max(MIN_SECONDS, fraction * self.budget - self.elapsed())
        if self.limits.nodes:
            nodes = max(1, int(fraction * self.limits.nodes) - self.nodes)
        return self._limits(seconds, nodes)

    def _limits(self, seconds: float, nodes: int) -> Limits:
        if seconds:
            now = time.monotonic()
            self.deadlines.append((now, now + seconds))
        limits = Limits(time=seconds, nodes=nodes, depth=self.limits.depth, reserve=self.lateness if seconds else 0.0)
        self.handed.append(limits)
        return limits

    def spent(self, result: SearchResult) -> SearchResult:
        """Books `result`'s nodes against the move, and the stall it saw
        against the next searches' reserve; returns it."""
        self.nodes += result.nodes
        self.stall = max(self.stall, result.stall)
        self.lateness = max(self.lateness, result.stall)
        self.results.append(result)
        return result

    def next_lateness(self, decay: float, answered: float) -> float:
        """The lateness for the next move, once this one was answered
        `answered` seconds after its start: the stalls this move saw, or
        `decay` of this move's lateness, whichever is more; and a move that
        ended past its budget although its searches stopped `lateness`
        before it was stalled, where they could not see it (after their last
        read, in the player's own code), for at least that much more. No
        more than the budget: past it, every search stops at once anyway."""
        overrun = answered - self.budget if self.budget else 0.0
        later = max(decay * self.lateness, self.stall, self.lateness + overrun if overrun > 0 else 0.0)
        return min(later, self.budget) if self.budget else later


def safety_margin(time_per_move: float) -> float:
    """What a player keeps of `time_per_move` for the answer's way out (the
    driver, the pipe, the judge's reading): its own clock must say it
    answered before `time_per_move` less this. The share of the move the
    searches do not get (1 - fraction) lies between, for a machine that
    preempts the player (a loaded one)."""
    return min(TIME_RESERVE, TIME_RESERVE_SHARE * time_per_move)


def move_budget(time_per_move: float, fraction: float = TIME_FRACTION) -> float:
    """Seconds the searches may take for one move of `time_per_move`, of
    which they get `fraction` less the safety margin."""
    return max(MIN_SECONDS, time_per_move * fraction - safety_margin(time_per_move))


def waited_per_run(path: str = SCHEDSTAT) -> float:
    """Seconds the calling thread waited for a core, on average, each time
    it was given one, since it started (Linux's schedstat): before a search
    has seen a stall of its own, a fresh process's measure of the machine's
    (its start-up is work, 0.1 s of it, in a few dozen runs). 0 where there
    is no such file."""
    try:
        fields = read_file(path, SCHEDSTAT_LIMIT).split()
        _, waited, runs = (int(field) for field in fields[:3])
    except (OSError, TooLarge, ValueError):
        return 0.0
    return waited * 1e-9 / runs if runs > 0 else 0.0
