"""Where a worker's games run: the judge's thread and the two players it
relays between, together on one CPU while the players answer fast.

A move between two fast programs is a few microseconds of work on each side
and a wake-up each way. When the three sit on different CPUs every wake-up
is an interrupt to another CPU (in a virtual machine a trip through the
hypervisor) and the game's data crosses caches; on one CPU it is a plain
context switch. With the course's C random players on 7x6 (2 cores, 3,000
games a run, medians of 3 runs): 0.25 ms of CPU a game on one CPU against
0.43-0.57 ms spread, and 1.4-2x the games per second, quiet, with a few
busy processes beside and oversubscribed alike.

So a worker pins its thread to one CPU before it starts its players, and
they inherit it. A player that thinks (an answer later than FAST after the
question, its first answer excepted: that is its start-up) or ponders on
the other's time (which makes the other's answer late) gets the machine
back: the worker unpins itself and every thread of its players' process
trees for the rest of the run, so a bot that uses several cores, or
ponders, is never confined. Pinning pays only while the machine is the
judge's: between games, now and then, a worker looks how much CPU other
processes took (the CPUs' busy time less this judge's and its players'),
and above half a CPU it comes loose (a pinned worker would wait for its one
CPU while another could run it sooner), pinning again once they are gone.
Two judges on one machine thus both run loose rather than meet on a CPU.

Workers of one run take distinct CPUs while there are enough (Cores).
Nothing is pinned where the judge may use a single CPU, or where the
system refuses affinity.
"""
from __future__ import annotations

import os
import random
import threading
from collections.abc import Callable, Iterable
from time import monotonic

# An answer later than this after its question (seconds) means a player
# that thinks: its worker stops pinning for the rest of the run.
FAST = 0.005
# How often (seconds, on average) a worker looks whether the machine is
# still its own, between games; its first look comes sooner.
LOOK_EVERY = 0.5
FIRST_LOOK = 0.15
# Others' work on the machine (in CPUs, beside this judge and its players)
# above which workers come loose: with other processes about, the
# scheduler's choice of a CPU at each wake-up beats one fixed CPU (1 and 2
# busy loops beside a 1000-game run: 750 and 349 games/s pinned, 1,344 and
# 584 loose).
FOREIGN = 0.5


def allowed_cpus() -> frozenset[int]:
    """The CPUs this process may run on."""
    return frozenset(os.sched_getaffinity(0))


def current_cpu() -> int | None:
    """The CPU the calling thread runs on now (field 39 of its stat)."""
    try:
        with open("/proc/thread-self/stat", "rb") as stat:
            return int(stat.read(4096).rsplit(b")", 1)[1].split()[36])
    except (OSError, IndexError, ValueError):
        return None


def runtime(tids: Iterable[int | str]) -> int:
    """Nanoseconds the threads `tids` ("thread-self": the calling one) have
    run so far, together; one that has ended counts nothing."""
    total = 0
    for tid in tids:
        try:
            with open(f"/proc/{tid}/schedstat", "rb") as stat:
                total += int(stat.read(256).split()[0])
        except (OSError, IndexError, ValueError):
            continue
    return total


def idle_times() -> dict[int, int]:
    """Per CPU, the clock ticks it has been idle (idle and iowait) since boot."""
    idle: dict[int, int] = {}
    try:
        with open("/proc/stat", "rb") as stat:
            text = stat.read(1 << 16)
    except OSError:
        return idle
    for line in text.splitlines():
        if line.startswith(b"cpu") and line[3:4].isdigit():
            fields = line.split()
            try:
                idle[int(fields[0][3:])] = int(fields[4]) + int(fields[5])
            except (IndexError, ValueError):
                continue
    return idle


def tree_threads(root: int) -> set[int]:
    """Every thread of process `root` and of its descendants now (through
    /proc/PID/task/TID/children; a process that ends meanwhile is skipped)."""
    threads: set[int] = set()
    seen: set[int] = set()
    stack = [root]
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            tids = [int(tid) for tid in os.listdir(f"/proc/{pid}/task")]
        except (OSError, ValueError):
            continue
        threads.update(tids)
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/children", "rb") as children:
                    stack.extend(int(child) for child in children.read(1 << 16).split())
            except (OSError, ValueError):
                continue
    return threads


def set_affinity(threads: Iterable[int], cpus: Iterable[int]) -> None:
    """Sets each of `threads` (0: the calling one) to run on `cpus`; one
    that has ended, or that refuses, is left as it is."""
    mask = set(cpus)
    for tid in threads:
        try:
            os.sched_setaffinity(tid, mask)
        except OSError:
            pass


