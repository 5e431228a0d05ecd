"""`clinea judge` takes the course judge's command line to the letter, end
to end through judge/c_linea with real player processes: `=` forms,
argparse abbreviations, the last of a repeated option, `--q True`, the
endless match stopped by Ctrl-C, the course's transcripts, and a human
typing in the terminal."""
import os
import re
import signal
import subprocess
import time

import pytest
from judge_helpers import C_LINEA, REPO, bot, records, run_judge

from clinea.judge.abbreviations import resolve
from clinea.judge.cli import PLAYER_OPTIONS, build_parser
from clinea.players import registry

RANDOM = bot("random_bot.py")
PLAYERS = os.path.join(REPO, "players")


def test_equals_and_abbreviations_as_the_courses_argparse_reads_them(tmp_path):
    done = run_judge([f"--blue_player={RANDOM[0]}", "--red", *RANDOM, "--iter", "3", "--col", "5", "--ro", "4",
                      "--c", "3", "--fir", "azul", "--q", "True", "--results", str(tmp_path / "r.jsonl")],
                     cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    games = records(tmp_path / "r.jsonl")
    assert len(games) == 3
    for game in games:  # both seats were programs: nobody forfeited as a human would
        assert game["forfeit"] is None and game["players"] == ["azul", "rojo"]
        assert (game["columns"], game["rows"], game["c"]) == (5, 4, 3)
    assert done.stderr == ""  # --q True: no progress


def test_an_option_given_twice_keeps_the_last(tmp_path):
    done = run_judge(["--blue_player", "/no/such/program", "--red_player", *RANDOM, "--blue_player", *RANDOM,
                      "--iterations", "5", "--iterations", "2", "--rows", "9", "--rows", "3", "--quiet",
                      "--results", str(tmp_path / "r.jsonl")], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    games = records(tmp_path / "r.jsonl")
    assert len(games) == 2 and all(game["rows"] == 3 and game["forfeit"] is None for game in games)


@pytest.mark.parametrize("word,candidates", [("--r", "--ray, --red_player, --results, --resume, --rows"),
                                              ("--g", "--game-time, --games, --grace")])
def test_an_ambiguous_abbreviation_names_its_candidates(word, candidates):
    done = run_judge(["--blue_player", *RANDOM, word, "1"])
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1].endswith(f"ambiguous option {word}: could be {candidates}")


def test_without_iterations_it_plays_until_ctrl_c_then_prints_the_tally(tmp_path):
    results = tmp_path / "r.jsonl"
    judge = subprocess.Popen([C_LINEA, "--blue_player", *RANDOM, "--red_player", *RANDOM, "--q", "true",
                              "--results", str(results)], cwd=tmp_path, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (results.exists() and results.read_text().count("\n") > 20):
        time.sleep(0.05)
    judge.send_signal(signal.SIGINT)
    out, err = judge.communicate(timeout=30)
    assert judge.returncode == 130
    played = len(records(results))
    assert played >= 20  # the file held more than 20 lines, one of them the run header
    tallied = int(out.split(" games\n")[0])
    assert tallied == played and "(azul): +" in out
    assert "Traceback" not in err


def course_match(tmp_path, *options) -> tuple[list[dict], dict[str, str]]:
    """A match of random bots on 4x3 (c 3, p 6) run in tmp_path: its games,
    and the text of each colour's course transcript."""
    done = run_judge(["--blue_player", *RANDOM, "--red_player", *RANDOM, "--columns", "4", "--rows", "3", "--c", "3",
                      "--p", "6", "--quiet", "--results", str(tmp_path / "r.jsonl"), *options], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return records(tmp_path / "r.jsonl"), {colour: (tmp_path / "log" / f"player_communicator_{colour}.log").read_text()
                                           for colour in ("azul", "rojo")}


def test_the_course_transcripts_are_written_in_its_words(tmp_path):
    games, texts = course_match(tmp_path, "--iterations", "2", "--first", "rojo")
    for colour, other in (("azul", "rojo"), ("rojo", "azul")):
        text = texts[colour]
        blocks = text.split("/*************** Nueva partida *****************/")[1:]
        assert len(blocks) == 2
        for block, game in zip(blocks, games):
            assert (f"columnas: 4\nfilas: 3\nc: 3\np: 6\ncolor: {colour}\ncolor del oponente: {other}\n"
                     f"vas primero: {colour == 'rojo'}\n") in block
            sent = re.findall(r"^envio <type '(\w+)'>: (.*)$", block, re.M)
            received = re.findall(r"^recibo <type 'str'>: (.*)$", block, re.M)
            assert sent[:3] == [("str", f"{colour} {other}"), ("str", "4 3 3 6"), ("str", "vos" if colour == "rojo" else "el")]
            mine = game["moves"][0 if colour == "rojo" else 1::2]
            theirs = game["moves"][1 if colour == "rojo" else 0::2]
            assert [int(m) for m in received if m != "listo"] == mine
            columns_sent = [int(value) for kind, value in sent if kind == "int"]
            assert columns_sent == theirs[:len(columns_sent)] and len(theirs) - len(columns_sent) in (0, 1)
        assert text.rstrip().endswith("envio <type 'str'>: salir\nrecibo <type 'str'>: listo")


@pytest.mark.parametrize("program, option, bare", [
    ([os.path.join(PLAYERS, "strong")], ["--time-per-move", "0.5"], "time-per-move=0.5"),
    ([os.path.join(PLAYERS, "random")], ["--seed=3"], "seed=3"),
    (["strong"], ["--time", "0.5"], "time-per-move=0.5"),
    (RANDOM, ["--seed", "3"], None),
    (RANDOM, ["--log", "x.log"], None),
    ([os.path.join(PLAYERS, "greedy")], ["--log", "x.log"], "log=x.log"),
])
def test_a_judge_option_right_after_a_program_that_may_take_it_is_refused_showing_both_readings(program, option,
                                                                                               bare):
    """The course's parser refuses any option after a program; ours used to
    take `--time-per-move` for itself, and strong then played at its own
    default of 1 s against a clock of 0.5 s."""
    done = run_judge(["--blue_player", *program, *option, "--red_player", *RANDOM, "--iterations", "1"])
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stdout + done.stderr
    error = done.stderr.splitlines()[-1]
    given = " ".join(program + option)
    assert f"--blue_player {given}: " in error
    assert f"""--blue_player "{given}\"""" in error  # the quoted form, for the program
    assert (f"--blue_player {' '.join(program)} {bare}" in error) == (bare is not None)  # the bare word
    assert "before --blue_player" in error  # for the judge


def test_the_player_options_the_judge_refuses_after_a_foreign_program_are_those_of_clinea_players():
    """Every long option of a built-in player that the judge would read as
    its own (exactly, or as an abbreviation of one of its options)."""
    judge = build_parser()
    taken = {name for player in registry.BUILTIN for name in registry.player_options(player)
             if resolve(name, judge._option_string_actions) not in (None, "--help")}
    assert taken == set(PLAYER_OPTIONS)


@pytest.mark.parametrize("args", [
    ["--time-per-move", "5", "--blue_player", os.path.join(PLAYERS, "strong"), "--red_player", *RANDOM],
    ["--blue_player", *RANDOM, "--concurrency", "1", "--red_player", *RANDOM],
    ["--blue_player", os.path.join(PLAYERS, "greedy"), "--time-per-move", "5", "--red_player", *RANDOM],
    ["--blue_player", os.path.join(PLAYERS, "strong"), "--red_player", *RANDOM, "--iterations", "1",
     "--time-per-move", "5"],
])
def test_a_judge_option_the_program_cannot_take_or_that_follows_a_course_option_is_the_judges(args):
    done = run_judge([*args, "--columns", "4", "--rows", "4", "--c", "3", "--iterations", "1", "--q", "true"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("1 games")


def test_a_program_path_with_blanks_given_as_one_word_stays_one_word(tmp_path):
    """The course's judge runs Popen([player] + params): one word is one path."""
    folder = tmp_path / "my bots"
    folder.mkdir()
    program = folder / "random bot"
    program.write_text(f"#!/bin/sh\nexec {RANDOM[0]} \"$@\"\n")
    program.chmod(0o755)
    results = tmp_path / "r.jsonl"
    done = run_judge(["--blue_player", str(program), "--red_player", str(program), "7", "--columns", "4",
                      "--rows", "4", "--c", "3", "--iterations", "2", "--q", "true", "--results", str(results)])
    assert done.returncode == 0, done.stderr
    assert len(records(results)) == 2


def test_with_two_tables_the_course_transcripts_are_written_too_each_game_whole(tmp_path):
    games, texts = course_match(tmp_path, "--iterations", "8", "--concurrency", "2")
    assert sorted(os.listdir(tmp_path / "log")) == ["player_communicator_azul.log", "player_communicator_rojo.log"]
    for colour, text in texts.items():
        blocks = text.split("/*************** Nueva partida *****************/")[1:]
        seen = sorted(tuple(int(m) for m in re.findall(r"^recibo <type 'str'>: (\d+)$", block, re.M))
                      for block in blocks)
        # each game's answers together in its block, whichever table played it
        played = sorted(tuple(game["moves"][game["colours"].index(colour)::2]) for game in games)
        assert seen == played


# --------------------------------------------------------------- a human

def human_game(tmp_path, typed, extra=()):
    """rojo is a human typing `typed`; azul plays the leftmost free column."""
    return run_judge(["--blue_player", *bot("first_legal.py"), "--first", "rojo", "--columns", "4", "--rows", "3",
                      "--c", "3", "--p", "6", "--results", str(tmp_path / "r.jsonl"), *extra], input=typed,
                     cwd=tmp_path)


def test_a_human_gets_a_message_for_each_kind_of_bad_input(tmp_path):
    # azul always answers in the leftmost free column; rojo fills column 0 first
    typed = "9\n-1\nx\n3.5\n\n0\n0\n0\n3\n3\n3\n"
    done = human_game(tmp_path, typed, ["--iterations", "1"])
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for message in ("column 9 is out of range: type a column, 0..3",
                    "column -1 is out of range: type a column, 0..3",
                    "'x' is not a column number: type a column, 0..3",
                    "'3.5' is not a column number: type a column, 0..3",
                    "empty line: type a column, 0..3",
                    "column 0 is full: play one of [1, 2, 3]"):
        assert out.count(message) == 1, message
    (game,) = records(tmp_path / "r.jsonl")
    assert game["moves"][:4] == [0, 0, 0, 1]  # rojo 0, azul 0, rojo 0, azul 1 (0 is full)
    # every move announced, the board drawn once at the start and once per move: the last is the final board
    assert out.count(" plays ") == len(game["moves"])
    assert out.count("0 1 2 3\n") == len(game["moves"]) + 1
    assert re.search(r"rojo \(rojo\): (you won|you lost|a draw)", out)
    assert "game 0: " in out


def test_ctrl_d_ends_the_match_cleanly_with_the_tally(tmp_path):
    done = human_game(tmp_path, "1\n")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == ["stopped: rojo (rojo) closed the input"]
    assert "\n0 games\n" in done.stdout  # the tally of the finished games: none
    assert "None" not in done.stdout and "garbage" not in done.stdout
    assert records(tmp_path / "r.jsonl") == []

