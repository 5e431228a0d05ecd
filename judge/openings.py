"""Openings from a file, the engine testers' way: one opening a line, each
played twice with the colours swapped.

A line holds 1-based columns in the notation of the standard test files
and `Board.from_string`: digits (`4453`) or, on boards wider than 9
columns, numbers separated by blanks or commas (`10 4 11`). Blank lines and
lines starting with `#` are skipped. Every opening is checked against the
run's rules: a column out of range, a full column, a token over the limit,
or an opening that already ends the game is an error naming the line.
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from clinea.bounded import read_text
from clinea.core import Board, Rules, parse_moves

MAX_BYTES = 16 * 1024 * 1024   # the file is read up to this, never whole whatever its size
MAX_LINE = 4096                # characters of one line
ORDERS = ("sequential", "random")


class OpeningsError(ValueError):
    """A file that gives no usable openings; the message names the line."""


def check_opening(text: str, rules: Rules) -> list[int]:
    """The 0-based columns of one opening line, legal under `rules` and
    leaving the game open. Raises ValueError saying why not."""
    moves = parse_moves(text, rules.columns)
    board = Board(*rules)
    board.play_moves(moves)
    if board.is_over():
        raise ValueError("the opening already ends the game (a win or a full board)")
    return moves


def read_openings(path: str, rules: Rules) -> list[list[int]]:
    """Every opening of the file at `path` (read with a bound), checked."""
    try:
        text = read_text(path, MAX_BYTES)
    except OSError as error:
        raise OpeningsError(f"{path}: {error.strerror or error}") from None
    except ValueError as error:  # over the bound, or not UTF-8
        raise OpeningsError(str(error)) from None
    openings = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if len(line) > MAX_LINE:
            raise OpeningsError(f"{path} line {number}: longer than {MAX_LINE} characters")
        try:
            openings.append(check_opening(line, rules))
        except ValueError as error:
            raise OpeningsError(f"{path} line {number} {line[:60]!r}: {error}") from None
    if not openings:
        raise OpeningsError(f"{path}: no opening in the file (one a line, e.g. 4453)")
    return openings


def opening_stream(book: Sequence[list[int]], order: str, rng: random.Random) -> Iterator[list[int]]:
    """The book's openings for successive game pairs, endlessly: in file
    order, or shuffled by `rng` (every opening once before any repeats)."""
    while True:
        cycle = list(book)
        if order == "random":
            rng.shuffle(cycle)
        yield from cycle
