"""Seats a hostile bot cannot escape: each player program runs confined
and bounded, so it can neither reach its opponent, the judge nor the
results, nor take the machine down with it.

Isolation is bubblewrap's (`bwrap`, what Flatpak uses), not namespace code
of our own. A confined seat has its own user, PID, network, IPC and UTS
namespaces (it sees no other process, and every process it starts dies
with it), a fresh /proc, no capabilities, no new user namespaces, no
controlling terminal, the filesystem read-only (the machine's /tmp too) but
for a private scratch folder of bounded size, /dev/shm, which is its
TMPDIR, and the other seats' program folders, the results file and the logs
hidden.

Limits hold with or without isolation: address space, CPU seconds, file
size and open files as rlimits of every process of the seat; processes
(threads included) and the whole seat's memory in a cgroup of its own
where the machine lets this judge make one, else as RLIMIT_NPROC inside the
seat's own user namespace (the kernel counts processes per namespace
there, so a fork bomb fills its own quota only; the root user is exempt
from RLIMIT_NPROC, so a root judge needs the cgroup).
"""
from __future__ import annotations

import collections
import errno
import functools
import itertools
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from clinea.core.relay import (
    CPU_NANOSECONDS,
    CPU_STAT,
    STOP_CGROUP_V1,
    STOP_CGROUP_V2,
    STOP_NONE,
    STOP_SIGNALS,
    Freezer,
)

MODES = ("auto", "strict", "off")
# A seat's private scratch folder (its TMPDIR), in the /dev bwrap makes: the
# machine's /tmp stays where it is, read-only like the rest, so a program
# that lives there (a wrapper, a clone, a virtualenv) runs as it is.
# seats of this process, whichever sandbox made them: each cgroup's name
_SEATS = itertools.count(1)
BWRAP = "bwrap"
SCRATCH = "/dev/shm"
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
# The first program in the sandbox: it takes the seat's pipes from the
# descriptors named in its arguments, sets the process limit that must be
# set inside the user namespace, and becomes the player. bwrap keeps its own
# stdin and stdout open while the sandbox runs, but closes every other
# descriptor it inherited: so a player closing stdout is seen at once. As
# subprocess does, a failed exec writes its errno to a pipe that a good exec
# closes, so the judge knows at once whether the player started.
SEAT_EXEC = (
    "import os, resource, sys\n"
    "given, taken, status, processes = map(int, sys.argv[1:5])\n"
    "os.dup2(given, 0); os.dup2(taken, 1); os.close(given); os.close(taken)\n"
    "os.set_inheritable(status, False)\n"
    "if processes: resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))\n"
    "try: os.execvp(sys.argv[5], sys.argv[5:])\n"
    "except OSError as error: os.write(status, str(error.errno).encode()); os._exit(127)\n")


# SEAT_EXEC compiled (judge/seat_exec.c, built with the core): the same
# steps without an interpreter's start-up, 10 ms of CPU a seat
SEAT_EXEC_PROGRAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seat_exec")


def seat_exec() -> list[str]:
    """The command that starts a sandboxed seat before its arguments: the
    compiled program where the build made it, else SEAT_EXEC in Python."""
    if os.access(SEAT_EXEC_PROGRAM, os.X_OK):
        return [SEAT_EXEC_PROGRAM]
    return [sys.executable, "-S", "-c", SEAT_EXEC]


class SandboxError(Exception):
    """`--sandbox strict` on a machine where seats cannot be isolated, or limits that do not parse."""


def size_in_bytes(text: str) -> int:
    """`512M`, `2G`, `65536`: a size in bytes (binary units)."""
    number, unit = text.strip().lower().rstrip("ib"), ""
    if number and number[-1] in _UNITS:
        number, unit = number[:-1], number[-1]
    return int(float(number) * _UNITS[unit])


