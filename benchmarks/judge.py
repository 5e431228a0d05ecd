"""Games per second through the judge on 7x6, random against random, and
the CPU milliseconds each game costs the judge and the players.

Two player programs: benchmarks/random_player.c, a random player written as
a course bot is (stdio, a flush per line; compiled here with the system's
C compiler into a temporary directory), which stands in for the course
judge's C++ random player of the issue's figures and costs next to nothing,
so the judge's own cost shows; and clinea's Python random player
(players/random), whose per-move cost is the player driver's.

Each is measured three ways, each run in a fresh process:
  cli     `clinea judge --blue_player A --red_player B --iterations N` as a
          user types it (course transcripts in log/ included, in a
          temporary working directory): games/s and the CPU per game of the
          judge and its players together.
  results the same with --results FILE (every game on disk).
  runner  the judge's Runner in the measuring process (no transcripts):
          games/s, the judge's CPU per game and the players' apart, and
          per move (the players' start-up apart; the judge's watchdog
          process counts as the judge's).
Start-up is included: a run is what a user waits for.

--against DIR measures the clinea checkout in DIR (its own .venv, built
with make) the same way, interleaved with this one run for run, and
prints the ratios: the machine is shared, so only interleaved runs
compare. Then the in-process figure (play_bots, what training uses) and the
memory a run's bookkeeping takes per game.

example:
  python benchmarks/judge.py --repeats 5 --games 1000
  python benchmarks/judge.py --against /tmp/clinea-616b026 --only cli
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
C_PLAYER_SOURCE = os.path.join(REPO, "benchmarks", "random_player.c")
SIZE = (7, 6, 4, 21)
WAYS = ("cli", "results", "runner")
# The measured processes cache their bytecode as Python does by default: an
# environment that forbids it (PYTHONDONTWRITEBYTECODE) would make every
# start of an editable checkout compile its sources, and measure that.
ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
PLAYERS = ("C", "Python")


def cpu_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def compile_c_player(directory: str) -> str:
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        sys.exit("benchmarks/judge.py: no C compiler (cc or gcc) on PATH for benchmarks/random_player.c; set CC")
    binary = os.path.join(directory, "random_player")
    subprocess.run([compiler, "-O2", "-o", binary, C_PLAYER_SOURCE], check=True)
    return binary


def python_player(checkout: str) -> str:
    return os.path.join(checkout, "players", "random")


# ------------------------------------------------------------------ one run, in a fresh process

def startup_cpu(command: list[str], runs: int = 3) -> float:
    """CPU seconds a player takes to start and quit (told `salir` at once)."""
    before = cpu_seconds(resource.RUSAGE_CHILDREN)
    for _ in range(runs):
        subprocess.run(command, input=b"salir\n", stdout=subprocess.DEVNULL, check=True)
    return (cpu_seconds(resource.RUSAGE_CHILDREN) - before) / runs


def measure_runner(blue: list[str], red: list[str], games: int) -> dict:
    """Our Runner in this process: the judge's CPU is ours, the players' our
    children's (the judge's watchdog, a child too, is counted as the judge's)."""
    from clinea.judge.referee import Clock
    from clinea.judge.tournament import Player, Runner, course_schedule
    players = [Player("azul", blue), Player("rojo", red)]
    runner = Runner(players, SIZE, lambda: Clock(per_move=30.0))
    specs = course_schedule("azul", "rojo", games, None, 1, SIZE)
    forfeits, moves = [], [0]

    def on_record(*record) -> None:  # (record) here, (spec, result) in older checkouts
        moves[0] += len(record[-1].moves)
        if record[-1].forfeit is not None:
            forfeits.append(record[-1])

    judge_cpu, children_cpu = cpu_seconds(resource.RUSAGE_SELF), cpu_seconds(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    runner.run(specs, on_record)
    players_cpu = cpu_seconds(resource.RUSAGE_CHILDREN) - children_cpu  # they were reaped at the end of the run
    try:  # the watchdog, where there is one: part of a run
        from clinea.judge.player_process import kill_all
        kill_all()
    except ImportError:
        pass
    wall = time.perf_counter() - start
    judge_cpu = cpu_seconds(resource.RUSAGE_SELF) - judge_cpu + cpu_seconds(resource.RUSAGE_CHILDREN) \
        - children_cpu - players_cpu
    if forfeits:
        sys.exit(f"{len(forfeits)} of {games} games forfeited, the first: {forfeits[0]}")
    startups = startup_cpu(blue) + startup_cpu(red)
    return {"rate": games / wall, "judge_ms": 1000 * judge_cpu / games, "players_ms": 1000 * players_cpu / games,
            "judge_us_move": 1e6 * judge_cpu / moves[0], "startup_ms": 1000 * startups / 2,
            "players_us_move": 1e6 * (players_cpu - startups) / moves[0]}


def measure_cli(python: str, blue: list[str], red: list[str], games: int, results: bool = False) -> dict:
    """`clinea judge` as a process, in a scratch directory for its log/ (and
    its --results file)."""
    argv = [python, "-m", "clinea", "judge", "--blue_player", *blue, "--red_player", *red,
            "--iterations", str(games), "--seed", "1", "--quiet", *(["--results", "run.jsonl"] if results else [])]
    with tempfile.TemporaryDirectory() as scratch:
        start = time.perf_counter()
        process = subprocess.Popen(argv, cwd=scratch, env=ENVIRONMENT, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        error = process.stderr.read().decode(errors="replace")
        process.returncode = os.waitstatus_to_exitcode(status)
        process.stderr.close()
    if process.returncode != 0:  # a forfeit too: a run with one is not measured
        sys.exit(f"{' '.join(argv)} failed with status {process.returncode}:\n{error}")
    return {"rate": games / wall, "total_ms": 1000 * (usage.ru_utime + usage.ru_stime) / games}


def run_once(python: str, way: str, blue: list[str], red: list[str], games: int) -> dict:
    """One measurement in a fresh process of `python` (whose clinea it measures)."""
    if way != "runner":
        return measure_cli(python, blue, red, games, results=way == "results")
    request = json.dumps({"blue": blue, "red": red, "games": games})
    with tempfile.TemporaryDirectory() as scratch:  # not a checkout: `python -m` must find the installed clinea
        out = subprocess.run([python, os.path.abspath(__file__), "--measure-runner", request], cwd=scratch,
                             env=ENVIRONMENT, check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


# ------------------------------------------------------------------ the report

def median(runs: list[dict], key: str) -> float:
    return statistics.median(run[key] for run in runs)


def describe(runs: list[dict], way: str, pick=median) -> str:
    """The figures of `runs`: their medians, or with `pick=best` those of
    the fastest run."""
    rates = [run["rate"] for run in runs]
    text = f"{pick(runs, 'rate'):7,.0f} games/s"
    if pick is median:
        text += f" (min {min(rates):,.0f}, max {max(rates):,.0f})"
    if way != "runner":
        return text + f", CPU {pick(runs, 'total_ms'):.3f} ms/game (judge and players)"
    return text + (f", CPU judge {pick(runs, 'judge_ms'):.3f} ms/game, "
                   f"players {pick(runs, 'players_ms'):.3f} ms/game;\n{'':26}per move: judge "
                   f"{pick(runs, 'judge_us_move'):.1f} us, players {pick(runs, 'players_us_move'):.1f} us "
                   f"(start-up apart: {pick(runs, 'startup_ms'):.1f} ms a player)")


def best(runs: list[dict], key: str) -> float:
    """`key` of the fastest run. On a shared machine the same run swings
    between a fast and a slow mode (3x apart, with the players' CPU per
    move too): the best of several is the nearest to a quiet machine."""
    return max(runs, key=lambda run: run["rate"])[key]


def ratio(ours: list[dict], theirs: list[dict], key: str) -> float:
    """Median of the run-by-run ratios: each pair ran side by side."""
    return statistics.median(a[key] / b[key] for a, b in zip(ours, theirs) if b[key])


def protocol_figures(args: argparse.Namespace) -> None:
    against = os.path.abspath(args.against) if args.against else None
    checkouts = {"this": (sys.executable, REPO)}
    if against:
        checkouts["against"] = (os.path.join(against, ".venv", "bin", "python"), against)
        if not os.access(checkouts["against"][0], os.X_OK):
            sys.exit(f"--against {args.against}: no {checkouts['against'][0]}; run make there first")
    ways = args.only or list(WAYS)
    with tempfile.TemporaryDirectory() as build:
        c_player = compile_c_player(build)
        runs: dict[tuple, list[dict]] = {}
        for repeat in range(args.repeats):
            for way in ways:
                for player in PLAYERS:
                    # who goes first alternates: neither gets the machine's better moments by its place
                    for name, (python, checkout) in list(checkouts.items())[::1 if repeat % 2 == 0 else -1]:
                        command = [c_player] if player == "C" else [python_player(checkout)]
                        runs.setdefault((way, player, name), []).append(
                            run_once(python, way, command, command, args.games))
    print(f"judge, random vs random on 7x6, {args.games} games a run, start-up included, "
          f"median of {args.repeats} runs:")
    for way in ways:
        for player in PLAYERS:
            label = f"  {way:7} {player:6} players:"
            print(f"{label} {describe(runs[(way, player, 'this')], way)}")
            if not against:
                print(f"{'':24}fastest run: {describe(runs[(way, player, 'this')], way, best).strip()}")
            if against:
                theirs = runs[(way, player, "against")]
                print(f"{'':24}--against: {describe(theirs, way)}")
                ours = runs[(way, player, "this")]
                cpu = ["total_ms"] if way != "runner" else ["judge_ms", "players_ms", "players_us_move"]
                ratios = ", ".join(f"{key.replace('_', ' ')} CPU x{ratio(ours, theirs, key):.2f}" for key in cpu)
                print(f"{'':24}this / --against: games/s x{ratio(ours, theirs, 'rate'):.2f}, {ratios}")
                best_ratios = ", ".join(f"{key.replace('_', ' ')} CPU x{best(ours, key) / best(theirs, key):.2f}"
                                        for key in cpu)
                print(f"{'':24}fastest runs: this {describe(ours, way, best).strip()}")
                print(f"{'':24}              --against {describe(theirs, way, best).strip()}")
                print(f"{'':24}              this / --against: games/s x{best(ours, 'rate') / best(theirs, 'rate'):.2f}, "
                      f"{best_ratios}")


def in_process_rate(games: int) -> float:
    from clinea.judge.referee import play_bots
    from clinea.players.random_player import RandomBot
    first, second = RandomBot(1), RandomBot(2)
    start = time.perf_counter()
    for _ in range(games):
        play_bots(first, second, *SIZE)
    return games / (time.perf_counter() - start)


def memory_growth(games: int) -> tuple[int, int]:
    """Peak RSS in kB after a tenth of `games` and after all of them, going
    through what a run keeps per game: the schedule, the record, the
    statistics (the games themselves are not played: their cost is above)."""
    from clinea.judge.referee import End, GameResult
    from clinea.judge.report import Standings
    from clinea.judge.tournament import course_schedule, record
    standings = Standings()
    peaks = []
    checkpoints = (games // 10, games)
    moves, times = [3, 3, 2, 4, 2, 2, 1, 5, 0], [0.001] * 9
    for k, spec in enumerate(course_schedule("azul", "rojo", games, None, 1, SIZE), 1):
        standings.add(record(spec, SIZE, GameResult(k % 2, End.CONNECT, moves, times)))
        if k in checkpoints:
            peaks.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    return peaks[0], peaks[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5, help="runs of each measurement (default 5)")
    parser.add_argument("--games", type=int, default=500, help="games a run (default 500)")
    parser.add_argument("--against", metavar="DIR", help="another clinea checkout to compare with (default: none)")
    parser.add_argument("--only", choices=WAYS, nargs="+", metavar="WAY",
                        help=f"ways of measuring, of {', '.join(WAYS)} (default: all)")
    parser.add_argument("--in-process-games", type=int, default=5000, help="(default 5000; 0: skip)")
    parser.add_argument("--memory-games", type=int, default=200_000, help="(default 200000; 0: skip)")
    parser.add_argument("--measure-runner", metavar="JSON", help=argparse.SUPPRESS)
    args = parser.parse_args()
    for name in ("repeats", "games"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} {getattr(args, name)}: must be at least 1")
    if args.measure_runner:
        request = json.loads(args.measure_runner)
        print(json.dumps(measure_runner(request["blue"], request["red"], request["games"])))
        return 0
    protocol_figures(args)
    if args.in_process_games > 0:
        inproc = [in_process_rate(args.in_process_games) for _ in range(args.repeats)]
        print(f"  in process (play_bots): {statistics.median(inproc):8,.0f} games/s "
              f"(min {min(inproc):,.0f}, max {max(inproc):,.0f}; {args.in_process_games} games per run)")
    if args.memory_games > 0:
        tenth, whole = memory_growth(args.memory_games)
        print(f"  memory of a run's bookkeeping: peak RSS {tenth / 1024:.1f} MB after {args.memory_games // 10:,} "
              f"games, {whole / 1024:.1f} MB after {args.memory_games:,} "
              f"({1024 * (whole - tenth) / (0.9 * args.memory_games):.2f} bytes per game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
