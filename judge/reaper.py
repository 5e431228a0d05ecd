"""Finding and killing everything a player program started, wherever it went.

A player runs in its own process group, but what it starts may leave the
group (`setsid`, a double fork). Every seat's environment carries a mark,
`CLINEA_SEAT=<run>-<seat>`, which its descendants inherit; a kill takes the
group, the process tree and every process bearing the mark, in passes until
none is left. The judge is a child subreaper (Linux), so orphans of a killed
player become the judge's children and are reaped here, not left as zombies
of init; and an orphan that dropped its environment, and the mark with it,
is still found: a child of the judge that the judge did not start.

`python -S reaper.py RUN` is the watchdog a judge starts: it
waits for end of input, which comes when the judge exits *or is killed*
(SIGKILL included), and then kills every process marked with RUN. Standard
library only: it must start fast and import nothing that could fail (nor
anything slow: `typing` alone took 11 of its 27 ms of CPU, ctypes 4,
`signal` 5 (its enums) and `collections` 1.5; every run without a sandbox
starts one).
"""
from __future__ import annotations

import os
import sys

# the C module under `signal`, without the enums whose building was a fifth
# of the watchdog's start-up
from _signal import SIG_IGN, SIGINT, SIGKILL  # type: ignore[import-not-found]  # typeshed knows only `signal`
from _signal import signal as handle_signal

MARK = "CLINEA_SEAT"
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
_libc = None
# passes over /proc before giving up on a process that keeps forking
MAX_PASSES = 20


def prctl(option: int, value: int) -> bool:
    """Linux prctl(2); False where it does not exist or fails."""
    global _libc
    if not sys.platform.startswith("linux"):
        return False
    if _libc is None:  # loaded on the first call (the watchdog makes none), never first between fork and exec
        import ctypes
        _libc = ctypes.CDLL(None, use_errno=True)
    return bool(_libc.prctl(option, value, 0, 0, 0) == 0)


def become_undumpable() -> bool:
    """No process of the same user may ptrace this one or open its
    descriptors and memory through /proc (Linux)."""
    return prctl(PR_SET_DUMPABLE, 0)


def become_subreaper() -> bool:
    """Orphaned descendants of this process are re-parented to it (Linux)."""
    return prctl(PR_SET_CHILD_SUBREAPER, 1)


def _processes() -> list[tuple[int, int, int, int, str, int]]:
    """(pid, parent pid, process group, session, state, start time in clock
    ticks since boot) of every process now."""
    table = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as file:
                stat = file.read()
        except OSError:
            continue
        fields = stat.rsplit(b")", 1)[1].split()
        # fields[k - 3] is field k of proc(5): 4 ppid, 5 pgrp, 6 session, 22 starttime
        table.append((int(entry), int(fields[1]), int(fields[2]), int(fields[3]), fields[0].decode(),
                      int(fields[19])))
    return table


def start_time(pid: int | str = "self") -> int:
    """When process `pid` started, in clock ticks since boot."""
    with open(f"/proc/{pid}/stat", "rb") as file:
        return int(file.read().rsplit(b")", 1)[1].split()[19])


def _environment(pid: int) -> list[bytes]:
    try:
        with open(f"/proc/{pid}/environ", "rb") as file:
            return file.read().split(b"\0")
    except OSError:
        return []


def _marked(pid: int, mark: bytes, prefix: bool) -> bool:
    return any(variable == mark or (prefix and variable.startswith(mark)) for variable in _environment(pid))


class Adopted:
    """Which children of this process (a subreaper) are orphans it adopted:
    those started since `since` (clock ticks since boot) that are none of
    `started` (its own: the players, the watchdog) and carry none of `marks`
    (those of seats still playing, whose orphans are theirs to keep)."""
    __slots__ = ("since", "started", "marks")

    def __init__(self, since: int, started: frozenset[int], marks: frozenset[bytes]):
        self.since = since
        self.started = started
        self.marks = marks


def targets(root: int | None, mark: str, prefix: bool = False,
            adopted: Adopted | None = None) -> tuple[set[int], set[int]]:
    """(living, zombies): the processes of `root`'s group and tree, those
    whose environment carries `MARK=mark` (or starts with it, if `prefix`)
    and, given `adopted`, the orphans this process adopted and their trees;
    this process excepted."""
    table = _processes()
    me = os.getpid()
    # a process older than this one cannot carry a mark made since: its
    # environment need not be read (most of the machine's processes)
    oldest = start_time()
    wanted = f"{MARK}={mark}".encode()
    children: dict[int, list[int]] = {}
    for pid, ppid, *_ in table:
        children.setdefault(ppid, []).append(pid)
    roots = [] if root is None else [root]
    if adopted is not None:
        roots += [pid for pid, ppid, _, _, _, started in table
                  if ppid == me and started >= adopted.since and pid not in adopted.started
                  and adopted.marks.isdisjoint(_environment(pid))]
    found: set[int] = set()
    stack = roots
    while stack:
        pid = stack.pop()
        if pid not in found:
            found.add(pid)
            stack.extend(children.get(pid, ()))
    state = {pid: st for pid, _, _, _, st, _ in table}
    for pid, _, pgrp, session, _, started in table:
        if pid in found:
            continue
        if (root is not None and root in (pgrp, session)) or (started >= oldest and _marked(pid, wanted, prefix)):
            found.add(pid)
    found.discard(me)
    living = {pid for pid in found if state.get(pid, "Z") != "Z"}
    return living, found - living


def kill_all(root: int | None, mark: str, prefix: bool = False, spare: tuple[int, ...] = (),
             adopted: Adopted | None = None) -> None:
    """SIGKILL `root`'s group and tree, every marked process and, given
    `adopted`, the orphans this process adopted, over and over until
    nothing is left; reap those that were re-parented here. `spare` are
    pids not to reap (a Popen reaps its own child)."""
    spared = set(spare)
    if root is not None:
        try:
            os.killpg(root, SIGKILL)
        except OSError:
            pass
    for _ in range(MAX_PASSES):
        living, zombies = targets(root, mark, prefix, adopted)
        for pid in living:
            try:
                os.kill(pid, SIGKILL)
            except OSError:
                pass
        for pid in zombies - spared:
            try:
                os.waitpid(pid, os.WNOHANG)
            except OSError:  # not our child: its own parent reaps it
                pass
        if not living:
            return


def thaw_seats(base: str) -> None:
    """Resumes every seat frozen under the run's freezer folder `base` (v1's
    freezer, or v2's): a frozen process dies of SIGKILL only once resumed
    under v1, and a SIGKILL the judge's death sent is pending there."""
    try:
        seats = [entry.path for entry in os.scandir(base) if entry.is_dir()]
    except OSError:
        return
    for seat in seats:
        for name, value in (("freezer.state", b"THAWED"), ("cgroup.freeze", b"0")):
            try:
                fd = os.open(os.path.join(seat, name), os.O_WRONLY)
            except OSError:
                continue
            try:
                os.write(fd, value)
            except OSError:
                pass
            finally:
                os.close(fd)


def watch(run: str, frozen_under: list[str]) -> None:
    """The watchdog: wait for end of input, then resume the run's frozen
    seats and kill the run's processes."""
    handle_signal(SIGINT, SIG_IGN)  # Ctrl-C is the judge's to handle
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except OSError:
        pass
    for base in frozen_under:
        thaw_seats(base)
    kill_all(None, run + "-", prefix=True)


if __name__ == "__main__":
    watch(sys.argv[1], sys.argv[2:])
