"""What a newcomer meets first, as issue 46 found it: each slip of a new
user (a bot named without ./, a missing file, a file where a folder is
expected) gets one line that says what is wrong, with a non-zero status
and no traceback; and the programs the README names start by their names."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clinea import Board
from clinea.bridges.engine import Engine, Limits

REPO = Path(__file__).resolve().parents[1]
CLINEA = [sys.executable, "-m", "clinea"]


def clinea(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*CLINEA, *args], cwd=cwd, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


def one_clear_line(run: subprocess.CompletedProcess, *wanted: str) -> None:
    assert run.returncode != 0, run.stdout
    assert "Traceback" not in run.stderr, run.stderr
    last = run.stderr.strip().splitlines()[-1]
    for text in wanted:
        assert text in last, run.stderr


@pytest.fixture
def folder_with_a_bot(tmp_path):
    assert clinea("new-bot", "mybot.py", cwd=tmp_path).returncode == 0
    return tmp_path


def test_a_bot_named_without_dot_slash_is_told_the_name_that_works(folder_with_a_bot):
    run = subprocess.run([str(REPO / "judge" / "c_linea"), "--blue_player", "mybot.py", "--red_player", "random",
                          "--iterations", "1"], cwd=folder_with_a_bot, capture_output=True, text=True, timeout=60)
    one_clear_line(run, "'mybot.py'", "did you mean ./mybot.py?")


def test_view_of_a_missing_file_says_no_such_file(tmp_path):
    one_clear_line(clinea("view", "missing.jsonl", cwd=tmp_path), "missing.jsonl", "no such file")


@pytest.mark.parametrize("content", ['{"a": 1}\n', "hello\n"], ids=["json", "text"])
def test_analyze_of_a_file_that_is_not_a_results_file_is_refused(tmp_path, content):
    (tmp_path / "notes.jsonl").write_text(content)
    one_clear_line(clinea("analyze", "notes.jsonl", cwd=tmp_path), "notes.jsonl")


def test_analyze_plot_says_the_file_it_wrote(tmp_path):
    run = clinea("analyze", "4453", "--plot", "adir", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    written = [path.name for path in tmp_path.iterdir()]
    assert written == ["adir.png"]
    assert "wrote adir.png" in run.stderr


def test_league_given_a_bot_file_says_it_is_a_file(folder_with_a_bot):
    one_clear_line(clinea("league", "mybot.py", cwd=folder_with_a_bot), "mybot.py", "a file, not a folder")


def test_kaggle_player_with_a_missing_file_says_no_such_file(tmp_path):
    one_clear_line(clinea("play", "kaggle", "my_submission.py", cwd=tmp_path), "my_submission.py", "no such file")


def test_the_kaggle_launcher_without_an_agent_plays_one(tmp_path):
    """Every other players/ launcher plays with no argument: kaggle too."""
    lines = "azul rojo\n7 6 4 21\nvos\n"
    run = subprocess.run([*CLINEA, "play", "kaggle"], input=lines, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() and 0 <= int(run.stdout.split()[0]) < 7


def test_engine_popen_takes_a_registered_name_as_the_judge_does():
    with Engine.popen("random --seed 1") as engine:
        result = engine.play(Board(7, 6, c=4, p=21), Limits(time=5))
    assert result.ok and result.column in range(7), result


def test_the_files_a_run_writes_are_ignored_by_git(tmp_path):
    for name in ("run.jsonl", "run.jsonl.key"):
        ignored = subprocess.run(["git", "check-ignore", "-q", name], cwd=REPO)
        assert ignored.returncode == 0, name


def test_the_course_tally_names_the_players_with_their_colours(folder_with_a_bot):
    run = subprocess.run([str(REPO / "judge" / "c_linea"), "--blue_player", "./mybot.py", "--red_player",
                          str(REPO / "players" / "random"), "--iterations", "2"],
                         cwd=folder_with_a_bot, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "mybot (azul): " in run.stdout and "random (rojo): " in run.stdout, run.stdout
    assert "mybot (azul) vs random (rojo)" in run.stdout, run.stdout


def test_the_course_tally_tells_two_copies_of_one_program_by_colour(tmp_path):
    random = str(REPO / "players" / "random")
    run = subprocess.run([str(REPO / "judge" / "c_linea"), "--blue_player", random, "--red_player", random,
                          "--iterations", "2", "--results", "run.jsonl"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "random (azul): " in run.stdout and "random (rojo): " in run.stdout, run.stdout
    # the results file keeps the colours as the players' names: --resume and replay read them
    assert all(set(json.loads(line)["players"]) <= {"azul", "rojo"}
               for line in (tmp_path / "run.jsonl").read_text().splitlines()[1:])
    assert os.path.exists(tmp_path / "log" / "player_communicator_azul.log")


def test_a_missing_player_launcher_says_how_to_get_it(tmp_path):
    """players/kaggle is written by make once its extra is installed: a
    checkout without it says so, and that the name alone works too."""
    (tmp_path / "players").mkdir()
    run = subprocess.run([str(REPO / "judge" / "c_linea"), "--blue_player", "players/kaggle", "--red_player", "random",
                          "--iterations", "1"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    one_clear_line(run, "'players/kaggle'", "make", "--blue_player kaggle")


def test_the_page_of_a_course_match_names_the_programs_with_their_colours(folder_with_a_bot):
    from clinea.arena.view import load_games, page_data
    run = subprocess.run([str(REPO / "judge" / "c_linea"), "--blue_player", "./mybot.py", "--red_player",
                          str(REPO / "players" / "random"), "--iterations", "1", "--results", "run.jsonl"],
                         cwd=folder_with_a_bot, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    header, records = load_games(str(folder_with_a_bot / "run.jsonl"))
    data = page_data("run.jsonl", header, records, 0.001)
    assert sorted(data["names"]) == ["mybot (azul)", "random (rojo)"]


def test_analyze_of_a_course_match_names_the_programs_with_their_colours(folder_with_a_bot):
    run = subprocess.run([str(REPO / "judge" / "c_linea"), "--blue_player", "./mybot.py", "--red_player",
                          str(REPO / "players" / "random"), "--iterations", "1", "--results", "run.jsonl"],
                         cwd=folder_with_a_bot, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    analysed = clinea("analyze", "run.jsonl", "--quiet", cwd=folder_with_a_bot)
    assert analysed.returncode == 0, analysed.stderr
    assert "mybot (azul)" in analysed.stdout and "random (rojo)" in analysed.stdout, analysed.stdout
