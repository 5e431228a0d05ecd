"""A player program's process: start, pipes, deadlines, kill. No protocol
words here (clinea.judge.process_seat speaks them).

The player runs in its own process group with a parent-death signal
(SIGKILL when the judge's thread that started it dies, however the judge
dies), and with a mark in its environment that its descendants inherit; a
kill takes them all (clinea.judge.reaper). It stays in the judge's session
but without its controlling terminal: with autogroup scheduling (Linux's
default on desktops, sched_autogroup_enabled) a session of its own would be
a scheduling group of its own, and every move would hand the CPU from one
group to another; on a machine with more runnable tasks than cores each
such hand-over waits behind the others' time slices (with 12 other
matches running on 2 cores the judge waited 1.4 ms in the run queue per
time slice in its own group against 0.23 ms for the course judge, whose
players share its session). stdout is read
through a Channel (clinea.core.relay) with poll() against a monotonic deadline; stderr is
drained by a thread, so a player flooding it never blocks on a full pipe.
"""
from __future__ import annotations

import collections
import fcntl
import itertools
import os
import select
import signal
import subprocess
import sys
import termios
import threading
from collections.abc import Callable, Sequence
from time import monotonic
from typing import IO

from clinea.core.relay import Channel, Freezer
from clinea.judge import reaper
from clinea.judge.placement import FAST, Placement
from clinea.judge.sandbox import Launch
from clinea.judge.spin import SPIN
from clinea.judge.spin import choice as spin_choice

# A line longer than this is garbage, whatever it says: no column needs it.
MAX_LINE = 4096
# How much of its stderr per game a player may write into the transcript.
STDERR_LOG_LIMIT = 64 * 1024
# While waiting for a line, how often to look whether the player has died
# (its descendants may hold stdout open, so no end of output would come).
EXIT_CHECK = 0.25
# How long an isolated player's start (bwrap's namespaces, then exec) may
# take before the judge goes on without knowing: past it a failure shows as
# a crash at the first answer instead.
EXEC_WAIT = 10.0
# Lines of stderr kept to say why a player died.
STDERR_TAIL = 5


class Silent(Exception):
    """No line before the deadline."""


class Closed(Exception):
    """End of output: the player closed stdout or died."""


class Overlong(Exception):
    """A line longer than MAX_LINE bytes."""


class _Run:
    """What all the player processes of this judge share: the run's mark and
    the watchdog that kills them if the judge dies (started with the first
    player that is not isolated, once per process: an isolated player's
    processes live in a PID namespace of their own, which the kernel empties
    when its bwrap dies, and bwrap dies with the judge by its parent-death
    signal, so a watchdog would only cost every run its start-up; a bwrap
    child caught before it set its own, waiting forever for the parent that
    died, is killed by the next run's clean-up of the dead judge's cgroups)."""

    def __init__(self) -> None:
        self.mark = os.urandom(6).hex()  # not `secrets`: its import alone took milliseconds of every start-up
        self.seats = itertools.count()
        self.lock = threading.Lock()
        self.watchdog: subprocess.Popen[bytes] | None = None
        self.watchdog_start = 0  # clock ticks since boot: the judge adopts orphans from then on
        self.live: set[PlayerProcess] = set()
        # a player between its fork and its entry in `live` would look like
        # an adopted orphan: starts and sweeps for orphans take turns
        self.children = threading.Lock()

    def start_watchdog(self, frozen_under: Sequence[str] = ()) -> None:
        """Starts the watchdog unless it runs; `frozen_under`: the run's
        folders of v1's freezer, whose seats it thaws (else they cannot die)."""
        with self.lock:
            if self.watchdog is not None and self.watchdog.poll() is None:
                return
            reaper.become_subreaper()
            # its own session: a signal to the judge's group does not stop it first;
            # run as a file without site: standard library only, it starts in milliseconds
            self.watchdog = subprocess.Popen([sys.executable, "-S", reaper.__file__, self.mark, *frozen_under],
                                             stdin=subprocess.PIPE, start_new_session=True)
            try:
                self.watchdog_start = reaper.start_time(self.watchdog.pid)
            except OSError:  # no /proc: no orphans told apart either
                self.watchdog_start = -1

    def adopted(self, leaving: PlayerProcess) -> reaper.Adopted | None:
        """Which children of the judge are orphans, as `leaving` is killed
        (call with `children` held)."""
        with self.lock:
            if self.watchdog is None or self.watchdog_start < 0:
                return None
            others = [proc for proc in self.live if proc is not leaving]
            return reaper.Adopted(self.watchdog_start, frozenset([self.watchdog.pid, *(p.pid for p in others)]),
                                  frozenset(f"{reaper.MARK}={p.seat_mark}".encode() for p in others))

    def stop_watchdog(self) -> None:
        with self.lock:
            watchdog, self.watchdog = self.watchdog, None
        if watchdog is not None:
            assert watchdog.stdin is not None  # started with stdin=PIPE
            watchdog.stdin.close()  # its cue: it kills whatever is still marked, then exits
            try:
                watchdog.wait(timeout=5)
            except subprocess.TimeoutExpired:  # pragma: no cover - a stuck /proc
                watchdog.kill()


