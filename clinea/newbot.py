"""`clinea new-bot PATH`: writes a ready player script to edit.

The script is players/example_bot.py with its first line pointing at the
Python that has clinea installed, and made executable, so it runs under any
judge (the course's too) from wherever it is copied, with nothing activated.
"""
from __future__ import annotations

import argparse
import importlib.resources
import os
import stat
import sys

from clinea.players.options import command_parser


def bot_script(python: str = sys.executable) -> str:
    """The template's text, with `python` on its #! line."""
    template = importlib.resources.files("clinea.players").joinpath("example_bot.py").read_text("utf-8")
    return f"#!{python}\n" + template.split("\n", 1)[1]


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("clinea new-bot", "Write a ready, executable bot script: edit its choose(board) function.",
                            "example:\n  clinea new-bot mybot.py\n"
                            "  clinea judge --blue_player ./mybot.py --red_player players/random --iterations 10")
    parser.add_argument("path", help="the file to write (refused if it exists, unless --force)")
    parser.add_argument("--force", action="store_true", help="overwrite an existing file (default: off)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if os.path.exists(args.path) and not args.force:
        print(f"clinea new-bot: {args.path} exists (use --force to overwrite it)", file=sys.stderr)
        return 2
    try:
        with open(args.path, "w", encoding="utf-8") as out:
            out.write(bot_script())
        mode = os.stat(args.path).st_mode
        os.chmod(args.path, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    except OSError as error:
        print(f"clinea new-bot: cannot write {args.path}: {error.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {args.path}: edit choose(board), then run it under any judge, e.g.\n"
          f"  clinea judge --blue_player {os.path.join('.', args.path) if os.sep not in args.path else args.path}"
          " --red_player random --iterations 10")
    return 0
