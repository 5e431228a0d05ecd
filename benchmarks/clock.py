"""strong's answer times under `clinea judge --time-per-move T` (issue 30:
a clock that never lies): per board (7x6, 9x8 c5, 14x12 c6), quiet and
with N busy loops beside it, the distribution (median, 99th percentile,
maximum) of its answer times by its own clock (its --verbose line: from
the request to the answer, the first move's set-up included) and as the
judge saw them, how many of its own times passed T less its safety margin,
and the time forfeits; then the time forfeits of a long quiet run
(--forfeit-games, 2,000 by default) on 7x6.

strong plays clinea's random player, as many games at once as there are
cores (--concurrency = cores), each game a fresh pair of processes' first
answers included. The busy loops are benchmarks/judge.py's (each in a
session of its own, killed at the end).

example:
  python benchmarks/clock.py --games 40 --busy 0 8 --forfeit-games 2000
  python benchmarks/clock.py --time-per-move 0.02 --boards 7x6 --games 10 --busy 0 --forfeit-games 0
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

from clinea.core.timeman import safety_margin
from judge import busy_loops, compile_busy_loop

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARDS = {"7x6": (7, 6, 4, 21), "9x8": (9, 8, 5, 36), "14x12": (14, 12, 6, 84)}
OWN_TIME = re.compile(r"^! strong: .* time ([\d.]+)s$", re.M)


def judged(board: str, time_per_move: float, games: int, concurrency: int, seed: int,
           directory: str) -> tuple[list[float], list[float], list[str]]:
    """Runs `games` games of strong against random on `board` in a folder
    of its own under `directory`: strong's own answer times, the judge's
    times of its answers, and the reasons of its time forfeits."""
    columns, rows, c, p = BOARDS[board]
    run = tempfile.mkdtemp(prefix=f"{board}-", dir=directory)
    results = os.path.join(run, "results.jsonl")
    logs = os.path.join(run, "logs")
    strong = f"{os.path.join(REPO, 'players', 'strong')} --time-per-move {time_per_move} --verbose"
    subprocess.run([sys.executable, "-m", "clinea", "judge", "--player", f"strong={strong}",
                    "--player", f"random={os.path.join(REPO, 'players', 'random')}",
                    "--iterations", str(games), "--columns", str(columns), "--rows", str(rows),
                    "--c", str(c), "--p", str(p), "--time-per-move", str(time_per_move),
                    "--concurrency", str(concurrency), "--seed", str(seed), "--results", results,
                    "--log-dir", logs, "--quiet"], cwd=run, capture_output=True, text=True, check=False)
    own = []
    for name in os.listdir(logs):
        if name.startswith("strong"):
            with open(os.path.join(logs, name), encoding="utf-8") as transcript:
                own.extend(float(seconds) for seconds in OWN_TIME.findall(transcript.read()))
    seen, forfeits = [], []
    with open(results, encoding="utf-8") as lines:
        for game in map(json.loads, lines):
            if game.get("type") == "run":
                continue
            first = len(game["opening"]) % 2  # the players' order is the opening's first mover's
            seen.extend(seconds for i, seconds in enumerate(game["times"])
                        if game["players"][(i + first) % 2] == "strong")
            if game["forfeit"] == "strong" and game["reason"].startswith("timeout"):
                forfeits.append(game["reason"])
    return own, seen, forfeits


def spread(times: list[float]) -> str:
    """median, 99th percentile and maximum, in ms."""
    if not times:
        return "no answers"
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return f"median {1000 * statistics.median(ordered):6.1f}  p99 {1000 * p99:6.1f}  max {1000 * ordered[-1]:6.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--time-per-move", type=float, default=0.05, metavar="T", help="seconds (default 0.05)")
    parser.add_argument("--boards", nargs="+", choices=sorted(BOARDS), default=list(BOARDS),
                        help="boards to measure (default all three)")
    parser.add_argument("--games", type=int, default=40, help="games per board and load (default 40)")
    parser.add_argument("--busy", type=int, nargs="+", default=[0, 8], metavar="N",
                        help="busy loops beside the games, one run per count (default 0 8)")
    parser.add_argument("--forfeit-games", type=int, default=2000,
                        help="games of the quiet 7x6 run that counts time forfeits, 0: none (default 2000)")
    parser.add_argument("--concurrency", type=int, default=len(os.sched_getaffinity(0)),
                        help="games at once (default: the cores, as the issue's run)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.time_per_move <= 0 or args.games < 1 or args.forfeit_games < 0 or args.concurrency < 1:
        sys.exit("clock.py: --time-per-move > 0, --games >= 1, --forfeit-games >= 0, --concurrency >= 1")
    limit = args.time_per_move - safety_margin(args.time_per_move)
    print(f"strong at --time-per-move {args.time_per_move} (its own clock must stay under {1000 * limit:.1f} ms), "
          f"{args.games} games per row, {args.concurrency} at once")
    with tempfile.TemporaryDirectory(prefix="clinea-clock-") as directory:
        busy = compile_busy_loop(directory)
        for count in args.busy:
            with busy_loops(busy, count):
                for board in args.boards:
                    own, seen, forfeits = judged(board, args.time_per_move, args.games, args.concurrency,
                                                 args.seed, directory)
                    over = sum(seconds > limit for seconds in own)
                    print(f"{board:6} busy {count:3}  own: {spread(own)}  over {over} of {len(own)}")
                    print(f"{'':6} {'':8}  seen: {spread(seen)}  time forfeits {len(forfeits)}")
        if args.forfeit_games:
            _, seen, forfeits = judged("7x6", args.time_per_move, args.forfeit_games, args.concurrency,
                                       args.seed + 1, directory)
            print(f"7x6 quiet, {args.forfeit_games} games: time forfeits {len(forfeits)}"
                  + (f" (last: {forfeits[-1]})" if forfeits else "") + f"; seen: {spread(seen)}")


if __name__ == "__main__":
    main()
