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

from clinea.core import Rules
from clinea.core.features import feature_count
from clinea.judge.ray_backend import RayRunner
from clinea.judge.referee import Clock
from clinea.judge.tournament import Player, Runner, course_schedule
from clinea.ray_cluster import LOCAL, joined
from clinea.training import genetic
from clinea.training.parallel import ProcessPool as LocalPool
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
    """{(backend, workers): (median start-up s, median games/s)}. The
    backends take turns, so a burst of load on the shared machine falls on
    both rather than on one."""
    makers = {("local", 1): lambda: Runner(players, SIZE, clock, 1),
              ("ray", 1): lambda: RayRunner(None, players, SIZE, clock, 1),
              ("local", 2): lambda: Runner(players, SIZE, clock, 2),
              ("ray", 2): lambda: RayRunner(None, players, SIZE, clock, 2)}
    runs = {key: [] for key in makers}
    for _ in range(repeats):
        for key, make in makers.items():
            runs[key].append(timed_run(make(), games))
    return {key: (statistics.median(s for s, _ in got), statistics.median(r for _, r in got))
            for key, got in runs.items()}


class Echo:
    """A table that plays no game: what is left of a Ray game is Ray's cost."""

    def play(self, spec):
        return spec


def ray_round_trip(ray, calls: int) -> float:
    """Median seconds of one actor call carrying a game spec and back: the
    overhead Ray adds to every game of the judge."""
    echo = ray.remote(num_cpus=1)(Echo).remote()
    spec = course_schedule("azul", "rojo", 1, None, 1, SIZE)[0]
    ray.get(echo.play.remote(spec))  # the actor's start is start-up, not overhead
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        ray.get(echo.play.remote(spec))
        times.append(time.perf_counter() - start)
    ray.kill(echo)
    return statistics.median(times)


def generation_seconds(pool, population: int, repeats: int) -> float:
    """Median seconds of one genetic generation's fitness (a round robin)."""
    config = genetic.GeneticConfig(population=population)
    geometry = Rules(7, 6, 4)
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
    with joined(LOCAL, cpus=2) as ray:
        overhead = ray_round_trip(ray, 1000)
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
    print(f"  a game here: {1000 / rates['local', 1][1]:.1f} ms locally; ray/local rate, 1 worker: "
          f"{rates['ray', 1][1] / rates['local', 1][1]:.2f}, 2 workers: {rates['ray', 2][1] / rates['local', 2][1]:.2f}")
    # on one machine Ray's own processes also take the players' cores: the
    # rates show that cost, the bare round trip does not
    effective = 1 / rates["ray", 1][1] - 1 / rates["local", 1][1]
    print(f"  Ray's overhead per game: {1000 * overhead:.2f} ms for an actor call with a game's spec and back "
          f"(median of 1000); {1000 * effective:.2f} ms from the rates with 1 worker")
    overhead = max(overhead, effective)
    print(f"  scaling 1 -> 2 workers: local x{rates['local', 2][1] / rates['local', 1][1]:.2f}, "
          f"ray x{rates['ray', 2][1] / rates['ray', 1][1]:.2f}")
    # k machines of the same cores: Ray's rate is k c / (L + overhead) against c / L locally
    for machines in (2, 4, 8):
        print(f"  on {machines} machines Ray beats one machine for games longer than "
              f"{1000 * overhead / (machines - 1):.2f} ms")
    print(f"genetic, one generation's fitness (population {args.population}, round robin on 7x6), median of "
          f"{args.repeats}: local --jobs 2 {local_generation:.2f} s, Ray 2 CPUs {ray_generation:.2f} s "
          f"(ratio {ray_generation / local_generation:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