RUN = _Run()


def kill_all() -> None:
    """Kills every player process of this judge and their descendants
    (Ctrl-C, SIGTERM, the end of a run), and stops the watchdog."""
    with RUN.lock:
        live = list(RUN.live)
    for proc in live:
        proc.kill()
    RUN.stop_watchdog()


def end_all_games() -> None:
    """Kills every player process and their descendants but leaves the pipes
    to the seats using them: each game in flight then ends at once (end of
    output), and its seat cleans up as after any crash. Ctrl-C's way."""
    with RUN.lock:
        live = list(RUN.live)
    for proc in live:
        proc.end_game()


def _leave_the_terminal() -> None:
    """In a player's process: no controlling terminal (it could read the
    user's keys, write over the judge's output or inject input with
    TIOCSTI), while it stays in the judge's session. TIOCNOTTY from a
    process that leads no session drops the terminal for that process
    alone: the judge and the shell keep theirs."""
    try:
        terminal = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:  # none to drop
        return
    try:
        fcntl.ioctl(terminal, termios.TIOCNOTTY)
    except OSError:
        pass
    finally:
        os.close(terminal)


def _die_with_the_judge(parent: int, launch: Launch | None) -> None:
    """preexec_fn of a player: SIGKILL when the judge dies; and if it died
    already, in the instant before, do not start at all. Then its sandbox's
    limits and cgroup, before it runs a single instruction of its own."""
    reaper.prctl(reaper.PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)
    _leave_the_terminal()
    if launch is not None:
        launch.before_exec()


