"""Runs that go wrong from the outside: results files that are not what they
should be, --resume on the wrong file, an interrupted run, an SPRT decided
while other games are still being played, a bad program string."""
import os
import resource
import signal
import subprocess
import time

import pytest
from judge_helpers import C_LINEA, bot, records, run_judge

from clinea.judge.cli import EXIT_FORFEIT, EXIT_RESULTS_UNWRITABLE

RANDOM = bot("random_bot.py")
MATCH = ["--blue_player", *RANDOM, "--red_player", *RANDOM, "--columns", "5", "--rows", "4", "--c", "3",
         "--seed", "5", "--quiet"]


def a_run(path, games=4):
    done = run_judge([*MATCH, "--iterations", str(games), "--results", str(path)])
    assert done.returncode == 0, done.stderr
    return path.read_text()


def refused(args, message):
    done = run_judge(args)
    assert done.returncode == 2, done.stdout + done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr
    return done


def test_a_corrupt_line_in_the_middle_is_named_and_nothing_is_dropped(tmp_path):
    path = tmp_path / "r.jsonl"
    lines = a_run(path).splitlines(keepends=True)
    lines[2] = '{"id": "1", "moves": [1,\n'
    damaged = "".join(lines)
    path.write_text(damaged)
    refused(["--resume", str(path)], "line 3 is not a game record")
    assert path.read_text() == damaged


@pytest.mark.parametrize("content,message", [
    ("not json\n", "line 1 is not JSON"),
    ('{"type": "game", "id": "0"}\n', "line 1 is not a run header"),
    ('[1, 2, 3]\n', "line 1 is not a run header"),
])
def test_a_corrupt_header_is_refused_before_any_game(tmp_path, content, message):
    path = tmp_path / "r.jsonl"
    path.write_text(content)
    for option in ("--resume", "--results"):
        refused([*MATCH, option, str(path)] if option == "--results" else [option, str(path)], message)
    assert path.read_text() == content


def test_results_in_a_directory_that_is_not_there_or_that_is_a_directory(tmp_path):
    refused([*MATCH, "--results", str(tmp_path)], "is a directory")
    refused([*MATCH, "--results", str(tmp_path / "no" / "r.jsonl")], "no such directory")


@pytest.mark.parametrize("content", [None, "", '{"type": "run", "argv": []}\n'])
def test_resume_of_nothing_is_refused_and_writes_nothing(tmp_path, content):
    path = tmp_path / "r.jsonl"
    if content is not None:
        path.write_text(content)
    message = "no player programs" if content else "there is no run to resume"
    refused(["--resume", str(path)], message)
    assert (path.read_text() if content is not None else None) == content


def test_resume_with_other_settings_or_results_of_another_run_is_refused_naming_the_difference(tmp_path):
    path = tmp_path / "r.jsonl"
    before = a_run(path)
    refused(["--resume", str(path), "--columns", "6"], "board: [5, 4, 3, 21] in the file, [6, 4, 3, 21] now")
    refused([*MATCH, "--iterations", "8", "--results", str(path)], "iterations: 4 in the file, 8 now")
    refused(["--blue_player", *bot("misbehave.py", "negative"), *MATCH[2:], "--iterations", "4",
             "--resume", str(path)], "players:")
    # the seats' isolation and bounds are the run's too: the same games under other ones are another run
    refused(["--resume", str(path), "--sandbox", "off"], "sandbox: 'auto' in the file, 'off' now")
    refused(["--resume", str(path), "--seat-limits", "memory=1G"], "seat-limits:")
    assert path.read_text() == before
    # the same run again is a resume: nothing to play, nothing written
    done = run_judge([*MATCH, "--iterations", "4", "--results", str(path)])
    assert done.returncode == 0 and path.read_text() == before and done.stdout.startswith("4 games")


def test_an_unbalanced_quote_is_an_error_message(tmp_path):
    refused(["--player", f'a={RANDOM[0]} "5', "--player", f"b={RANDOM[0]}"], "no closing quotation")


