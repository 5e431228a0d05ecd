"""Whether the judge spins while it waits for a fast player's answer:
only while the machine has a core for the player, counted now.

Polling a player's pipe without sleeping for SPIN seconds after the
question gets a compiled bot's answer sooner than the scheduler's sleep
and wake-up would (on a quiet two-core machine, half the wall time of a
game between C random players). It only pays while the player has a core
of its own: on a busy machine the player waits for a core while the judge
spins on one (at load 8 on 2 cores: 437 games/s spinning, 802 not).

What tells the two apart is how many tasks are running or waiting for a
core at this moment, others than the judge's thread and its two players,
read from /proc/loadavg between games (when the players wait for the
judge's next line), as the median of the last few samples. Neither the
load average nor timing both ways worked:
- the load average lags a minute and counts the previous run: a fresh judge
  started just after another run saw a load above 1 on two cores and went
  a whole 1000-game run without spinning, at x1.3 of the old judge's speed
  instead of x2.9;
- timing games both ways is biased by the scheduler: a judge that spins is
  seen as always running and waits longer for a core afterwards, so a few
  games without spinning, tried among spinning ones, measured 98 us a move
  against 12 us in a run that never spins, on the same busy machine.
"""
from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable
from time import monotonic

SPIN = 50e-6
# Samples the choice is the median of.
SAMPLES = 5
# Seconds between two samples (each costs a few file reads).
SAMPLE_EVERY = 0.005


def _read(path: str) -> bytes:
    # os.open and os.read, not open(): a file object costs four more system
    # calls (fstat, ioctl, lseek, a second read) and as much Python again
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, 4096)
    finally:
        os.close(fd)


# /proc/loadavg, opened once and read at offset 0 each time (the kernel
# writes it afresh): a sample costs a third of what opening it each time did
_loadavg: int | None = None


def _running_tasks() -> int:
    global _loadavg
    if _loadavg is None:
        _loadavg = os.open("/proc/loadavg", os.O_RDONLY)
    return int(os.pread(_loadavg, 256, 0).split()[3].split(b"/")[0])


def others_running(own: Iterable[int]) -> int:
    """Tasks running or waiting for a core on the machine now, other than
    the calling thread and the processes `own`. The processes are read
    first: one seen waiting stays so until told something, while one seen
    running may stop before /proc/loadavg is read, which then errs towards
    fewer others, not more."""
    ours = 1
    for pid in own:
        try:
            ours += _read(f"/proc/{pid}/stat").rsplit(b")", 1)[1].split()[0] == b"R"
        except OSError:  # it just ended
            pass
    return _running_tasks() - ours


class SpinChoice:
    """The spin the judge's games use: SPIN while, besides the judge's own
    thread, fewer tasks run than there are other cores; else 0. Always 0 on
    a single usable CPU, or where /proc cannot say."""

    def __init__(self, cpus: int | None = None,
                 count: Callable[[Iterable[int]], int] = others_running,
                 clock: Callable[[], float] = monotonic):
        self.cpus = len(os.sched_getaffinity(0)) if cpus is None else cpus
        self.count = count
        self.clock = clock
        self.samples: deque[int] = deque(maxlen=SAMPLES)
        self.sampled = float("-inf")
        self.spin = SPIN if self.cpus >= 2 else 0.0

    def after_relay(self, players: Iterable[int]) -> None:
        """Relayed moves just ended (a game's, most often) and `players`
        (pids) wait for the judge: a moment to count the others, now and then."""
        if self.cpus < 2:
            return
        now = self.clock()
        if now - self.sampled < SAMPLE_EVERY:
            return
        self.sampled = now
        try:
            self.samples.append(self.count(players))
        except (OSError, ValueError, IndexError):  # no /proc/loadavg as Linux writes it
            self.cpus = 1
            self.spin = 0.0
            return
        others = sorted(self.samples)[len(self.samples) // 2]
        self.spin = SPIN if others <= self.cpus - 2 else 0.0


#: the judge's choice, shared by its games (concurrent ones count each
#: other among the running tasks, as they should: each takes a core)
choice = SpinChoice()
