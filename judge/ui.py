"""The terminal side of the judge: each game drawn as it is played, once per
move, with the course's colours (azul and rojo tokens), and a human seat that
types columns."""
from __future__ import annotations

import os
import sys
from typing import TextIO

from clinea.core import Board
from clinea.judge.referee import Seat
from clinea.protocol import COLOURS
from clinea.protocol import DRAW as DRAWN
from clinea.protocol import LOSS as LOST
from clinea.protocol import WIN as WON

ANSI = {"azul": "\x1b[1;34m", "rojo": "\x1b[1;31m"}
RESET = "\x1b[0m"
RESULT_TEXT = {WON: "you won", LOST: "you lost", DRAWN: "a draw"}


class MatchStopped(Exception):
    """The person at the judge ended the match (end of input, the window
    closed): not a forfeit, the match simply stops and the tally is printed."""


def use_colour(stream: TextIO) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ


def draw(board: Board, colours: tuple[str, str], colour: bool) -> str:
    """The board, top row first; a token shows the colour of the seat that
    played it (azul as A, rojo as R, so it reads without colour too)."""
    marks = ["."]
    for name in colours:
        mark = name[0].upper()
        marks.append(ANSI[name] + mark + RESET if colour else mark)
    width = len(str(board.columns - 1))
    lines = []
    for row in reversed(range(board.rows)):
        lines.append(" ".join(" " * (width - 1) + marks[board.cell(col, row)] for col in range(board.columns)))
    lines.append(" ".join(str(col).rjust(width) for col in range(board.columns)))
    return "\n".join(lines)


class TerminalView:
    """A game in the terminal: who plays whom, the starting board, then every
    move announced and the board drawn once after it (the last drawing is the
    final board)."""

    def __init__(self, names: tuple[str, str], colours: tuple[str, str], board: Board,
                 stream: TextIO = sys.stdout):
        self.names = names
        self.colours = colours
        self.stream = stream
        self.colour = use_colour(stream)
        stream.write(f"\n{names[0]} ({colours[0]}) moves first against {names[1]} ({colours[1]})\n"
                     + draw(board, colours, self.colour) + "\n")
        stream.flush()

    def __call__(self, board: Board) -> None:
        mover = (board.moves_played - 1) & 1
        self.stream.write(f"\n{self.names[mover]} ({self.colours[mover]}) plays {board.moves()[-1]}\n")
        self.stream.write(draw(board, self.colours, self.colour) + "\n")
        self.stream.flush()


def read_column(line: str, board: Board) -> tuple[int | None, str]:
    """A typed line as a column, or None and what is wrong with it."""
    allowed = f"type a column, 0..{board.columns - 1}"
    text = line.strip()
    if not text:
        return None, f"empty line: {allowed}"
    try:
        col = int(text)
    except ValueError:
        return None, f"{text!r} is not a column number: {allowed}"
    if not 0 <= col < board.columns:
        return None, f"column {col} is out of range: {allowed}"
    if not board.can_play(col):
        return None, f"column {col} is full: play one of {board.legal_columns()}"
    return col, ""


class HumanSeat(Seat):
    """Someone typing columns at the terminal. A typo is asked again, not
    forfeited: only programs are held to the protocol. End of input (Ctrl-D)
    ends the match."""

    timed = False

    def __init__(self, name: str, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout):
        self.name = name
        self.stdin = stdin
        self.stdout = stdout
        self.colour = COLOURS[0]

    def start(self, board: Board, me: int, colour: str) -> None:
        self.colour = colour
        self.stdout.write(f"{self.name}: you are {colour}, {'you move first' if me == 0 else 'you move second'}\n")

    def ask(self, board: Board, last: int | None, timeout: float | None) -> object:
        while True:
            self.stdout.write(f"{self.name} ({self.colour}), your column (0..{board.columns - 1}): ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.stdout.write("\n")
                raise MatchStopped(f"{self.name} ({self.colour}) closed the input")
            col, problem = read_column(line, board)
            if col is not None:
                return col
            self.stdout.write(problem + "\n")

    def tell(self, word: str) -> None:
        self.stdout.write(f"{self.name} ({self.colour}): {RESULT_TEXT.get(word, word)}\n")
        self.stdout.flush()
