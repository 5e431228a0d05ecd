"""The results file: one JSON line per finished game, appended in a single
write() the moment the game ends; the first line records the run (its
options) so `--resume` can continue it without repeating a game.

What an interruption loses: a judge that is killed, SIGKILL included, or
crashes loses no finished game: once write() returns, the line is the
kernel's, and it reaches the disk whatever happens to the judge. Only a
power loss or a kernel crash can lose data the disk has not got yet; for
that the file is fsynced at most SYNC_INTERVAL seconds after each write
(at once when the games come slower than that; on close in any case), so a
power loss costs at most the games of the last second. An fsync per game
was two thirds of the judge's time on fast games. The file stays
consistent either way: whole lines in order, a torn last line cut on
reading.

Reading is strict: a half-written last line (the judge was killed
mid-write) is cut, anything else that is not a game record stops the run
with the line number, so no record is ever dropped silently. It is also
bounded: a line over MAX_LINE or a file over FILE_LIMIT is refused, and
so is anything but a regular file (`/dev/full` never ends its first line,
`/dev/null` cannot be read back by --resume).

Every line the judge writes is sealed: an HMAC under a key of the run's,
kept beside the file in `FILE.key` (readable by its owner only, and hidden
from every seat by the sandbox). `--resume` refuses, and names, any record
whose seal is missing or wrong: a record the judge did not write (a bot
that reached the file, a hand edit) never counts. A file of an older
clinea, unsealed from its header on, is read as before.
"""
from __future__ import annotations

import json
import os
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from clinea.bounded import GIB, MIB, WholeLines, bounded_lines, json_value
from clinea.judge.record import GameRecord

# Seconds a written record may wait for its fsync (see above).
SYNC_INTERVAL = 1.0
# The longest line a reader takes: a game record is a few hundred bytes on
# 7x6 and about 0.3 MB for the longest game of a 128x128 board (16,384
# moves with their times).
MAX_LINE = 4 * MIB
# The largest results file a reader takes: some ten million games of 7x6.
FILE_LIMIT = 4 * GIB
# How a sealed line ends: `..., "seal": "<hex>"}`; the HMAC covers the line
# before it, closed with its brace.
SEAL = b',"seal":"'
SEAL_HEX = 32


def key_path(path: str) -> str:
    """Where the key that seals the results file `path` is kept."""
    return path + ".key"


def seal(key: bytes, body: bytes) -> bytes:
    import hashlib  # 3 ms of every judge's start (OpenSSL): only once it writes a results file
    import hmac

    return hmac.new(key, body, hashlib.sha256).hexdigest()[:SEAL_HEX].encode()


def sealed_line(key: bytes, record: dict[str, Any]) -> bytes:
    body = json.dumps(record, separators=(",", ":")).encode()
    return body[:-1] + SEAL + seal(key, body) + b'"}\n'


def unsealed(key: bytes, line: bytes) -> bytes | None:
    """The line without its seal if the seal is the judge's, else None."""
    at = line.rfind(SEAL)
    if at < 0 or not line.endswith(b'"}\n'):
        return None
    body = line[:at] + b"}"
    import hmac

    return body if hmac.compare_digest(line[at + len(SEAL):-3], seal(key, body)) else None


class ResultsError(ValueError):
    """A results file that cannot be used: the message names it and why."""


