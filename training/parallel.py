"""Spreading independent games over cores (`--jobs N`).

Tasks are plain data (weight lists, geometry, seeds) so they pickle cheaply;
each worker builds its own Cython players. With one job everything runs in
this process, which keeps tests and small runs free of process start-up.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.pool import Pool
from types import TracebackType
from typing import Protocol, TypeVar

Task = TypeVar("Task")
Answer = TypeVar("Answer")


class ChunkMapper(Protocol):
    """What the training methods play their games on: ProcessPool here, or
    clinea.training.ray_pool.RayPool."""

    def map_chunks(self, fn: Callable[[list[Task]], list[Answer]], items: Sequence[Task]) -> list[Answer]: ...


def chunks(items: Sequence[Task], parts: int) -> list[list[Task]]:
    """`items` cut into at most `parts` runs of nearly equal length, in order."""
    parts = max(1, min(parts, len(items)))
    size, extra = divmod(len(items), parts)
    out: list[list[Task]] = []
    start = 0
    for k in range(parts):
        stop = start + size + (k < extra)
        out.append(list(items[start:stop]))
        start = stop
    return [chunk for chunk in out if chunk]


class ProcessPool:
    """Maps a top-level function over task chunks, on `jobs` processes."""

    def __init__(self, jobs: int = 1) -> None:
        if jobs < 1:
            raise ValueError(f"jobs={jobs} is out of range: allowed 1..{os.cpu_count() or 1} (or more)")
        self.jobs = jobs
        self._pool: Pool | None = None
        if jobs > 1:
            # fork would also work on Linux, but spawn behaves the same everywhere.
            # A spawned worker takes a while to start (it imports clinea
            # afresh), and a Ctrl-C meanwhile printed its traceback: started
            # while this process ignores SIGINT, the workers ignore it from
            # their first instruction (an ignored signal stays ignored through
            # exec), before the initializer makes it their own choice.
            with _ctrl_c_ignored():
                self._pool = multiprocessing.get_context("spawn").Pool(jobs, initializer=_leave_ctrl_c_to_the_parent)

    def map_chunks(self, fn: Callable[[list[Task]], list[Answer]], items: Sequence[Task]) -> list[Answer]:
        """fn applied to chunks of `items` (each returns a list); the results
        concatenated in the order of `items`. Four chunks per job balance
        games of unequal length."""
        if self._pool is None:
            return fn(list(items)) if items else []
        out: list[Answer] = []
        for part in self._pool.map(fn, chunks(items, 4 * self.jobs)):
            out.extend(part)
        return out

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool.join()
            self._pool = None

    def terminate(self) -> None:
        """Stops the workers now, games in progress or not."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None

    def __enter__(self) -> ProcessPool:
        return self

    def __exit__(self, error_type: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        # after an error or an interrupt, waiting for the queued games could take minutes
        self.close() if error_type is None else self.terminate()


@contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """SIGINT ignored in this process for the block (only the main thread may
    set handlers: elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _leave_ctrl_c_to_the_parent() -> None:
    """Pool workers ignore the terminal's Ctrl-C: the parent decides, and
    terminates them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