class Cores:
    """The CPUs a run's workers pin to: each takes the one fewest workers
    hold (the one it runs on, among equals)."""

    def __init__(self, cpus: Iterable[int] | None = None):
        self.cpus = frozenset(allowed_cpus() if cpus is None else cpus)
        self.held = dict.fromkeys(self.cpus, 0)
        self.lock = threading.RLock()
        self.placements: set[Placement] = set()

    def ran(self) -> int:
        """Nanoseconds this judge (every thread of it) and every worker's
        players have run so far."""
        try:
            threads: list[int | str] = [f"self/task/{tid}" for tid in os.listdir("/proc/self/task")]
        except OSError:
            threads = []
        with self.lock:
            placements = list(self.placements)
        for placement in placements:
            with placement.lock:
                members = list(placement.members)
            for pid in members:
                threads.extend(tree_threads(pid))
        return runtime(threads)

    @property
    def shared(self) -> bool:
        """Whether there is anything to gain: more than one CPU to choose from."""
        return len(self.cpus) > 1

    def choose(self, here: int | None) -> int:
        """The CPU fewest workers hold (`here`, among equals)."""
        with self.lock:
            fewest = min(self.held.values())
            free = sorted(cpu for cpu, count in self.held.items() if count == fewest)
            return here if here in free else free[0]

    def take(self, here: int | None) -> int:
        with self.lock:
            cpu = self.choose(here)
            self.held[cpu] += 1
            return cpu

    def give_back(self, cpu: int) -> None:
        with self.lock:
            self.held[cpu] -= 1


class Placement:
    """One worker's placement: pinned to a CPU of `cores` from `settle()`
    (call it in the worker's thread before it starts its players) until
    `release()`. The worker's players' processes are its `members`: `join`
    at their start, `leave` at their end, and the waits for their answers
    ask `spin` and `patience` (no spinning while pinned: the player needs
    the CPU the judge would spin on).

    `between_games` lets it loose, or pins it again, as the module says."""

    def __init__(self, cores: Cores, clock: Callable[[], float] = monotonic,
                 chance: Callable[[], float] = random.random):
        self.cores = cores
        self.clock = clock
        self.chance = chance
        self.cpu: int | None = None
        self.released = False  # for good: a player thinks
        self.loose = False     # for now: no CPU to spare
        self.members: set[int] = set()
        self.lock = threading.Lock()
        self.looked = 0.0
        self.ran = 0  # nanoseconds the judge and the players had run when it last looked
        self.idle: dict[int, int] = {}
        with cores.lock:
            cores.placements.add(self)

    @property
    def pinned(self) -> bool:
        return self.cpu is not None

    def settle(self) -> None:
        """Pins the calling thread (the worker's) to a CPU of its own, when
        there is a choice and the system allows it."""
        if self.released or self.pinned or not self.cores.shared:
            return
        cpu = self.cores.take(current_cpu())
        try:
            os.sched_setaffinity(0, {cpu})
        except OSError:
            self.cores.give_back(cpu)
            self.released = True
            return
        self.cpu = cpu
        self._look_from_now()
        self.looked -= LOOK_EVERY - FIRST_LOOK

    def join(self, pid: int) -> None:
        with self.lock:
            self.members.add(pid)

    def leave(self, pid: int) -> None:
        with self.lock:
            self.members.discard(pid)

    def spin(self, otherwise: float) -> float:
        return 0.0 if self.pinned else otherwise

    def patience(self, otherwise: float) -> float:
        """How long a wait for an answer goes before the waiter looks again:
        FAST while pinned, so that a player that thinks is released soon."""
        return min(otherwise, FAST) if self.pinned else otherwise

    def release(self) -> None:
        """Unpins the worker and every thread of its players for the rest of
        the run. Call it from the worker's thread."""
        self.released = True
        self._pin(None)

    def close(self) -> None:
        """The worker ends (call it from its thread): its thread may run
        anywhere again (the main thread of a run of one worker goes on after
        it, and whatever it starts then inherits its CPUs), and its CPU is
        free for another worker."""
        self._pin(None)
        with self.cores.lock:
            self.cores.placements.discard(self)

    def _pin(self, cpu: int | None) -> None:
        """The worker's thread and every thread of its players to `cpu`
        (None: every CPU), the CPUs held counted."""
        with self.lock:
            old, self.cpu = self.cpu, cpu
            members = list(self.members)
        if old == cpu:
            return
        with self.cores.lock:
            if old is not None:
                self.cores.held[old] -= 1
            if cpu is not None:
                self.cores.held[cpu] += 1
        where = self.cores.cpus if cpu is None else {cpu}
        set_affinity([0], where)
        for pid in members:
            set_affinity(tree_threads(pid), where)

    # ------------------------------------------------------------ moving

    def _look_from_now(self) -> None:
        # looks come at jittered times: two workers do not look at once
        self.looked = self.clock() + LOOK_EVERY * (self.chance() - 0.5)
        self.ran = self.cores.ran()
        self.idle = idle_times()

    def between_games(self) -> None:
        """Now and then (call it between games, from the worker's thread):
        loose while other processes take more than FOREIGN of the machine,
        pinned while they do not."""
        if self.released or not (self.pinned or self.loose):
            return
        now = self.clock()
        span = now - self.looked
        if span < LOOK_EVERY:
            return
        before_ran, before_idle = self.ran, self.idle
        self._look_from_now()
        ticks = os.sysconf("SC_CLK_TCK") * span
        busy = [1.0 - (self.idle[cpu] - before_idle[cpu]) / ticks
                for cpu in self.cores.cpus if cpu in self.idle and cpu in before_idle]
        if not busy:
            return
        others = sum(busy) - (self.ran - before_ran) / 1e9 / span
        if others > FOREIGN and self.pinned:
            self.loose = True
            self._pin(None)
        elif others <= FOREIGN and self.loose:
            self.loose = False
            self._pin(self.cores.choose(current_cpu()))
