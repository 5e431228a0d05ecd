"""The exported Kaggle submission (`clinea export kaggle`) in Kaggle's own
ConnectX environment: errors, timeouts, move times and results against
Kaggle's `negamax` and `random`, first and second, on 7x6 and 9x8 inarow 5,
then its score against clinea's own `strong` at 2 s a move. Only figures
are printed; the goals (0 errors, 0 timeouts, slowest move under 2 s, every
7x6 game won moving first, 7x6 being a first-player win) are read off them.

The submission's episodes run in clean interpreters without clinea
(`clinea.bridges.kaggle_check`), --workers at a time; the games
against strong run here, strong being clinea.

example:
  python benchmarks/kaggle_export.py                         # 100 episodes a seat: 800 in all
  python benchmarks/kaggle_export.py --episodes 5 --strong-games 1 --workers 2
  python benchmarks/kaggle_export.py --overage-reserve 20     # let unsettled moves draw on the bank
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from clinea.bridges.export import agent_source, board_size
from clinea.bridges.kaggle_check import Episode, outcome, play_episodes, summary

BOARDS = [{"columns": 7, "rows": 6, "inarow": 4}, {"columns": 9, "rows": 8, "inarow": 5}]
OPPONENTS = ["negamax", "random"]


def against_kaggle(path: str, boards: list[dict], episodes: int, workers: int, chunk: int) -> list[Episode]:
    """Every board, opponent and seat, `episodes` each, in chunks over `workers` children."""
    jobs = []
    for configuration in boards:
        for opponent in OPPONENTS:
            for seat in (0, 1):
                left = episodes
                while left > 0:
                    jobs.append((configuration, opponent, [seat], min(chunk, left)))
                    left -= chunk
    with ThreadPoolExecutor(workers) as pool:
        done = pool.map(lambda job: play_episodes(path, *job), jobs)
        return [episode for batch in done for episode in batch]


def against_strong(path: str, boards: list[dict], games: int, time_per_move: float) -> list[str]:
    """Lines of results against clinea's strong, both seats, each board, in
    Kaggle's environment (strong through clinea's ConnectX bridge)."""
    from kaggle_environments import make

    from clinea.bridges.kaggle import as_agent

    lines = []
    for configuration in boards:
        results, times = {0: [], 1: []}, []
        for seat in (0, 1):
            for _ in range(games):
                env = make("connectx", configuration=configuration)
                strong = as_agent(f"strong --time-per-move {time_per_move}")
                env.run([path, strong] if seat == 0 else [strong, path])
                final = env.steps[-1][seat]
                times += [step[seat]["duration"] for step in env.logs
                          if len(step) > seat and "duration" in step[seat]]
                results[seat].append(outcome(Episode(configuration, "strong", seat, final["status"],
                                                     final["reward"])))
        every = results[0] + results[1]
        score = (every.count("W") + every.count("D") / 2) / max(1, len(every))
        board = f"{configuration['columns']}x{configuration['rows']} inarow {configuration['inarow']}"
        lines.append(f"{board:<16} vs strong {time_per_move:g} s: first W-D-L "
                     f"{results[0].count('W')}-{results[0].count('D')}-{results[0].count('L')}, second "
                     f"{results[1].count('W')}-{results[1].count('D')}-{results[1].count('L')}, "
                     f"score {100 * score:.1f} %, slowest move {max(times, default=0):.3f} s, "
                     f"median {statistics.median(times) if times else 0:.3f} s")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog=__doc__[__doc__.index("example:"):],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=100, help="episodes per board, opponent and seat "
                                                                  "(default 100: 800 in all)")
    parser.add_argument("--board", action="append", type=board_size, metavar="CxRxN",
                        help="a board to play on, repeatable (default 7x6x4 and 9x8x5)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="children at a time")
    parser.add_argument("--chunk", type=int, default=5, help="episodes per child (default 5)")
    parser.add_argument("--strong-games", type=int, default=2, help="games per board and seat against "
                                                                    "strong (default 2; 0: none)")
    parser.add_argument("--strong-time", type=float, default=2.0, help="strong's seconds a move (default 2)")
    parser.add_argument("--overage-reserve", type=float, help="the export's option: overage seconds never "
                                                              "spent (default the export's, 60: all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "main.py")
        Path(path).write_text(agent_source("best", args.overage_reserve), encoding="utf-8")
        print(f"submission: {os.path.getsize(path)} bytes")
        started = time.monotonic()
        boards = args.board or BOARDS
        episodes = against_kaggle(path, boards, args.episodes, args.workers, args.chunk)
        for line in summary(episodes):
            print(line)
        first_7x6 = [outcome(e) for e in episodes if e.seat == 0 and e.configuration == BOARDS[0]]
        if first_7x6:
            print(f"7x6 (a first-player win) moving first: won {first_7x6.count('W')} of {len(first_7x6)}")
        print(f"({time.monotonic() - started:.0f} s)")
        if args.strong_games:
            for line in against_strong(path, boards, args.strong_games, args.strong_time):
                print(line)


if __name__ == "__main__":
    main()
