"""The course judge's transcripts: `log/player_communicator_<colour>.log`,
appended to, one per colour, in the course's own words, which students know
and read (a block announcing each game, then `envio`/`recibo` lines typed as
the course's Python 2 prints them).

It is a text file that takes the seat's transcript lines (`> ` judge to
player, `< ` player to judge, `! ` stderr, `# ` judge notes) and rewrites the
wire ones. The course logs no notes, and a player's stderr reaches the
terminal there, so it goes to the judge's stderr here.
"""
from __future__ import annotations

import os
import sys

RULE = "/**********************************************/"


def _typed(text: str) -> str:
    """How the course shows a value it sends: the opponent's column is an int."""
    return "<type 'int'>" if text.lstrip("-").isdigit() else "<type 'str'>"


# The bulk of a transcript: columns told (`> 3`) and answered (`< 3`), each
# rewritten once here rather than parsed again on every line of every game.
_COLUMN_LINES = {line: course for column in range(64) for line, course in (
    (f"> {column}", f"envio <type 'int'>: {column}\n"), (f"< {column}", f"recibo <type 'str'>: {column}\n"))}


class CourseTranscript:
    def __init__(self, path: str):
        # line-buffered: each write (a seat's batch of whole lines) reaches the file at once
        self.file = open(path, "a", encoding="utf-8", buffering=1)
        self.pending: list[str] = []  # the colours and size lines, until `vos`/`el` completes the header

    @classmethod
    def open(cls, directory: str, colour: str, suffix: str = "") -> "CourseTranscript":
        os.makedirs(directory, exist_ok=True)
        return cls(os.path.join(directory, f"player_communicator_{colour}{suffix}.log"))

    @property
    def closed(self) -> bool:
        return self.file.closed

    def write(self, text: str) -> None:
        """Rewrites the transcript lines of `text` into the file in one write."""
        out: list[str] = []
        for line in text.splitlines():
            self._line(line, out)
        if out:
            self.file.write("".join(out))

    def _line(self, line: str, out: list[str]) -> None:
        known = _COLUMN_LINES.get(line)
        if known is not None and not self.pending:
            out.append(known)
            return
        kind, message = line[:2], line[2:]
        if kind == "! ":
            sys.stderr.write(message + "\n")
        elif kind == "< ":
            out.append(f"recibo <type 'str'>: {message.strip()}\n")
        elif kind == "> ":
            words = message.split()
            if len(words) == 2 and not self.pending and words[0] in ("azul", "rojo"):
                self.pending.append(message)
            elif len(self.pending) == 1:
                self.pending.append(message)
            elif len(self.pending) == 2:
                out.append(self._game_header(*self.pending, message))
                self.pending = []
            else:
                out.append(f"envio {_typed(message)}: {message}\n")

    def _game_header(self, colours: str, size: str, first: str) -> str:
        colour, other = colours.split()
        columns, rows, c, p = size.split()
        return (f"\n/*************** Nueva partida *****************/\ncolumnas: {columns}\n"
                f"filas: {rows}\nc: {c}\np: {p}\ncolor: {colour}\ncolor del oponente: {other}\n"
                f"vas primero: {first.split()[0] == 'vos'}\n{RULE}\n"
                + "".join(f"envio <type 'str'>: {message}\n" for message in (colours, size, first)))

    def flush(self) -> None:
        self.file.flush()

    def close(self) -> None:
        self.file.close()
