"""Games per second through the judge on 7x6, random against random:
player processes over the protocol (one process per player, reused), with
the CPU milliseconds per game of the judge and of the two players apart
(the rest of the wall time is the pipes' round trips and the scheduler);
and in process through play_bots (what training uses). Prints medians of a
few repeats; the machine is shared, so single runs mean little."""
import argparse
import os
import resource
import statistics
import sys
import time

from clinea.judge.referee import Clock, End, GameResult, play_bots
from clinea.judge.report import Standings
from clinea.judge.tournament import Player, Runner, course_schedule, record
from clinea.players.random_player import RandomBot

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RANDOM = os.path.join(REPO, "players", "random")
SIZE = (7, 6, 4, 21)


def cpu_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def subprocess_rate(games: int) -> tuple[float, float, float]:
    """(games/s, judge CPU ms per game, players' CPU ms per game, start-up included)."""
    players = [Player("azul", [RANDOM]), Player("rojo", [RANDOM])]
    runner = Runner(players, SIZE, lambda: Clock(per_move=30.0))
    specs = course_schedule("azul", "rojo", games, None, 1, SIZE)
    judge_cpu, players_cpu = cpu_seconds(resource.RUSAGE_SELF), cpu_seconds(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    runner.run(specs, lambda record: None)
    wall = time.perf_counter() - start
    return (games / wall, 1000 * (cpu_seconds(resource.RUSAGE_SELF) - judge_cpu) / games,
            1000 * (cpu_seconds(resource.RUSAGE_CHILDREN) - players_cpu) / games)


def memory_growth(games: int) -> tuple[int, int]:
    """Peak RSS in kB after a tenth of `games` and after all of them, going
    through what a run keeps per game: the schedule, the record, the
    statistics (the games themselves are not played: their cost is above)."""
    standings = Standings()
    peaks = []
    checkpoints = (games // 10, games)
    moves, times = [3, 3, 2, 4, 2, 2, 1, 5, 0], [0.001] * 9
    for k, spec in enumerate(course_schedule("azul", "rojo", games, None, 1, SIZE), 1):
        standings.add(record(spec, SIZE, GameResult(k % 2, End.CONNECT, moves, times)))
        if k in checkpoints:
            peaks.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    return peaks[0], peaks[1]


def in_process_rate(games: int) -> float:
    first, second = RandomBot(1), RandomBot(2)
    start = time.perf_counter()
    for _ in range(games):
        play_bots(first, second, *SIZE)
    return games / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--subprocess-games", type=int, default=200)
    parser.add_argument("--in-process-games", type=int, default=5000)
    parser.add_argument("--memory-games", type=int, default=200_000)
    args = parser.parse_args()
    runs = [subprocess_rate(args.subprocess_games) for _ in range(args.repeats)]
    sub = [rate for rate, _, _ in runs]
    inproc = [in_process_rate(args.in_process_games) for _ in range(args.repeats)]
    print(f"judge, random vs random on 7x6, median of {args.repeats} runs:")
    print(f"  subprocesses (protocol): {statistics.median(sub):8,.0f} games/s "
          f"(min {min(sub):,.0f}, max {max(sub):,.0f}; {args.subprocess_games} games per run)")
    print(f"    CPU per game: judge {statistics.median(r[1] for r in runs):.2f} ms, "
          f"both players {statistics.median(r[2] for r in runs):.2f} ms (their start-up included)")
    print(f"  in process (play_bots) : {statistics.median(inproc):8,.0f} games/s "
          f"(min {min(inproc):,.0f}, max {max(inproc):,.0f}; {args.in_process_games} games per run)")
    tenth, whole = memory_growth(args.memory_games)
    print(f"  memory of a run's bookkeeping: peak RSS {tenth / 1024:.1f} MB after {args.memory_games // 10:,} games, "
          f"{whole / 1024:.1f} MB after {args.memory_games:,} ({1024 * (whole - tenth) / (0.9 * args.memory_games):.2f} "
          "bytes per game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
