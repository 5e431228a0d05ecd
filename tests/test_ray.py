"""The Ray backends end to end, on a real local Ray (127.0.0.1, two CPUs,
started once per session): a tournament of player programs and a short
genetic run give what the local backend gives; a judge worker killed
mid-game, a driver interrupted and resumed, lose no game and count none
twice; a training worker killed mid-run changes nothing; programs run from
the directory a job ships; a program a node cannot start stops the run with
a clear error; a table dead beyond its restarts, the node's agent killed, a
step over its deadline stop the run with one line saying how to resume,
and nothing of Ray's in the terminal; local runs never load Ray."""
import csv
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from judge_helpers import BOTS, C_LINEA, REPO, bot, live_members, records, run_judge, started_pids, wait_until

from clinea.judge import cli as judge_cli
from clinea.training import cli as train_cli

PLAYERS = os.path.join(REPO, "players")


def comparable(path) -> list[dict]:
    """A results file's games by id, without the thinking times and their CPU (machine noise)."""
    return sorted(({k: v for k, v in game.items() if k not in ("times", "cpu", "waited", "seal")}
                   for game in records(path)),
                  key=lambda game: game["id"])


def tally(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines()
            if not any(noise in line for noise in ("time/move", "cpu/move", "of CPU while its opponent thought"))]


def test_tournament_of_programs_on_ray_matches_local(ray_address, tmp_path):
    # deterministic programs, so every game is decided by the schedule alone
    options = ["--player", f"greedy={PLAYERS}/greedy", "--player", f"evaluator={PLAYERS}/evaluator --depth 2",
               "--player", f"alphabeta={PLAYERS}/alphabeta", "--columns", "5", "--rows", "4", "--c", "3",
               "--p", "10", "--iterations", "4", "--openings", "2", "--seed", "7", "--quiet"]
    local = run_judge([*options, "--concurrency", "2", "--results", str(tmp_path / "local.jsonl")])
    assert local.returncode == 0, local.stderr
    on_ray = run_judge([*options, "--ray", ray_address, "--results", str(tmp_path / "ray.jsonl"),
                        "--log-dir", str(tmp_path / "logs")], timeout=120)
    assert on_ray.returncode == 0, on_ray.stderr
    # the seats on Ray are stopped and measured as local ones (ponder off by default)
    assert all(game.get("cpu") for game in records(tmp_path / "ray.jsonl"))
    games = comparable(tmp_path / "ray.jsonl")
    assert len(games) == 12 and len({game["id"] for game in games}) == 12
    assert games == comparable(tmp_path / "local.jsonl")
    assert tally(on_ray.stdout) == tally(local.stdout)
    # where the run was played is not part of it: a resume may choose again
    header = json.loads((tmp_path / "ray.jsonl").read_text().splitlines()[0])
    assert "--ray" not in header["argv"] and ray_address not in header["argv"]
    # the tables told their players `salir` and left no process behind
    assert live_members(started_pids(tmp_path / "logs")) == []


def finished(path) -> int:
    try:
        return len(records(path))
    except FileNotFoundError:
        return 0


