"""The attack set: a hostile student's bot (tests/bots/attack.py) goes after
its opponent, the judge, the results and the machine. Under the default
sandbox every attack fails: the honest opponent never forfeits because of
it, the judge finishes and reports, no forged record is counted, nothing
survives the run, and the attacker's own games are adjudicated as any.
Without the sandbox the same attacks succeed (the controls below), so the
sandboxed runs prove the sandbox, not a harmless attack."""
import json
import os
import shutil
import signal
import subprocess
import time
import uuid

import pytest
from judge_helpers import (
    BOTS,
    C_LINEA,
    bot,
    replay_transcript,
    sigkill_and_wait_for_the_tagged,
    tagged_processes,
    transcript,
)

from clinea.judge.sandbox import bubblewrap_problem

GAMES = 3


@pytest.fixture(scope="module", autouse=True)
def bubblewrap_works():
    # the suite installs bubblewrap (make test): its absence is a failure, not a skip
    assert bubblewrap_problem() is None, bubblewrap_problem()


def victim_folder(tmp_path):
    """The honest opponent in a folder of its own, beside its secret weights,
    inside the folder the judge runs in (which every seat may read)."""
    folder = tmp_path / "work" / "victim"
    folder.mkdir(parents=True)
    for name in ("random_bot.py", "protocol.py"):
        shutil.copy(os.path.join(BOTS, name), folder / ("victim_bot.py" if name == "random_bot.py" else name))
    (folder / "weights.json").write_text('{"secret": "the victim\'s weights"}')
    return folder


def play(tmp_path, kind, target="", sandbox="auto", extra=(), games=GAMES, timeout=120):
    tag = uuid.uuid4().hex
    folder = victim_folder(tmp_path)
    work = tmp_path / "work"
    results, log_dir = work / "results.jsonl", tmp_path / "log"
    args = ["--blue_player", *bot("attack.py", kind), "--red_player", str(folder / "victim_bot.py"),
            "--first", "azul", "--iterations", str(games), "--time-per-move", "3", "--seed", "5",
            "--results", "results.jsonl", "--log-dir", str(log_dir), "--sandbox", sandbox, *extra]
    judge = subprocess.Popen([C_LINEA, *args], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ, HOSTILE_TAG=tag, ATTACK_TARGET=target), start_new_session=True)
    try:
        out, err = judge.communicate(timeout=timeout)
    finally:
        if judge.poll() is None:  # a stopped or hung judge fails the test, and is not left behind
            os.killpg(judge.pid, signal.SIGKILL)
            judge.communicate()
    deadline = time.monotonic() + 5
    while tagged_processes(tag) and time.monotonic() < deadline:
        time.sleep(0.05)
    return judge.returncode, out, err, results, log_dir, tag


def records(path):
    with open(path) as file:
        return [record for record in map(json.loads, file) if record.get("type") != "run"]


def attack_lines(log_dir):
    return [line for line in transcript(log_dir, "azul") if "ATTACK" in line]


def assert_attack_failed(tmp_path, kind, target="", extra=(), own_forfeits_allowed=False):
    status, out, err, results, log_dir, tag = play(tmp_path, kind, target, extra=extra)
    assert status in (0, 1), (status, err)
    assert f"{GAMES} games" in out, out  # the judge finished and reported
    games = records(results)
    assert sorted(int(game["id"]) for game in games) == list(range(GAMES)), games  # nothing forged, nothing lost
    assert all(game["forfeit"] != "rojo" for game in games), [g["reason"] for g in games]
    if not own_forfeits_allowed:
        assert all(game["forfeit"] is None for game in games), [g["reason"] for g in games]
    assert replay_transcript(transcript(log_dir, "rojo"), 7, 6, 4, 21) == GAMES
    assert tagged_processes(tag) == [], "a process of the run outlived it"
    assert "+1000" not in out
    lines = attack_lines(log_dir)
    assert lines, "the attack did not run"
    return lines, out


@pytest.mark.parametrize("kind", ["kill_opponent", "stop_opponent", "answer_for_opponent", "tell_opponent_it_lost",
                                  "steal_opponent_moves"])
def test_the_opponent_is_out_of_reach(tmp_path, kind):
    lines, _ = assert_attack_failed(tmp_path, kind)
    assert any("found no target" in line or "nothing to signal" in line for line in lines), lines


@pytest.mark.parametrize("kind", ["kill_judge", "interrupt_judge", "stop_judge", "fake_tally",
                                  "kill_watchdog_and_leave_daemon"])
def test_the_judge_is_out_of_reach(tmp_path, kind):
    lines, out = assert_attack_failed(tmp_path, kind)
    assert not any("reached [" in line or "wrote into" in line or "wrote to the terminal" in line
                   for line in lines), lines


