"""The referee protocol, both sides of the wire: the words, the lines the
judge sends, and the parsing of every line either side receives. The judge
(clinea.judge) and the player driver (clinea.players.driver) both read
numbers through `parse_integer`, so what one accepts the other accepts too.

See docs/PROTOCOL.md: colours line, size line, `vos`/`el`, then columns and
result words, `salir` answered by `listo`.
"""
from __future__ import annotations

import re

from clinea.core import MAX_SIDE

COLOURS = ("azul", "rojo")
YOU_FIRST, OPPONENT_FIRST = "vos", "el"
WIN, LOSS, DRAW = "ganaste", "perdiste", "empataron"
# the course's written statement says "empataste", its judge sends "empataron"
DRAWS = (DRAW, "empataste")
RESULTS = (WIN, LOSS) + DRAWS
QUIT, QUIT_ACK = "salir", "listo"

# What the course judge's int() reads, minus Python's extras ("1_0", "٣"):
# an optional sign and ASCII digits. More digits than MAX_DIGITS name no
# column or size (and int() of thousands of digits raises), so such a number
# is refused before it is converted.
_INTEGER = re.compile(r"[+-]?[0-9]+")
MAX_DIGITS = 18
# An error message quotes at most this many characters of the offending line.
QUOTE_LIMIT = 200


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` as repr() shows it, cut to `limit` characters with the full
    length said, so a 10 MB line makes a short error message."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


class ProtocolError(Exception):
    """A line that cannot be understood at this point of the game."""

    def __init__(self, got: str, expected: str):
        super().__init__(f"got {quote(got)}, expected {expected}")
        self.got = got
        self.expected = expected


def parse_integer(text: str, expected: str) -> int:
    """The integer `text` spells (surrounding blanks allowed), or ProtocolError."""
    text = text.strip()
    if not _INTEGER.fullmatch(text):
        raise ProtocolError(text, expected)
    if len(text.lstrip("+-")) > MAX_DIGITS:
        raise ProtocolError(text, f"{expected} of at most {MAX_DIGITS} digits")
    return int(text)


def parse_colours(line: str) -> tuple[str, str]:
    fields = line.split()
    if len(fields) != 2 or not set(fields) == set(COLOURS):
        raise ProtocolError(line, "two different colours, 'azul rojo' or 'rojo azul'")
    return fields[0], fields[1]


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


# Column lines as an honest judge or player writes them (COLUMN_LINES[k]
# names column k), looked up before any parsing: both sides read one per
# move, and the judge's relay (clinea.core.relay) reads only these itself.
COLUMN_LINES = tuple(str(column).encode() for column in range(MAX_SIDE))
_COLUMNS = {line.decode(): column for column, line in enumerate(COLUMN_LINES)}


def parse_move_or_result(line: str) -> int | str:
    """An opponent's column (int) or a result word (str): what a player reads."""
    column = _COLUMNS.get(line)
    if column is not None:
        return column
    text = line.strip()
    if text in RESULTS:
        return text
    return parse_integer(text, "the opponent's column or a result word (" + "/".join(RESULTS) + ")")


def parse_answer(line: str) -> int:
    """A player's column, as the judge reads it (legality is the board's business)."""
    column = _COLUMNS.get(line)
    if column is not None:
        return column
    if not line.strip():
        raise ProtocolError(line, "a column (an integer), not an empty line")
    return parse_integer(line, "a column (an integer)")


def colours_line(colour: str) -> str:
    """The first line of a game for the player of `colour`."""
    return f"{colour} {COLOURS[1 - COLOURS.index(colour)]}"


def sizes_line(columns: int, rows: int, c: int, p: int) -> str:
    return f"{columns} {rows} {c} {p}"


def first_line(my_turn: bool, opening: list[int]) -> str:
    """The third line of a game: `vos` or `el`, followed by the opening plies
    when the game starts from one (a clinea extension, only ever sent with
    --openings, so course players never see it)."""
    return " ".join([YOU_FIRST if my_turn else OPPONENT_FIRST, *map(str, opening)])


def format_move(column: int) -> str:
    return f"{column}\n"
