"""`clinea replay`: a judged game's seat played again, end to end with real
processes. Every forfeit kind of the hostile suite (tests/test_hostile_bots.py)
replays to the game's verdict ten times out of ten, at the game's limits;
a replay sends exactly the lines the seat got in the game; a program that
answers otherwise is caught; an older results file (no seat settings in
its header) and a forged one are told apart."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from judge_helpers import BOTS, bot, records, run_judge, tagged_processes, transcript
from test_hostile_bots import FORFEITS

from clinea.judge.cli import main as judge_main
from clinea.judge.replay import main as replay_main
from clinea.main import main as clinea_main

# beside the misbehaviours of tests/bots/misbehave.py: the suite's other offenders
OTHER_FORFEITS = [
    ("full_column", bot("full_column.py"), [], "illegal move: column 0 is full"),
    ("out_of_range", bot("out_of_range.py"), [], "illegal move: column 7 out of range 0..6"),
    ("crash", bot("crash.py"), [], "crash: end of output, exit status 3 (crash.py: crashing on purpose)"),
    ("hang", bot("hang.py"), ["--time-per-move", "0.3"], "timeout: no answer within 0.350 s"),
    ("no_shebang", bot("no_shebang.py"), [], "crash: cannot start"),
    # out of time on a game clock of its own rather than per move: the replay keeps the clock too
    ("late_on_a_game_clock", bot("misbehave.py", "late_answer"),
     ["--tc", "late_on_a_game_clock=0.5", "--time-per-move", "0"], "timeout: "),
]
CASES = [(kind, bot("misbehave.py", kind), extra, reason) for kind, extra, reason in FORFEITS] + OTHER_FORFEITS
REPEAT = 10


def judged(tmp_path, offender, extra=(), games=1, first=("--first", "azul")):
    """A run of `games` games of `offender` (azul, first unless said
    otherwise) against the honest random bot; the results file's path."""
    results = tmp_path / "r.jsonl"
    judge_main(["--blue_player", *offender, "--red_player", *bot("random_bot.py"), *first,
                "--iterations", str(games), "--seed", "3", "--quiet", "--results", str(results), *extra])
    return results


@pytest.fixture(scope="module")
def hostile_games(tmp_path_factory):
    """{kind: (results file, its game)}: the hostile suite's offenders each
    play one game against the honest random bot, in one gauntlet per set of
    judge options (the suite's: a time per move for the ones that hang);
    c = 7 on 7x6, so that a bot stacking one column fills it before it wins."""
    by_options: dict[tuple, list] = {}
    for kind, offender, extra, _ in CASES:
        by_options.setdefault(tuple(extra), []).append((kind, offender))
    games = {}
    for number, (extra, offenders) in enumerate(by_options.items()):
        results = tmp_path_factory.mktemp(f"gauntlet{number}") / "r.jsonl"
        players = [word for kind, offender in offenders for word in ("--player", f"{kind}={offender[0]}", *offender[1:])]
        judge_main(["--player", f"honest={bot('random_bot.py')[0]}", *players, "--schedule", "gauntlet", "--c", "7",
                    "--iterations", "1", "--seed", "3", "--quiet", "--results", str(results), *extra])
        for game in records(results):
            games[game["forfeit"]] = results, game
    return games


@pytest.mark.parametrize("kind,reason", [(case[0], case[3]) for case in CASES], ids=[case[0] for case in CASES])
def test_every_forfeit_of_the_hostile_suite_replays_to_its_verdict_every_time(
        hostile_games, monkeypatch, capsys, kind, reason):
    tag = os.urandom(8).hex()
    monkeypatch.setenv("HOSTILE_TAG", tag)
    results, game = hostile_games[kind]
    assert game["reason"].startswith(reason), game
    capsys.readouterr()
    status, out = replayed(capsys, results, game["id"], "--seat", kind, "--repeat", REPEAT)
    assert f"{REPEAT}/{REPEAT} replays ended as in the game" in out, out
    assert status == 0
    verdicts = [line for line in out.splitlines() if line.startswith("replay:") or re.match(r"-- replay \d+: ", line)]
    assert len(verdicts) == REPEAT and all(reason.split(":")[0] in line for line in verdicts), verdicts
    assert f"replay:   {reason}" in out, out
    assert tagged_processes(tag) == [], "a process the replay started outlived it"


def replayed(capsys, *args):
    status = replay_main([str(arg) for arg in args])
    return status, capsys.readouterr().out


def sent_lines(lines):
    return [line[2:] for line in lines if line.startswith("> ")]


def test_the_replay_sends_the_lines_the_seat_got_in_the_game(tmp_path, capsys):
    # an honest seat: the whole game, with an opening, as its transcript in the game has it
    log_dir = tmp_path / "log"
    results = judged(tmp_path, bot("first_legal.py"), ["--openings", "3", "--log-dir", str(log_dir),
                                                        "--time-per-move", "5"], games=2, first=())
    game = records(results)[1]  # the pair's second game: rojo moves first from the opening
    assert game["opening"] and game["players"][0] == "rojo"
    capsys.readouterr()
    status, out = replayed(capsys, results, game["id"], "--seat", "azul")
    assert status == 0, out
    shown = out.split("# the judge's notes\n", 1)[1].split("\nthe game:", 1)[0].splitlines()
    in_game = transcript(log_dir, "azul")
    # the game's lines in the run's transcript: from its colours line to its result word
    starts = [i for i, line in enumerate(in_game) if line == "> azul rojo"]
    second = in_game[starts[-1]:]
    end = next(i for i, line in enumerate(second) if line in ("> ganaste", "> perdiste", "> empataron"))
    # then the game's end: the run told it salir after its last game, and so does the replay
    assert sent_lines(shown) == sent_lines(second[:end + 1]) + ["salir"]
    assert [line for line in shown if line.startswith("< ")] == [line for line in second[:end + 1]
                                                                  if line.startswith("< ")] + ["< listo"]
    assert f"the game: {game['reason']}" in out and f"replay:   {game['reason']}" in out
    assert "program:  exit status 0" in out  # told salir at the end, it answered listo and left


