"""Every registered player as a real process: complete matches under the
protocol on several sizes, --help, and malformed input."""
import subprocess
import time
from pathlib import Path

import pytest
from fast_options import FAST_OPTIONS
from protocol_referee import GameSpec, play_match

from clinea.players.registry import BUILTIN

REPO = Path(__file__).resolve().parents[1]
PLAYERS_DIR = REPO / "players"

# Exact searchers cannot finish an early position of most games in test time: they play
# whole games on tiny boards, and every other board from a random opening
# (our judge's extension) that leaves them this many moves.
EXACT_MOVES_LEFT = {"minimax": 6, "alphabeta": 12}

BOARDS = [(7, 6, 4, 21), (5, 4, 3, 10), (9, 8, 5, 36), (10, 9, 4, 45), (7, 6, 4, 5)]
SMALL_BOARDS = [(3, 3, 3, 5), (4, 3, 3, 6), (4, 4, 3, 3)]


def games_for(name):
    if name in EXACT_MOVES_LEFT:
        return ([GameSpec(*board, first) for board in SMALL_BOARDS for first in (True, False)]
                + [GameSpec(*board, first, EXACT_MOVES_LEFT[name]) for board in BOARDS for first in (True, False)])
    return [GameSpec(*board, player_first) for board in BOARDS for player_first in (True, False)]


def test_openings_reach_every_player_as_the_judge_sends_them():
    report = play_match([str(PLAYERS_DIR / "random")], [GameSpec(7, 6, 4, 21, True, 10),
                                                         GameSpec(7, 6, 4, 21, False, 9)])
    assert report.exit_code == 0
    # the games went on from the openings: 32 and 33 plies, then at least one move
    assert [game.moves > plies for game, plies in zip(report.games, (32, 33))] == [True, True]


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_executable_plays_complete_matches(name):
    report = play_match([str(PLAYERS_DIR / name), *FAST_OPTIONS.get(name, [])], games_for(name), seed=len(name))
    assert report.exit_code == 0
    assert len(report.results) == len(games_for(name))


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_help_has_an_example(name):
    result = subprocess.run([str(PLAYERS_DIR / name), "--help"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0 and "example" in result.stdout


@pytest.mark.parametrize("name", sorted(BUILTIN))
@pytest.mark.parametrize("garbage", [
    "azul\n",
    "azul rojo\n7 6 4\n",
    "azul rojo\n7 6 4 21\nquizas\n",
    "azul rojo\n7 6 4 21\nel\n9\n",
    "azul rojo\n0 6 4 21\nel\n",
])
def test_garbage_exits_2_with_one_stderr_line(name, garbage):
    result = subprocess.run([str(PLAYERS_DIR / name), *FAST_OPTIONS.get(name, [])], input=garbage,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "protocol error" in result.stderr
    assert all(line.isdigit() for line in result.stdout.splitlines())


def test_bytes_that_are_not_utf8_are_a_protocol_error():
    result = subprocess.run([str(PLAYERS_DIR / "random")], input=b"azul rojo\n7 6 4 21\nel\n\xff\xfe3\n",
                            capture_output=True, timeout=30)
    assert result.returncode == 2
    assert result.stderr.count(b"\n") == 1 and b"protocol error" in result.stderr and b"Traceback" not in result.stderr


def test_lines_cut_across_writes_are_read_whole():
    player = subprocess.Popen([str(PLAYERS_DIR / "random"), "--seed", "3"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for piece in (b"azul ro", b"jo\n7 6 4 2", b"1\nv", b"os\n"):
        player.stdin.write(piece)
        player.stdin.flush()
        time.sleep(0.05)  # each piece reaches the player on its own
    assert player.stdout.readline().strip().isdigit()
    out, err = player.communicate(b"perdiste\nsalir\n", timeout=30)
    assert (player.returncode, out, err) == (0, b"listo\n", b"")


def test_end_of_input_exits_quietly():
    result = subprocess.run([str(PLAYERS_DIR / "random")], input="azul rojo\n7 6 4 21\nel\n3\n",
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0 and result.stderr == "" and result.stdout.strip().isdigit()


def test_example_bot_is_a_complete_player():
    report = play_match([str(PLAYERS_DIR / "example_bot.py")], games_for("example"), seed=5)
    assert report.exit_code == 0
    # it takes every win in one, so it beats random more often than not
    assert report.results.count("win") > report.results.count("loss")


def test_installed_commands_and_clinea_play_reach_the_same_player():
    for argv in (["clinea-random", "--seed", "3"], ["clinea", "play", "random", "--seed", "3"]):
        report = play_match([str(Path(__import__("sys").executable).parent / argv[0]), *argv[1:]],
                            games_for("random")[:2])
        assert report.exit_code == 0


def test_alphabeta_wins_every_standard_game_it_opens():
    # The first player wins 7x6 with perfect play, and through the solver's
    # opening book alphabeta is perfect from the first move: random never
    # escapes, whatever it plays.
    games = [GameSpec(7, 6, 4, 21, True) for _ in range(4)]
    report = play_match([str(PLAYERS_DIR / "alphabeta")], games, seed=11)
    assert report.exit_code == 0
    assert report.results == ["win"] * 4
