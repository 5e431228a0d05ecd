"""The seed's grid search (seed section 4): two weights at a time over a grid
in [-1, 1], the others fixed, pair after pair, for several sweeps; a
candidate replaces the champion when it is "better" by the chosen rule.

Rules, as the report defines them (DEFINITIONS "report", the default):
  a  it beats the champion: over one game in each colour it won at least
     once and never lost;
  b  over N games per colour against random, (wins - losses) is higher with
     no fewer wins and no more losses;
  c  the same over N games per colour against randomized minimax (depth 4).
clinea's own definitions ("clinea") differ for a and b: a wins both games,
b only needs a higher (wins - losses).
Candidates are judged on the same opponent seeds as the champion, so a
difference is the weights', not the dice's. All candidates of a pair are
judged against the champion of that pair step (so the step runs in
parallel); the best accepted one (fitness 2 for rule a, wins - losses
otherwise) becomes the champion.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from clinea.core import Rules
from clinea.training.fitness import (
    LOSS,
    WIN,
    Game,
    GameTally,
    fitness_points,
    outcome_for,
    round_robin_task,
    summary,
    versus,
)
from clinea.training.parallel import ChunkMapper
from clinea.training.report import Budget, Recorder

RULES = ("a", "b", "c")
DEFINITIONS = ("report", "clinea")


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
    """clinea's rule a: the candidate won its games against the champion in both colours."""
    return {second for outcome, second in games if outcome == WIN} == {False, True}


def accept_a_report(games: Sequence[tuple[int, bool]]) -> bool:
    """The report's rule a: won at least once against the champion, never lost."""
    outcomes = [outcome for outcome, _ in games]
    return WIN in outcomes and LOSS not in outcomes


def accept_b(candidate: GameTally, champion: GameTally) -> bool:
    """clinea's rule b: a higher (wins - losses), whatever the wins and losses."""
    return candidate.margin > champion.margin


def accept_c(candidate: GameTally, champion: GameTally) -> bool:
    """Rule c: (wins - losses) improves, with no fewer wins and no more losses."""
    return (candidate.margin > champion.margin and candidate.wins >= champion.wins
            and candidate.losses <= champion.losses)


# (rule, definitions) -> acceptance test; rule a's looks at the games against
# the champion, the others at tallies against a fixed opponent
# (two signatures, hence the loose Callable)
ACCEPT: dict[tuple[str, str], Callable[..., bool]] = {
    ("a", "report"): accept_a_report, ("a", "clinea"): accept_a,
    ("b", "report"): accept_c, ("b", "clinea"): accept_b,
    ("c", "report"): accept_c, ("c", "clinea"): accept_c}


def against_champion(candidates: Sequence[Sequence[float]], champion: Sequence[float], geometry: Rules, c: int,
                     runner: ChunkMapper) -> list[list[Game]]:
    """Each candidate plays the champion once in each colour; per candidate,
    its games as (outcome, second)."""
    population = [list(v) for v in candidates] + [list(champion)]
    n = len(candidates)
    tasks = [(geometry, c, population, k, n) for k in range(n)] + [(geometry, c, population, n, k) for k in range(n)]
    games: list[list[Game]] = [[] for _ in range(n)]
    for i, j, winner in runner.map_chunks(round_robin_task, tasks):
        if i < n:
            games[i].append((outcome_for(winner, 0), False))
        else:
            games[j].append((outcome_for(winner, 1), True))
    return games


def run(geometry: Rules, start: Sequence[float], rule: str, step: float, order: Sequence[int] | None,
        games: int, budget: Budget, recorder: Recorder, runner: ChunkMapper, seed: int,
        definitions: str = "report") -> tuple[list[float], float]:
    """Sweeps until the budget is spent (an iteration is one pair). Returns
    (champion, its score: fitness 2 for rule a, else wins - losses). Rules b
    and c record the champion's wins and losses after every step."""
    if rule not in RULES:
        raise ValueError(f"rule {rule!r} is out of range: allowed {', '.join(RULES)}")
    if definitions not in DEFINITIONS:
        raise ValueError(f"definitions {definitions!r} are unknown: allowed {', '.join(DEFINITIONS)}")
    accept = ACCEPT[rule, definitions]
    c = geometry.c
    length = len(start)  # either parametrisation (clinea.training.parametrisation)
    values = grid_values(step)
    pairs = pairs_from_order(order if order else range(length), length)
    champion = list(start)
    kind = "random" if rule == "b" else "minimax"
    champion_tally = None if rule == "a" else GameTally.of(versus([champion], geometry, c, kind, games, seed, runner)[0])
    for iteration, (i, j) in enumerate(itertools.cycle(pairs), 1):
        candidates = []
        scores: list[float]
        for a, b in itertools.product(values, values):
            candidate = list(champion)
            candidate[i], candidate[j] = a, b
            candidates.append(candidate)
        if rule == "a":
            results = against_champion(candidates, champion, geometry, c, runner)
            scores = [fitness_points(g) for g in results]
            accepted = [k for k, g in enumerate(results) if accept(g)]
        else:
            results = versus(candidates, geometry, c, kind, games, seed, runner)
            tallies = [GameTally.of(g) for g in results]
            scores = [t.margin for t in tallies]
            accepted = [k for k, t in enumerate(tallies) if accept(t, champion_tally)]
        if accepted:
            best = max(accepted, key=lambda k: scores[k])
            champion = candidates[best]
            if rule != "a":
                champion_tally = tallies[best]
        champion_record = {} if champion_tally is None else {
            "champion_wins": champion_tally.wins, "champion_losses": champion_tally.losses}
        recorder.record(iteration, summary(scores), best=(champion, champion_tally.margin if champion_tally
                                                          is not None else max(scores)),
                        pair=f"{i}-{j}", **champion_record)
        if not budget.more(iteration):
            break
    score = champion_tally.margin if champion_tally is not None else max(scores)
    return champion, score