def test_ply_stops_the_replay_after_that_ply(tmp_path, capsys):
    results = judged(tmp_path, bot("first_legal.py"), ["--time-per-move", "5"])
    [game] = records(results)
    capsys.readouterr()
    status, out = replayed(capsys, results, game["id"], "--seat", "azul", "--ply", 3)
    assert status == 0, out
    lines = out.split("# the judge's notes\n", 1)[1].splitlines()
    # plies 1 and 3 are azul's answers, ply 2 rojo's move sent to it; nothing after
    assert [line for line in lines if line[:2] in ("> ", "< ")] == [
        "> azul rojo", "> 7 6 4 21", "> vos", f"< {game['moves'][0]}", f"> {game['moves'][1]}",
        f"< {game['moves'][2]}"]
    assert "replay:   as in the game: up to ply 3" in out
    assert "still running at the end of the replay (killed)" in out


def test_a_program_that_answers_otherwise_is_said_to_have_left_the_game(tmp_path, capsys):
    # the test bots seed their choices with the number of games their process
    # played: the second game of a warm process is not the first of a fresh one
    results = judged(tmp_path, bot("random_bot.py"), ["--time-per-move", "5"], games=2)
    games = records(results)
    capsys.readouterr()
    statuses = [replayed(capsys, results, g["id"], "--seat", "azul") for g in games]
    assert statuses[0][0] == 0, statuses[0][1]
    status, out = statuses[1]
    assert status == 1 and "replay:   left the game: azul played" in out and "(NOT as in the game)" in out, out


def test_a_header_without_seat_settings_is_read_from_its_argv(tmp_path, capsys):
    # a results file of an older clinea: no "seats" in the header, and no seals
    results = judged(tmp_path, bot("out_of_range.py"))
    lines = results.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["seats"]["commands"]["azul"] == bot("out_of_range.py")
    old = {"type": "run", "argv": header["argv"]}
    games = [{k: v for k, v in json.loads(line).items() if k != "seal"} for line in lines[1:]]
    results.write_text("\n".join(json.dumps(x) for x in [old, *games]) + "\n")
    os.remove(f"{results}.key")
    capsys.readouterr()
    status, out = replayed(capsys, results, "0")  # the seat: the one that forfeited
    assert status == 0 and "replay:   illegal move: column 7 out of range 0..6" in out, out


def test_a_forged_record_is_not_replayed(tmp_path, capsys):
    results = judged(tmp_path, bot("out_of_range.py"))
    forged = results.read_text().replace(os.path.join(BOTS, "out_of_range.py"), os.path.join(BOTS, "hang.py"))
    assert forged != results.read_text()
    results.write_text(forged)
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        replay_main([str(results), "0"])
    assert stop.value.code == 2 and "not written by the judge" in capsys.readouterr().err


@pytest.fixture(scope="module")
def one_game(tmp_path_factory):
    """A results file of one game, which azul forfeited."""
    return judged(tmp_path_factory.mktemp("one"), bot("out_of_range.py"))


@pytest.mark.parametrize("args,message", [
    (["nope", "--seat", "azul"], "no game 'nope' in it"),
    (["0", "--seat", "verde"], "--seat 'verde': game 0 was played by azul and rojo"),
    (["0", "--seat", "azul", "--ply", "0"], "--ply 0 is out of range: allowed 1..42"),
    (["0", "--repeat", "0"], "--repeat 0 is out of range: allowed 1..1000"),
])
def test_bad_arguments_are_named_with_the_allowed_values(one_game, capsys, args, message):
    with pytest.raises(SystemExit) as stop:
        replay_main([str(one_game), *args])
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_replay_is_a_clinea_command_with_an_example_in_its_help(capsys):
    with pytest.raises(SystemExit):
        clinea_main(["replay", "--help"])
    out = capsys.readouterr().out
    assert "clinea replay run.jsonl" in out and "--ply N" in out



def test_a_relative_program_is_replayed_from_any_folder(tmp_path):
    # the run's folder is in the file: the replay starts the program there, wherever it is asked from
    work, elsewhere = tmp_path / "work", tmp_path / "elsewhere"
    work.mkdir()
    elsewhere.mkdir()
    for name in ("out_of_range.py", "protocol.py"):
        shutil.copy(os.path.join(BOTS, name), work / name)
    judged = run_judge(["--blue_player", "./out_of_range.py", "--red_player", *bot("random_bot.py"), "--first", "azul",
                        "--iterations", "1", "--quiet", "--results", "r.jsonl"], cwd=work)
    assert judged.returncode == 1, judged.stderr  # the forfeit
    done = subprocess.run([sys.executable, "-m", "clinea", "replay", str(work / "r.jsonl"), "0"], cwd=elsewhere,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"azul: ./out_of_range.py (in {work})" in done.stdout
    assert "replay:   illegal move: column 7 out of range 0..6" in done.stdout