class PlayerProcess:
    """One running player program. `on_stderr(line)` sees every stderr line
    (from the drain thread) until the per-game cap, see `new_game`;
    `on_idle()` is called every EXIT_CHECK seconds that a read waits (the
    seat writes its buffered transcript then, so a slow player's is never
    more than that behind). `launch` (clinea.judge.sandbox) confines and
    bounds it; without one it runs as it is. `placement` (clinea.judge.placement)
    is its worker's: the process is one of its members, and an answer of it
    later than FAST after the question (its first excepted) releases it."""

    # whether it answered once: its start-up is not a sign that it thinks
    answered = False
    placement: Placement | None = None

    def __init__(self, command: Sequence[str], cwd: str | None = None,
                 on_stderr: Callable[[str], None] | None = None,
                 on_idle: Callable[[], None] | None = None,
                 launch: Launch | None = None, placement: Placement | None = None):
        if launch is None or launch.needs_watchdog:
            frozen = launch.cgroup.freeze if launch is not None and launch.cgroup is not None else None
            RUN.start_watchdog([os.path.dirname(os.path.dirname(frozen[0]))] if frozen else [])
        self.launch = launch
        self.seat_mark = f"{RUN.mark}-{next(RUN.seats)}"
        env = dict(os.environ, **{reaper.MARK: self.seat_mark})
        parent = os.getpid()
        with RUN.children:
            if launch is not None and launch.isolated:
                # the pipes go in as other descriptors than 0 and 1 (see clinea.judge.sandbox.SEAT_EXEC)
                given, to_player = os.pipe()
                from_player, taken = os.pipe()
                started, status = os.pipe()
                try:
                    self.proc = subprocess.Popen(
                        launch.argv(given, taken, status), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                        stderr=subprocess.PIPE, pass_fds=(given, taken, status), process_group=0, cwd=cwd,
                        env=env, preexec_fn=lambda: _die_with_the_judge(parent, launch))
                except BaseException:
                    for fd in (to_player, from_player, started):
                        os.close(fd)
                    raise
                finally:
                    for fd in (given, taken, status):
                        os.close(fd)
                self.pipes: list[IO[bytes]] = [open(to_player, "wb", buffering=0), open(from_player, "rb", buffering=0)]
                self._wait_for_exec(started)
            else:
                self.proc = subprocess.Popen(
                    list(command), stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, process_group=0, cwd=cwd, bufsize=0,
                    env=env, preexec_fn=lambda: _die_with_the_judge(parent, launch))
                assert self.proc.stdin is not None and self.proc.stdout is not None  # both PIPE
                self.pipes = [self.proc.stdin, self.proc.stdout]
            self.pid = self.proc.pid
            assert self.proc.stderr is not None  # stderr=PIPE on both paths
            self.stderr: IO[bytes] = self.proc.stderr
            self.stdin = self.pipes[0].fileno()
            self.read_from(self.pipes[1].fileno())
            if launch is not None:
                self.channel.freezer = launch.freezer(self.pid)
            self.on_stderr = on_stderr
            self.on_idle = on_idle
            self.stderr_tail: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL)
            self.stderr_logged = 0
            self.stderr_cut = 0
            self.drain = threading.Thread(target=self._drain_stderr, daemon=True)
            self.drain.start()
            with RUN.lock:
                RUN.live.add(self)
        self.placement = placement
        if placement is not None:
            placement.join(self.pid)

    def _wait_for_exec(self, started: int) -> None:
        """An isolated player's exec: nothing on `started` but its end means
        it runs; an errno there means it could not start (OSError, as a
        Popen of the bare program raises)."""
        try:
            ready, _, _ = select.select([started], [], [], EXEC_WAIT)
            said = os.read(started, 64) if ready else b""
        finally:
            os.close(started)
        if said.isdigit():
            self.proc.wait()
            for pipe in self.pipes:
                pipe.close()
            if self.proc.stderr is not None:
                self.proc.stderr.close()
            number = int(said)
            raise OSError(number, os.strerror(number))

    def read_from(self, stdout: int) -> None:
        """Reads the player's lines from the descriptor `stdout` through a
        Channel (clinea.core.relay): a move costs a poll() and a read(),
        with nothing built per call, and the referee's relay plays moves
        over the same buffer."""
        self.stdout = stdout
        self.channel = Channel(getattr(self, "stdin", -1), stdout, MAX_LINE)

    @property
    def freezer(self) -> Freezer:
        """What stops the seat between its turns (ponder off) and reads its
        CPU; its channel's, which the relay uses (one that stops nothing
        and measures nothing without a sandbox)."""
        return self.channel.freezer

    def new_game(self) -> None:
        """Starts a new per-game allowance of logged stderr."""
        self._say_what_was_cut()
        self.stderr_logged = self.stderr_cut = 0

    def _say_what_was_cut(self) -> None:
        if self.stderr_cut and self.on_stderr is not None:
            self.on_stderr(f"[{self.stderr_cut} more bytes of stderr not logged]")

    def _drain_stderr(self) -> None:
        # chunks, not readline: the pipe is unbuffered and a flood must not
        # cost one system call per byte
        fd = self.stderr.fileno()
        pending = b""
        while chunk := os.read(fd, 65536):
            *lines, pending = (pending + chunk).split(b"\n")
            if len(pending) > MAX_LINE:
                lines.append(pending)
                pending = b""
            for raw in lines:
                self._stderr_line(raw)
        if pending:
            self._stderr_line(pending)
        self.stderr.close()

    def _stderr_line(self, raw: bytes) -> None:
        text = raw.decode("utf-8", "replace")
        self.stderr_tail.append(text[:200])
        if self.stderr_logged < STDERR_LOG_LIMIT:
            self.stderr_logged += len(raw) + 1
            if self.on_stderr is not None:
                self.on_stderr(text)
        else:
            self.stderr_cut += len(raw) + 1

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def write(self, data: bytes) -> None:
        """Writes `data` (whole lines) in one system call; raises Closed if
        the player no longer reads."""
        try:
            self.channel.write(data)
        except OSError:
            raise Closed from None

    @property
    def answers_fast(self) -> bool:
        """Whether the last answer came within 2 * SPIN of the question."""
        return self.channel.answers_fast

    def read_line(self, timeout: float | None, elapsed: float = 0.0) -> str:
        """The next line of stdout without its newline (and any \\r); raises
        Closed, Overlong, or Silent when `timeout` seconds pass first,
        counted from `elapsed` seconds ago (when the question went out)."""
        channel = self.channel
        deadline = None
        asked = monotonic() - elapsed
        while True:
            line = channel.take_line()
            if line is not None:
                took = monotonic() - asked
                channel.answers_fast = took < 2 * SPIN
                if took > FAST:
                    self.thinks()
                self.answered = True
                return line.decode("utf-8", "replace").rstrip("\r")
            if channel.buffered > MAX_LINE:
                raise Overlong
            now = monotonic()
            if deadline is None:
                deadline = asked + timeout if timeout is not None else float("inf")
            if now - asked > FAST:
                self.thinks()
            spin, check = self.waiting(spin_choice.spin)
            wait = min(deadline - now, check)
            if wait <= 0:
                raise Silent
            if channel.readable(asked, spin, wait):
                if not channel.fill():
                    raise Closed
            elif self.proc.poll() is not None:
                # the player died but something it started holds the pipe open
                raise Closed
            elif self.on_idle is not None:
                self.on_idle()

    def waiting(self, spin: float) -> tuple[float, float]:
        """(spin, patience) of a wait for its answer: how long to poll
        without sleeping (`spin`, the judge's choice, unless its worker's
        placement says none), and how long before looking again."""
        if self.placement is None:
            return spin, EXIT_CHECK
        return self.placement.spin(spin), self.placement.patience(EXIT_CHECK)

    def thinks(self) -> None:
        """An answer came (or is on its way) later than FAST: past its first
        answer, a player that thinks; its worker unpins (clinea.judge.placement)."""
        if self.answered and self.placement is not None and self.placement.pinned:
            self.placement.release()

    def unread_output(self) -> bytes:
        """What the player wrote that nobody read yet (b"" if nothing)."""
        channel = self.channel
        if not channel.buffered and channel.readable(0.0, 0.0, 0.0):
            channel.fill()  # 0 bytes at end of output: shows at the next read
        return channel.unread()

    def exit_status(self, wait: float) -> int | None:
        """The exit status, waiting up to `wait` seconds; None if still running.
        A negative status is the signal that killed it."""
        try:
            status = self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None
        if self.launch is not None and self.launch.isolated and status > 128:
            return 128 - status  # bwrap says a death by signal N as a shell does, 128 + N
        return status

    def last_words(self, wait: float = 0.5) -> list[str]:
        """The last stderr lines, once the drain has read them all."""
        self.drain.join(timeout=wait)
        return list(self.stderr_tail)

    def end_game(self) -> None:
        """Kills the player and everything it started but leaves its pipes:
        the seat reading them sees end of output and cleans up as after any
        crash. Safe from another thread than the seat's."""
        self.freezer.thaw()  # v1's freezer holds a SIGKILL until then
        reaper.kill_all(self.pid, self.seat_mark, spare=(self.pid,))

    def kill(self) -> None:
        """Kills the player, its group and everything it started; closes the pipes."""
        if self.placement is not None:
            self.placement.leave(self.pid)
        # resumed first: v1's freezer holds a SIGKILL until then; and it
        # stops nothing more (the process group's number may come round)
        self.freezer.close()
        with RUN.children:
            if self.launch is not None and self.launch.isolated:
                # bwrap leads the group, its namespace's init in it: once they
                # die the kernel kills whatever else the seat started, so no
                # pass over /proc (3.6 ms each, two a seat) has anything to find
                try:
                    os.killpg(self.pid, signal.SIGKILL)
                except OSError:  # gone already
                    pass
            else:
                reaper.kill_all(self.pid, self.seat_mark, spare=(self.pid,), adopted=RUN.adopted(self))
        self.exit_status(5)
        if self.launch is not None:
            self.launch.release()
        self.drain.join(timeout=1.0)
        self._say_what_was_cut()
        for pipe in self.pipes:
            try:
                pipe.close()
            except OSError:
                pass
        with RUN.lock:
            RUN.live.discard(self)
