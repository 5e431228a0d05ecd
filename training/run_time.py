"""A run's own account of its time: wall-clock seconds and the CPU seconds
of this process and of every child it has waited for (the worker pools and
the judge's player processes), so the figure quoted for a run is the one it
printed. The machine's load average at the start and the end goes with
it: on a shared machine the wall time says little without it."""
from __future__ import annotations

import os
import resource
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Spent:
    """Seconds spent: `wall` on the clock, `cpu` on the processors; the
    machine's one-minute load average when the run started and ended."""
    wall: float
    cpu: float
    load_start: float
    load_end: float

    def __str__(self) -> str:
        minutes = f" ({self.wall / 60:.0f} min wall)" if self.wall >= 60 else ""
        return (f"{self.wall:.0f} s wall, {self.cpu:.0f} s CPU{minutes}, "
                f"load average {self.load_start:.1f} at the start, {self.load_end:.1f} at the end")


def cpu_seconds() -> float:
    """User and system time of this process and of its reaped children."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


class Clock:
    """Started when made; `spent()` is what has gone by since. Children
    count once they have exited and been waited for (a pool still open is
    not in the CPU figure yet)."""

    def __init__(self) -> None:
        self._wall = time.perf_counter()
        self._cpu = cpu_seconds()
        self._load = os.getloadavg()[0]

    def spent(self) -> Spent:
        return Spent(time.perf_counter() - self._wall, cpu_seconds() - self._cpu, self._load, os.getloadavg()[0])