@pytest.mark.parametrize("results", [False, True])
def test_ctrl_c_prints_the_partial_tally_and_says_only_what_is_true(tmp_path, results):
    path = tmp_path / "r.jsonl"
    # not quiet: the run's header line on stderr says its games start (a loaded machine may take seconds)
    args = [word for word in MATCH if word != "--quiet"] + ["--iterations", "100000"] + \
        (["--results", str(path)] if results else [])
    judge = subprocess.Popen([C_LINEA, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    header = judge.stderr.readline()
    assert header.startswith("sandbox:"), header
    time.sleep(1.0)
    judge.send_signal(signal.SIGINT)
    out, err = judge.communicate(timeout=20)
    assert judge.returncode == 130
    finished = int(out.split()[0])
    assert out.startswith(f"{finished} games") and "(azul): +" in out
    if results:
        assert f"they are in {path}" in err and len(records(path)) == finished
    else:
        assert "no --results file keeps them" in err and "results file" not in err.replace("--results file", "")


def test_an_sprt_decided_with_games_in_flight_stays_decided(tmp_path):
    path = tmp_path / "r.jsonl"
    done = run_judge(["--player", f"good={RANDOM[0]}", "--player", f"bad={bot('misbehave.py', 'negative')[0]}",
                      "--iterations", "200", "--sprt", "0", "100", "0.05", "0.05", "--concurrency", "2",
                      "--results", str(path), "--quiet"])
    assert done.returncode == EXIT_FORFEIT, done.stderr  # the bad bot forfeits: a bad move fails the run
    played = len(records(path))
    sprt = [line for line in done.stdout.splitlines() if line.startswith("SPRT")]
    assert len(sprt) == 1 and "H1 accepted after" in sprt[0], done.stdout
    decided = int(sprt[0].split("after ")[1].split()[0])
    assert decided <= played < 200
    assert (f"{played - decided} more game(s) were in flight" in sprt[0]) == (played > decided)


def test_ctrl_c_after_a_game_ended_and_before_it_was_counted_counts_it(tmp_path):
    """A game has ended by the rules and azul has been told it won, when
    Ctrl-C comes: a finished game, in the tally and in the results file.
    The judge is held right there: azul's transcript (--log-dir) is a pipe
    that this test fills up once the first game is in it, so the judge
    blocks writing azul's lines at the end of the next game, after telling
    azul the result; Ctrl-C comes then, and the pipe is drained. Azul plays
    column 0 and rojo column 1: azul connects three in every game."""
    logs, path = tmp_path / "logs", tmp_path / "r.jsonl"
    logs.mkdir()
    os.mkfifo(logs / "azul.log")
    transcript = os.open(logs / "azul.log", os.O_RDWR)  # a reader and a writer: no open() blocks
    judge = subprocess.Popen([C_LINEA, "--blue_player", *bot("column_bot.py", "0"),
                              "--red_player", *bot("column_bot.py", "1"), "--columns", "5", "--rows", "4", "--c", "3",
                              "--first", "azul", "--iterations", "100", "--seed", "1", "--quiet",
                              "--log-dir", str(logs), "--results", str(path)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    seen = b""
    try:
        while b"> ganaste\n" not in seen:
            seen += os.read(transcript, 65536)
        os.set_blocking(transcript, False)
        try:
            while True:  # whole lines of filler, each write all or nothing (PIPE_BUF bytes)
                os.write(transcript, b"#" * 4095 + b"\n")
        except BlockingIOError:
            pass
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and "pipe_write" not in open(f"/proc/{judge.pid}/wchan").read():
            time.sleep(0.01)
        judge.send_signal(signal.SIGINT)
        while judge.poll() is None:
            try:
                seen += os.read(transcript, 65536)
            except BlockingIOError:
                time.sleep(0.01)
    finally:
        out, err = judge.communicate(timeout=30)
        os.close(transcript)
    told = seen.split(b"\n").count(b"> ganaste")
    assert told >= 2 and judge.returncode == 130, err
    assert out.startswith(f"{told} games") and f"(azul): +{told} " in out, out + err
    games = records(path)
    assert len(games) == told
    assert all(game["winner"] == "azul" and game["moves"] == [0, 1, 0, 1, 0] for game in games)


def limited(resource_kind, limit):
    """A preexec_fn that caps one of the judge's resources: the soft limit,
    which the seats' sandbox may set anew for the players it starts."""
    return lambda: resource.setrlimit(resource_kind, (limit, resource.getrlimit(resource_kind)[1]))


@pytest.mark.parametrize("device", ["/dev/full", "/dev/zero", "/dev/null"])
def test_a_device_as_results_is_refused_before_any_game_without_reading_it(device):
    """/dev/full once made the judge read 21.6 GB looking for the end of its
    first line; the judge here may use 2 GiB of address space at most."""
    for option in ("--results", "--resume"):
        done = run_judge([*MATCH, "--iterations", "2", option, device], timeout=60,
                         preexec_fn=limited(resource.RLIMIT_AS, 2 << 30))
        assert done.returncode == 2, done.stdout + done.stderr
        assert f"{option} {device}: not a regular file" in done.stderr and "Traceback" not in done.stderr


def test_a_results_line_over_the_bound_is_refused_naming_the_line_and_the_bound(tmp_path):
    path = tmp_path / "r.jsonl"
    a_run(path, games=2)
    with open(path, "a") as file:
        file.write("[" * (5 << 20) + "\n")
    done = refused(["--resume", str(path)], "line 4 is longer than 4 MiB")
    assert str(path) in done.stderr


def test_a_full_disk_stops_the_run_with_one_line_keeping_every_written_game_and_resume_goes_on(tmp_path):
    """A file size limit (RLIMIT_FSIZE) stands for the full disk: write()
    fails with EFBIG as it would with ENOSPC, after some whole records."""
    path = tmp_path / "r.jsonl"
    run = ["--player", f"a={RANDOM[0]}", "--player", f"b={RANDOM[0]}", "--columns", "5", "--rows", "4", "--c", "3",
           "--iterations", "40", "--seed", "3", "--quiet"]
    done = run_judge([*run, "--results", str(path)], preexec_fn=limited(resource.RLIMIT_FSIZE, 6000))
    assert done.returncode == EXIT_RESULTS_UNWRITABLE, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    kept = path.read_bytes().count(b"\n") - 1  # whole lines, the run header aside; a torn last one is not kept
    assert 0 < kept < 40
    message = [line for line in done.stderr.splitlines() if str(path) in line]
    assert len(message) == 1 and "File too large" in message[0], done.stderr
    assert f"stopped after {kept} games" in message[0] and f"--resume {path}" in message[0]
    assert done.stdout.startswith(f"{kept} games")
    resumed = run_judge(["--resume", str(path), "--quiet"])
    assert resumed.returncode == 0, resumed.stderr
    ids = [game["id"] for game in records(path)]
    assert len(ids) == 40 and len(set(ids)) == 40
