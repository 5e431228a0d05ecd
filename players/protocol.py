"""The referee protocol, player side: parsing what the judge says and
formatting what the player answers. Nothing here knows about bots or search.

See PROTOCOL.md (shared with the course judge): colours line, size line,
`vos`/`el`, then columns and result words, `salir` answered by `listo`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

COLOURS = ("azul", "rojo")
YOU_FIRST, OPPONENT_FIRST = "vos", "el"
WIN, LOSS = "ganaste", "perdiste"
# the course's written statement says "empataste", its judge sends "empataron"
DRAWS = ("empataron", "empataste")
RESULTS = (WIN, LOSS) + DRAWS
QUIT, QUIT_ACK = "salir", "listo"

_INTEGER = re.compile(r"-?[0-9]+")


class ProtocolError(Exception):
    """A line the player cannot understand at this point of the game."""

    def __init__(self, got: str, expected: str):
        super().__init__(f"got {got!r}, expected {expected}")
        self.got = got
        self.expected = expected


@dataclass(frozen=True)
class GameStart:
    my_colour: str
    opponent_colour: str
    columns: int
    rows: int
    c: int
    p: int
    i_move_first: bool


def parse_colours(line: str) -> tuple[str, str]:
    fields = line.split()
    if len(fields) != 2 or not set(fields) == set(COLOURS):
        raise ProtocolError(line, "two different colours, 'azul rojo' or 'rojo azul'")
    return fields[0], fields[1]


def parse_integer(text: str, expected: str) -> int:
    if not _INTEGER.fullmatch(text):
        raise ProtocolError(text, expected)
    return int(text)


def parse_sizes(line: str) -> tuple[int, int, int, int]:
    expected = "four integers '<columns> <rows> <c> <p>'"
    fields = line.split()
    if len(fields) != 4:
        raise ProtocolError(line, expected)
    columns, rows, c, p = (parse_integer(field, expected) for field in fields)
    return columns, rows, c, p


def parse_first(line: str) -> tuple[bool, list[int]]:
    """`vos` (I move next) or `el`, and the opening plies that may follow them.

    The plies are a clinea extension, sent only by our judge's --openings:
    0-based columns played from the empty board before the players take over.
    """
    expected = f"'{YOU_FIRST}' or '{OPPONENT_FIRST}', optionally followed by opening columns"
    fields = line.split()
    if not fields or fields[0] not in (YOU_FIRST, OPPONENT_FIRST):
        raise ProtocolError(line, expected)
    return fields[0] == YOU_FIRST, [parse_integer(field, expected) for field in fields[1:]]


def parse_move_or_result(line: str) -> int | str:
    """An opponent's column (int) or a result word (str)."""
    text = line.strip()
    if text in RESULTS:
        return text
    return parse_integer(text, "the opponent's column or a result word (" + "/".join(RESULTS) + ")")


def format_move(column: int) -> str:
    return f"{column}\n"