@dataclass(frozen=True)
class SeatLimits:
    """What one seat may use. `cpu` None: as much as its games can take at
    the run's clock (see `for_run`), unbounded for an endless match."""
    memory: int = 4 << 30       # bytes of address space per process; the whole seat's, in a cgroup
    processes: int = 128        # processes and threads of the seat
    cpu: int | None = None   # CPU seconds per process
    file_size: int = 64 << 20   # bytes of any file it writes
    open_files: int = 256       # descriptors per process
    scratch: int = 64 << 20     # bytes of its private scratch folder (TMPDIR, /dev/shm)

    RANGES = {"memory": (64 << 20, 1 << 40), "processes": (8, 1 << 16), "cpu": (1, 1 << 31),
              "file_size": (1 << 20, 1 << 40), "open_files": (32, 1 << 20), "scratch": (1 << 20, 1 << 40)}

    @classmethod
    def parse(cls, text: str) -> SeatLimits:
        """`memory=2G,processes=64,cpu=600`: the defaults, with those changed."""
        values: dict[str, int] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, _, value = item.partition("=")
            name = name.strip().replace("-", "_")
            if name not in cls.RANGES:
                raise SandboxError(f"seat limit {name!r}: choose among {', '.join(cls.RANGES)}")
            try:
                number = size_in_bytes(value) if name in ("memory", "file_size", "scratch") else int(value)
            except (ValueError, KeyError):
                raise SandboxError(f"seat limit {name}={value!r} is not a number") from None
            low, high = cls.RANGES[name]
            if not low <= number <= high:
                raise SandboxError(f"seat limit {name}={value} is out of range: allowed {low}..{high}")
            values[name] = number
        return cls(**values)

    def for_run(self, seconds_per_game: float | None, games: int | None) -> SeatLimits:
        """These limits, with an unset CPU limit made what every game of the
        run at its clock could use on two cores, with a minute to spare: a
        backstop for a process that outlives its moves, never an honest
        player's end."""
        if self.cpu is not None or not seconds_per_game or not games:
            return self
        return replace(self, cpu=int(2 * seconds_per_game * games) + 60)

    def rlimits(self) -> list[tuple[int, int]]:
        """(resource, value) of the rlimits every process of the seat gets:
        these limits, or lower ones the judge itself runs under (a process
        cannot raise its hard limit)."""
        limits = [(resource.RLIMIT_AS, self.memory), (resource.RLIMIT_FSIZE, self.file_size),
                  (resource.RLIMIT_NOFILE, self.open_files)]
        if self.cpu is not None:
            limits.append((resource.RLIMIT_CPU, self.cpu))
        capped = []
        for kind, value in limits:
            hard = resource.getrlimit(kind)[1]
            capped.append((kind, value if hard == resource.RLIM_INFINITY else min(value, hard)))
        return capped

    def describe(self) -> str:
        def size(value: int) -> str:
            for unit, scale in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
                if value >= scale and value % scale == 0:
                    return f"{value // scale}{unit}"
            return str(value)
        cpu = "unbounded" if self.cpu is None else f"{self.cpu}s"
        return (f"memory {size(self.memory)}, processes {self.processes}, cpu {cpu}, "
                f"file size {size(self.file_size)}, open files {self.open_files}, scratch {size(self.scratch)}")


# ---------------------------------------------------------------- cgroups

def _own_cgroups() -> dict[str, str]:
    """controller -> this process's cgroup path ('' -> the unified one)."""
    found = {}
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as file:
            for line in file.read(1 << 16).splitlines():
                _, controllers, path = line.split(":", 2)
                for controller in controllers.split(","):
                    found[controller] = path
    except (OSError, ValueError):
        pass
    return found


def _mounts() -> list[tuple[str, str, str]]:
    """(mount point, filesystem type, options) of every mount."""
    try:
        with open("/proc/self/mounts", encoding="utf-8") as file:
            lines = file.read(1 << 20).splitlines()
    except OSError:
        return []
    return [(parts[1], parts[2], parts[3]) for parts in (line.split() for line in lines) if len(parts) >= 4]


def _unified_folder() -> str | None:
    """This process's cgroup v2 folder, if this judge may make cgroups under
    it: each holds cgroup.freeze, cgroup.kill and cpu.stat whatever
    controllers are enabled (on a machine with the v1 hierarchies too)."""
    own = _own_cgroups()
    for point, kind, _ in _mounts():
        if kind == "cgroup2" and "" in own:
            folder = os.path.join(point, own[""].lstrip("/"))
            if os.access(folder, os.W_OK):
                return folder
    return None


