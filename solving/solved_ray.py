"""`clinea solved-tables --ray [ADDRESS]`: a board's split positions solved
as Ray tasks, one chunk of positions per task, on the cluster that
clinea.ray_cluster joins (every step with a deadline, Ray's failures as
one line)."""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from clinea.core import Rules
from clinea.ray_cluster import STEP_DEADLINE, cluster_cpus, get, joined
from clinea.solving.solved_board import LeafValue, solve_leaves
from clinea.training.parallel import chunks

#: chunks per CPU: enough to balance positions of unequal difficulty
CHUNKS_PER_CPU = 4
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

    def __call__(self, rules: Rules, move_lists: Sequence[Sequence[int]], time_limit: float) -> list[LeafValue]:
        parts = list(chunks(list(move_lists), CHUNKS_PER_CPU * self.cpus))
        refs = [self._task.remote(rules, part, time_limit) for part in parts]
        # each position takes at most two solves of time_limit; the chunks run cpus at a time
        rounds = math.ceil(len(parts) / self.cpus)
        longest = max(len(part) for part in parts)
        # with no time limit asked for, the solves decide how long it takes
        deadline = STEP_DEADLINE + rounds * longest * 2 * time_limit if time_limit else float(1 << 30)
        values = []
        for part in get(self.ray, refs, f"solving {len(move_lists)} positions of {rules}", deadline):
            values.extend(part)
        return values
