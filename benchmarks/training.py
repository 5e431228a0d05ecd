"""The seed's genetic run on 7x6 (population 50, 150 generations, selection 2,
fitness 2, pmut 0.005, pcross 0.4, every pair playing twice): wall time,
in-process games per second, and the winner against random (1000 games
moving first, 1000 moving second).

Also prints greedy-vs-greedy games per second on one core through the
judge's play_bots, in its in-C loop and in its Python loop, the median of
several repeats (machines here are shared and noisy)."""
import argparse
import os
import random
import statistics
import tempfile
import time

from clinea.core import Rules
from clinea.core.features import feature_count
from clinea.judge.referee import play_bots
from clinea.training import genetic
from clinea.training.fitness import tallies, versus
from clinea.training.games import greedy, play
from clinea.training.parallel import ProcessPool
from clinea.training.report import Budget, Recorder


def games_per_second(play_one, pairs, repeats: int) -> float:
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        for a, b in pairs:
            play_one(a, b)
        rates.append(len(pairs) / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="example:\n  python benchmarks/training.py --jobs 2 --generations 150")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--generations", type=int, default=150)
    parser.add_argument("--population", type=int, default=50)
    parser.add_argument("--eval-games", type=int, default=1000, help="per colour against random")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    geometry = Rules(7, 6, 4)

    rng = random.Random(args.seed)
    bots = [greedy([rng.uniform(-1, 1) for _ in range(feature_count(4))], 4) for _ in range(12)]
    pairs = [(a, b) for a in bots for b in bots if a is not b]
    fast = games_per_second(lambda a, b: play(a, b, geometry), pairs, args.repeats)
    judged = games_per_second(lambda a, b: play_bots(a, b, 7, 6, 4, 21, in_core=False), pairs, args.repeats)
    print(f"greedy vs greedy on 7x6, one core (median of {args.repeats}):")
    print(f"  play_bots, in-C loop        {fast:10,.0f} games/s")
    print(f"  play_bots, Python loop      {judged:10,.0f} games/s   ({fast / judged:.1f}x slower)")

    config = genetic.GeneticConfig(population=args.population, pcross=0.4, pmut=0.005, selection=2, fitness=2)
    games = args.generations * args.population * (args.population - 1)
    with tempfile.TemporaryDirectory() as tmp, ProcessPool(args.jobs) as runner:
        budget = Budget(args.generations, None)
        recorder = Recorder(os.path.join(tmp, "run.csv"), budget, quiet=True)
        best, score = genetic.run(geometry, config, budget, recorder, runner, args.seed)
        recorder.close()
        elapsed = budget.elapsed()
        print(f"seed's genetic run: population {args.population}, {args.generations} generations, "
              f"selection 2, fitness 2, pmut 0.005, pcross 0.4, {args.jobs} jobs")
        print(f"  wall time                   {elapsed:10.1f} s   (target about 60 s)")
        print(f"  games                       {games:10,}   ({games / elapsed:,.0f} games/s over {args.jobs} jobs)")
        print(f"  winner's fitness 2          {score:10.2f}")
        start = time.perf_counter()
        first, second = tallies(versus([best], geometry, 4, "random", args.eval_games, args.seed, runner)[0])
        print(f"  winner vs random, {args.eval_games} games each colour ({time.perf_counter() - start:.1f} s):")
        print(f"    moving first : {first}")
        print(f"    moving second: {second}")


if __name__ == "__main__":
    main()