def _controller_folder(controller: str) -> str | None:
    """The folder of this process's cgroup for `controller`, v1 or v2, if
    this judge may make cgroups under it with the controller enabled."""
    own = _own_cgroups()
    for point, kind, options in _mounts():
        if kind == "cgroup" and controller in options.split(",") and controller in own:
            folder = os.path.join(point, own[controller].lstrip("/"))
            if os.access(folder, os.W_OK):
                return folder
    for point, kind, _ in _mounts():
        if kind == "cgroup2" and "" in own:
            folder = os.path.join(point, own[""].lstrip("/"))
            try:
                with open(os.path.join(folder, "cgroup.subtree_control"), encoding="utf-8") as file:
                    enabled = file.read(4096).split()
            except OSError:
                continue
            if controller in enabled and os.access(folder, os.W_OK):
                return folder
    return None


@dataclass
class SeatCgroup:
    """A seat's cgroups (one per hierarchy it uses: pids, memory, its
    freezer, CPU accounting and share), made before the seat starts and
    entered by its first process before exec, so nothing it starts is ever
    outside. `bounds_processes`: its pids cgroup bounds its processes;
    `freeze` (file, STOP_*) and `cpu` (file, CPU_*) where it has them."""
    folders: list[str]
    bounds_processes: bool = True
    freeze: tuple[str, int] | None = None
    cpu: tuple[str, int] | None = None

    def freezer(self, ponder: bool, group: int) -> Freezer:
        """The Freezer of the seat whose first process leads the process
        group `group`: through its cgroup's freeze file where it has one,
        else with signals to the group; stopping nothing with `ponder`."""
        cpu_kind, cpu_fd = (self.cpu[1], os.open(self.cpu[0], os.O_RDONLY)) if self.cpu else (0, -1)
        if ponder:
            return Freezer(STOP_NONE, -1, cpu_kind, cpu_fd)
        if self.freeze is None:
            return Freezer(STOP_SIGNALS, group, cpu_kind, cpu_fd)
        return Freezer(self.freeze[1], os.open(self.freeze[0], os.O_WRONLY), cpu_kind, cpu_fd)

    def thaw(self) -> None:
        """Resumes whatever is frozen in its cgroups: a process frozen by
        v1's freezer does not die of SIGKILL until then."""
        for folder in self.folders:
            for name, value in (("cgroup.freeze", "0"), ("freezer.state", "THAWED")):
                try:
                    with open(os.path.join(folder, name), "w", encoding="ascii") as file:
                        file.write(value)
                except OSError:
                    pass

    def enter(self) -> None:
        """In the seat's process, between fork and exec."""
        pid = str(os.getpid()).encode()
        for folder in self.folders:
            fd = os.open(os.path.join(folder, "cgroup.procs"), os.O_WRONLY)
            try:
                os.write(fd, pid)
            finally:
                os.close(fd)

    def processes(self) -> set[int]:
        """The processes in the seat's cgroups now."""
        found: set[int] = set()
        for folder in self.folders:
            try:
                with open(os.path.join(folder, "cgroup.procs"), encoding="ascii") as file:
                    found.update(int(word) for word in file.read(CGROUP_PROCS_BYTES).split())
            except (OSError, ValueError):
                pass
        return found

    def kill(self, wait: float = 0.0) -> None:
        """SIGKILLs every process in the seat's cgroups, in passes (they may
        fork meanwhile) for up to `wait` seconds: through v2's cgroup.kill
        where there is one, else through a pidfd on each process listed,
        taken while it is listed, so that a pid come round again to
        another process is never signalled."""
        deadline = time.monotonic() + wait
        while True:
            listed = self.processes()
            if not listed:
                return
            if not self._kill_by_cgroup():
                self._kill_listed(listed)
            self.thaw()
            if time.monotonic() >= deadline:
                return
            time.sleep(CGROUP_POLL)

    def _kill_by_cgroup(self) -> bool:
        """v2's cgroup.kill in a folder of the seat's (each holds all its
        processes); False where there is none (v1 alone)."""
        for folder in self.folders:
            try:
                with open(os.path.join(folder, "cgroup.kill"), "w", encoding="ascii") as file:
                    file.write("1")
                return True
            except OSError:
                pass
        return False

    def _kill_listed(self, listed: set[int]) -> None:
        """SIGKILLs those of `listed` still in the seat's cgroups once a
        pidfd holds each (see kill)."""
        handles = {}
        for pid in listed:
            try:
                handles[pid] = os.pidfd_open(pid)
            except OSError:  # gone already
                pass
        still = self.processes()
        for pid, handle in handles.items():
            try:
                if pid in still:
                    signal.pidfd_send_signal(handle, signal.SIGKILL)
            except OSError:
                pass
            finally:
                os.close(handle)

    def remove(self, wait: float = 0.0) -> None:
        """Once the seat's processes are gone (a cgroup with processes
        stays), waiting up to `wait` seconds for the last of them: killed
        with their namespace's init, they die after it, later on a busy
        machine."""
        deadline = time.monotonic() + wait
        for folder in self.folders:
            while True:
                try:
                    os.rmdir(folder)
                except OSError as error:
                    if error.errno == errno.EBUSY and time.monotonic() < deadline:
                        time.sleep(CGROUP_POLL)
                        continue
                break


