"""Fair seats: a bot cannot take its opponent's time. An honest bot that
needs a fixed amount of CPU per move (tests/bots/cpu_per_move.py) plays a
quiet bot and bots that burn CPU inside their seat on its turn
(tests/bots/burner.py: forked children, threads, a double-forked
grandchild's children). With ponder off (the default) the burners are
stopped while it thinks, so its forfeits and answer times are those it has
against the quiet bot; with --ponder both seats run and each gets an equal
share of the CPU, however many processes it starts. Every end path leaves
no process of a seat stopped or alive.

No timed assertion: the tests compare the honest bot's answer times against
a burner with its answer times against the quiet bot, on the same machine
a moment apart (unfair seats made them 3 to 5 times longer)."""
import json
import os
import signal
import statistics
import subprocess
import time
import uuid

import pytest
from judge_helpers import C_LINEA, bot, processes, records, tagged_processes

from clinea.judge.cli import main

HONEST_CPU_MS = 30
BURNERS = 6
GAMES = 6
ROUNDS = 3
# the clock is loose for the honest bot alone (30 ms of CPU in 200 ms), tight
# for it beside 6 busy processes on 2 cores (about 105 ms of wall time)
CLOCK = ["--time-per-move", "0.15", "--grace", "0.05"]
WAYS_TO_BURN = ["children", "threads", "grandchild"]


def honest_plies(record, name="honest"):
    """The honest player's answer times and their CPU, per move it made."""
    side = record["players"].index(name)
    first = (side - len(record["opening"])) % 2
    cpu = record.get("cpu") or [None] * len(record["times"])
    return record["times"][first::2], cpu[first::2]


def play(tmp_path, monkeypatch, opponent, *extra, games=GAMES):
    """`games` games of the honest bot against `opponent` (a burner.py way
    to burn, or "none"); the records, after checking that no process of
    either seat outlived the run. The tally is in capsys."""
    tag = uuid.uuid4().hex
    monkeypatch.setenv("HOSTILE_TAG", tag)
    results = tmp_path / f"{opponent}-{uuid.uuid4().hex[:6]}.jsonl"
    main(["--player", "honest=" + " ".join(bot("cpu_per_move.py", str(HONEST_CPU_MS))),
          "--player", "opponent=" + " ".join(bot("burner.py", opponent, str(BURNERS))),
          "--iterations", str(games), "--seed", "5", "--quiet", "--results", str(results),
          "--log-dir", str(tmp_path / "log"), *CLOCK, *extra])
    assert tagged_processes(tag) == [], "a process of a seat outlived the run"
    return records(results)


def named_for_cpu_while_waiting(tally):
    """The players the tally names for CPU used while their opponent thought."""
    named, player = [], None
    for line in tally.splitlines():
        if line.startswith(("honest:", "opponent:")):
            player = line.split(":")[0]
        elif "of CPU while its opponent thought" in line:
            named.append(player)
    return named


def opponent_plies_waited(record):
    """The CPU the opponent's seat used while it waited for each of its moves."""
    side = record["players"].index("opponent")
    return [t for t in record.get("waited", [])[(side - len(record["opening"])) % 2::2] if t is not None]


def honest_figures(games):
    """(the honest bot's timeouts, its answer times)."""
    timeouts = sum(1 for game in games if game["forfeit"] == "honest" and game["reason"].startswith("timeout"))
    times = [t for game in games for t in honest_plies(game)[0]]
    return timeouts, times


def stop_seats_by(monkeypatch, way):
    """Makes the sandbox stop seats `way`: the cgroup v2 freezer (its
    first choice), v1's freezer or signals, by hiding what it prefers.
    Where the machine has no such cgroup it falls back to signals, which
    are tried all the same."""
    from clinea.core.relay import STOP_CGROUP_V1, STOP_CGROUP_V2, STOP_SIGNALS
    from clinea.judge import sandbox

    hidden = {"v2": (), "v1": ("unified",), "signals": ("unified", "freezer")}[way]
    unified, controller = sandbox._unified_folder, sandbox._controller_folder
    monkeypatch.setattr(sandbox, "_unified_folder", lambda: None if "unified" in hidden else unified())
    monkeypatch.setattr(sandbox, "_controller_folder", lambda name: None if name in hidden else controller(name))
    trial = sandbox.Sandbox("off")
    launch = trial.launch(["true"], None)
    used = launch.cgroup.freeze[1] if launch.cgroup is not None and launch.cgroup.freeze else STOP_SIGNALS
    launch.release()
    trial.close()
    assert used in ({"v2": STOP_CGROUP_V2, "v1": STOP_CGROUP_V1, "signals": STOP_SIGNALS}[way], STOP_SIGNALS)


