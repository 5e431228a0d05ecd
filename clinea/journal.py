"""Append-only line files that a kill cannot spoil: the judge's results,
the strength benchmark's games and solved-tables' checkpoints.

A line counts once its newline is on the disk. A kill mid-write leaves at
most one torn last line (no newline), which the reader never trusts, even
when it parses, and which is cut off before the next line is appended, so
that the next line starts clean.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Iterator


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
