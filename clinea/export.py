"""`clinea export kaggle NAME -o main.py`: a clinea player as a single-file
Kaggle ConnectX submission (pure Python, no compiled extension, as Kaggle's
rules ask).

Only players whose pure-Python file plays exactly as the player does are
exported: `random`, and `alphabeta` (exact, so its moves are the player's;
practical on small boards, and on 7x6 only late in a game). The others
(strong, evaluator, greedy, ...) run on the compiled core, and strong on the
7x6 opening book; a pure-Python copy would be a second, slower player under
the same name, so they are refused.
"""
from __future__ import annotations

import argparse
import importlib.resources
import os
import sys

from clinea import __version__

EXPORTABLE = {
    "random": "kaggle_agent_random.py",
    "alphabeta": "kaggle_agent_alphabeta.py",
}


def agent_source(name: str) -> str:
    """The submission file of player `name`."""
    template = importlib.resources.files("clinea.integrations").joinpath(EXPORTABLE[name]).read_text("utf-8")
    return f"# exported by clinea {__version__}: clinea export kaggle {name}\n" + template


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="clinea export",
        description="Write a clinea player as a single-file Kaggle ConnectX agent (pure Python).",
        epilog="players: " + ", ".join(EXPORTABLE) + " (the others need the compiled core)\n"
               "example:\n  clinea export kaggle alphabeta -o main.py\n"
               "  python -c \"from kaggle_environments import evaluate; "
               "print(evaluate('connectx', ['main.py', 'random'], {'rows': 4, 'columns': 5, 'inarow': 3}))\"",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("target", choices=["kaggle"], help="where the agent goes: kaggle (ConnectX)")
    parser.add_argument("player", help="the player to export: " + ", ".join(EXPORTABLE))
    parser.add_argument("-o", "--output", default="main.py", help="the file to write (default main.py)")
    parser.add_argument("--force", action="store_true", help="overwrite an existing file")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.player not in EXPORTABLE:
        print(f"clinea export: {args.player!r} cannot be exported as pure Python: allowed "
              f"{', '.join(EXPORTABLE)} (the others need the compiled core)", file=sys.stderr)
        return 2
    if os.path.exists(args.output) and not args.force:
        print(f"clinea export: {args.output} exists (use --force to overwrite it)", file=sys.stderr)
        return 2
    try:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(agent_source(args.player))
    except OSError as error:
        print(f"clinea export: cannot write {args.output}: {error.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {args.output}: clinea's {args.player} as a ConnectX agent")
    return 0
