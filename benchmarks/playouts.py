"""Random playouts per second through the Cython entry point, then the
Monte Carlo tree search's simulations per second (clinea.core.mcts: tree,
rollout that takes a win and blocks one, backups) on one, three and four
words (the rollout runs on the board's words: 7x6; 9x8, 10x9, 14x12; 15x13),
counted on CPU time from the empty board.

Prints the median of several repeats (machines here are shared and noisy)."""
import argparse
import statistics
import time

from clinea.core import Board, simulate_random_games
from clinea.core.mcts import Mcts
from clinea.core.timeman import Limits

CASES = [
    ("7x6 c=4", 7, 6, 4, 200_000),
    ("9x6 c=5 (a full 63-bit board)", 9, 6, 5, 100_000),
    ("20x20 c=5 (generic board)", 20, 20, 5, 5_000),
]
MCTS_CASES = [("7x6 c=4", 7, 6, 4), ("9x8 c=5", 9, 8, 5), ("10x9 c=4", 10, 9, 4), ("14x12 c=6", 14, 12, 6),
              ("15x13 c=5", 15, 13, 5)]
MCTS_SIMULATIONS = 20_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     epilog="example:\n  python benchmarks/playouts.py --repeats 5",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"{'board':34} {'games/s':>12} {'moves/s':>14} {'moves/game':>10}")
    for name, columns, rows, c, games in CASES:
        rates = []
        for repeat in range(args.repeats):
            start = time.perf_counter()
            tally = simulate_random_games(columns, rows, c, None, games, repeat + 1)
            rates.append(games / (time.perf_counter() - start))
        rate = statistics.median(rates)
        per_game = tally["moves"] / games
        print(f"{name:34} {rate:12,.0f} {rate * per_game:14,.0f} {per_game:10.1f}")
    print(f"\n{'MCTS from the empty board':34} {'simulations/s':>12}")
    for name, columns, rows, c in MCTS_CASES:
        rates = []
        for repeat in range(args.repeats):
            mcts = Mcts(seed=repeat + 1, reuse=False)
            start = time.process_time()
            found = mcts.search(Board(columns, rows, c), Limits(nodes=MCTS_SIMULATIONS))
            rates.append(found.nodes / (time.process_time() - start))
        print(f"{name:34} {statistics.median(rates):12,.0f}")


if __name__ == "__main__":
    main()