#: how long the end of a run waits for its seats' last processes to leave
#: their cgroups, and how often it looks
CGROUP_WAIT = 2.0
CGROUP_POLL = 0.005
#: a seat's CPU weight (v2) and shares (v1), both their defaults: the same for every seat
CPU_WEIGHT = 100
CPU_SHARES = 1024
#: more than any seat's cgroup.procs holds (a pid per line, pids.max of them)
CGROUP_PROCS_BYTES = 1 << 20

#: the run folders this process made, with how many of its Cgroups use each:
#: any other `clinea-<our pid>` is a dead judge's whose pid came round again
#: to us
_MADE_HERE: collections.Counter[str] = collections.Counter()


def _remove_stale(folder: str) -> None:
    """Removes the cgroups of earlier runs under `folder` whose judge has
    died (a SIGKILL gives it no time to): `clinea-<pid>` of no living
    process, or of this process without its having made it, with its
    seats' folders. What is still in them is that judge's (a process it
    started that outlived it, or bwrap caught starting as it died, waiting
    forever for its parent): it is killed first."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        prefix, _, pid = name.partition("-")
        if prefix != "clinea" or not pid.isdigit():
            continue
        base = os.path.join(folder, name)
        reused = int(pid) == os.getpid() and base not in _MADE_HERE
        if os.path.exists(f"/proc/{pid}") and not reused:
            continue
        try:
            seats = [entry.path for entry in os.scandir(base) if entry.is_dir()]
        except OSError:
            continue
        for seat in seats:
            left = SeatCgroup([seat])
            left.kill(CGROUP_WAIT)
            left.remove(CGROUP_WAIT)
        try:
            os.rmdir(base)
        except OSError:  # a seat still held processes
            pass


class Cgroups:
    """Where this run makes its seats' cgroups: a folder per hierarchy,
    `clinea-<pid>`, under the judge's own cgroup; None where not delegated.
    Those of earlier runs whose judge died go first. The hierarchies: pids
    and memory (the limits); the cgroup v2 folder, whose cgroup.freeze
    stops a seat with one write (a stop and a resume measured 11 us,
    against 290 us through v1's freezer) and whose cpu.stat says its CPU,
    else v1's freezer and cpuacct; with `ponder`, cpu (each seat an equal
    share)."""

    def __init__(self, name: str, ponder: bool = False):
        self.made: list[SeatCgroup] = []
        self.bases: dict[str, str] = {}
        self.released = False
        self.ponder = ponder
        folders = {controller: _controller_folder(controller) for controller in ("pids", "memory")}
        folders["unified"] = _unified_folder()
        if folders["unified"] is None:
            folders.update((controller, _controller_folder(controller)) for controller in ("freezer", "cpuacct"))
        if ponder:
            folders["cpu"] = _controller_folder("cpu")
        for controller, folder in folders.items():
            if folder is None:
                continue
            _remove_stale(folder)
            base = os.path.join(folder, name)
            try:
                os.makedirs(base, exist_ok=True)
            except OSError:
                continue
            _MADE_HERE[base] += 1
            self.bases[controller] = base

    def seat(self, label: str, limits: SeatLimits) -> SeatCgroup | None:
        """A cgroup per hierarchy for one seat, its limits written; None if
        there is none."""
        settings = {"pids": [("pids.max", limits.processes)],
                    "memory": [("memory.max", limits.memory), ("memory.limit_in_bytes", limits.memory)],
                    "cpu": [("cpu.weight", CPU_WEIGHT), ("cpu.shares", CPU_SHARES)]}
        # what a folder of each hierarchy is for, and the file it needs
        uses = {"unified": ("cgroup.freeze", "cpu.stat"), "freezer": ("freezer.state",), "cpuacct": ("cpuacct.usage",)}
        folders: list[str] = []
        cgroup = SeatCgroup(folders, bounds_processes=False)
        for controller, base in self.bases.items():
            folder = os.path.join(base, label)
            try:
                os.makedirs(folder, exist_ok=True)
                useful = False
                for name, value in settings.get(controller, []):
                    path = os.path.join(folder, name)
                    if os.path.exists(path):
                        with open(path, "w", encoding="ascii") as file:
                            file.write(str(value))
                        useful = True
                present = [name for name in uses.get(controller, ()) if os.path.exists(os.path.join(folder, name))]
                useful = useful or bool(present)
            except OSError:
                useful, present = False, []
            if not useful:
                SeatCgroup([folder]).remove()
                continue
            if folder not in folders:
                folders.append(folder)
            cgroup.bounds_processes |= controller == "pids"
            if "cgroup.freeze" in present or "freezer.state" in present:
                cgroup.freeze = (os.path.join(folder, present[0]),
                                 STOP_CGROUP_V2 if present[0] == "cgroup.freeze" else STOP_CGROUP_V1)
            if "cpu.stat" in present or "cpuacct.usage" in present:
                cgroup.cpu = (os.path.join(folder, present[-1]),
                              CPU_STAT if present[-1] == "cpu.stat" else CPU_NANOSECONDS)
            if controller == "cpu":
                self._share_among_seats(base)
        if not folders:
            return None
        # a server's run lasts for days: the seats their release removed are
        # forgotten, only those still there are kept for the run's end
        self.made = [seat for seat in self.made if any(os.path.exists(folder) for folder in seat.folders)]
        self.made.append(cgroup)
        return cgroup

    def _share_among_seats(self, base: str) -> None:
        """The run's cpu cgroup weighs as much as its seats would as
        processes of their own (one each): the seats share the CPU equally,
        and the run takes no less of the machine than it did without."""
        seats = sum(1 for entry in os.scandir(base) if entry.is_dir())
        for name, value in (("cpu.weight", min(CPU_WEIGHT * seats, 10000)), ("cpu.shares", CPU_SHARES * seats)):
            try:
                with open(os.path.join(base, name), "w", encoding="ascii") as file:
                    file.write(str(value))
            except OSError:
                pass

    def remove(self) -> None:
        """Removes the seats' cgroups made here once they are empty (within
        CGROUP_WAIT), then the run's folders if nothing else is in them (a
        cgroup with processes stays)."""
        deadline = time.monotonic() + CGROUP_WAIT
        for seat in self.made:
            seat.remove(max(0.0, deadline - time.monotonic()))
        for base in self.bases.values():
            # another Cgroups of this process may still make seats in it
            # (made again if this empties it): it stays ours until the last
            if not self.released:
                _MADE_HERE[base] -= 1
                if _MADE_HERE[base] <= 0:
                    del _MADE_HERE[base]
            try:
                os.rmdir(base)
            except OSError:
                pass
        self.released = True  # called again once its seats' processes are gone, it only removes

    @property
    def kinds(self) -> list[str]:
        return sorted(self.bases)


# ---------------------------------------------------------------- bubblewrap

def _bwrap_base(scratch: int) -> list[str]:
    return [BWRAP, "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--disable-userns", "--cap-drop", "ALL", "--die-with-parent",
            "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
            "--size", str(scratch), "--tmpfs", SCRATCH, "--setenv", "TMPDIR", SCRATCH]


@functools.cache
def bubblewrap_problem() -> str | None:
    """None if bubblewrap confines seats on this machine, else why not."""
    if not sys.platform.startswith("linux"):
        return f"no bubblewrap on {sys.platform}"
    path = shutil.which(BWRAP)
    if path is None:
        return "bwrap is not installed (the Debian package bubblewrap)"
    try:
        done = subprocess.run([*_bwrap_base(1 << 20), "--", "/bin/sh", "-c", "exit 0"], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap does not run: {error}"
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"bwrap cannot make namespaces here: {why[-1] if why else done.returncode}"
    return None


@functools.cache
def _shared_folders() -> tuple[str, ...]:
    """Folders every seat needs whoever names them: the system's, Python's
    (any interpreter a #! line may pick) and clinea's own code (a user's
    bot imports it; an editable install serves it from the checkout; the
    judge's holds seat_exec)."""
    import clinea.core
    import clinea.players

    folders = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc", "/proc", "/dev", "/sys", "/opt"}
    folders |= {os.path.realpath(prefix) for prefix in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    folders.add(os.path.dirname(os.path.realpath(sys.executable)))
    folders |= {os.path.dirname(os.path.realpath(module.__file__)) for module in (clinea, clinea.core, clinea.players)
                if module.__file__}
    folders.add(os.path.dirname(os.path.realpath(SEAT_EXEC_PROGRAM)))  # every seat starts with it
    return tuple(sorted(folders))


def _is_system(path: str) -> bool:
    return path == "/" or any(_inside(path, folder) for folder in _shared_folders())


def program_folders(command: Sequence[str], cwd: str | None = None) -> list[str]:
    """The folders of the files a seat's command names (its program, a
    script, a weights file), where its own data lives: what another seat
    must not read. The interpreter and system folders are not among them."""
    folders = []
    for i, word in enumerate(command):
        if word.startswith("-") or (i == 0 and os.sep not in word):
            continue
        path = os.path.join(cwd or os.getcwd(), word)
        if os.path.isfile(path):
            folder = os.path.dirname(os.path.realpath(path))
            if not _is_system(folder) and folder not in folders:
                folders.append(folder)
    return folders


def in_full(folder: str, word: str) -> str:
    """`word` named from `folder`, through real folders only (a link on the
    way may be in a hidden folder); its own name is kept, as a launcher
    link is named after its player."""
    path = os.path.join(folder, word)
    return os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


@dataclass
class Launch:
    """How to start one seat: its argv, given the descriptors of its stdin
    and stdout (an isolated seat takes them as arguments; see SEAT_EXEC),
    what its process does between fork and exec, and what to undo once it
    is gone."""
    command: list[str]
    before_exec: Callable[[], None]
    cgroup: SeatCgroup | None = None
    # bwrap's arguments before the command, and the process limit set inside
    sandbox: list[str] | None = None
    processes: int = 0
    # both seats think on the other's time (see Sandbox)
    ponder: bool = False

    @property
    def isolated(self) -> bool:
        return self.sandbox is not None

    def freezer(self, group: int) -> Freezer:
        """The Freezer of the seat started this way, whose first process
        leads the process group `group`."""
        if self.cgroup is not None:
            return self.cgroup.freezer(self.ponder, group)
        return Freezer(STOP_NONE if self.ponder else STOP_SIGNALS, group)

    @property
    def needs_watchdog(self) -> bool:
        """Whether the seat's processes may outlive a judge killed by
        SIGKILL without a watchdog: outside a PID namespace they may; in
        one, its bwrap dies with the judge and the kernel empties the
        namespace, unless v1's freezer holds them (frozen, nothing dies) or
        no cgroup lets the next run find a bwrap caught as it started."""
        if not self.isolated or self.cgroup is None:
            return True
        return not self.ponder and self.cgroup.freeze is not None and self.cgroup.freeze[1] == STOP_CGROUP_V1

    def argv(self, stdin: int, stdout: int, status: int) -> list[str]:
        if self.sandbox is None:
            return self.command
        return [*self.sandbox, *seat_exec(), str(stdin), str(stdout), str(status), str(self.processes),
                *self.command]

    def release(self) -> None:
        if self.cgroup is not None:
            self.cgroup.remove()


@dataclass
class Sandbox:
    """The confinement of every seat of a run. `mode`: auto (isolate where
    bubblewrap works), strict (refuse to play otherwise: SandboxError), off
    (limits only). `hidden`: files and folders no seat may see (the results
    file, the logs). `ponder` False (ponder off, as CCRL and TCEC play):
    while one seat thinks every process of the other is stopped, resumed
    when it is told the opponent's move; True: both run all the time, each
    with an equal share of the CPU however many processes it starts."""
    mode: str = "auto"
    limits: SeatLimits = field(default_factory=SeatLimits)
    hidden: tuple[str, ...] = ()
    ponder: bool = False

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise SandboxError(f"--sandbox {self.mode!r}: choose among {', '.join(MODES)}")
        problem = None if self.mode == "off" else bubblewrap_problem()
        if self.mode == "strict" and problem:
            raise SandboxError(f"--sandbox strict: {problem}; install bubblewrap, or play with --sandbox auto or off")
        self.isolated = self.mode != "off" and problem is None
        self.problem = problem
        self.hidden = tuple(os.path.realpath(path) for path in self.hidden)
        self._cgroups: Cgroups | None = None
        self.root = os.geteuid() == 0

    @property
    def cgroups(self) -> Cgroups:
        if self._cgroups is None:
            self._cgroups = Cgroups(f"clinea-{os.getpid()}", self.ponder)
        return self._cgroups

    def describe(self) -> str:
        """One line: which isolation is in force, and the limits."""
        processes = "cgroup" if "pids" in self.cgroups.kinds else (
            "per-namespace rlimit" if self.isolated and not self.root else "unbounded")
        limits = f"limits: {self.limits.describe()} (processes: {processes}); {self.describe_turns()}"
        if self.isolated:
            return f"sandbox: bubblewrap (own PID, user, network and IPC namespaces; read-only files); {limits}"
        why = "off" if self.mode == "off" else f"unavailable, {self.problem}"
        return (f"sandbox: {why}: seats are NOT isolated (they can see and signal other processes, "
                f"read and write your files, use the network); {limits}")

    def describe_turns(self) -> str:
        """Whether a seat may think on its opponent's time, and how that holds."""
        kinds = self.cgroups.kinds
        if self.ponder:
            share = "an equal CPU share per seat (cgroup)" if "cpu" in kinds else \
                "NO equal CPU share (no cpu cgroup here)"
            return f"ponder on: both seats run all the time, {share}"
        how = "freezing its cgroup" if {"unified", "freezer"} & set(kinds) else \
            "SIGSTOP to its process group (no freezer cgroup here)"
        return f"ponder off: a seat is stopped while its opponent thinks, by {how}"

    def launch(self, command: Sequence[str], cwd: str | None, others: Iterable[str] = ()) -> Launch:
        """How to start `command` in `cwd` confined, with the folders
        `others` (other seats' program folders) out of its sight."""
        cgroup = self.cgroups.seat(f"seat-{next(_SEATS)}", self.limits)
        rlimits = self.limits.rlimits()

        def before_exec() -> None:
            for kind, value in rlimits:
                resource.setrlimit(kind, (value, value))
            if cgroup is not None:
                cgroup.enter()

        if not self.isolated:
            return Launch(list(command), before_exec, cgroup, ponder=self.ponder)
        command, bwrap = self._bubblewrap(list(command), cwd, others)
        # inside the user namespace bwrap made, processes are counted there alone
        bounded = cgroup is not None and cgroup.bounds_processes
        processes = self.limits.processes if not bounded and not self.root else 0
        return Launch(command, before_exec, cgroup, bwrap, processes, self.ponder)

    def _bubblewrap(self, command: list[str], cwd: str | None,
                    others: Iterable[str]) -> tuple[list[str], list[str]]:
        """(the command as it runs inside, bwrap's arguments before it)."""
        here = os.path.realpath(cwd or os.getcwd())
        own = program_folders(command, here)
        covered = [folder for folder in sorted({os.path.realpath(f) for f in others}
                                               | {h for h in self.hidden if os.path.isdir(h)})
                   # never the folder a seat's own program lives in, nor one holding it or what
                   # every seat needs (a bot kept in the checkout's root holds the judge)
                   if os.path.isdir(folder) and not _is_system(folder)
                   and not any(_inside(mine, folder) for mine in (*own, *_shared_folders()))]
        if any(_inside(here, folder) for folder in covered):
            # its working folder is another's: it runs in its scratch, its files named in full
            command = [in_full(here, word) if not word.startswith("-") and os.path.exists(os.path.join(here, word))
                       else word for word in command]
            here = SCRATCH
        # no covered folder holds its own program, so nothing of its own needs showing again
        args = _bwrap_base(self.limits.scratch)
        for folder in covered:
            args += ["--tmpfs", folder]
        for path in self.hidden:
            if os.path.isfile(path) and not any(_inside(path, folder) for folder in covered):
                args += ["--ro-bind", "/dev/null", path]
        return command, [*args, "--chdir", here, "--"]

    def close(self) -> None:
        if self._cgroups is not None:
            self._cgroups.remove()
