"""Player options under the course judge: its parser (argparse with
`--blue_player` taking `nargs='*'` words, as in the course's c_linea.py,
written here in our own words) refuses any word starting with `-`, so every
player takes its options as bare words too. Checked with the real player
programs, started the way the course starts them."""
import argparse
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinea.players import registry
from clinea.players.driver import build_parser
from clinea.players.options import bare_words_to_options, bounded_float, bounded_int, options_to_bare_words

PLAYERS_DIR = Path(__file__).resolve().parents[1] / "players"


def course_parser() -> argparse.ArgumentParser:
    """The course judge's command line, as its c_linea.py declares it."""
    def positive(text):
        value = int(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text} is not positive")
        return value

    parser = argparse.ArgumentParser(exit_on_error=False)
    parser.add_argument("--red_player", type=str, nargs="*")
    parser.add_argument("--blue_player", type=str, nargs="*")
    for name, default in (("--columns", 7), ("--rows", 6), ("--c", 4)):
        parser.add_argument(name, type=positive, default=default)
    parser.add_argument("--p", type=int, default=21)
    parser.add_argument("--first", type=str, choices=["azul", "rojo"])
    parser.add_argument("--iterations", type=positive)
    parser.add_argument("--ui", type=bool, default=True)
    parser.add_argument("--q", type=bool, default=False)
    return parser


def through_course_parser(player_words):
    """The player's argv as the course judge would start it, or SystemExit/ArgumentError."""
    args = course_parser().parse_args(["--blue_player", *player_words, "--red_player", "x", "--ui", ""])
    return args.blue_player


def play_first_move(argv, size="5 4 3 10"):
    """Starts a player as the course judge does (Popen of exe + params), asks
    for a first move, then says salir; returns (move, stderr)."""
    done = subprocess.run(argv, input=f"azul rojo\n{size}\nvos\nperdiste\nsalir\n", capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    move, ack = done.stdout.split()
    assert ack == "listo"
    return int(move), done.stderr


def test_dashed_options_cannot_pass_the_course_judge():
    with pytest.raises((SystemExit, argparse.ArgumentError)):
        through_course_parser(["players/strong", "--time-per-move", "0.2"])


@pytest.mark.parametrize("words", [
    ["strong", "time-per-move=0.05", "verbose"],
    ["evaluator", "depth=2", "verbose"],
    ["randomized_minimax", "depth=2", "seed=5", "verbose"],
    ["alphabeta", "time_per_move=2", "tt-log2=12", "verbose"],
])
def test_bare_words_pass_the_course_judge_and_reach_the_player(words):
    name, *options = words
    argv = through_course_parser([str(PLAYERS_DIR / name), *options])
    move, stderr = play_first_move(argv)
    assert 0 <= move < 5
    assert stderr.startswith(f"{name}:") and "nodes" in stderr  # `verbose` arrived


@pytest.mark.parametrize("name,bare,dashed", [
    ("randomized_minimax", ["depth=3", "seed=11"], ["--depth", "3", "--seed", "11"]),
    ("random", ["seed=4"], ["--seed", "4"]),
    ("greedy", [f"weights={PLAYERS_DIR / 'greedy_default.json'}"], []),
    ("evaluator", ["evaluation_weights=1,1,2,3,1,24,16", "depth=3"],
     ["--depth", "3", "--evaluation-weights", "1", "1", "2", "3", "1", "24", "16"]),
])
def test_bare_words_play_as_the_dashed_options_do(name, bare, dashed):
    program = str(PLAYERS_DIR / name)
    for size in ("5 4 3 10", "9 7 5 30"):
        assert play_first_move(through_course_parser([program, *bare]), size) == \
            play_first_move([program, *dashed], size)


@pytest.mark.parametrize("word,message", [
    ("speed=3", "unknown option 'speed' in 'speed=3'"),
    ("depth=", "option depth needs a value"),
    ("depth=x", "--depth 'x' is not an integer"),
    ("verbose=1", "verbose is a switch and takes no value"),
])
def test_a_bad_bare_word_is_one_clear_error(word, message):
    done = subprocess.run([str(PLAYERS_DIR / "randomized_minimax"), word], capture_output=True, text=True,
                          input="", timeout=30)
    assert done.returncode == 2
    assert message in done.stderr.splitlines()[-1]


STRONG = build_parser(registry.load("strong"), "strong")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(
    st.tuples(st.just("--time-per-move"), st.floats(0.001, 3600).map(lambda x: f"{x:g}")),
    st.tuples(st.just("--tt-log2"), st.integers(0, 30).map(str)),
    st.tuples(st.just("--evaluation-weights"), *[st.integers(-99, 99).map(str)] * 7),
    st.tuples(st.just("--no-solve")),
    st.tuples(st.just("--verbose")),
    st.tuples(st.just("--log"), st.from_regex(r"[a-z][a-z0-9_./]{0,12}", fullmatch=True)),
), max_size=6))
def test_bare_words_mean_what_the_dashed_options_mean(groups):
    dashed = [word for group in groups for word in group]
    bare = options_to_bare_words(dashed)
    assert not any(word.startswith("-") for word in bare)
    assert STRONG.parse_args(bare_words_to_options(bare, STRONG)) == STRONG.parse_args(dashed)


@pytest.mark.parametrize("name", sorted(registry.BUILTIN))
def test_every_help_shows_the_course_judge_example_and_every_option_its_default(name, monkeypatch):
    monkeypatch.chdir(PLAYERS_DIR.parent)  # the examples' paths are the repository's
    parser = build_parser(registry.load(name), name)
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if not action.option_strings and action.required:  # a required positional has no default
            assert action.help, (name, action.dest)
            continue
        assert action.help and "default" in action.help.lower(), (name, action.option_strings)
    help_text = parser.format_help()
    assert help_text.count("example") == 1
    course_line = next(line for line in help_text.splitlines() if "c_linea.py" in line)
    words = course_line.split()
    player_words = words[words.index("--blue_player") + 1:words.index("--red_player")]
    assert player_words[0] == f"players/{name}"
    # the example passes the course's parser, and the player's own
    assert through_course_parser(player_words) == player_words
    parser.parse_args(bare_words_to_options(player_words[1:], parser))


@given(low=st.integers(-5, 5), span=st.one_of(st.none(), st.integers(0, 10)),
       value=st.one_of(st.integers(-20, 20), st.floats(-20, 20), st.just(float("nan")), st.text(max_size=4)))
def test_a_bounded_value_is_taken_in_range_and_refused_outside_naming_option_value_and_range(low, span, value):
    high = None if span is None else low + span
    for check, kind in ((bounded_int("--n", low, high), int), (bounded_float("--s", float(low), high), float)):
        text = str(value)
        try:
            number = kind(text)
        except ValueError:
            number = None
        inside = number is not None and number == number and low <= number and (high is None or number <= high)
        if inside:
            assert check(text) == number
        else:
            with pytest.raises(argparse.ArgumentTypeError) as refused:
                check(text)
            message = str(refused.value)
            option = "--n" if kind is int else "--s"
            assert message.startswith(option + " ") and "allowed" in message
            assert (f"..{high}" if high is not None else " or more") in message
