"""The replay page of `clinea view` on many games: seconds (CPU and wall) to
value every position of N random games of 7x6 with the solver, the share
solved exactly, and the page's size, at each solve time given.

    .venv/bin/python benchmarks/view.py                    # 1000 games, 0.2 s and 0.002 s
    .venv/bin/python benchmarks/view.py --games 100 --solve-time 0.05
"""
import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from view_games import write_results  # noqa: E402  (the tests' games: random players through the referee)

from clinea.arena.view import load_games, page_data, render  # noqa: E402
from clinea.core import Rules  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="random games of 7x6 (default 1000)")
    parser.add_argument("--solve-time", type=float, nargs="+", default=[0.2, 0.002], metavar="SECONDS",
                        help="solver time per position, one run each (default 0.2 0.002)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.jsonl"
        write_results(path, Rules(7, 6, 4, 21), args.games)
        header, records = load_games(str(path))
    positions = sum(len(record.moves) + 1 for record in records)
    print(f"{args.games} random games of 7x6, {positions} positions")
    for solve_time in args.solve_time:
        wall, cpu = time.perf_counter(), time.process_time()
        data = page_data(str(path), header, records, solve_time)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        exact = sum(value is not None for game in data["games"] for value in game["v"])
        size = len(render(data).encode())
        print(f"solve time {solve_time:g} s: valued in {cpu:.1f} s CPU ({wall:.1f} s wall), "
              f"{100 * exact / positions:.1f} % of positions exact, page {size / (1 << 20):.3f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
