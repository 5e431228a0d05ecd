"""benchmarks/judge.py: its C random player speaks the protocol as a course
bot does (openings included), and the benchmark prints its figures for
both players, and the ratios with --against (here this checkout itself)."""
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

from judge_helpers import C_LINEA, WORK_DIR, records

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "judge.py"
REPO = BENCHMARK.parents[1]


def benchmark_module():
    spec = importlib.util.spec_from_file_location("judge_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_c_random_player_plays_whole_matches_without_a_forfeit(tmp_path):
    player = benchmark_module().compile_c_player(str(tmp_path))
    results = tmp_path / "r.jsonl"
    done = subprocess.run([C_LINEA, "--blue_player", player, "1", "--red_player", player, "2", "--iterations", "40",
                           "--openings", "3", "--columns", "5", "--rows", "4", "--c", "3", "--p", "8",
                           "--seed", "2", "--results", str(results), "--quiet"],
                          capture_output=True, text=True, timeout=120, cwd=WORK_DIR.name)
    assert done.returncode == 0, done.stderr
    games = records(results)
    assert len(games) == 40 and all(game["forfeit"] is None for game in games)
    assert {game["reason"] for game in games} <= {"connect", "draw"}


def test_the_benchmark_prints_games_per_second_and_cpu_for_both_players_and_the_ratios():
    done = subprocess.run([sys.executable, str(BENCHMARK), "--games", "10", "--repeats", "1", "--only", "runner",
                           "--against", str(REPO), "--in-process-games", "0", "--memory-games", "0"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for player in ("C", "Python"):
        line = re.search(rf"runner +{player} +players: +([\d,]+) games/s.*CPU judge ([\d.]+) ms/game, "
                         rf"players ([\d.]+) ms/game", done.stdout)
        assert line, done.stdout
        assert all(float(value.replace(",", "")) > 0 for value in line.groups())
    assert len(re.findall(r"this / --against: games/s x[\d.]+", done.stdout)) == 4, done.stdout  # medians and fastest runs


def busy_loops_running() -> set[int]:
    """The benchmark's busy loops alive now: programs named `busy` in a temporary folder."""
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            continue
        if entry.name.isdigit() and command.endswith(b"/busy") and b"tmp" in command:
            found.add(int(entry.name))
    return found


def test_under_load_the_benchmark_compares_with_the_course_judge_and_kills_its_busy_loops():
    # clinea's own course-compatible script (a shell script) stands in for the course judge: the same command line
    before = busy_loops_running()
    done = subprocess.run([sys.executable, str(BENCHMARK), "--only", "none", "--busy", "0", "2", "--games", "4",
                           "--repeats", "1", "--sandbox", "off", "--course-judge", C_LINEA,
                           "--course-python", "/bin/sh", "--seat-starts", "2", "--fidelity-games", "2",
                           "--in-process-games", "0", "--memory-games", "0"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for loops in ("0 busy loops", "2 busy loops"):
        assert f"  {loops} (load average" in done.stdout, done.stdout
    assert len(re.findall(r"clinea --sandbox off +[\d,]+ games/s .* CPU [\d.]+ ms/game, [\d.]+ context switches/game",
                          done.stdout)) == 2, done.stdout
    assert len(re.findall(r"course judge +[\d,]+ games/s", done.stdout)) == 2, done.stdout
    assert len(re.findall(r"against the course judge: games/s x[\d.]+, CPU per game x[\d.]+ less "
                          r"\(beyond start-up (x[\d.]+|n/a)\)", done.stdout)) == 2  # n/a: 4-game runs may show nothing beyond
    # each entrant's start-up apart: clinea's and the course judge's, at both levels
    assert len(re.findall(r"start-up [\d.]+ ms of CPU a run, [\d.]+ ms/game beyond it", done.stdout)) == 4
    assert re.search(r"--sandbox off +[\d.]+ ms a seat, CPU [\d.]+ ms; over a 4-game run [\d.]+ ms a game",
                     done.stdout), done.stdout
    assert re.search(r"--sandbox off +\d+ time forfeits in 2 games", done.stdout), done.stdout
    assert busy_loops_running() <= before


def test_the_cpu_of_a_judge_counts_the_players_it_never_waited_for():
    # the course judge exits without waiting for its players: their CPU is
    # counted all the same, as that of players a judge reaps
    burn = "import time\nstart = time.process_time()\nwhile time.process_time() - start < 0.3: pass"
    never_waits = [sys.executable, "-c", f"import subprocess, sys; subprocess.Popen([sys.executable, '-c', {burn!r}])"]
    measured = benchmark_module().measure_process(never_waits, 1)
    assert measured["total_ms"] >= 300, measured
