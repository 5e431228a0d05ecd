"""Every command's --help: each option has a help line that shows its
default (required positionals aside), and there is one example heading."""
import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from clinea import match, newbot
from clinea.arena import view
from clinea.judge import cli as judge_cli
from clinea.main import COMMANDS
from clinea.players import registry
from clinea.serve import cli as serve_cli
from clinea.solving import book_check, signature, solve, solved_tables
from clinea.training import cli as training_cli

REPO = Path(__file__).resolve().parents[1]
PARSERS = {
    "judge": judge_cli.build_parser,
    "solve": solve.build_parser,
    "solved-tables": solved_tables.build_parser,
    "check-book": book_check.build_parser,
    "match": match.build_parser,
    "new-bot": newbot.build_parser,
    "play": lambda: registry.build_parser(registry.players()),
    "train": training_cli.build_parser,
    "view": view.build_parser,
    "signature": signature.build_parser,
    "serve": serve_cli.build_parser,
}


def commands(parser, name):
    """The parser and every sub-command's, by name."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, subparser in action.choices.items():
                yield from commands(subparser, f"{name} {sub}")


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_every_option_shows_its_default_and_there_is_one_example_heading(name):
    for command, parser in commands(PARSERS[name](), name):
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)) or not action.option_strings:
                continue
            assert action.help and "default" in action.help.lower(), (command, action.option_strings)
        heading = [line for line in parser.format_help().splitlines() if line.lower().startswith("example")]
        assert len(heading) == 1, (command, heading)


# What a newcomer types first, run as they would: every --help of the clinea
# command, of each sub-command, of every player and of judge/c_linea exits 0
# with an example and without a traceback.
CLINEA = [sys.executable, "-m", "clinea"]
HELP_COMMANDS = [
    CLINEA, [*CLINEA, "-h"], [*CLINEA, "--help"],
    *([*CLINEA, command, "--help"] for command in COMMANDS),
    *([*CLINEA, "play", player, "--help"] for player in registry.players()),
    [str(REPO / "judge" / "c_linea"), "--help"],
]


@pytest.mark.parametrize("command", HELP_COMMANDS, ids=" ".join)
def test_help_runs_without_a_traceback_and_shows_an_example(command):
    run = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert "Traceback" not in run.stderr + run.stdout, run.stderr
    assert run.returncode == 0, run.stderr
    shown = run.stdout + run.stderr
    assert "usage:" in shown and "example" in shown.lower(), shown


def test_the_readme_names_every_sub_command():
    readme = (REPO / "README.md").read_text()
    assert [name for name in COMMANDS if f"`{name}`" not in readme] == []