def test_the_results_file_cannot_be_forged(tmp_path):
    target = str(tmp_path / "work" / "results.jsonl")
    lines, _ = assert_attack_failed(tmp_path, "forge_results", target)
    assert any("refused" in line for line in lines) and not any("forged a record" in line for line in lines), lines


def test_the_other_seats_files_cannot_be_read(tmp_path):
    lines, _ = assert_attack_failed(tmp_path, "read_opponent_files", str(tmp_path / "work" / "victim" / "weights.json"))
    assert any("refused" in line for line in lines), lines


def test_there_is_no_network(tmp_path):
    lines, _ = assert_attack_failed(tmp_path, "open_network")
    assert not any(line.endswith("connected") for line in lines), lines


def test_a_fork_bomb_fills_only_its_own_quota(tmp_path):
    lines, _ = assert_attack_failed(tmp_path, "fork_bomb", extra=["--seat-limits", "processes=64"],
                                    own_forfeits_allowed=True)
    refused = [line for line in lines if "fork refused after" in line]
    assert refused and int(refused[0].split("after ")[1].split()[0]) < 64, lines


def test_a_memory_hog_is_stopped_at_its_limit(tmp_path):
    lines, _ = assert_attack_failed(tmp_path, "memory_hog", extra=["--seat-limits", "memory=512M"],
                                    own_forfeits_allowed=True)
    refused = [line for line in lines if "memory refused after" in line]
    assert refused and int(refused[0].split("after ")[1].split()[0]) <= 512, lines


def test_the_disk_cannot_be_filled(tmp_path):
    lines, _ = assert_attack_failed(tmp_path, "fill_disk", extra=["--seat-limits", "scratch=16M,file_size=32M"],
                                    own_forfeits_allowed=True)
    assert not any("unrefused" in line for line in lines), lines
    # its scratch (TMPDIR) fills up to its size; the machine's /tmp is read-only to it
    assert any(line.endswith("refused after 16 MB: No space left on device") or "refused after 15 MB" in line
               for line in lines if "/dev/shm refused" in line), lines
    assert any("/tmp refused after 0 MB: Read-only file system" in line for line in lines), lines


def test_a_daemon_does_not_survive_a_sigkill_of_the_judge(tmp_path):
    tag = uuid.uuid4().hex
    folder = victim_folder(tmp_path)
    log_dir = tmp_path / "log"
    judge = subprocess.Popen([C_LINEA, "--blue_player", *bot("attack.py", "daemon"), "--red_player",
                              str(folder / "victim_bot.py"), "--first", "azul", "--iterations", "100000",
                              "--log-dir", str(log_dir), "--quiet"], cwd=tmp_path,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, HOSTILE_TAG=tag))
    try:
        deadline = time.monotonic() + 30
        # the daemons, environment dropped, show by the tag in their command lines
        while time.monotonic() < deadline and not any(
                b"import time" in open(f"/proc/{pid}/cmdline", "rb").read() for pid in tagged_processes(tag)
                if os.path.exists(f"/proc/{pid}/cmdline")):
            time.sleep(0.05)
        assert sigkill_and_wait_for_the_tagged(judge, tag) == []
    finally:
        judge.kill()
        judge.wait()


# ---------------------------------------------------------------- controls

def test_a_forged_record_that_reached_the_file_is_refused_by_resume(tmp_path):
    # without the sandbox the forger writes into the file; --resume must not count it
    target = str(tmp_path / "work" / "results.jsonl")
    _, _, _, results, log_dir, _ = play(tmp_path, "forge_results", target, sandbox="off")
    assert any("forged a record" in line for line in attack_lines(log_dir))
    forged = [record["id"] for record in records(results)].count("999999")
    assert forged >= GAMES
    done = subprocess.run([C_LINEA, "--resume", "results.jsonl", "--sandbox", "off"], cwd=tmp_path / "work",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode in (0, 1), done.stderr
    assert f"{forged} record(s) the judge did not write" in done.stderr and f"{GAMES} games" in done.stdout

@pytest.mark.parametrize("kind,harm", [
    ("kill_opponent", lambda games, lines: any(g["forfeit"] == "rojo" for g in games)),
    ("answer_for_opponent", lambda games, lines: any(g["forfeit"] == "rojo" for g in games)),
    ("read_opponent_files", lambda games, lines: any("bytes of" in line for line in lines)),
])
def test_without_the_sandbox_the_same_attacks_succeed(tmp_path, kind, harm):
    target = str(tmp_path / "work" / "victim" / "weights.json")
    _, _, _, results, log_dir, _ = play(tmp_path, kind, target, sandbox="off")
    assert harm(records(results), attack_lines(log_dir))
