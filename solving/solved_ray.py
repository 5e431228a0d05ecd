"""`clinea solved-tables --ray [ADDRESS]`: a board's split positions solved
as Ray tasks, one chunk of positions per task, on the cluster that
clinea.ray_cluster joins (every step with a deadline, Ray's failures as
one line); each chunk's values are handed on as soon as it ends, for the
checkpoint."""
from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from clinea.core import Rules
from clinea.ray_cluster import STEP_DEADLINE, as_completed, cluster_cpus, joined
from clinea.solving.solved_board import LeafValue, solve_leaves
from clinea.training.parallel import chunks

#: chunks per CPU: enough to balance positions of unequal difficulty
CHUNKS_PER_CPU = 4
#: positions per chunk at most: a run stopped loses at most the chunks under
#: way, so a large board is cut finer than CHUNKS_PER_CPU alone would cut it
CHUNK_POSITIONS = 32
#: Ray runs a chunk again when its worker died (its values depend only on it)
RETRIES = 2


class RaySolver:
    """solve_board's `solve` on a Ray cluster: joined on entering, left on exit."""

    def __init__(self, address: str | None):
        self.address = address

    def __enter__(self) -> RaySolver:
        self._joined = joined(self.address)
        self.ray = self._joined.__enter__()
        self.cpus = cluster_cpus(self.ray)
        self._task = self.ray.remote(max_retries=RETRIES)(solve_leaves)
        return self

    def __exit__(self, *exc: Any) -> None:
        self._joined.__exit__(*exc)

    def __call__(self, rules: Rules, move_lists: list[list[int]],
                 time_limit: float) -> Iterator[tuple[list[int], LeafValue]]:
        parts = list(chunks(move_lists, max(CHUNKS_PER_CPU * self.cpus, math.ceil(len(move_lists) / CHUNK_POSITIONS))))
        refs = [self._task.remote(rules, part, time_limit) for part in parts]
        # each position takes at most two solves of time_limit; the chunks run cpus at a time
        rounds = math.ceil(len(parts) / self.cpus)
        longest = max(len(part) for part in parts)
        # with no time limit asked for, the solves decide how long it takes
        deadline = STEP_DEADLINE + rounds * longest * 2 * time_limit if time_limit else float(1 << 30)
        for index, values in as_completed(self.ray, refs, f"solving {len(move_lists)} positions of {rules}", deadline):
            yield from zip(parts[index], values)
