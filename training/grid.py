"""The seed's grid search (seed section 4): two weights at a time over a grid
in [-1, 1], the others fixed, pair after pair, for several sweeps; a
candidate replaces the champion when it is "better" by the chosen rule.

Rules:
  a  it beats the champion both moving first and moving second;
  b  over N games per colour against random, (wins - losses) is higher;
  c  over N games per colour against randomized minimax (depth 4), (wins -
     losses) is higher with no fewer wins and no more losses.
Candidates are judged on the same opponent seeds as the champion, so a
difference is the weights', not the dice's. All candidates of a pair are
judged against the champion of that pair step (so the step runs in
parallel); the best accepted one (fitness 2 for rule a, wins - losses
otherwise) becomes the champion.
"""
from __future__ import annotations

import itertools
from typing import Sequence

from clinea.core.features import feature_count
from clinea.training.fitness import WIN, Tally, fitness_points, outcome_for, round_robin_task, summary, versus

RULES = ("a", "b", "c")


def grid_values(step: float, low: float = -1.0, high: float = 1.0) -> list[float]:
    """low, low + step, ..., high (rounded so 0.1 steps land on tenths)."""
    if not 0 < step <= high - low:
        raise ValueError(f"--step {step} is out of range: allowed more than 0 and at most {high - low}")
    count = int(round((high - low) / step))
    return [round(low + k * step, 10) for k in range(count + 1) if low + k * step <= high + 1e-9]


def pairs_from_order(order: Sequence[int], length: int) -> list[tuple[int, int]]:
    """Consecutive pairs of `order` (a lone last index pairs with the first)."""
    for i in order:
        if not 0 <= i < length:
            raise ValueError(f"--order index {i} is out of range: allowed 0..{length - 1}")
    order = list(order)
    if len(order) % 2:
        order.append(order[0])
    return [(order[k], order[k + 1]) for k in range(0, len(order), 2)]


def accept_a(games: Sequence[tuple[int, bool]]) -> bool:
    """Rule a: the candidate won its games against the champion in both colours."""
    return {second for outcome, second in games if outcome == WIN} == {False, True}


def accept_b(candidate: Tally, champion: Tally) -> bool:
    return candidate.margin > champion.margin


def accept_c(candidate: Tally, champion: Tally) -> bool:
    """Rule c: (wins - losses) improves, with no fewer wins and no more losses."""
    return (candidate.margin > champion.margin and candidate.wins >= champion.wins
            and candidate.losses <= champion.losses)


def against_champion(candidates, champion, geometry, c: int, runner) -> list[list]:
    """Each candidate plays the champion once in each colour; per candidate,
    its games as (outcome, second)."""
    population = [list(v) for v in candidates] + [list(champion)]
    n = len(candidates)
    tasks = [(geometry, c, population, k, n) for k in range(n)] + [(geometry, c, population, n, k) for k in range(n)]
    games = [[] for _ in range(n)]
    for i, j, winner in runner.map_chunks(round_robin_task, tasks):
        if i < n:
            games[i].append((outcome_for(winner, 0), False))
        else:
            games[j].append((outcome_for(winner, 1), True))
    return games


def run(geometry, start: Sequence[float], rule: str, step: float, order: Sequence[int] | None,
        games: int, budget, recorder, runner, seed: int) -> tuple[list[float], float]:
    """Sweeps until the budget is spent (an iteration is one pair). Returns
    (champion, its score: fitness 2 for rule a, else wins - losses)."""
    if rule not in RULES:
        raise ValueError(f"rule {rule!r} is out of range: allowed {', '.join(RULES)}")
    c = geometry.c
    length = feature_count(c)
    values = grid_values(step)
    pairs = pairs_from_order(order if order else range(length), length)
    champion = list(start)
    kind = "random" if rule == "b" else "minimax"
    champion_tally = None if rule == "a" else Tally.of(versus([champion], geometry, c, kind, games, seed, runner)[0])
    iteration = 0
    for i, j in itertools.cycle(pairs):
        candidates = []
        for a, b in itertools.product(values, values):
            candidate = list(champion)
            candidate[i], candidate[j] = a, b
            candidates.append(candidate)
        if rule == "a":
            results = against_champion(candidates, champion, geometry, c, runner)
            scores = [fitness_points(g) for g in results]
            accepted = [k for k, g in enumerate(results) if accept_a(g)]
        else:
            results = versus(candidates, geometry, c, kind, games, seed, runner)
            tallies = [Tally.of(g) for g in results]
            scores = [t.margin for t in tallies]
            accept = accept_b if rule == "b" else accept_c
            accepted = [k for k, t in enumerate(tallies) if accept(t, champion_tally)]
        if accepted:
            best = max(accepted, key=lambda k: scores[k])
            champion = candidates[best]
            if rule != "a":
                champion_tally = tallies[best]
        iteration += 1
        recorder.record(iteration, summary(scores), best=(champion, champion_tally.margin if champion_tally
                                                          is not None else max(scores)), pair=f"{i}-{j}")
        if not budget.more(iteration):
            break
    score = champion_tally.margin if champion_tally is not None else max(scores)
    return champion, score
