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

Under load (--busy N...): for each N, N busy loops are started, each in a
session of its own as independent users' jobs are (and so, where the
kernel groups tasks by session for scheduling, in a group of its own), and
`clinea judge` with the C players runs --repeats rounds with each
--sandbox mode, and the course judge given by --course-judge (its
c_linea.py, run by --course-python) in the same rounds, in alternating
order: games/s, CPU per game, context switches per game, and the ratios to
the course judge, as medians; and each one's start-up apart (the CPU of a
1-game run measured beside each run, paid once a run however long) with
the CPU per game beyond it. The CPU counts every process of a run, the
players too, for either judge alike (see measure_process). The busy loops are killed at the end (they
die with the benchmark too). --seat-starts measures what the sandbox adds
to a seat's start (a player started, told `salir`, answered `listo`), and
so to each game of a --games run; --fidelity-games counts the time
forfeits of honest players that take ~5 ms a move at --time-per-move
0.01, as many games at once as there are cores.

example:
  python benchmarks/judge.py --repeats 5 --games 1000
  python benchmarks/judge.py --against /tmp/clinea-616b026 --only cli
  python benchmarks/judge.py --only none --busy 0 1 2 32 --sandbox auto off --same-core auto off --games 1000 \
      --course-judge /tmp/course/c_linea.py --seat-starts 20 --fidelity-games 2000
"""
import argparse
import json
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
C_PLAYER_SOURCE = os.path.join(REPO, "benchmarks", "random_player.c")
SIZE = (7, 6, 4, 21)
WAYS = ("cli", "results", "runner")
# The measured processes cache their bytecode as Python does by default: an
# environment that forbids it (PYTHONDONTWRITEBYTECODE) would make every
# start of an editable checkout compile its sources, and measure that.
ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
PLAYERS = ("C", "Python")
BUSY_LOOP_SOURCE = "int main(void) { volatile unsigned long spin = 0; for (;;) spin++; }\n"
# The honest player of the fidelity count: it thinks this long before each answer.
FIDELITY_DELAY_US = 5000
FIDELITY_TIME_PER_MOVE = 0.01
PR_SET_CHILD_SUBREAPER = 36
# The mean length of a random game on 7x6 (random against random)
MOVES_PER_RANDOM_GAME = 21


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


def compile_busy_loop(directory: str) -> str:
    source = os.path.join(directory, "busy.c")
    with open(source, "w") as file:
        file.write(BUSY_LOOP_SOURCE)
    binary = os.path.join(directory, "busy")
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    subprocess.run([compiler, "-O1", "-o", binary, source], check=True)
    return binary


def _die_with_the_benchmark() -> None:
    import ctypes
    ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG


@contextmanager
def busy_loops(binary: str, count: int):
    """`count` busy loops, each in a session of its own, for the time of the block."""
    loops = [subprocess.Popen([binary], start_new_session=True, preexec_fn=_die_with_the_benchmark)
             for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


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


def measure_cli(python: str, blue: list[str], red: list[str], games: int, results: bool = False,
                sandbox: str | None = None) -> dict:
    """`clinea judge` as a process, in a scratch directory for its log/ (and
    its --results file)."""
    argv = [python, "-m", "clinea", "judge", "--blue_player", *blue, "--red_player", *red,
            "--iterations", str(games), "--seed", "1", "--quiet", *(["--results", "run.jsonl"] if results else []),
            *(["--sandbox", sandbox] if sandbox else [])]
    return measure_process(argv, games)


def measure_process(argv: list[str], games: int) -> dict:
    """A judge's whole run as a process in a scratch directory: games/s,
    and per game the CPU and the context switches of it and every process
    it started, players included, whether it waited for them or not.

    The course judge never waits for its players (they quit after it told
    them `salir` and are reaped by whoever adopts them): its rusage alone
    would leave their CPU out, while clinea's judge reaps its players and
    counts them. So the judge runs under a child of this process that is a
    subreaper (PR_SET_CHILD_SUBREAPER): the orphans come to it, it reaps
    them all, and its rusage holds every process of the run, for either
    judge alike (its own share, a fork that only waits, is a few page
    faults)."""
    with tempfile.TemporaryDirectory() as scratch:
        errors, error_end = os.pipe()
        start = time.perf_counter()
        keeper = os.fork()
        if keeper == 0:  # pragma: no cover - the child: nothing here may return
            os._exit(_run_and_reap(argv, scratch, error_end))
        os.close(error_end)
        _, status, usage = os.wait4(keeper, 0)
        wall = time.perf_counter() - start
        with os.fdopen(errors, "rb") as stream:
            error = stream.read(1 << 20).decode(errors="replace")
    code = os.waitstatus_to_exitcode(status)
    if code != 0:  # a forfeit too: a run with one is not measured
        sys.exit(f"{' '.join(argv)} failed with status {code}:\n{error}")
    return {"rate": games / wall, "total_ms": 1000 * (usage.ru_utime + usage.ru_stime) / games,
            "switches": (usage.ru_nvcsw + usage.ru_nivcsw) / games}


def _run_and_reap(argv: list[str], scratch: str, error_end: int) -> int:
    """In a forked child: become a subreaper, run `argv` in `scratch` with
    stderr to `error_end`, reap it and every orphan of it; its exit status."""
    try:
        import ctypes
        ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        judge = os.fork()
        if judge == 0:
            try:
                os.chdir(scratch)
                quiet = os.open(os.devnull, os.O_WRONLY)
                os.dup2(quiet, 1)
                os.dup2(error_end, 2)
                os.execve(argv[0], argv, ENVIRONMENT)
            finally:
                os._exit(127)
        os.close(error_end)
        _, status = os.waitpid(judge, 0)
        while True:
            try:
                os.wait()
            except ChildProcessError:
                break
        code = os.waitstatus_to_exitcode(status)
        return code if code >= 0 else 128 - code
    except BaseException:
        return 126


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


# ------------------------------------------------------------------ under load, against the course judge

def course_argv(args: argparse.Namespace, player: str, games: int) -> list[str]:
    """The course judge's command line (its log/ goes to the scratch directory)."""
    return [args.course_python, os.path.abspath(args.course_judge), "--blue_player", player, "--red_player", player,
            "--iterations", str(games), "--q", "True"]


