"""Progress of a long job on stderr: tqdm's bar on a terminal; in a log file,
where a bar redrawn with carriage returns would pile up into one endless
line, a plain line now and then instead."""
from __future__ import annotations

import sys
import time
from typing import Any, Protocol, TextIO

#: a plain progress line at most this often, and at every tenth of the job
PLAIN_INTERVAL = 30.0


class Progress(Protocol):
    """What a job may do with its progress reporter (tqdm's bar or PlainProgress)."""

    def update(self, n: int = 1) -> object: ...

    def set_postfix(self, **values: Any) -> None: ...

    def close(self) -> None: ...


class PlainProgress:
    """The part of tqdm's interface the jobs use, as a line now and then."""

    def __init__(self, total: int | None, initial: int, unit: str, desc: str, stream: TextIO):
        self.total = total
        self.count = initial
        self.unit = unit
        self.desc = desc
        self.stream = stream
        self.start = self.last = time.monotonic()
        self.postfix = ""
        self.next_tenth = self._tenth_after(initial)

    def _tenth_after(self, count: int) -> int | None:
        if not self.total:
            return None
        step = max(1, self.total // 10)
        return (count // step + 1) * step

    def update(self, n: int = 1) -> None:
        self.count += n
        now = time.monotonic()
        tenth = self.next_tenth is not None and self.count >= self.next_tenth
        if tenth or now - self.last >= PLAIN_INTERVAL or self.count == self.total:
            self.line(now)
            self.next_tenth = self._tenth_after(self.count)

    def set_postfix(self, **values: object) -> None:
        # news inside one long step (a board solved for hours) gets a line now and then too
        self.postfix = " ".join(f"{key} {value}" for key, value in values.items())
        now = time.monotonic()
        if now - self.last >= PLAIN_INTERVAL:
            self.line(now)

    def line(self, now: float) -> None:
        self.last = now
        done = f"{self.count}/{self.total}" if self.total else str(self.count)
        share = f" ({100 * self.count / self.total:.0f}%)" if self.total else ""
        extra = f", {self.postfix}" if self.postfix else ""
        self.stream.write(f"{self.desc + ': ' if self.desc else ''}{done} {self.unit}s{share} "
                          f"in {now - self.start:.0f} s{extra}\n")
        self.stream.flush()

    def close(self) -> None:
        pass


def progress_bar(total: int | None, initial: int = 0, unit: str = "it", desc: str = "",
                 stream: TextIO | None = None) -> Progress:
    """A progress reporter with tqdm's update/set_postfix/close."""
    stream = stream or sys.stderr
    if stream.isatty():
        from tqdm import tqdm
        return tqdm(total=total, initial=initial, unit=unit, desc=desc or None, file=stream, dynamic_ncols=True)
    return PlainProgress(total, initial, unit, desc, stream)
