"""A player program at the table: the protocol words of a seat, over a
PlayerProcess (clinea.judge.player_process does start, pipes, deadlines
and kill). After a forfeit the program and all it started are killed and
the next game starts a fresh process.
"""
from __future__ import annotations

import errno
import threading
from array import array
from collections.abc import Sequence
from typing import Protocol

from clinea import protocol
from clinea.core import Board
from clinea.core.relay import ASKED, relay
from clinea.core.wire import ColumnLines
from clinea.judge.placement import Placement
from clinea.judge.player_process import MAX_LINE, Closed, Overlong, PlayerProcess, Silent
from clinea.judge.referee import CRASH, GARBAGE, TIMEOUT, Forfeit, Seat
from clinea.judge.sandbox import Sandbox
from clinea.judge.spin import choice as spin_choice


class Transcript(Protocol):
    """Where a seat's transcript goes: a text file, or the course judge's
    log format (clinea.judge.course_log)."""

    @property
    def closed(self) -> bool: ...

    def write(self, text: str, /) -> object: ...

    def flush(self) -> None: ...

    def close(self) -> None: ...

# How long a player may take to answer `salir` and exit before it is killed.
QUIT_GRACE = 1.0
# Extra time for the first answer of a fresh process (interpreter start-up).
STARTUP_GRACE = 2.0
# The answers the relay reads itself: the protocol's own column lines.
COLUMN_LINES = ColumnLines(protocol.COLUMN_LINES)


def cannot_start(command: Sequence[str], error: OSError) -> str:
    """Why `command` did not start, with the likely cause of an exec format error."""
    detail = f"cannot start {command[0]!r}: {error.strerror or error}"
    if error.errno == errno.ENOEXEC:
        try:
            with open(command[0], "rb") as file:
                shebang = file.read(2) == b"#!"
        except OSError:
            shebang = True
        if not shebang:
            detail += f" ({command[0]} has no #! line?)"
    return detail


