"""Finding and killing everything a player program started, wherever it went.

A player runs in its own process group, but what it starts may leave the
group (`setsid`, a double fork). Every seat's environment carries a mark,
`CLINEA_SEAT=<run>-<seat>`, which its descendants inherit; a kill takes the
group, the process tree and every process bearing the mark, in passes until
none is left. The judge is a child subreaper (Linux), so orphans of a killed
player become the judge's children and are reaped here, not left as zombies
of init.

`python -S reaper.py RUN` is the watchdog a judge starts: it
waits for end of input, which comes when the judge exits *or is killed*
(SIGKILL included), and then kills every process marked with RUN. Standard
library only: it must start fast and import nothing that could fail.
"""
from __future__ import annotations

import ctypes
import os
import signal
import sys
from typing import Iterable, Optional

MARK = "CLINEA_SEAT"
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
# passes over /proc before giving up on a process that keeps forking
MAX_PASSES = 20

_libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


def prctl(option: int, value: int) -> bool:
    """Linux prctl(2); False where it does not exist or fails."""
    return _libc is not None and _libc.prctl(option, value, 0, 0, 0) == 0


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


def _own_start() -> int:
    with open("/proc/self/stat", "rb") as file:
        return int(file.read().rsplit(b")", 1)[1].split()[19])


def _marked(pid: int, mark: bytes, prefix: bool) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as file:
            environ = file.read()
    except OSError:
        return False
    for variable in environ.split(b"\0"):
        if variable == mark or (prefix and variable.startswith(mark)):
            return True
    return False


def targets(root: Optional[int], mark: str, prefix: bool = False) -> tuple[set[int], set[int]]:
    """(living, zombies): the processes of `root`'s group and tree and those
    whose environment carries `MARK=mark` (or starts with it, if `prefix`),
    this process excepted."""
    table = _processes()
    me = os.getpid()
    # a process older than this one cannot carry a mark made since: its
    # environment need not be read (most of the machine's processes)
    oldest = _own_start()
    wanted = f"{MARK}={mark}".encode()
    children: dict[int, list[int]] = {}
    for pid, ppid, *_ in table:
        children.setdefault(ppid, []).append(pid)
    found: set[int] = set()
    if root is not None:
        stack = [root]
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


def kill_all(root: Optional[int], mark: str, prefix: bool = False, spare: Iterable[int] = ()) -> None:
    """SIGKILL `root`'s group and tree and every marked process, over and
    over until nothing is left; reap those that were re-parented here.
    `spare` are pids not to reap (a Popen reaps its own child)."""
    spare = set(spare)
    if root is not None:
        try:
            os.killpg(root, signal.SIGKILL)
        except OSError:
            pass
    for _ in range(MAX_PASSES):
        living, zombies = targets(root, mark, prefix)
        for pid in living:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        for pid in zombies - spare:
            try:
                os.waitpid(pid, os.WNOHANG)
            except OSError:  # not our child: its own parent reaps it
                pass
        if not living:
            return


def watch(run: str) -> None:
    """The watchdog: wait for end of input, then kill the run's processes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the judge's to handle
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except OSError:
        pass
    kill_all(None, run + "-", prefix=True)


if __name__ == "__main__":
    watch(sys.argv[1])