def check_regular(path: str) -> None:
    """Refuses a path that exists and is no regular file: a directory, or a
    device or pipe (`/dev/full` and `/dev/zero` never end their first line,
    `/dev/null` takes the records and gives nothing back to --resume)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if stat.S_ISDIR(mode):
        raise ResultsError(f"{path}: is a directory")
    if not stat.S_ISREG(mode):
        raise ResultsError(f"{path}: not a regular file ({file_kind(mode)}): the results go to a file "
                           "that --resume can read back; leave the option out to keep none")


def check_writable(path: str) -> None:
    """Refuses a path that is no regular file, lies in a missing directory
    or cannot be written, before any game is played."""
    check_regular(path)
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise ResultsError(f"{path}: no such directory {folder!r}")
    exists = os.path.exists(path)
    if (exists and not os.access(path, os.W_OK)) or (not exists and not os.access(folder, os.W_OK)):
        raise ResultsError(f"{path}: not writable")


def file_kind(mode: int) -> str:
    """What a path that is no regular file is, in words."""
    for test, kind in ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISFIFO, "a pipe"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a file"


def lines_of(file: BinaryIO, path: str) -> Iterator[bytes]:
    """The lines of a results file, within MAX_LINE and FILE_LIMIT
    (ResultsError beyond, naming the file, the line and the bound)."""
    try:
        yield from bounded_lines(file, path, MAX_LINE, FILE_LIMIT)
    except ValueError as error:
        raise ResultsError(str(error)) from None


def parse_header(line: bytes, path: str) -> dict[str, Any]:
    try:
        header = json_value(line)
    except ValueError:
        raise ResultsError(f"{path}: line 1 is not JSON: {line[:80]!r}") from None
    if not (isinstance(header, dict) and header.get("type") == "run" and isinstance(header.get("argv"), list)
            and all(isinstance(word, str) for word in header["argv"])):
        raise ResultsError(f"{path}: line 1 is not a run header "
                           '({"type": "run", "argv": [...]}): ' + f"{line[:80]!r}")
    return header


def read_header(path: str) -> dict[str, Any] | None:
    """The run header of an existing, non-empty results file; None if the
    file is missing or empty. ResultsError if its first line is not one."""
    check_regular(path)
    try:
        with open(path, "rb") as file:
            first = next(lines_of(file, path), b"")
    except FileNotFoundError:
        return None
    except OSError as error:
        raise ResultsError(f"{path}: {error.strerror}") from None
    if not first.strip():
        return None
    if not first.endswith(b"\n"):
        raise ResultsError(f"{path}: line 1 is cut short: the run was killed before it started?")
    return parse_header(first, path)


class ResultLog:
    """Appends game records to `path`. An existing file is checked whole
    first, each game handed to `on_game` (the statistics), and a
    half-written last line cut; only the ids of its games are kept."""

    def __init__(self, path: str, on_game: Callable[[GameRecord], None] = lambda record: None):
        self.path = path
        self.header: dict[str, Any] | None = None
        self.done: set[str] = set()
        self.key: bytes | None = None
        self.refused: list[int] = []  # line numbers of records the judge did not write
        check_writable(path)
        if os.path.exists(path):
            self._load(on_game)
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        self.synced_at = -SYNC_INTERVAL
        self.dirty = False
        self.closed = False
        self.sync_due = threading.Condition()
        self.syncer: threading.Thread | None = None
        # an fsync of the syncer thread that failed (a full disk), raised by the next write
        self.failed: OSError | None = None

    def _load(self, on_game: Callable[[GameRecord], None]) -> None:
        with open(self.path, "rb") as file:
            lines = WholeLines(lines_of(file, self.path))
            for number, raw in lines:
                if number == 1:
                    self.header = parse_header(raw, self.path)
                    if self.header.get("sealed"):
                        self.key = self._read_key()
                    if self.key is not None and unsealed(self.key, raw) is None:
                        raise ResultsError(f"{self.path}: its run header was not written by the judge "
                                           "(its seal does not match the key); the file is left as it is")
                else:
                    try:
                        record = GameRecord.from_json(json_value(raw))
                    except ValueError as error:
                        raise ResultsError(f"{self.path}: line {number} is not a game record ({error}): "
                                           f"{raw[:80]!r}; the file is left as it is") from None
                    if self.key is not None and unsealed(self.key, raw) is None:
                        self.refused.append(number)
                        continue
                    self.done.add(record.id)
                    on_game(record)
        lines.cut_torn(self.path)
        if self.refused:
            numbers = ", ".join(map(str, self.refused[:10])) + (" ..." if len(self.refused) > 10 else "")
            print(f"{self.path}: {len(self.refused)} record(s) the judge did not write (no seal of this run's "
                  f"key) refused, line(s) {numbers}", file=sys.stderr)

    def _read_key(self) -> bytes:
        try:
            with open(key_path(self.path), "rb") as file:
                key = file.read(SEAL_HEX * 4).strip()
        except OSError as error:
            raise ResultsError(f"{self.path}: its records are sealed, but its key {key_path(self.path)} "
                               f"cannot be read ({error.strerror}): restore it, or start another --results "
                               "file") from None
        return key

    def _new_key(self) -> None:
        self.key = os.urandom(SEAL_HEX // 2).hex().encode()
        fd = os.open(key_path(self.path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, self.key + b"\n")
        finally:
            os.close(fd)

    def _write(self, record: dict[str, Any]) -> None:
        """Appends `record` as one line; OSError (a full disk) when it cannot,
        which may leave a torn last line: --resume cuts it."""
        if self.failed is not None:
            raise self.failed
        data = sealed_line(self.key, record) if self.key is not None else \
            (json.dumps(record, separators=(",", ":")) + "\n").encode()
        while data:  # one write; more only if the disk fills up mid-line
            data = data[os.write(self.fd, data):]
        if time.monotonic() - self.synced_at >= SYNC_INTERVAL:
            self._sync()
            return
        with self.sync_due:
            self.dirty = True
            if self.syncer is None:
                self.syncer = threading.Thread(target=self._sync_later, daemon=True)
                self.syncer.start()
            self.sync_due.notify()

    def _sync(self) -> None:
        self.dirty = False
        os.fsync(self.fd)
        self.synced_at = time.monotonic()

    def _sync_later(self) -> None:
        """The syncer thread: fsyncs what was written SYNC_INTERVAL seconds
        after the last fsync, if nothing else did it first."""
        with self.sync_due:
            while not self.closed:
                wait = self.synced_at + SYNC_INTERVAL - time.monotonic()
                if not self.dirty:
                    self.sync_due.wait()
                elif wait > 0:
                    self.sync_due.wait(wait)
                else:
                    try:
                        self._sync()
                    except OSError as error:
                        self.failed = error
                        return

    def write_header(self, run: dict[str, Any]) -> None:
        self._new_key()
        self.header = {"type": "run", "sealed": True, **run}
        self._write(self.header)

    def append(self, record: GameRecord) -> None:
        self._write(record.to_json())

    def close(self) -> None:
        """Syncs what is written and closes the file; OSError if the sync
        fails (a full disk), the file closed all the same."""
        try:
            with self.sync_due:
                self.closed = True
                self.sync_due.notify()
                if self.dirty and self.failed is None:
                    self._sync()
            if self.syncer is not None:
                self.syncer.join()
        finally:
            os.close(self.fd)
        if self.failed is not None:
            raise self.failed


def read_records(path: str) -> Iterator[GameRecord]:
    """The game records of a results file (the run header left out; a
    half-written last line too). ValueError names a line that is not one,
    or longer than MAX_LINE."""
    check_regular(path)
    with open(path, "rb") as file:
        for number, line in WholeLines(lines_of(file, path)):
            if number > 1:
                yield GameRecord.from_json(json_value(line))


def find_game(path: str, game_id: str) -> tuple[dict[str, Any], GameRecord, bool | None]:
    """The run header of a results file, the record of its game `game_id`
    (the last one, should a resumed run have written it twice), and whether
    the judge's seal holds on both: None when the file is unsealed or its
    key cannot be read. ResultsError names what is wrong; LookupError says
    the game is not in the file."""
    check_regular(path)
    header, found, key = None, None, None
    try:
        with open(path, "rb") as file:
            for number, line in WholeLines(lines_of(file, path)):
                if number == 1:
                    header, header_line = parse_header(line, path), line
                    if header.get("sealed"):
                        try:
                            with open(key_path(path), "rb") as key_file:
                                key = key_file.read(SEAL_HEX * 4).strip()
                        except OSError:
                            key = None
                    continue
                try:
                    record = GameRecord.from_json(json_value(line))
                except ValueError as error:
                    raise ResultsError(f"{path}: line {number} is not a game record ({error})") from None
                if record.id == game_id:
                    found = record, line
    except OSError as error:
        raise ResultsError(f"{path}: {error.strerror}") from None
    if header is None:
        raise ResultsError(f"{path}: empty, no run in it")
    if found is None:
        raise LookupError(game_id)
    record, line = found
    sealed = None if key is None else all(unsealed(key, raw) is not None for raw in (header_line, line))
    return header, record, sealed
