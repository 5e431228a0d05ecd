"""The seed's genetic algorithm over greedy weight vectors (seed section 5).

Genes are either the single weights or, with `whole_vectors`, the groups of
clinea.core.features (each scalar, and each run vector as one gene), so a
child inherits a parent's run-length profile intact.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from clinea.core import Rules
from clinea.core.features import feature_count, feature_groups
from clinea.training import parametrisation
from clinea.training.fitness import FITNESS, fitness_fast_wins, round_robin, summary, versus
from clinea.training.parallel import ChunkMapper
from clinea.training.report import Budget, Recorder, Watch


@dataclass
class GeneticConfig:
    population: int = 50
    pcross: float = 0.4
    pmut: float = 0.005
    selection: int = 2              # 1: random pairs from the fitter half; 2: tournaments
    fitness: int = 2                # 1: share not lost; 2: points; see `external`
    external: bool = False          # score against a fixed opponent instead of a round robin
    external_games: int = 10        # per colour, when external
    # when external: "minimax" (randomized, depth 4) or "random"; on large
    # boards with long lines greedy-against-greedy games are nearly all draws,
    # so a round robin ranks nobody, while random still loses some games
    external_opponent: str = "minimax"
    fast_wins: bool = False         # when external: fitness 2 plus a bonus for winning sooner
    whole_vectors: bool = False
    elite_never_mutates: bool = False
    parametrisation: str = "clinea"  # or "report": its 28 parameters for c = 4
    low: float = -1.0
    high: float = 1.0
    tournament_share: float = 0.2

    def check(self) -> None:
        if self.population < 2:
            raise ValueError(f"--population {self.population} is out of range: allowed 2 or more")
        for name in ("pcross", "pmut"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"--{name} {value} is out of range: allowed 0..1")
        if self.selection not in (1, 2):
            raise ValueError(f"--selection {self.selection} is out of range: allowed 1 or 2")
        if self.fitness not in FITNESS:
            raise ValueError(f"--fitness {self.fitness} is out of range: allowed 1 or 2")
        if self.fast_wins and not self.external:
            raise ValueError("the fast-wins fitness needs an external opponent (--fitness random-fast)")
        if self.external_opponent not in ("minimax", "random"):
            raise ValueError(f"external opponent {self.external_opponent!r} is unknown: allowed minimax, random")
        if self.parametrisation not in parametrisation.NAMES:
            raise ValueError(f"parametrisation {self.parametrisation!r} is unknown: "
                             f"allowed {', '.join(parametrisation.NAMES)}")
        if self.whole_vectors and self.parametrisation != "clinea":
            raise ValueError("--whole-vectors needs the clinea parametrisation (its run vectors are the genes)")
        if not -1.0 <= self.low < self.high <= 1.0:
            raise ValueError(f"--min {self.low} / --max {self.high}: allowed -1 <= min < max <= 1")


def genes(c: int, whole_vectors: bool, length: int | None = None) -> list[tuple[int, int]]:
    """[(start, stop)] of each gene in the flat vector (`length` numbers,
    by default clinea's feature_count(c))."""
    if whole_vectors:
        return [(start, stop) for _, start, stop in feature_groups(c) if stop > start]
    return [(i, i + 1) for i in range(feature_count(c) if length is None else length)]


def random_individual(length: int, low: float, high: float, rng: random.Random) -> list[float]:
    return [rng.uniform(low, high) for _ in range(length)]


def crossover(a: Sequence[float], b: Sequence[float], pcross: float,
              gene_slices: Sequence[tuple[int, int]], rng: random.Random) -> list[float]:
    """A child copying from `a`, switching to the other parent with
    probability `pcross` before each gene."""
    parents = (a, b)
    current = 0
    child = list(a)
    for start, stop in gene_slices:
        if rng.random() < pcross:
            current = 1 - current
        child[start:stop] = parents[current][start:stop]
    return child


def mutate(individual: Sequence[float], pmut: float, low: float, high: float,
           rng: random.Random) -> list[float]:
    """Each weight redrawn uniformly in [low, high] with probability `pmut`."""
    return [rng.uniform(low, high) if rng.random() < pmut else w for w in individual]


def select_parents(population: Sequence[Sequence[float]], fitness: Sequence[float], selection: int,
                   rng: random.Random,
                   tournament_share: float = 0.2) -> tuple[Sequence[float], Sequence[float]]:
    """Two parents. Selection 1: a random pair from the fitter half;
    selection 2: each parent wins a tournament among `tournament_share` of
    the population (at least two contestants)."""
    order = sorted(range(len(population)), key=lambda i: fitness[i], reverse=True)
    if selection == 1:
        half = order[:max(2, len(order) // 2)]
        i, j = rng.sample(half, 2)
        return population[i], population[j]
    size = min(len(population), max(2, round(tournament_share * len(population))))

    def tournament() -> Sequence[float]:
        return population[max(rng.sample(range(len(population)), size), key=lambda i: fitness[i])]

    return tournament(), tournament()


def next_generation(population: Sequence[Sequence[float]], fitness: Sequence[float],
                    config: GeneticConfig, gene_slices: Sequence[tuple[int, int]],
                    rng: random.Random) -> list[list[float]]:
    """Elitism (the best goes on as it is, first), then children of selected
    parents by crossover; mutation touches every child, and the elite too
    unless `elite_never_mutates`."""
    best = max(range(len(population)), key=lambda i: fitness[i])
    elite = list(population[best])
    children: list[list[float]] = []
    while len(children) < len(population) - 1:
        a, b = select_parents(population, fitness, config.selection, rng, config.tournament_share)
        children.append(mutate(crossover(a, b, config.pcross, gene_slices, rng),
                               config.pmut, config.low, config.high, rng))
    if not config.elite_never_mutates:
        elite = mutate(elite, config.pmut, config.low, config.high, rng)
    return [elite] + children


def evaluate(population: Sequence[Sequence[float]], geometry: Rules, c: int, config: GeneticConfig,
             runner: ChunkMapper, seed: int) -> list[float]:
    """Fitness of everyone: a round robin (every pair twice, both colours) or,
    when external, games against the external opponent, half moving first."""
    if config.external and config.fast_wins:
        timed = versus(population, geometry, c, config.external_opponent, config.external_games, seed, runner,
                       lengths=True)
        max_plies = geometry.max_moves
        return [fitness_fast_wins(g, max_plies) for g in timed]
    if config.external:
        games = versus(population, geometry, c, config.external_opponent, config.external_games, seed, runner)
    else:
        games = round_robin(population, geometry, c, runner)
    score = FITNESS[config.fitness]
    return [score(g) for g in games]


def run(geometry: Rules, config: GeneticConfig, budget: Budget, recorder: Recorder, runner: ChunkMapper,
        seed: int, seeds: Sequence[Sequence[float]] = (), watch: Watch | None = None) -> tuple[list[float], float]:
    """Evolves until the budget is spent; returns (best weights, its fitness).
    `watch(generation, best weights)`, when given, sees every generation's
    best: fitness is relative to the population, so a curve that means
    something across generations needs a fixed yardstick outside it."""
    config.check()
    c = geometry.c
    rng = random.Random(seed)
    length = parametrisation.length(config.parametrisation, c)
    population = [list(s) for s in seeds][:config.population]
    for individual in population:
        if len(individual) != length:
            raise ValueError(f"a seeded individual has {len(individual)} weights: the {config.parametrisation} "
                             f"parametrisation has {length} for c={c}")
    while len(population) < config.population:
        population.append(random_individual(length, config.low, config.high, rng))
    gene_slices = genes(c, config.whole_vectors, length)
    generation = 0
    fitness = evaluate(population, geometry, c, config, runner, rng.getrandbits(63))
    while True:
        generation += 1
        leader = max(range(len(population)), key=lambda i: fitness[i])
        recorder.record(generation, summary(fitness), best=(population[leader], fitness[leader]))
        if watch is not None:
            watch(generation, population[leader])
        if not budget.more(generation):
            break
        population = next_generation(population, fitness, config, gene_slices, rng)
        fitness = evaluate(population, geometry, c, config, runner, rng.getrandbits(63))
    best = max(range(len(population)), key=lambda i: fitness[i])
    return population[best], fitness[best]
