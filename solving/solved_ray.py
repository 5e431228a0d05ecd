"""`clinea solved-tables --ray [ADDRESS]`: the queries of the search over a
board's split (clinea.solving.solved_board) answered as Ray tasks, one chunk
of queries per task, on the cluster that clinea.ray_cluster joins (every
step with a deadline, Ray's failures as one line); each chunk's answers are
handed on as soon as it ends, for the checkpoint."""
from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from typing import Any

from clinea.core import Rules
from clinea.ray_cluster import STEP_DEADLINE, RayFailure, as_completed, cluster_cpus, joined, nodes
from clinea.solving.solved_board import TABLE_LOG2, Answer, Query, solve_queries
from clinea.training.parallel import chunks

#: chunks per CPU: enough to balance queries of unequal difficulty
CHUNKS_PER_CPU = 4
#: queries per chunk at most: a run stopped loses at most the chunks under
#: way, so a large batch is cut finer than CHUNKS_PER_CPU alone would cut it
CHUNK_POSITIONS = 32
#: Ray runs a chunk again when its worker died (its answers depend only on it)
RETRIES = 2


class RaySolver:
    """solve_board's `solve` on a Ray cluster: joined on entering, left on
    exit; each task takes `threads` CPUs and solves on that many threads,
    and it answers as many queries at once as the cluster has room for such
    tasks, each worker process on its solvers (tables of 2**tt_log2
    entries, kept from one task to the next: process_solve)."""

    def __init__(self, address: str | None, tt_log2: int = TABLE_LOG2, threads: int = 1):
        self.address = address
        self.tt_log2 = tt_log2
        self.threads = threads
        self.width = 1

    def __enter__(self) -> RaySolver:
        with contextlib.ExitStack() as stack:  # left again if the cluster cannot take the tasks
            self.ray = stack.enter_context(joined(self.address))
            largest = max((int(node["Resources"]["CPU"]) for node in nodes(self.ray)), default=0)
            if self.threads > largest:
                # Ray would wait for such a node for ever
                raise RayFailure(f"threads={self.threads} is out of range: the cluster's largest node has "
                                 f"{largest} CPUs (allowed 1..{largest})")
            self.width = max(1, cluster_cpus(self.ray) // self.threads)
            self._task = self.ray.remote(max_retries=RETRIES, num_cpus=self.threads)(solve_queries)
            self._leave = stack.pop_all()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._leave.__exit__(*exc)

    def __call__(self, rules: Rules, queries: list[Query], time_limit: float) -> Iterator[tuple[Query, Answer]]:
        parts = list(chunks(queries, max(CHUNKS_PER_CPU * self.width, math.ceil(len(queries) / CHUNK_POSITIONS))))
        refs = [self._task.remote(rules, part, time_limit, self.tt_log2, self.threads) for part in parts]
        # each query takes at most one solve of time_limit; the chunks run width at a time
        rounds = math.ceil(len(parts) / self.width)
        longest = max(len(part) for part in parts)
        # with no time limit asked for, the solves decide how long it takes
        deadline = STEP_DEADLINE + rounds * longest * time_limit if time_limit else float(1 << 30)
        for index, values in as_completed(self.ray, refs, f"solving {len(queries)} positions of {rules}", deadline):
            yield from zip(parts[index], values)