class ProcessSeat(Seat):
    """A player program speaking the course judge's protocol.

    `command` is the argv; `log` (a text file or None) receives the transcript
    (`> ` judge to player, `< ` player to judge, `! ` stderr, `# ` judge notes);
    `placement` is the CPU placement of the worker the seat belongs to.
    """

    def __init__(self, name: str, command: Sequence[str], log: Transcript | None = None,
                 cwd: str | None = None, sandbox: Sandbox | None = None, others: Sequence[str] = (),
                 placement: Placement | None = None):
        self.name = name
        self.command = list(command)
        # every process of the seat confined, the folders `others` (the
        # other seats' programs) out of its sight
        self.sandbox = sandbox
        self.others = tuple(others)
        self.placement = placement
        self.log = log
        self.cwd = cwd
        self.process: PlayerProcess | None = None
        self.log_lock = threading.Lock()
        self.pending: list[str] = []
        self.restarts = 0
        # told `vos` but not asked yet: its first answer is on its way unasked
        self.answer_owed = False

    # ------------------------------------------------------------ transcript
    # Lines wait in `pending` and go to the file in one write, whole, at the
    # end of each game, at a note, when the player dies or is slow to answer
    # (PlayerProcess.on_idle): a write per line was two of every three
    # write() calls of a fast run. A judge killed by SIGKILL loses at most
    # the lines of the games in flight; every other way out flushes them.

    def _log(self, line: str) -> None:
        if self.log is not None:
            with self.log_lock:
                self.pending.append(line)

    def flush_log(self) -> None:
        if self.log is not None:
            with self.log_lock:
                if self.pending and not self.log.closed:
                    self.log.write("\n".join(self.pending) + "\n")
                    self.log.flush()
                self.pending.clear()

    def note(self, text: str) -> None:
        self._log("# " + text)
        self.flush_log()

    # ------------------------------------------------------------ process

    def spawn(self) -> None:
        launch = None if self.sandbox is None else self.sandbox.launch(self.command, self.cwd, self.others)
        try:
            self.process = PlayerProcess(self.command, self.cwd, lambda line: self._log("! " + line), self.flush_log,
                                         launch, self.placement)
        except OSError as error:
            if launch is not None:
                launch.release()
            self.process = None
            raise Forfeit(CRASH, cannot_start(self.command, error)) from None
        self.startup = STARTUP_GRACE
        self.note(f"started pid {self.process.pid}: {' '.join(self.command)}")

    def kill(self) -> None:
        if self.process is not None:
            pid = self.process.pid
            self.process.kill()
            self.process = None
            self.note(f"killed process group {pid}")

    def end_game(self) -> None:
        """Ends the game this seat plays, from another thread (its player
        was removed from a league): the game ends as its crash."""
        process = self.process
        if process is not None:
            process.end_game()

    def close(self) -> None:
        """End of the match: `salir`, wait briefly for `listo` and the exit,
        then kill the group whatever happened (children included)."""
        if self.process is None:
            return
        self.process.freezer.thaw()
        try:
            self.send("salir")
            self.read_line(QUIT_GRACE)
            self.running.exit_status(QUIT_GRACE)
        except Forfeit:
            pass
        self.kill()

    # ------------------------------------------------------------ wire

    @property
    def running(self) -> PlayerProcess:
        """The seat's program, which `start` (re)started."""
        if self.process is None:
            raise RuntimeError(f"{self.name}: the seat's program is not started")
        return self.process

    def send(self, *lines: str) -> None:
        """Sends `lines` in one write."""
        for line in lines:
            self._log("> " + line)
        try:
            self.running.write(("\n".join(lines) + "\n").encode())
        except Closed:
            raise self.crashed() from None

    def crashed(self) -> Forfeit:
        status = self.running.exit_status(0.2)
        if status is None:
            return Forfeit(CRASH, "end of output")
        detail = f"end of output, exit status {status}"
        last = self.running.last_words()
        if last:
            detail += f" ({last[-1]})"
        return Forfeit(CRASH, detail)

    def read_line(self, timeout: float | None, elapsed: float = 0.0) -> str:
        """The next line of stdout; raises Forfeit on end of output, a line
        too long, or no line before `timeout` seconds (from `elapsed` ago)."""
        try:
            text = self.running.read_line(timeout, elapsed)
        except Silent:
            raise Forfeit(TIMEOUT, f"no answer within {timeout:.3f} s") from None
        except Overlong:
            raise Forfeit(GARBAGE, f"a line longer than {MAX_LINE} bytes") from None
        except Closed:
            raise self.crashed() from None
        self._log("< " + text)
        return text

    def check_quiet(self) -> None:
        unread = self.running.unread_output()
        if unread:
            shown = protocol.quote(unread.decode("utf-8", "replace"), 40)
            raise Forfeit(GARBAGE, f"unexpected output {shown}")

    # ------------------------------------------------------------ seat

    def start(self, board: Board, me: int, colour: str) -> None:
        if self.process is None or not self.process.alive:
            self.kill()
            self.spawn()
        self.running.new_game()
        self.check_quiet()
        my_turn = board.side_to_move == me
        self.send(protocol.colours_line(colour), protocol.sizes_line(board.columns, board.rows, board.c, board.p),
                  protocol.first_line(my_turn, board.moves()))
        self.answer_owed = my_turn
        # the seat not to move stops until it is told a move (ponder off)
        self.running.freezer.start_game(my_turn)

    def resume(self) -> None:
        self.running.freezer.begin_turn()

    @property
    def answer_cpu(self) -> tuple[float | None, float | None]:
        freezer = self.running.freezer
        return (freezer.used if freezer.used >= 0 else None, freezer.waited if freezer.waited >= 0 else None)

    def ask(self, board: Board, last: int | None, timeout: float | None) -> object:
        self.answer_owed = False
        if last is not None:
            # after `vos` the answer comes unasked; anything before a column we send is extra
            self.check_quiet()
            self.resume()
            self.send(str(last))
        return self.answer(timeout)

    def answer(self, timeout: float | None, elapsed: float = 0.0) -> object:
        self.answer_owed = False
        line = self.read_line(timeout, elapsed)
        self.running.freezer.end_turn()
        self.startup = 0.0
        try:
            return protocol.parse_answer(line)
        except protocol.ProtocolError as error:
            raise Forfeit(GARBAGE, str(error)) from None

    def relay_moves(self, opponent: Seat, board: Board, last: int | None,
                    allowed: tuple[float | None, float | None],
                    times: list[float], cpu: list[tuple[float | None, float | None]]) -> tuple[int, bool, float] | None:
        if not isinstance(opponent, ProcessSeat) or self.process is None or opponent.process is None:
            return None
        startup = array("d", (self.startup, opponent.startup))
        spent, used, waited = (array("d", bytes(8 * (board.max_moves - board.moves_played))) for _ in range(3))
        spin, patience = self.process.waiting(spin_choice.spin)
        played, status, elapsed = relay(board, self.process.channel, opponent.process.channel, COLUMN_LINES,
                                        -1 if last is None else last,
                                        array("d", (-1.0 if a is None else a for a in allowed)), startup,
                                        spin, patience, spent, used, waited)
        if spin:
            spin_choice.after_relay((self.process.pid, opponent.process.pid))
        times.extend(spent[:played])
        cpu.extend((a if a >= 0 else None, b if b >= 0 else None) for a, b in zip(used[:played], waited[:played]))
        for seat, grace in zip((self, opponent), startup):
            seat.startup = grace
            seat.running.answered = seat.running.answered or not grace
            seat._relayed()
        return played, status == ASKED, elapsed

    def _relayed(self) -> None:
        """The transcript of what the relay moved, as send and read_line log it."""
        entries = self.running.channel.take_exchanges()
        if any(entry < 0 for entry in entries):
            self.answer_owed = False
        if self.log is not None:
            # a game's lines in one extend: per line, this was a third of a fast run's Python time
            with self.log_lock:
                self.pending.extend([f"> {entry - 1}" if entry > 0 else f"< {-entry - 1}" for entry in entries])

    def tell(self, word: str) -> None:
        if self.process is not None:
            self.process.freezer.thaw()
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
        self.flush_log()

    def forfeited(self) -> None:
        self.restarts += 1
        self.kill()
