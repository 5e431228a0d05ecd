"""Whether the judge spins while it waits for a fast player's answer,
decided by measuring both ways on the games being played.

Polling a player's pipe without sleeping for SPIN seconds after the
question gets a compiled bot's answer sooner than the scheduler's sleep
and wake-up would (on a quiet two-core machine, half the wall time of a
game between C random players). It only pays while the player has a core
of its own: on a busy machine the player waits for a core while the judge
spins on one (at load 8 on 2 cores: 437 games/s spinning, 802 not).

The load average could not tell the two apart. It lags by a minute and
counts the previous run's processes: a fresh judge started just after
another run saw a load above 1 on two cores and went a whole run of 1000
games without spinning, a run at x1.3 of the old judge's speed instead of
x2.9. So the judge tries both ways. The first games alternate; then every
game uses the way whose recent games moved faster, except every EXPLORE-th,
which tries the other so that a change in the machine's load is seen.
"""
from __future__ import annotations

import os
from array import array
from collections import deque
from statistics import median

SPIN = 50e-6
# Games remembered per way: enough for a median that one preempted game
# does not move, few enough to follow the load within a second of games.
WINDOW = 7
# Games each way plays before the faster is chosen.
TRIALS = 3
# One game in EXPLORE plays the other way.
EXPLORE = 16
# Games of fewer moves say too little about the moves' speed.
MIN_MOVES = 4


class SpinChoice:
    """The spin for the next game: SPIN or 0, whichever recent games
    measured faster per move. Only one way with a single usable CPU, where
    the player cannot answer while the judge spins."""

    def __init__(self, cpus: int | None = None):
        cpus = len(os.sched_getaffinity(0)) if cpus is None else cpus
        self.ways = (SPIN, 0.0) if cpus >= 2 else (0.0,)
        self.per_move = {way: deque(maxlen=WINDOW) for way in self.ways}
        self.best = self.ways[0]
        self.games = 0

    def next(self) -> float:
        """The spin for the next game's moves (then `record` them)."""
        self.games += 1
        if len(self.ways) == 1:
            return self.best
        fewest = min(self.ways, key=lambda way: len(self.per_move[way]))
        if len(self.per_move[fewest]) < TRIALS:
            return fewest
        if self.games % EXPLORE == 0:
            return self.ways[1] if self.best == self.ways[0] else self.ways[0]
        return self.best

    def record(self, spin: float, times: array, played: int) -> None:
        """The times of the `played` moves a game made with `spin`. The
        ways compare by the median of their games' mean time a move: the
        mean, as a long wait for a core is the cost of spinning on a busy
        machine; the median of games, as the first game of fresh players
        includes their start-up."""
        if played < MIN_MOVES or spin not in self.per_move:
            return
        self.per_move[spin].append(sum(times[:played]) / played)
        if all(len(seconds) >= TRIALS for seconds in self.per_move.values()):
            self.best = min(self.ways, key=lambda way: median(self.per_move[way]))


#: the judge's choice, shared by its games (concurrent ones too: they load
#: the same machine)
choice = SpinChoice()
