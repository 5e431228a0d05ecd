"""Games per second through the judge on 7x6, random against random:
player processes over the protocol (one process per player, reused), and
in process through play_bots (what training uses). Prints medians of a few
repeats; the machine is shared, so single runs mean little."""
import argparse
import os
import statistics
import sys
import time

from clinea.judge.referee import Clock, play_bots
from clinea.judge.tournament import Player, Runner, course_schedule
from clinea.players.random_player import RandomBot

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RANDOM = os.path.join(REPO, "players", "random")
SIZE = (7, 6, 4, 21)


def subprocess_rate(games: int) -> float:
    players = [Player("azul", [RANDOM]), Player("rojo", [RANDOM])]
    runner = Runner(players, SIZE, lambda: Clock(per_move=30.0))
    specs = course_schedule("azul", "rojo", games, None, 1, SIZE)
    start = time.perf_counter()
    runner.run(specs, lambda spec, result: None)
    return games / (time.perf_counter() - start)


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
    args = parser.parse_args()
    sub = [subprocess_rate(args.subprocess_games) for _ in range(args.repeats)]
    inproc = [in_process_rate(args.in_process_games) for _ in range(args.repeats)]
    print(f"judge, random vs random on 7x6, median of {args.repeats} runs:")
    print(f"  subprocesses (protocol): {statistics.median(sub):8,.0f} games/s "
          f"(min {min(sub):,.0f}, max {max(sub):,.0f}; {args.subprocess_games} games per run)")
    print(f"  in process (play_bots) : {statistics.median(inproc):8,.0f} games/s "
          f"(min {min(inproc):,.0f}, max {max(inproc):,.0f}; {args.in_process_games} games per run)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
