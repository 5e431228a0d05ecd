"""Reading what a user hands the product, with a bound on what it may cost.

Every file clinea reads (results files, weights, bot files, `solve` and
`analyze` input, the opening book and strong's lines) goes through here, so
that a path such as `/dev/zero` or `/dev/full`, a FIFO that never ends, or a
line of gigabytes without a newline is refused with a message naming the
file and the bound instead of eating the machine's memory: the judge once
read 21.6 GB of `/dev/full` looking for the end of its first line.

The files clinea appends to line by line (results, checkpoints) are read
here too, whole lines only, and appended durably (WholeLines, append_durably).
"""
from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Iterator
from typing import IO

KIB = 1 << 10
MIB = 1 << 20
GIB = 1 << 30


class TooLarge(ValueError):
    """A file, or one of its lines, over its bound; the message says which
    file, which line and the bound."""


def size_text(limit: int) -> str:
    """A bound in words: 4 MiB, 16 KiB, 100 bytes."""
    for unit, name in ((GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB")):
        if limit >= unit and limit % unit == 0:
            return f"{limit // unit} {name}"
    return f"{limit} bytes"


def read_bounded(source: IO[bytes], name: str, limit: int) -> bytes:
    """All of `source`, refused with TooLarge when it holds more than
    `limit` bytes (only limit + 1 are ever read)."""
    data = source.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(f"{name}: larger than {size_text(limit)}, the most allowed here")
    return data


def check_size(path: str | os.PathLike[str], limit: int) -> None:
    """Refuses with TooLarge a file over `limit` bytes that something else
    (Python's import of a bot file) will read whole."""
    if os.path.getsize(path) > limit:
        raise TooLarge(f"{os.fspath(path)}: larger than {size_text(limit)}, the most allowed here")


def read_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the file at `path`, at most `limit` of them (TooLarge
    beyond); OSError as open() raises it."""
    with open(path, "rb") as source:
        return read_bounded(source, os.fspath(path), limit)


def read_text(path: str | os.PathLike[str], limit: int, encoding: str = "utf-8") -> str:
    """read_file decoded; a file that is not `encoding` is a ValueError naming it."""
    data = read_file(path, limit)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise ValueError(f"{os.fspath(path)}: not {encoding.upper()} text (byte {error.start})") from None


def bounded_lines(source: IO[bytes], name: str, line_limit: int,
                  total_limit: int | None = None) -> Iterator[bytes]:
    """The lines of `source`, each with its newline (the last may lack it),
    refused with TooLarge as soon as a line exceeds `line_limit` bytes or
    the whole, if `total_limit` is given, exceeds `total_limit`: a line is
    never read further than its bound."""
    total = 0
    for number in range(1, 1 << 62):
        line = source.readline(line_limit + 1)
        if not line:
            return
        if len(line) > line_limit:
            raise TooLarge(f"{name}: line {number} is longer than {size_text(line_limit)}, "
                           "the most allowed here (not the file it should be?)")
        total += len(line)
        if total_limit is not None and total > total_limit:
            raise TooLarge(f"{name}: larger than {size_text(total_limit)}, the most allowed here")
        yield line


def json_value(text: str | bytes) -> object:
    """The JSON value of `text`; ValueError (json.JSONDecodeError is one)
    when it is not JSON, and when it nests deeper than Python's reader can
    follow (which raises RecursionError, a traceback to the user)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested deeper than can be read (arrays or objects "
                         f"inside each other about {sys.getrecursionlimit()} deep or more)") from None


# Append-only line files that a kill cannot spoil: the judge's results, the
# strength benchmark's games and solved-tables' checkpoints. A line counts
# once its newline is on the disk. A kill mid-write leaves at most one torn
# last line (no newline), which the reader never trusts, even when it
# parses, and which is cut off before the next line is appended.

class WholeLines:
    """The whole lines of `lines` (as clinea.bounded.bounded_lines yields
    them), numbered from 1, stopping at a torn last one; `size` counts the
    bytes of the lines yielded so far, `torn` whether one was met."""

    def __init__(self, lines: Iterable[bytes]):
        self.lines = lines
        self.size = 0
        self.torn = False

    def __iter__(self) -> Iterator[tuple[int, bytes]]:
        for number, line in enumerate(self.lines, start=1):
            if not line.endswith(b"\n"):
                self.torn = True
                return
            self.size += len(line)
            yield number, line

    def cut_torn(self, path: str) -> None:
        """Cuts off the torn last line, once the reading has met it (a
        reading stopped before leaves the file as it is)."""
        if self.torn:
            os.truncate(path, self.size)


def append_durably(path: str, line: bytes) -> None:
    """Appends `line` and returns once it is on the disk, the file's name
    too when this line created it (its folder synced)."""
    fresh = not os.path.exists(path)
    with open(path, "ab") as out:
        out.write(line)
        out.flush()
        os.fsync(out.fileno())
    if fresh:
        folder = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
