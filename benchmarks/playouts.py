"""Random playouts per second through the Cython entry point.

Prints the median of several repeats (machines here are shared and noisy)."""
import argparse
import statistics
import time

from clinea.core import simulate_random_games

CASES = [
    ("7x6 c=4", 7, 6, 4, 200_000),
    ("9x6 c=5 (a full 63-bit board)", 9, 6, 5, 100_000),
    ("20x20 c=5 (generic board)", 20, 20, 5, 5_000),
]


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


if __name__ == "__main__":
    main()