def load_figures(args: argparse.Namespace, c_player: str, busy: str) -> None:
    course = "course judge"
    print(f"under load: `clinea judge` and the course judge, C random players, 7x6, {args.games} games a run, "
          f"medians of {args.repeats} rounds ({os.cpu_count()} CPUs):")
    for count in args.busy:
        entrants = [(f"clinea --sandbox {mode}" + (f" --same-core {core}" if len(args.same_core) > 1 else ""),
                     lambda games, mode=mode, core=core: [
                         sys.executable, "-m", "clinea", "judge", "--blue_player", c_player, "--red_player", c_player,
                         "--iterations", str(games), "--seed", "1", "--quiet", "--sandbox", mode, "--same-core", core])
                    for mode in args.sandbox for core in args.same_core]
        if args.course_judge:
            entrants.append((course, lambda games: course_argv(args, c_player, games)))
        runs: dict[str, list[dict]] = {name: [] for name, _ in entrants}
        with busy_loops(busy, count):
            for repeat in range(args.repeats):
                for name, argv in entrants[::1 if repeat % 2 == 0 else -1]:
                    runs[name].append(with_start_up(measure_process(argv(args.games), args.games),
                                                    measure_process(argv(1), 1), args.games))
            load = os.getloadavg()[0]
        print(f"  {count} busy loop{'s' if count != 1 else ''} (load average {load:.1f} at the end):")
        for name, measured in runs.items():
            rates = [run["rate"] for run in measured]
            line = (f"    {name:38} {statistics.median(rates):7,.0f} games/s (min {min(rates):,.0f}, "
                    f"max {max(rates):,.0f}), CPU {median(measured, 'total_ms'):.3f} ms/game, "
                    f"{median(measured, 'switches'):.1f} context switches/game\n{'':43}start-up "
                    f"{median(measured, 'start_up_ms'):.1f} ms of CPU a run, {median(measured, 'beyond_ms'):.3f} "
                    f"ms/game beyond it")
            if args.course_judge and name != course:
                line += (f"\n{'':43}against the course judge: games/s x{ratio(measured, runs[course], 'rate'):.2f}, "
                         f"CPU per game x{ratio(runs[course], measured, 'total_ms'):.2f} less "
                         f"(beyond start-up {beyond_ratio(runs[course], measured)})")
            print(line)


def beyond_ratio(course: list[dict], ours: list[dict]) -> str:
    """The ratio of the CPU per game beyond start-up, or n/a where runs too
    short to tell left nothing beyond it."""
    if not any(run["beyond_ms"] for run in ours):
        return "n/a"
    return f"x{ratio(course, ours, 'beyond_ms'):.2f}"


