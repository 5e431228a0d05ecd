"""What Ray costs and when it pays: judge games per second with 1 and 2
workers on the local backend and on a local Ray (127.0.0.1, two CPUs), Ray's
overhead per game, its start-up, and a genetic generation on both backends.

Rates are steady state (from the first finished game to the last), so Ray's
start-up (joining, the node check, starting the tables) is reported apart.
Medians of a few repeats: the machine is shared, single runs mean little.
"""
import argparse
import os
import random
import statistics
import sys
import time

from clinea.core.features import feature_count
from clinea.judge.referee import Clock
from clinea.judge.ray_backend import RayRunner
from clinea.judge.tournament import Player, Runner, course_schedule
from clinea.ray_cluster import LOCAL, joined
from clinea.training import genetic
from clinea.training.games import Geometry
from clinea.training.parallel import Runner as LocalPool
from clinea.training.ray_pool import RayPool

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZE = (7, 6, 4, 21)


def clock() -> Clock:
    return Clock(per_move=30.0)


def timed_run(runner, games: int) -> tuple[float, float]:
    """(seconds to the first result, steady games/s after it) of one run."""
    stamps = []
    specs = course_schedule("azul", "rojo", games, None, 1, SIZE)
    start = time.perf_counter()
    runner.run(specs, lambda spec, result: stamps.append(time.perf_counter()))
    return stamps[0] - start, (len(stamps) - 1) / (stamps[-1] - stamps[0])


def judge_rates(players, games: int, repeats: int) -> dict:
    """{(backend, workers): (median start-up s, median games/s)}."""
    rates = {}
    for workers in (1, 2):
        backends = {"local": lambda: Runner(players, SIZE, clock, workers),
                    "ray": lambda: RayRunner(None, players, SIZE, clock, workers)}
        for backend, make in backends.items():
            runs = [timed_run(make(), games) for _ in range(repeats)]
            rates[backend, workers] = (statistics.median(s for s, _ in runs), statistics.median(r for _, r in runs))
    return rates


def generation_seconds(pool, population: int, repeats: int) -> float:
    """Median seconds of one genetic generation's fitness (a round robin)."""
    config = genetic.GeneticConfig(population=population)
    geometry = Geometry(7, 6, 4)
    times = []
    for seed in range(repeats):
        rng = random.Random(seed)
        population_values = [genetic.random_individual(feature_count(geometry.c), -1.0, 1.0, rng)
                             for _ in range(population)]
        start = time.perf_counter()
        genetic.evaluate(population_values, geometry, geometry.c, config, pool, seed)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", type=int, default=200, help="judge games per run (default 200)")
    parser.add_argument("--population", type=int, default=50, help="genetic population (default 50)")
    args = parser.parse_args()
    random_player = os.path.join(REPO, "players", "random")
    players = [Player("azul", [random_player]), Player("rojo", [random_player])]
    with joined(LOCAL, cpus=2):
        rates = judge_rates(players, args.games, args.repeats)
        with RayPool() as ray_pool:
            ray_generation = generation_seconds(ray_pool, args.population, args.repeats)
    with LocalPool(2) as local_pool:
        local_generation = generation_seconds(local_pool, args.population, args.repeats)

    print(f"judge on 7x6, random against random (player processes), {args.games} games a run, "
          f"median of {args.repeats}; Ray: a local Ray with 2 CPUs:")
    print("  backend  workers  games/s  start-up")
    for (backend, workers), (startup, rate) in rates.items():
        print(f"  {backend:7}  {workers:7}  {rate:7,.0f}  {startup:6.2f} s")
    local_game = 1 / rates["local", 1][1]
    overhead = 1 / rates["ray", 1][1] - local_game
    print(f"  a game here: {1000 * local_game:.1f} ms locally; Ray adds {1000 * overhead:.1f} ms a game "
          f"(ray/local rate, 1 worker: {rates['ray', 1][1] / rates['local', 1][1]:.2f}; "
          f"2 workers: {rates['ray', 2][1] / rates['local', 2][1]:.2f})")
    print(f"  scaling 1 -> 2 workers: local x{rates['local', 2][1] / rates['local', 1][1]:.2f}, "
          f"ray x{rates['ray', 2][1] / rates['ray', 1][1]:.2f}")
    # k machines of the same cores: Ray's rate is k c / (L + overhead) against c / L locally
    for machines in (2, 4, 8):
        print(f"  on {machines} machines Ray beats one machine for games longer than "
              f"{1000 * max(overhead, 0) / (machines - 1):.1f} ms")
    print(f"genetic, one generation's fitness (population {args.population}, round robin on 7x6), median of "
          f"{args.repeats}: local --jobs 2 {local_generation:.2f} s, Ray 2 CPUs {ray_generation:.2f} s "
          f"(ratio {ray_generation / local_generation:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
