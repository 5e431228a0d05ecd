"""Hill climbing in the style of the Connect-4 report among the sources:
perturb every weight by a random factor within +-f, keep the new weights if
they do better over N games (per colour) against the chosen opponent.

"Better" is a higher (wins - losses), both judged on the same opponent seeds.
A weight at 0 would never move under a factor alone, so a zero weight is
perturbed by +-f itself.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from clinea.core import Rules
from clinea.players.weights import MAX_WEIGHT, MIN_WEIGHT
from clinea.training.fitness import GameTally, summary, versus
from clinea.training.parallel import ChunkMapper
from clinea.training.report import Budget, Recorder


def perturb(weights: Sequence[float], factor: float, rng: random.Random) -> list[float]:
    """Every weight times (1 + u), u uniform in [-factor, factor], kept in [-1, 1]."""
    out = []
    for w in weights:
        u = rng.uniform(-factor, factor)
        moved = w * (1 + u) if w != 0 else u
        out.append(min(MAX_WEIGHT, max(MIN_WEIGHT, moved)))
    return out


def run(geometry: Rules, start: Sequence[float], factor: float, opponent: str, games: int,
        budget: Budget, recorder: Recorder, runner: ChunkMapper, seed: int) -> tuple[list[float], float]:
    """Climbs until the budget is spent; returns (weights, wins - losses)."""
    if not 0 < factor <= 1:
        raise ValueError(f"--factor {factor} is out of range: allowed more than 0, at most 1")
    rng = random.Random(seed)
    c = geometry.c
    current = list(start)

    iteration = 0
    while True:
        # fresh seeds every step, shared by the two contenders
        step_seed = rng.getrandbits(63)
        candidate = perturb(current, factor, rng)
        mine, theirs = (GameTally.of(g).margin for g in versus([current, candidate], geometry, c, opponent, games,
                                                    step_seed, runner))
        if theirs > mine:
            current = candidate
        iteration += 1
        recorder.record(iteration, summary([mine, theirs]), best=(current, max(mine, theirs)),
                        accepted=int(theirs > mine))
        if not budget.more(iteration):
            return current, max(mine, theirs)
