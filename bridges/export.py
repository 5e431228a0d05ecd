"""`clinea export kaggle [NAME] -o main.py`: a single-file Kaggle ConnectX
submission (pure Python, no compiled extension, as Kaggle's rules ask), and
`clinea export kaggle --check main.py`, which plays it in Kaggle's own
environment in an interpreter without clinea.

`best` (the default) is the strongest play pure Python allows in ConnectX's
2 s a move: `clinea.bridges.kaggle_agent_best` (iterative-deepening
alpha-beta on bitboards under its own clock) with the 7x6 opening book
computed by clinea's solver (`kaggle_book`) embedded. `random` and
`alphabeta` (exact, the same moves as the player; only small boards) are
the players a pure-Python file reproduces exactly. The others (strong,
evaluator, greedy, ...) run on the compiled core and are refused.
"""
from __future__ import annotations

import argparse
import importlib.resources
import os
import sys

from clinea import __version__
from clinea.bridges.kaggle_book import stored_book
from clinea.bridges.kaggle_check import failed, play_episodes, summary
from clinea.players.options import command_parser

EXPORTABLE = {
    "best": "kaggle_agent_best.py",
    "random": "kaggle_agent_random.py",
    "alphabeta": "kaggle_agent_alphabeta.py",
}


#: the lines of kaggle_agent_best.py that the export fills with the book
BOOK_LINES = ('BOOK_7X6 = ""\n', "BOOK_PLIES = 0\n")
#: the line of kaggle_agent_best.py that --overage-reserve sets
RESERVE_LINE = "BANK_RESERVE = 60.0"
OVERAGE_BANK = 60.0  # ConnectX's remainingOverageTime at the start of an episode


def agent_source(name: str, overage_reserve: float | None = None) -> str:
    """The submission file of player `name` (`best` with its book embedded,
    and `overage_reserve` seconds of the overage bank it never spends)."""
    template = importlib.resources.files("clinea.bridges").joinpath(EXPORTABLE[name]).read_text("utf-8")
    if name == "best":
        plies, encoded = stored_book()
        if not all(template.count(line) == 1 for line in BOOK_LINES):
            raise ValueError(f"{EXPORTABLE[name]} lacks its book lines {BOOK_LINES}")
        chunks = "\n".join(f'    "{encoded[i:i + 96]}"' for i in range(0, len(encoded), 96))
        template = template.replace(BOOK_LINES[0], f"BOOK_7X6 = (\n{chunks}\n)\n")
        template = template.replace(BOOK_LINES[1], f"BOOK_PLIES = {plies}\n")
        if overage_reserve is not None:
            if template.count(RESERVE_LINE) != 1:
                raise ValueError(f"{EXPORTABLE[name]} lacks its line {RESERVE_LINE!r}")
            template = template.replace(RESERVE_LINE, f"BANK_RESERVE = {float(overage_reserve)!r}")
    return f"# exported by clinea {__version__}: clinea export kaggle {name}\n" + template


def board_size(text: str) -> dict[str, int]:
    """"COLUMNSxROWSxINAROW" as a ConnectX configuration."""
    parts = text.lower().split("x")
    if len(parts) != 3 or not all(part.isdigit() and int(part) >= 1 for part in parts):
        raise argparse.ArgumentTypeError(f"{text!r} is not COLUMNSxROWSxINAROW with each at least 1 (e.g. 7x6x4)")
    columns, rows, inarow = map(int, parts)
    return {"columns": columns, "rows": rows, "inarow": inarow}


def check(args: argparse.Namespace) -> int:
    """Plays the file in Kaggle's environment in a clean interpreter and
    prints the figures; 1 when any game ended in an error or a timeout."""
    if not os.path.isfile(args.check):
        print(f"clinea export: --check {args.check}: no such file", file=sys.stderr)
        return 2
    episodes = []
    for configuration in args.board or [board_size("7x6x4"), board_size("9x8x5")]:
        try:
            episodes += play_episodes(os.path.abspath(args.check), configuration, args.opponent, [0, 1],
                                      args.episodes)
        except RuntimeError as error:
            print(f"clinea export: --check {args.check}: {error}", file=sys.stderr)
            return 1
    for line in summary(episodes):
        print(line)
    return 1 if failed(episodes) else 0


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("clinea export",
                            "Write a clinea player as a single-file Kaggle ConnectX agent (pure Python).",
                            "players: " + ", ".join(EXPORTABLE) + " (the others need the compiled core)\n"
                            "examples:\n  clinea export kaggle -o main.py\n"
                            "  clinea export kaggle --check main.py --board 7x6x4 --opponent negamax --episodes 2\n"
                            "  python -c \"from kaggle_environments import evaluate; "
                            "print(evaluate('connectx', ['main.py', 'random'], {'rows': 4, 'columns': 5, 'inarow': 3}))\"")
    parser.add_argument("target", choices=["kaggle"], help="where the agent goes: kaggle (ConnectX)")
    parser.add_argument("player", nargs="?", default="best",
                        help="the player to export: " + ", ".join(EXPORTABLE) + " (default best)")
    parser.add_argument("-o", "--output", default="main.py", help="the file to write (default main.py)")
    parser.add_argument("--force", action="store_true", help="overwrite an existing file")
    parser.add_argument("--overage-reserve", type=float, metavar="SECONDS",
                        help=f"best: overage seconds never spent (default {OVERAGE_BANK:g}, all of the bank: every "
                             "move within actTimeout, the bank kept for Kaggle's hiccups; less lets a move whose best "
                             "column keeps changing draw on the rest, at most 4 s a move)")
    parser.add_argument("--check", metavar="FILE", help="instead of writing, play FILE in Kaggle's ConnectX "
                        "(needs clinea[kaggle]) in an interpreter without clinea; report errors, timeouts, times")
    parser.add_argument("--board", action="append", type=board_size, metavar="CxRxN",
                        help="with --check: a board to play on, repeatable (default 7x6x4 and 9x8x5)")
    parser.add_argument("--opponent", default="negamax",
                        help="with --check: Kaggle's agent to play (negamax, random) or a file (default negamax)")
    parser.add_argument("--episodes", type=int, default=1,
                        help="with --check: games per board and seat (default 1)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.episodes < 1:
        parser.error(f"--episodes {args.episodes} is out of range: allowed 1 or more")
    if args.overage_reserve is not None and not 0 <= args.overage_reserve <= OVERAGE_BANK:
        parser.error(f"--overage-reserve {args.overage_reserve} is out of range: allowed 0..{OVERAGE_BANK:g}")
    if args.check:
        return check(args)
    if args.player not in EXPORTABLE:
        print(f"clinea export: {args.player!r} cannot be exported as pure Python: allowed "
              f"{', '.join(EXPORTABLE)} (the others need the compiled core)", file=sys.stderr)
        return 2
    if os.path.exists(args.output) and not args.force:
        print(f"clinea export: {args.output} exists (use --force to overwrite it)", file=sys.stderr)
        return 2
    try:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(agent_source(args.player, args.overage_reserve))
    except OSError as error:
        print(f"clinea export: cannot write {args.output}: {error.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {args.output}: clinea's {args.player} as a ConnectX agent")
    return 0
