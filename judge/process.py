"""A player program at the table: the protocol seat.

The player runs in its own process group (so a player that forks cannot leave
children behind), its stdout is read without blocking through select() against
a monotonic deadline, and its stderr is drained by a thread into the log so a
player that floods stderr can never block on a full pipe. After a forfeit the
whole group is killed and the next game starts a fresh process.
"""
from __future__ import annotations

import collections
import os
import re
import select
import signal
import subprocess
import threading
import time
from typing import IO, Optional, Sequence

from clinea.core import Board
from clinea.judge.referee import COLOURS, CRASH, GARBAGE, TIMEOUT, Forfeit, Seat

# A line longer than this is garbage, whatever it says: no column needs it.
MAX_LINE = 4096
# How long a player may take to answer `salir` and exit before it is killed.
QUIT_GRACE = 1.0
# Extra time for the first answer of a fresh process (interpreter start-up).
STARTUP_GRACE = 2.0
# What the course judge's int() would read, minus Python's extras ("1_0", "٣").
INTEGER = re.compile(r"[+-]?[0-9]+")


# Every player process alive, so that the judge can kill them all when it is
# interrupted (Ctrl-C, SIGTERM): they run in their own sessions and would not
# get the terminal's signal themselves.
_LIVE: set = set()
_LIVE_LOCK = threading.Lock()


def kill_all() -> None:
    with _LIVE_LOCK:
        procs = list(_LIVE)
    for proc in procs:
        kill_group(proc)


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the player's whole process group and reap the player."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:  # pragma: no cover - a kernel stuck in D state
        pass
    with _LIVE_LOCK:
        _LIVE.discard(proc)


def opening_line(board: Board, me: int) -> str:
    """The third line of a game: `vos` or `el`, followed by the opening plies
    when the game starts from one (a clinea extension, only ever sent with
    --openings, so course players never see it)."""
    word = "vos" if board.side_to_move == me else "el"
    if board.moves_played == 0:
        return word
    return " ".join([word, *map(str, board.moves())])