def with_start_up(run: dict, one_game: dict, games: int) -> dict:
    """`run` (of `games` games) with its judge's start-up: the CPU of a
    1-game run measured beside it, and the CPU per game beyond it. A run's
    start-up (the interpreter, imports, the sandbox check, seats started
    and stopped) is paid once however long the match; the CPU per game
    above includes its share, which shrinks as runs grow."""
    start_up = one_game["total_ms"]
    return dict(run, start_up_ms=start_up,
                beyond_ms=max(0.0, (run["total_ms"] * games - start_up) / (games - 1)) if games > 1 else 0.0)


def seat_start(c_player: str, mode: str, count: int) -> tuple[float, float]:
    """(median wall ms, mean CPU ms) of starting a seat with `--sandbox
    mode` until it can answer: started, told `salir`, `listo` read, gone.
    The CPU is the judge's and the seat's processes' together: this
    process is a subreaper, so a sandboxed seat's namespace init, which can
    outlive its bwrap for a moment, comes here to be reaped and counted."""
    from clinea.judge.player_process import PlayerProcess
    from clinea.judge.reaper import become_subreaper
    from clinea.judge.sandbox import Sandbox
    become_subreaper()
    sandbox = Sandbox(mode)

    def one() -> float:
        start = time.perf_counter()
        player = PlayerProcess([c_player], None, launch=sandbox.launch([c_player], None))
        player.write(b"salir\n")
        if player.read_line(10.0) != "listo":
            sys.exit(f"--seat-starts: {c_player} did not answer `salir` with `listo`")
        player.exit_status(5)
        wall = time.perf_counter() - start
        player.kill()
        reap_orphans()
        return wall

    one()  # the run's watchdog (without a sandbox) starts with the first seat: not a seat's cost
    reap_orphans(settle=0.2)
    cpu = cpu_seconds(resource.RUSAGE_SELF) + cpu_seconds(resource.RUSAGE_CHILDREN)
    walls = [one() for _ in range(count)]
    reap_orphans(settle=0.2)
    cpu = cpu_seconds(resource.RUSAGE_SELF) + cpu_seconds(resource.RUSAGE_CHILDREN) - cpu
    sandbox.close()
    return 1000 * statistics.median(walls), 1000 * cpu / count


def reap_orphans(settle: float = 0.0) -> None:
    """Reaps the children that ended (orphans this subreaper adopted: every
    player was waited for already, and the watchdog runs until told to
    stop), and for `settle` seconds those that end late."""
    deadline = time.monotonic() + settle
    while True:
        try:
            ended = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG)
        except ChildProcessError:
            return
        if ended is None:
            if time.monotonic() >= deadline:
                return
            time.sleep(0.01)


def seat_start_figures(args: argparse.Namespace, c_player: str) -> None:
    from clinea.judge.player_process import kill_all
    costs = {mode: seat_start(c_player, mode, args.seat_starts) for mode in args.sandbox}
    kill_all()
    print(f"seat start-up (C player, median of {args.seat_starts}; a run starts 2 seats, again after a forfeit):")
    for mode, (wall, cpu) in costs.items():
        print(f"  --sandbox {mode:5} {wall:6.2f} ms a seat, CPU {cpu:.2f} ms; "
              f"over a {args.games}-game run {2 * wall / args.games:.4f} ms a game")
    if "off" in costs:
        for mode, (wall, cpu) in costs.items():
            if mode != "off":
                print(f"  the sandbox ({mode}) adds {wall - costs['off'][0]:.2f} ms a seat "
                      f"(CPU {cpu - costs['off'][1]:.2f} ms), {2 * (wall - costs['off'][0]) / args.games:.4f} ms "
                      f"a game over {args.games} games")


