"""The course judge's transcripts: `log/player_communicator_<colour>.log`,
appended to, one per colour, in the course's own words, which students know
and read (a block announcing each game, then `envio`/`recibo` lines typed as
the course's Python 2 prints them).

It is a text file that takes the seat's transcript lines (`> ` judge to
player, `< ` player to judge, `! ` stderr, `# ` judge notes) and rewrites the
wire ones. The course logs no notes, and a player's stderr reaches the
terminal there, so it goes to the judge's stderr here.

With several tables (`--concurrency`) every table's seat of a colour
appends to that colour's one file, as the course's single table does: each
keeps its lines until its game has ended and writes the game in one
write(), so the games of two tables never mix within a block.
"""
from __future__ import annotations

import os
import sys

from clinea.protocol import DRAW, LOSS, WIN

RULE = "/**********************************************/"
# what the judge sends a seat at the end of a game or of the match
ENDINGS = (WIN, LOSS, DRAW, "salir")


def _typed(text: str) -> str:
    """How the course shows a value it sends: the opponent's column is an int."""
    return "<type 'int'>" if text.lstrip("-").isdigit() else "<type 'str'>"


# The bulk of a transcript: columns told (`> 3`) and answered (`< 3`), each
# rewritten once here rather than parsed again on every line of every game.
_COLUMN_LINES = {line: course for column in range(64) for line, course in (
    (f"> {column}", f"envio <type 'int'>: {column}\n"), (f"< {column}", f"recibo <type 'str'>: {column}\n"))}


class CourseTranscript:
    def __init__(self, path: str, whole_games: bool = False):
        # unbuffered and appending: each write() is one system call at the file's end
        self.file = open(path, "ab", buffering=0)
        self.pending: list[str] = []  # the colours and size lines, until `vos`/`el` completes the header
        # shared with other tables: lines wait in `held` until their game has ended
        self.whole_games = whole_games
        self.held: list[str] = []

    @classmethod
    def open(cls, directory: str, colour: str, whole_games: bool = False) -> CourseTranscript:
        """The transcript of a `colour` seat in `directory`; `whole_games`
        when other tables write to the same file."""
        os.makedirs(directory, exist_ok=True)
        return cls(os.path.join(directory, f"player_communicator_{colour}.log"), whole_games)

    @property
    def closed(self) -> bool:
        return self.file.closed

    def write(self, text: str) -> None:
        """Rewrites the transcript lines of `text` into the file in one write
        (with whole_games, once the game they belong to has ended)."""
        for line in text.splitlines():
            ended = self._line(line, self.held)
            if ended and self.whole_games:
                self._write_held()
        if not self.whole_games:
            self._write_held()

    def _write_held(self) -> None:
        if self.held:
            self.file.write("".join(self.held).encode("utf-8"))
            self.held = []

    def _line(self, line: str, out: list[str]) -> bool:
        """Rewrites one transcript line into `out`; True when it ends a game
        for this seat (a result told, or a note: the seat was killed after a
        forfeit, or started afresh), or the match (`salir`)."""
        known = _COLUMN_LINES.get(line)
        if known is not None and not self.pending:
            out.append(known)
            return False
        kind, message = line[:2], line[2:]
        if kind == "! ":
            sys.stderr.write(message + "\n")
        elif kind == "< ":
            out.append(f"recibo <type 'str'>: {message.strip()}\n")
        elif kind == "> ":
            words = message.split()
            if len(words) == 2 and not self.pending and words[0] in ("azul", "rojo") or len(self.pending) == 1:
                self.pending.append(message)
            elif len(self.pending) == 2:
                out.append(self._game_header(self.pending[0], self.pending[1], message))
                self.pending = []
            else:
                out.append(f"envio {_typed(message)}: {message}\n")
                return message in ENDINGS
        return kind == "# "

    def _game_header(self, colours: str, size: str, first: str) -> str:
        colour, other = colours.split()
        columns, rows, c, p = size.split()
        return (f"\n/*************** Nueva partida *****************/\ncolumnas: {columns}\n"
                f"filas: {rows}\nc: {c}\np: {p}\ncolor: {colour}\ncolor del oponente: {other}\n"
                f"vas primero: {first.split()[0] == 'vos'}\n{RULE}\n"
                + "".join(f"envio <type 'str'>: {message}\n" for message in (colours, size, first)))

    def flush(self) -> None:
        """Nothing to do: every write reaches the file at once (held lines
        wait for the end of their game, or close)."""

    def close(self) -> None:
        self._write_held()
        self.file.close()
