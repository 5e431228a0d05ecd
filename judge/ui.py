"""The terminal side of the judge: each game drawn as it is played, with the
course's colours (azul and rojo tokens), and a human seat for a colour that
has no program."""
from __future__ import annotations

import os
import sys
from typing import Optional, TextIO

from clinea.core import Board
from clinea.judge.referee import COLOURS, Seat

ANSI = {"azul": "\x1b[1;34m", "rojo": "\x1b[1;31m"}
RESET = "\x1b[0m"


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


class GameView:
    """`on_move` callback of the referee: prints the board after each move."""

    def __init__(self, names: tuple[str, str], colours: tuple[str, str], stream: TextIO = sys.stdout):
        self.names = names
        self.colours = colours
        self.stream = stream
        self.colour = use_colour(stream)

    def __call__(self, board: Board) -> None:
        mover = (board.moves_played - 1) & 1
        self.stream.write(f"\n{self.names[mover]} ({self.colours[mover]}) plays {board.moves()[-1]}\n")
        self.stream.write(draw(board, self.colours, self.colour) + "\n")
        self.stream.flush()


class HumanSeat(Seat):
    """Someone typing columns at the terminal. A typo is asked again, not
    forfeited: only programs are held to the protocol."""

    timed = False

    def __init__(self, name: str, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout):
        self.name = name
        self.stdin = stdin
        self.stdout = stdout
        self.colours: tuple[str, str] = COLOURS

    def start(self, board: Board, me: int, colour: str) -> None:
        other = COLOURS[1 - COLOURS.index(colour)]
        self.colours = (colour, other) if me == 0 else (other, colour)
        self.stdout.write(f"\n{self.name}: you are {colour}, {'you move first' if me == 0 else 'you move second'}\n")

    def ask(self, board: Board, last: Optional[int], timeout: Optional[float]) -> object:
        self.stdout.write(draw(board, self.colours, use_colour(self.stdout)) + "\n")
        while True:
            self.stdout.write(f"{self.name}, your column (0..{board.columns - 1}): ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                return None  # end of input: the referee scores it as garbage
            try:
                col = int(line)
            except ValueError:
                continue
            if board.can_play(col):
                return col
            self.stdout.write(f"column {col} cannot be played\n")

    def tell(self, word: str) -> None:
        self.stdout.write(f"{self.name}: {word}\n")
