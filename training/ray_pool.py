"""`clinea train ... --ray [ADDRESS]`: fitness evaluations as Ray tasks.

The same `map_chunks` as clinea.training.parallel.ProcessPool, so every method
runs unchanged: the chunks are the same plain data, the functions the same
top-level ones, and results come back in the order of the items; since a
game depends only on its task's data (weights, seeds), a run gives the same
outcome for the same seed on either backend and any number of workers.

A chunk whose worker dies is run again by Ray (its games are pure
functions of their data, so the replay gives the same answer); Ctrl-C cancels
the chunks still out.
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence

from clinea.ray_cluster import RayFailure, cluster_cpus, first_line, joined
from clinea.training.parallel import Answer, Task, chunks

# How often Ray runs a chunk again after its worker died.
RETRIES = 3
# Chunks per CPU of the cluster: enough to balance games of unequal length,
# few enough that Ray's cost per task stays small next to a chunk's games.
CHUNKS_PER_CPU = 4


def run_chunk(fn: Callable[[list[Task]], list[Answer]], chunk: list[Task]) -> list[Answer]:
    return fn(chunk)


class RayPool:
    """A training ProcessPool whose jobs are the CPUs of a Ray cluster."""

    def __init__(self, address: str | None = None) -> None:
        self._stack = contextlib.ExitStack()
        self.ray = self._stack.enter_context(joined(address))
        self.jobs = cluster_cpus(self.ray)
        self._run_chunk = self.ray.remote(max_retries=RETRIES)(run_chunk)

    def map_chunks(self, fn: Callable[[list[Task]], list[Answer]], items: Sequence[Task]) -> list[Answer]:
        """fn over chunks of `items` on the cluster, the results concatenated
        in the order of `items`."""
        refs = [self._run_chunk.remote(fn, chunk) for chunk in chunks(items, CHUNKS_PER_CPU * self.jobs)]
        try:
            out: list[Answer] = []
            try:
                parts = self.ray.get(refs)
            except self.ray.exceptions.RayError as error:  # past its retries: one line, not Ray's traceback
                raise RayFailure(f"clinea train: a chunk of games on Ray failed: {first_line(error)}") from None
            for part in parts:
                out.extend(part)
            return out
        except BaseException:
            for ref in refs:
                self.ray.cancel(ref, force=True)
            raise

    def close(self) -> None:
        self._stack.close()

    def __enter__(self) -> RayPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