class ProcessSeat(Seat):
    """A player program speaking the course judge's protocol.

    `command` is the argv; `log` (a text file or None) receives the transcript
    (`> ` judge to player, `< ` player to judge, `! ` stderr, `# ` judge notes).
    """

    def __init__(self, name: str, command: Sequence[str], log: Optional[IO[str]] = None,
                 cwd: Optional[str] = None):
        self.name = name
        self.command = list(command)
        self.log = log
        self.cwd = cwd
        self.proc: Optional[subprocess.Popen] = None
        self.buffer = b""
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=5)
        self.log_lock = threading.Lock()
        self.restarts = 0
        # told `vos` but not asked yet: its first answer is on its way unasked
        self.answer_owed = False

    # ------------------------------------------------------------ process

    def spawn(self) -> None:
        # start_new_session puts the player in its own process group (and
        # session), so killpg reaches everything it started
        try:
            self.proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True, cwd=self.cwd, bufsize=0)
        except OSError as error:
            self.proc = None
            raise Forfeit(CRASH, f"cannot start {self.command[0]!r}: {error.strerror}") from None
        with _LIVE_LOCK:
            _LIVE.add(self.proc)
        self.buffer = b""
        self.startup = STARTUP_GRACE
        self.stderr_tail.clear()
        self.drain = threading.Thread(target=self._drain_stderr, args=(self.proc.stderr,), daemon=True)
        self.drain.start()
        self.note(f"started pid {self.proc.pid}: {' '.join(self.command)}")

    def _drain_stderr(self, stream) -> None:
        # chunks, not readline: the pipe is unbuffered and a flood must not
        # cost one system call per byte
        fd = stream.fileno()
        pending = b""
        while chunk := os.read(fd, 65536):
            *lines, pending = (pending + chunk).split(b"\n")
            if len(pending) > MAX_LINE:
                lines.append(pending)
                pending = b""
            for raw in lines:
                text = raw.decode("utf-8", "replace")
                self.stderr_tail.append(text[:200])
                self._log("! " + text)
        if pending:
            self._log("! " + pending.decode("utf-8", "replace"))
        stream.close()

    def _log(self, line: str) -> None:
        if self.log is not None:
            with self.log_lock:
                if not self.log.closed:
                    self.log.write(line + "\n")

    def note(self, text: str) -> None:
        self._log("# " + text)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        if self.proc is not None:
            kill_group(self.proc)
            self.drain.join(timeout=1.0)
            self.note(f"killed process group {self.proc.pid}")
            self.proc.stdin.close()
            self.proc.stdout.close()
            self.proc = None

    def close(self) -> None:
        """End of the match: `salir`, wait briefly for `listo` and the exit,
        then kill the group whatever happened (children included)."""
        if self.proc is None:
            return
        try:
            self.send("salir")
            self.read_line(QUIT_GRACE)
            self.proc.wait(timeout=QUIT_GRACE)
        except (Forfeit, subprocess.TimeoutExpired):
            pass
        self.kill()
        if self.log is not None:
            self.log.flush()

    # ------------------------------------------------------------ wire

    def send(self, line: str) -> None:
        self._log("> " + line)
        try:
            self.proc.stdin.write(line.encode() + b"\n")
        except (BrokenPipeError, OSError):
            raise self.crashed() from None

    def crashed(self) -> Forfeit:
        status = None
        try:
            status = self.proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            pass
        detail = "end of output" if status is None else f"end of output, exit status {status}"
        if status is not None:
            self.drain.join(timeout=0.5)  # the last words on stderr say why
        if self.stderr_tail:
            detail += f" ({self.stderr_tail[-1]})"
        return Forfeit(CRASH, detail)

    def read_line(self, timeout: Optional[float]) -> str:
        """The next line of stdout, without the newline; raises Forfeit on end
        of output, a line too long, or no line before `timeout` seconds."""
        fd = self.proc.stdout.fileno()
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buffer:
            if len(self.buffer) > MAX_LINE:
                raise Forfeit(GARBAGE, f"a line longer than {MAX_LINE} bytes")
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                raise Forfeit(TIMEOUT, f"no answer within {timeout:.3f} s")
            ready, _, _ = select.select([fd], [], [], wait)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise self.crashed()
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        text = line.decode("utf-8", "replace").rstrip("\r")
        self._log("< " + text)
        return text

    def pending_output(self) -> bool:
        """Whether the player wrote something nobody asked for."""
        if self.buffer:
            return True
        ready, _, _ = select.select([self.proc.stdout.fileno()], [], [], 0)
        if ready:
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return False  # end of output shows up at the next read
            self.buffer += chunk
            return True
        return False

    def check_quiet(self) -> None:
        if self.pending_output():
            shown = self.buffer[:40].decode("utf-8", "replace")
            raise Forfeit(GARBAGE, f"unexpected output {shown!r}")

    # ------------------------------------------------------------ seat

    def start(self, board: Board, me: int, colour: str) -> None:
        if not self.alive:
            if self.proc is not None:
                self.kill()
            self.spawn()
        other = COLOURS[1 - COLOURS.index(colour)]
        self.check_quiet()
        self.send(f"{colour} {other}")
        self.send(f"{board.columns} {board.rows} {board.c} {board.p}")
        line = opening_line(board, me)
        self.send(line)
        self.answer_owed = line.startswith("vos")

    def ask(self, board: Board, last: Optional[int], timeout: Optional[float]) -> object:
        self.answer_owed = False
        if last is not None:
            # after `vos` the answer comes unasked; anything before a column we send is extra
            self.check_quiet()
            self.send(str(last))
        text = self.read_line(timeout).strip()
        self.startup = 0.0
        if INTEGER.fullmatch(text):
            return int(text)
        raise Forfeit(GARBAGE, f"{text[:40]!r} is not an integer" if text else "an empty line")

    def tell(self, word: str) -> None:
        try:
            if self.answer_owed:
                # the opponent forfeited before this player's first move was
                # asked for: take the move off the wire so it is not mistaken
                # for extra output at the next game
                self.answer_owed = False
                self.read_line(QUIT_GRACE)
            self.send(word)
        except Forfeit:
            self.note("could not tell the result: the player has gone")

    def forfeited(self) -> None:
        self.restarts += 1
        self.kill()
