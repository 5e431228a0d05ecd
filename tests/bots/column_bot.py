#!/usr/bin/env python3
"""Plays `column_bot.py COLUMN` (0-based) while it is legal, else the first
legal column: two of them on free columns make the same game every time
(with --first azul and c = 3, azul's third move connects)."""
import sys

from protocol import run

COLUMN = int(sys.argv[1])


def answer(game):
    if game.heights[COLUMN] < game.rows:
        return COLUMN
    return next(col for col in range(game.columns) if game.heights[col] < game.rows)


run(answer)