# each way of stopping a seat against the children; the v2 freezer, the
# first choice, against every way of burning
@pytest.mark.parametrize("burn, way", [*((burn, "v2") for burn in WAYS_TO_BURN), ("children", "v1"),
                                       ("children", "signals")])
def test_with_ponder_off_burners_do_not_slow_the_honest_bot_down(tmp_path, monkeypatch, capsys, burn, way):
    stop_seats_by(monkeypatch, way)
    # in alternate rounds: the machine is shared, its load drifts
    quiet_games, games = [], []
    for _ in range(ROUNDS):
        quiet_games += play(tmp_path, monkeypatch, "none", games=GAMES // ROUNDS)
        games += play(tmp_path, monkeypatch, burn, games=GAMES // ROUNDS)
        # the honest bot uses nothing while it waits; the burners run at most
        # the instant before they are stopped (STOP_AFTER, 1 ms, each)
        assert "honest" not in named_for_cpu_while_waiting(capsys.readouterr().out)
    # unstopped, six burners would take about six times the honest bot's
    # think time (0.2 s and more) a ply; stopped, a few ms. The median and
    # upper quartile, not the mean: on a loaded machine one slow freeze
    # in a hundred plies is noise, not a seat running
    burning = [t for game in games for t in opponent_plies_waited(game)]
    assert statistics.median(burning) < 0.005, burning
    assert statistics.quantiles(burning, n=4)[2] < 0.02, burning
    (quiet_timeouts, quiet_times), (timeouts, times) = honest_figures(quiet_games), honest_figures(games)
    # the same distribution: its middle and its upper quartile within what
    # the machine's noise moves them, and no more forfeits than noise makes
    assert statistics.median(times) < 1.5 * statistics.median(quiet_times), (times, quiet_times)
    upper, quiet_upper = (statistics.quantiles(sample, n=4)[2] for sample in (times, quiet_times))
    assert upper < 1.5 * quiet_upper + 0.01, (times, quiet_times)
    assert timeouts <= quiet_timeouts + 1


def test_with_ponder_each_seat_gets_an_equal_share_of_the_cpu(tmp_path, monkeypatch, capsys):
    games = play(tmp_path, monkeypatch, "children", "--ponder", "--time-per-move", "2")
    # the tally names the seat that thought on its opponent's time, and only it
    assert named_for_cpu_while_waiting(capsys.readouterr().out) == ["opponent"]
    thinking = waiting = 0.0
    for game in games:
        side = game["players"].index("honest")
        first = (side - len(game["opening"])) % 2
        thinking += sum(game["cpu"][first::2])
        # what the burner used while the honest bot thought: its `waited` at its next move
        waiting += sum(t for t in game["waited"][1 - first::2][first:] if t is not None)
    # half each, however many processes burn (one process against six had a seventh)
    assert 0.3 < thinking / (thinking + waiting) < 0.7, (thinking, waiting)


def cpu_ticks(pid):
    """The CPU clock ticks process `pid` has used, None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[11]) + int(fields[12])


def running(pids, seconds=0.5):
    """Those of `pids` that used CPU over `seconds`."""
    before = {pid: cpu_ticks(pid) for pid in pids}
    time.sleep(seconds)
    return {pid for pid in pids if before[pid] is not None and (cpu_ticks(pid) or 0) > before[pid]}


def tagged_with(tag, word):
    wanted = word.encode()
    return [pid for pid, state, _, words in processes("cmdline") if state != "Z" and any(wanted in w for w in words.split(b"\0"))
            and pid in tagged_processes(tag)]


def wait_for_stopped_burners(tag, count=BURNERS + 1, seconds=30):
    """The burner seat's processes once there are `count` and none of them
    runs while the honest bot thinks: its seat is stopped."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        burners = tagged_with(tag, "burner.py")
        if len(burners) >= count and not running(burners):
            return burners
        time.sleep(0.1)
    raise AssertionError(f"the burner seat was never stopped: {tagged_with(tag, 'burner.py')}")


def end_and_wait_for_the_tagged(judge, tag, end, seconds=10.0):
    """Ends the judge with the signal `end`, then waits for the processes
    tagged `tag` to die; those still living."""
    judge.send_signal(end)
    judge.wait(timeout=30)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and tagged_processes(tag):
        time.sleep(0.05)
    return tagged_processes(tag)


@pytest.mark.parametrize("sandbox", ["auto", "off"])
@pytest.mark.parametrize("end", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM])
def test_a_judge_ended_while_a_seat_is_stopped_leaves_no_process_stopped_or_alive(tmp_path, sandbox, end):
    tag = uuid.uuid4().hex
    judge = subprocess.Popen([C_LINEA, "--blue_player", *bot("burner.py", "children", str(BURNERS)),
                              "--red_player", *bot("cpu_per_move.py", "60000"), "--first", "azul",
                              "--iterations", "2", "--time-per-move", "0", "--quiet", "--sandbox", sandbox,
                              "--log-dir", str(tmp_path / "log")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path,
                             env=dict(os.environ, HOSTILE_TAG=tag))
    try:
        # frozen, then killed, then checked
        wait_for_stopped_burners(tag)
        assert end_and_wait_for_the_tagged(judge, tag, end) == []
    finally:
        judge.kill()  # only if the test failed before it ended


def test_a_forfeit_while_the_opponent_is_stopped_leaves_no_process_stopped_or_alive(tmp_path, monkeypatch):
    tag = uuid.uuid4().hex
    monkeypatch.setenv("HOSTILE_TAG", tag)
    results = tmp_path / "r.jsonl"
    main(["--blue_player", *bot("burner.py", "grandchild", str(BURNERS)), "--red_player", *bot("cpu_per_move.py", "2000"),
          "--first", "azul", "--iterations", "2", "--time-per-move", "0.1", "--quiet", "--results", str(results),
          "--log-dir", str(tmp_path / "log")])
    games = records(results)
    assert [game["forfeit"] for game in games] == ["rojo", "rojo"]
    assert all(game["reason"].startswith("timeout") for game in games)
    assert tagged_processes(tag) == []


def test_a_fresh_process_start_up_is_not_charged_to_its_game_clock(tmp_path, monkeypatch):
    # 1.5 s of loading against a game clock of 1.2 s: charged to its first
    # move, the clock ran out at its second; the course judge has no clock and
    # starts its players before the first game, so loading never costs a move
    tag = uuid.uuid4().hex
    monkeypatch.setenv("HOSTILE_TAG", tag)
    results = tmp_path / "r.jsonl"
    main(["--blue_player", *bot("slow_start.py", "1.5"), "--red_player", *bot("random_bot.py"), "--first", "azul",
          "--iterations", "2", "--time-per-move", "0", "--game-time", "1.2", "--seed", "2", "--quiet",
          "--results", str(results), "--log-dir", str(tmp_path / "log")])
    games = records(results)
    assert [game["forfeit"] for game in games] == [None, None], [game["reason"] for game in games]
    assert tagged_processes(tag) == []


# the judge with no cgroup to make (no delegation): seats are bounded by
# rlimits, and stopped by signals
WITHOUT_CGROUPS = ("import sys; from clinea.judge import sandbox; sandbox._unified_folder = lambda: None; "
                   "sandbox._controller_folder = lambda name: None; from clinea.judge.cli import main; "
                   "sys.exit(main(sys.argv[1:]))")


def test_isolated_seats_without_a_cgroup_have_a_watchdog(tmp_path):
    # no cgroup lets the next run find a bwrap caught starting as the judge
    # died (it waits for its parent forever): the watchdog kills it by its mark
    import sys

    tag = uuid.uuid4().hex
    judge = subprocess.Popen([sys.executable, "-c", WITHOUT_CGROUPS, "--blue_player",
                              *bot("burner.py", "children", "2"), "--red_player", *bot("cpu_per_move.py", "60000"),
                              "--first", "azul", "--iterations", "2", "--time-per-move", "0", "--quiet",
                              "--log-dir", str(tmp_path / "log")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path,
                             env=dict(os.environ, HOSTILE_TAG=tag))
    try:
        wait_for_stopped_burners(tag, count=3)
        assert tagged_with(tag, "reaper.py"), "no watchdog"
        assert end_and_wait_for_the_tagged(judge, tag, signal.SIGKILL) == []
    finally:
        judge.kill()


def test_a_league_game_replays_with_clinea_replay(tmp_path, capsys):
    from test_league import CONFIG, lines, start, wait_for

    from clinea.arena.judge_command import replay as replay_main

    folder = tmp_path / "league"
    folder.mkdir()
    (folder / "league.toml").write_text(CONFIG)
    league = start(folder)
    try:
        results = folder / ".league" / "results.jsonl"
        first = wait_for(lambda: results.exists() and lines(folder)[:1], league, "a game")[0]
    finally:
        league.terminate()
        league.communicate(timeout=60)
    game = json.loads(first)
    status = replay_main([str(results), game["id"], "--seat", game["players"][0]])
    out = capsys.readouterr().out
    # it ran the seat's registered program and compared its answers with the game's
    assert status in (0, 1) and "the game:" in out and "clinea.players" in out, out
