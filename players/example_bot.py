#!/usr/bin/env python3
"""A complete clinea player in one function: copy this file, change `choose`.

Run it under any judge, the course's or ours:

    clinea judge --blue_player players/example_bot.py --red_player players/random

The driver reads the referee's lines, keeps the board and calls `choose` with
the current position whenever it is your move; whatever `choose` returns is
sent as your column. Anything you want to print goes to stderr.
`clinea new-bot mybot.py` writes a copy whose first line names the Python
that has clinea, so it runs anywhere without activating anything.
"""
try:
    from clinea.core import Board
    from clinea.players import run
except ImportError:  # this python lacks clinea: the .venv of the repository holding this file
    import os
    import sys

    here = os.path.dirname(os.path.realpath(__file__))
    venv_python = os.path.join(here, "..", ".venv", "bin", "python")
    if not os.path.exists(venv_python):
        raise
    os.execv(venv_python, [venv_python, *sys.argv])


def choose(board: Board) -> int:
    """Return the column (0-based) to play. `board` is a clinea.Board:
    legal_columns(), is_winning_move(col), play(col)/undo(), cell(col, row),
    columns, rows, c, p, side_to_move..."""
    legal = board.legal_columns()
    for col in legal:  # win at once when we can
        if board.is_winning_move(col):
            return col
    centre = (board.columns - 1) / 2
    return min(legal, key=lambda col: abs(col - centre))  # else stay central


if __name__ == "__main__":
    raise SystemExit(run(choose))
