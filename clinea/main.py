"""The `clinea` command: one entry point, one sub-command per tool.

Each tool lives in its own module with its own argparse parser and a
`main(argv) -> int`; this file only lists them, so a tool is added by one
line in COMMANDS and nothing here imports a tool until it is asked for.
"""
import argparse
import importlib
import sys
from collections.abc import Callable

from clinea import __version__

COMMANDS: dict[str, tuple[str, str]] = {
    "match": ("clinea.match", "play random games in process and print the tally"),
    "train": ("clinea.training.cli", "train the greedy player's weights: grid, genetic, hillclimb, lms"),
    "reproduce": ("clinea.training.reproduce", "regenerate the reports' tables and plots into results/REPORT.md"),
    "play": ("clinea.players.registry", "run a player (random, greedy, strong, ...) on stdin/stdout"),
    "judge": ("clinea.arena.judge_command", "referee games between player programs (course judge flags), tournaments, SPRT"),
    "solve": ("clinea.solving.solve", "exact scores of positions read one per line"),
    "solved-tables": ("clinea.solving.solved_tables", "solve the empty board of every board in a range: docs/solved/ tables"),
    "check-book": ("clinea.solving.book_check", "check the shipped 7x6 opening book against the solver: a sample and strong's reads"),
    "export": ("clinea.bridges.export", "write a player as a single-file Kaggle ConnectX agent (pure Python)"),
    "analyze": ("clinea.arena.analyze", "replay judged games with the solver: every move's value, the blunders, a plot"),
    "replay": ("clinea.arena.judge_command:replay", "play one seat of a judged game again with the lines it got: its answers, stderr, verdict"),
    "view": ("clinea.arena.view", "write a results file's games as one HTML replay page, every move valued by the solver"),
    "league": ("clinea.arena.league", "run a folder of bots as a league rated against fixed baselines (Elo, 95 % intervals)"),
    "serve": ("clinea.serve.cli", "the course's tournament as a web service: uploads, a live league, grades"),
    "new-bot": ("clinea.newbot", "write a ready bot script to edit (choose(board))"),
    "signature": ("clinea.solving.signature", "one number naming every search's tree (fixed positions and node budgets)"),
}

EPILOG = """examples:
  clinea new-bot mybot.py
  clinea judge --blue_player ./mybot.py --red_player strong --iterations 10
  clinea match --games 1000 --columns 7 --rows 6
  clinea <command> --help"""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(
        prog="clinea",
        description="Write, run, judge and train bots for C en linea (generalised Connect-4).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"clinea {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, summary) in COMMANDS.items():
        # argparse formats a help with %: a summary says "95 %" as text
        commands.add_parser(name, help=summary.replace("%", "%%"), add_help=False)
    if not argv or argv[0] not in COMMANDS:
        parser.parse_args(argv or ["--help"])
        return 2
    module, _, function = COMMANDS[argv[0]][0].partition(":")
    # every tool's entry point: main(argv) -> exit status, or the function named after the colon
    tool: Callable[[list[str]], int] = getattr(importlib.import_module(module), function or "main")
    return tool(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