def test_worker_killed_mid_game_and_driver_interrupted_lose_nothing(ray_address, tmp_path):
    marks = tmp_path / "marks"
    results = tmp_path / "r.jsonl"
    slow = " ".join(bot("slow_marker.py", str(marks), "0.03"))
    options = ["--player", f"a={slow}", "--player", f"b={slow}", "--player", f"c={slow}",
               "--columns", "5", "--rows", "4", "--c", "4", "--p", "10", "--iterations", "8", "--seed", "3",
               "--quiet", "--sandbox", "off"]  # the bots mark their pids in a file outside any sandbox
    total = 3 * 8
    driver = subprocess.Popen([C_LINEA, *options, "--ray", ray_address, "--results", str(results)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until(lambda: finished(results) >= 2, 90, "the first games")
        # the last mark is a table's process in the middle of a game: kill it there
        tables = {int(pid) for pid in marks.read_text().split()}
        os.kill(int(marks.read_text().split()[-1]), signal.SIGKILL)
        # Ray restarts the table, whose new process starts new players
        wait_until(lambda: {int(pid) for pid in marks.read_text().split()} - tables, 60, "a restarted table")
        wait_until(lambda: finished(results) >= total // 2, 90, "half of the games")
        driver.send_signal(signal.SIGINT)
        _, stderr = driver.communicate(timeout=60)
    finally:
        driver.kill()
    assert driver.returncode == 130, stderr
    assert f"they are in {results}" in stderr
    kept = records(results)
    assert total // 2 <= len(kept) < total
    assert len({game["id"] for game in kept}) == len(kept)

    resumed = run_judge(["--resume", str(results), "--ray", ray_address, "--quiet"], timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    games = records(results)
    ids = [game["id"] for game in games]
    assert len(ids) == total and len(set(ids)) == total
    assert all(game["reason"] in ("connect", "draw") for game in games)  # the killed game was replayed, not forfeited
    assert resumed.stdout.startswith(f"{total} games")


def killing_until_it_ends(driver, marks, kills: int) -> int:
    """Kills each new table process (the parent a slow_marker player marks)
    as it shows up, `kills` times or until the driver ends; the kills made."""
    killed: set[int] = set()
    while len(killed) < kills and driver.poll() is None:
        fresh = {int(pid) for pid in marks.read_text().split()} - killed if marks.exists() else set()
        for pid in fresh:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            killed.add(pid)
        time.sleep(0.05)
    return len(killed)


def test_a_table_that_keeps_dying_stops_the_run_in_one_line_saying_how_to_resume(ray_address, tmp_path):
    """Ray restarts a table RESTARTS times; one more death is Ray's
    ActorDiedError, which ended the judge with a traceback."""
    from clinea.judge.cli import EXIT_RAY_FAILED
    from clinea.judge.ray_backend import RESTARTS

    marks, results = tmp_path / "marks", tmp_path / "r.jsonl"
    slow = " ".join(bot("slow_marker.py", str(marks), "0.05"))
    options = ["--player", f"a={slow}", "--player", f"b={slow}", "--columns", "5", "--rows", "4", "--c", "4",
               "--p", "10", "--iterations", "6", "--seed", "3", "--quiet"]
    driver = subprocess.Popen([C_LINEA, *options, "--ray", ray_address, "--concurrency", "1", "--results", str(results),
                               "--sandbox", "off"],  # the bots mark their tables' pids in a file outside any sandbox
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert killing_until_it_ends(driver, marks, RESTARTS + 1) == RESTARTS + 1
        stdout, stderr = driver.communicate(timeout=120)
    finally:
        driver.kill()
    assert driver.returncode == EXIT_RAY_FAILED, stderr
    # Ray's own words (a dead worker's report, a traceback) stay out: one line, the judge's
    [line] = stderr.strip().splitlines()
    assert line.startswith("clinea judge: the run on Ray stopped: the table playing game a|b|")
    assert "ActorDiedError" in line and f"clinea judge --resume {results} plays the rest" in line
    kept = records(results)
    assert stdout.startswith(f"{len(kept)} games") and f"its {len(kept)} finished games" in line
    resumed = run_judge(["--resume", str(results), "--quiet"], timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    ids = [game["id"] for game in records(results)]
    assert len(ids) == 6 and len(set(ids)) == 6


def processes_under(pid: int, title: str) -> list[int]:
    """The processes descended from `pid` whose title (argv[0]) starts with `title`."""
    parents, titles = {}, {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as file:
                    parents[int(entry)] = int(file.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{entry}/cmdline", "rb") as file:
                    titles[int(entry)] = file.read().split(b"\0")[0].decode(errors="replace")
            except OSError:
                continue

    def under(child: int) -> bool:
        while child > 1:
            child = parents.get(child, 0)
            if child == pid:
                return True
        return False

    return [child for child, name in titles.items() if name.startswith(title) and under(child)]


def test_the_node_agent_killed_under_a_run_stops_it_in_one_line_saying_how_to_resume(tmp_path):
    """The judge's own local Ray (--ray) loses its node's agent in the
    middle of the run, which takes the node and its tables with it: the
    judge says so and how to go on, and Ray's traceback and its workers'
    noise stay out of the terminal."""
    from clinea.judge.cli import EXIT_RAY_FAILED

    marks, results = tmp_path / "marks", tmp_path / "r.jsonl"
    slow = " ".join(bot("slow_marker.py", str(marks), "0.05"))
    driver = subprocess.Popen([C_LINEA, "--player", f"a={slow}", "--player", f"b={slow}", "--columns", "5",
                               "--rows", "4", "--c", "4", "--p", "10", "--iterations", "40", "--seed", "3",
                               "--quiet", "--ray", "--results", str(results), "--sandbox", "off"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until(lambda: finished(results) >= 2 or driver.poll() is not None, 180, "the first games")
        if driver.poll() is None:  # on a loaded machine the agent has been seen to fail by itself
            [agent] = processes_under(driver.pid, "ray::DashboardAgent")
            os.kill(agent, signal.SIGKILL)
        stdout, stderr = driver.communicate(timeout=300)
    finally:
        driver.kill()
    assert driver.returncode == EXIT_RAY_FAILED, stderr
    [line] = stderr.strip().splitlines()
    assert line.startswith("clinea judge: the run on Ray stopped: ") and "ActorDiedError" in line
    kept = records(results)
    assert f"its {len(kept)} finished games are in {results}: clinea judge --resume {results}" in line
    assert stdout.startswith(f"{len(kept)} games") and "(raylet)" not in stdout


def test_programs_run_from_the_working_directory_the_job_ships(ray_address, tmp_path):
    # what `ray job submit --working-dir .` hands the driver: each node unpacks
    # its own copy of the directory and the tables start the programs there
    shipped = tmp_path / "shipped"
    (shipped / "bots").mkdir(parents=True)
    for name in ("protocol.py", "where.py", "random_bot.py"):
        (shipped / "bots" / name).write_bytes(open(os.path.join(BOTS, name), "rb").read())
        (shipped / "bots" / name).chmod(0o755)
    seen = tmp_path / "where"
    env = {**os.environ, "RAY_JOB_CONFIG_JSON_ENV_VAR": json.dumps({"runtime_env": {"working_dir": "."}})}
    # where.py writes where it ran into `seen`, outside any sandbox
    done = run_judge(["--player", f"a=bots/where.py {seen}", "--player", "b=bots/random_bot.py", "--iterations", "2",
                      "--quiet", "--ray", ray_address, "--sandbox", "off"], timeout=120, cwd=shipped, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("2 games")
    # the node check started it, then each table: all in the unpacked copy
    # (which Ray may clear once the job is over), none in the driver's
    places = seen.read_text().splitlines()
    assert len(places) >= 2 and len(set(places)) == 1 and places[0] != str(shipped)


def test_a_program_a_node_cannot_start_stops_the_run(ray_address, tmp_path, capsys):
    broken = tmp_path / "broken"
    broken.write_text("#!/bin/sh\necho \"ModuleNotFoundError: No module named 'clinea'\" >&2\nexit 3\n")
    broken.chmod(0o755)
    results = tmp_path / "r.jsonl"
    with pytest.raises(SystemExit) as stopped:
        judge_cli.main(["--player", f"ok={PLAYERS}/random", "--player", f"bad={broken}", "--iterations", "2",
                        "--quiet", "--ray", ray_address, "--results", str(results)])
    message = str(stopped.value.code)
    assert "player bad on node 127.0.0.1" in message
    assert "exited with status 3 (ModuleNotFoundError: No module named 'clinea')" in message
    assert "player ok" not in message
    assert records(results) == []


def test_a_node_check_over_its_deadline_stops_the_run_in_one_line(ray_address, tmp_path, capsys, monkeypatch):
    """Under memory pressure Ray retried the node check without end and the
    judge hung; every step has a deadline now. The check waits the judge's
    2 s start-up grace: a deadline of 0.5 s stands for a check that never ends."""
    from clinea import ray_cluster

    monkeypatch.setattr(ray_cluster, "STEP_DEADLINE", 0.5)
    results = tmp_path / "r.jsonl"
    status = judge_cli.main(["--player", f"a={PLAYERS}/random", "--player", f"b={PLAYERS}/random", "--iterations",
                             "2", "--quiet", "--ray", ray_address, "--results", str(results)])
    assert status == judge_cli.EXIT_RAY_FAILED
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("clinea judge: the run on Ray stopped: the check that the 1 node(s) can start the players "
                           "did not end within 0.5 s")
    assert f"its 0 finished games are in {results}: clinea judge --resume {results} plays the rest" in line


def test_a_game_over_its_deadline_on_ray_stops_the_run_in_one_line(ray_address, tmp_path, capsys, monkeypatch):
    """A game without a clock may take for ever, as locally; with one, it
    gets what the clock allows with every replay: 2 s stands for that here,
    against a player that never answers its second move."""
    from clinea.judge import ray_backend

    monkeypatch.setattr(ray_backend, "game_deadline", lambda size, clock: 2.0)
    status = judge_cli.main(["--player", f"a={BOTS}/hang.py", "--player", f"b={PLAYERS}/random", "--iterations", "1",
                             "--quiet", "--ray", ray_address, "--time-per-move", "0"])
    assert status == judge_cli.EXIT_RAY_FAILED
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("clinea judge: the run on Ray stopped: game a|b|0 did not end within 2 s on Ray")
    assert line.endswith("give --results FILE to keep a run's games and resume it")


def test_the_game_deadline_is_what_the_clock_allows_with_every_replay():
    from clinea.core import Rules
    from clinea.judge.ray_backend import RESTARTS, STARTUP_GRACE, game_deadline
    from clinea.judge.referee import Clock
    from clinea.ray_cluster import STEP_DEADLINE

    size = Rules(7, 6, 4, 21)  # 42 moves at most
    assert game_deadline(size, Clock()) is None
    expected = (RESTARTS + 1) * (42 * (1.0 + 0.05) + 2 * STARTUP_GRACE) + STEP_DEADLINE
    assert game_deadline(size, Clock(per_move=1.0)) == pytest.approx(expected)
    by_game_clock = (RESTARTS + 1) * (2 * 10 + 42 * (0.5 + 0.05) + 2 * STARTUP_GRACE) + STEP_DEADLINE
    assert game_deadline(size, Clock(per_move=1.0, game=10, increment=0.5)) == pytest.approx(by_game_clock)


def test_genetic_run_on_ray_matches_local(ray_address, tmp_path, capsys):
    options = ["genetic", "--columns", "6", "--rows", "5", "--population", "8", "--generations", "3",
               "--fitness", "external", "--external-games", "2", "--seed", "11", "--eval-games", "3", "--quiet"]
    outputs = {}
    for name, backend in (("local", ["--jobs", "1"]), ("ray", ["--ray", ray_address])):
        assert train_cli.main([*options, *backend, "--out", str(tmp_path / name)]) == 0
        outputs[name] = capsys.readouterr().out
        assert "wrote" in outputs[name]
    weights = {name: json.loads((tmp_path / f"{name}.json").read_text()) for name in outputs}
    assert weights["ray"]["weights"] == weights["local"]["weights"]
    assert weights["ray"]["info"]["evaluation"] == weights["local"]["info"]["evaluation"]
    curves = {name: [{k: v for k, v in row.items() if k != "elapsed"}
                     for row in csv.DictReader(open(tmp_path / f"{name}.csv"))] for name in outputs}
    assert len(curves["ray"]) == 3 and curves["ray"] == curves["local"]
    evaluation = [line for line in outputs["ray"].splitlines() if line.startswith("against")]
    assert evaluation and evaluation == [line for line in outputs["local"].splitlines() if line.startswith("against")]


def test_local_runs_never_import_ray(tmp_path):
    # Ray is an optional extra: without --ray, neither the judge nor training loads it
    script = f"""
import sys
from clinea.judge import cli as judge_cli
from clinea.training import cli as train_cli
assert judge_cli.main(["--player", "a={PLAYERS}/random", "--player", "b={PLAYERS}/random", "--iterations", "2",
                       "--concurrency", "2", "--quiet"]) == 0
assert train_cli.main(["genetic", "--population", "4", "--generations", "1", "--jobs", "2", "--eval-games", "1",
                       "--quiet", "--out", "{tmp_path}/g"]) == 0
print("ray loaded" if "ray" in sys.modules else "ray not loaded")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "ray not loaded"


def descendants_running(task: str) -> list[int]:
    """The processes under this one (the session's Ray) running `task` now,
    by the title Ray gives a worker while it runs a task."""
    return processes_under(os.getpid(), f"ray::{task}")


def test_training_worker_killed_mid_run_gives_the_same_run(ray_address, tmp_path):
    options = ["genetic", "--columns", "6", "--rows", "5", "--population", "16", "--generations", "12",
               "--fitness", "external", "--external-games", "2", "--seed", "5", "--eval-games", "2", "--quiet"]
    train = [sys.executable, "-m", "clinea", "train", *options]
    driver = subprocess.Popen([*train, "--ray", ray_address, "--out", str(tmp_path / "ray")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        victims = wait_until(lambda: descendants_running("run_chunk"), 90, "a fitness chunk on Ray")
        os.kill(victims[0], signal.SIGKILL)
        _, stderr = driver.communicate(timeout=120)
    finally:
        driver.kill()
    assert driver.returncode == 0, stderr
    local = subprocess.run([*train, "--jobs", "1", "--out", str(tmp_path / "local")], capture_output=True,
                           text=True, timeout=120)
    assert local.returncode == 0, local.stderr
    weights = {name: json.loads((tmp_path / f"{name}.json").read_text()) for name in ("ray", "local")}
    assert weights["ray"]["weights"] == weights["local"]["weights"]
    curves = {name: [{k: v for k, v in row.items() if k != "elapsed"}
                     for row in csv.DictReader(open(tmp_path / f"{name}.csv"))] for name in ("ray", "local")}
    assert len(curves["ray"]) == 12 and curves["ray"] == curves["local"]