def time_forfeits(c_player: str, games: int, mode: str) -> tuple[int, int, float]:
    """(time forfeits, games played, games/s) of honest players that think
    ~5 ms a move at --time-per-move 0.01, as many games at once as cores."""
    cores = len(os.sched_getaffinity(0))
    argv = [sys.executable, "-m", "clinea", "judge", "--blue_player", c_player, "1", str(FIDELITY_DELAY_US),
            "--red_player", c_player, "2", str(FIDELITY_DELAY_US), "--iterations", str(games),
            "--time-per-move", str(FIDELITY_TIME_PER_MOVE), "--concurrency", str(cores), "--seed", "1", "--quiet",
            "--results", "run.jsonl", "--sandbox", mode]
    with tempfile.TemporaryDirectory() as scratch:
        start = time.perf_counter()
        done = subprocess.run(argv, cwd=scratch, env=ENVIRONMENT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.perf_counter() - start
        with open(os.path.join(scratch, "run.jsonl"), "rb") as file:
            records = [json.loads(line) for line in file.read(1 << 28).splitlines()]
    games_played = [record for record in records if record.get("type") != "run"]
    if len(games_played) != games:
        sys.exit(f"--fidelity-games: {len(games_played)} of {games} games recorded (status {done.returncode}):\n"
                 f"{done.stderr.decode(errors='replace')[-2000:]}")
    return sum(record["reason"] == "timeout" for record in games_played), len(games_played), games / wall


def fidelity_figures(args: argparse.Namespace, c_player: str) -> None:
    cores = len(os.sched_getaffinity(0))
    print(f"time-forfeit fidelity: honest C players thinking {FIDELITY_DELAY_US / 1000:g} ms a move at "
          f"--time-per-move {FIDELITY_TIME_PER_MOVE:g}, --concurrency {cores}:")
    for mode in args.sandbox:
        forfeits, played, rate = time_forfeits(c_player, args.fidelity_games, mode)
        print(f"  --sandbox {mode:5} {forfeits} time forfeits in {played:,} games ({rate:,.1f} games/s)")


def stopping_mechanisms() -> dict[str, tuple[float, float] | None]:
    """µs a move of each way this machine can stop a seat, on a seat of a
    sleeping process: {way: (a stop and a resume, two reads of its CPU
    usage)}, what the judge does per move with ponder off (--ponder: the
    reads alone); None for a way this machine does not have. Each way is
    forced by hiding the hierarchies the sandbox would prefer to it."""
    from unittest import mock

    from clinea.core.relay import STOP_CGROUP_V1, STOP_CGROUP_V2, STOP_SIGNALS
    from clinea.judge import sandbox as seats

    controller_folder, unified_folder = seats._controller_folder, seats._unified_folder
    found: dict[str, tuple[float, float] | None] = {}
    for way, mechanism, hide in (("cgroup v2 cgroup.freeze", STOP_CGROUP_V2, ()),
                                 ("cgroup v1 freezer", STOP_CGROUP_V1, ("unified",)),
                                 ("SIGSTOP/SIGCONT to the group", STOP_SIGNALS, ("unified", "freezer"))):
        with mock.patch.object(seats, "_unified_folder", lambda hide=hide: None if "unified" in hide else
                               unified_folder()), \
                mock.patch.object(seats, "_controller_folder", lambda name, hide=hide: None if name in hide else
                                  controller_folder(name)):
            sandbox = seats.Sandbox("off")
            launch = sandbox.launch(["sleep", "60"], None)
        sleeper = subprocess.Popen(["sleep", "60"], preexec_fn=launch.before_exec, process_group=0)
        freezer = launch.freezer(sleeper.pid)
        used = launch.cgroup.freeze[1] if launch.cgroup is not None and launch.cgroup.freeze else STOP_SIGNALS
        found[way] = None if used != mechanism else (time_per_call(freezer.freeze, freezer.thaw),
                                                     time_per_call(freezer.cpu, freezer.cpu))
        freezer.close()
        sleeper.kill()
        sleeper.wait()
        launch.release()
        sandbox.close()
    return found


def time_per_call(first, then, calls: int = 2000) -> float:
    """µs of a call of `first` and one of `then`."""
    start = time.perf_counter()
    for _ in range(calls):
        first()
        then()
    return 1e6 * (time.perf_counter() - start) / calls


def stop_cost_figures(args: argparse.Namespace, c_player: str) -> None:
    """What stopping and resuming the seats costs a move: per way of
    stopping, and the judge with the C players, ponder off against --ponder."""
    print("stopping and resuming a seat (ponder off), per move: a stop, a resume, two reads of its CPU:")
    for way, cost in stopping_mechanisms().items():
        if cost is None:
            print(f"  {way:30} not available here")
        else:
            print(f"  {way:30} {cost[0]:7.1f} us a stop and resume, {cost[1]:5.1f} us two CPU reads")
    runs: dict[str, list[dict]] = {"ponder off": [], "--ponder": []}
    for _ in range(args.repeats):
        for label, extra in (("ponder off", []), ("--ponder", ["--ponder"])):
            argv = [sys.executable, "-m", "clinea", "judge", "--blue_player", c_player, "--red_player", c_player,
                    "--iterations", str(args.stop_cost_games), "--seed", "1", "--quiet", *extra]
            runs[label].append(measure_process(argv, args.stop_cost_games))
    print(f"the judge with the C random players, {args.stop_cost_games} games a run, median of {args.repeats} "
          "(CPU per game: the judge and the players):")
    for label, measured in runs.items():
        print(f"  {label:10} {median(measured, 'rate'):8,.1f} games/s, CPU {median(measured, 'total_ms'):6.2f} ms a game")
    extra_ms = median(runs["ponder off"], "total_ms") - median(runs["--ponder"], "total_ms")
    print(f"  ponder off costs {extra_ms:+.3f} ms of CPU a game, {1000 * extra_ms / MOVES_PER_RANDOM_GAME:+.1f} us a "
          f"move (a random game on 7x6 is about {MOVES_PER_RANDOM_GAME} moves)")


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
    parser.add_argument("--only", choices=(*WAYS, "none"), nargs="+", metavar="WAY",
                        help=f"ways of measuring, of {', '.join(WAYS)}, or none (default: all)")
    parser.add_argument("--in-process-games", type=int, default=5000, help="(default 5000; 0: skip)")
    parser.add_argument("--memory-games", type=int, default=200_000, help="(default 200000; 0: skip)")
    parser.add_argument("--busy", type=int, nargs="+", metavar="N", default=[],
                        help="measure under load: with N busy loops beside the judge, each level in turn, e.g. "
                             "--busy 0 1 2 32 (default: not measured)")
    parser.add_argument("--sandbox", nargs="+", choices=("auto", "strict", "off"), default=["auto", "off"],
                        metavar="MODE", help="the judge's --sandbox modes under load, for the seat start-up and the "
                                             "fidelity count (default: auto off)")
    parser.add_argument("--same-core", nargs="+", choices=("auto", "off"), default=["auto"], metavar="MODE",
                        help="the judge's --same-core modes under load, e.g. auto off to see what sharing a CPU "
                             "gains (default: auto)")
    parser.add_argument("--course-judge", metavar="PATH",
                        help="the course judge's c_linea.py, measured under load in the same rounds (default: none)")
    parser.add_argument("--course-python", default="python2", metavar="PYTHON",
                        help="the interpreter that runs --course-judge, its Python 2 (default: python2)")
    parser.add_argument("--seat-starts", type=int, default=0, metavar="N",
                        help="seats started to measure the sandbox's start-up cost (default 0: not measured)")
    parser.add_argument("--fidelity-games", type=int, default=0, metavar="N",
                        help="games of the time-forfeit count, e.g. 2000 (default 0: not measured)")
    parser.add_argument("--stop-cost-games", type=int, default=0, metavar="N",
                        help="games a run of the cost of stopping and resuming seats, ponder off against --ponder, "
                             "e.g. 1000 (default 0: not measured)")
    parser.add_argument("--measure-runner", metavar="JSON", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # a long run shows each figure as it comes
    for name in ("repeats", "games"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} {getattr(args, name)}: must be at least 1")
    for count in args.busy:
        if not 0 <= count <= 1024:
            parser.error(f"--busy {count}: must be from 0 to 1024")
    if args.course_judge and not os.path.isfile(args.course_judge):
        parser.error(f"--course-judge {args.course_judge}: no such file")
    if args.measure_runner:
        request = json.loads(args.measure_runner)
        print(json.dumps(measure_runner(request["blue"], request["red"], request["games"])))
        return 0
    if args.only != ["none"]:
        args.only = [way for way in args.only or WAYS if way != "none"]
        protocol_figures(args)
    if args.busy or args.seat_starts > 0 or args.fidelity_games > 0 or args.stop_cost_games > 0:
        with tempfile.TemporaryDirectory() as build:
            c_player = compile_c_player(build)
            if args.stop_cost_games > 0:
                stop_cost_figures(args, c_player)
            if args.busy:
                load_figures(args, c_player, compile_busy_loop(build))
            if args.seat_starts > 0:
                seat_start_figures(args, c_player)
            if args.fidelity_games > 0:
                fidelity_figures(args, c_player)
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
