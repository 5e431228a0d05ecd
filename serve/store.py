"""The course's one store: a SQLite database in WAL mode.

Students (their tokens kept as hashes), their bots' versions (each upload
one, with its smoke verdict and stderr) and the games (each finished game
written with its result in one transaction, under the game's stable id, so
a server killed at any moment keeps every game it said was played and
plays again only those in flight). Ratings are never stored: they are
fitted from the games table whenever they are shown.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clinea.judge.record import GameRecord

SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS students (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, token_hash TEXT NOT NULL UNIQUE,
    teacher INTEGER NOT NULL DEFAULT 0, extra TEXT NOT NULL DEFAULT '{}');
CREATE TABLE IF NOT EXISTS versions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, student INTEGER NOT NULL REFERENCES students(id),
    number INTEGER NOT NULL, entry TEXT NOT NULL, uploaded REAL NOT NULL,
    verdict TEXT NOT NULL DEFAULT 'checking', reason TEXT NOT NULL DEFAULT '', stderr TEXT NOT NULL DEFAULT '',
    UNIQUE (student, number));
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT, game_id TEXT NOT NULL UNIQUE, round TEXT NOT NULL,
    first TEXT NOT NULL, second TEXT NOT NULL, winner TEXT, reason TEXT NOT NULL, record TEXT NOT NULL,
    stderr_first TEXT NOT NULL DEFAULT '', stderr_second TEXT NOT NULL DEFAULT '', played REAL NOT NULL);
"""
#: the rounds a game is played in: the check of a new upload, the live league, the teacher's final
SMOKE, LEAGUE, FINAL = "smoke", "league", "final"
TOKEN_BYTES = 32


def token_hash(token: str) -> str:
    """Tokens are 256 random bits: one SHA-256 is all their storage needs
    (a slow hash protects guessable passwords, which these are not)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def player_name(version_id: int) -> str:
    """A version's name in game records and ids: a student's name may hold
    anything, the judge's ids and file names may not."""
    return f"v{version_id}"


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    teacher: bool


@dataclass(frozen=True)
class Version:
    id: int
    student: int
    name: str       # the student's
    number: int
    entry: str
    verdict: str    # checking, passed, failed
    reason: str
    stderr: str

    @property
    def player(self) -> str:
        return player_name(self.id)


@dataclass(frozen=True)
class Game:
    id: int
    game_id: str
    round: str
    record: GameRecord
    stderr: tuple[str, str]  # of the first and the second player's seat


class Store:
    """One connection shared by the server's threads, each use under a lock:
    SQLite serialises writers anyway, and the course's traffic is small."""

    def __init__(self, path: Path):
        self.connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self.connection.row_factory = sqlite3.Row
        self.lock = threading.RLock()
        with self.lock:
            self.connection.execute("PRAGMA journal_mode=WAL")
            self.connection.execute("PRAGMA synchronous=FULL")  # a game said written survives a power cut
            self.connection.executescript(SCHEMA)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All or nothing: a kill inside leaves the database as before."""
        with self.lock:
            self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self.connection
            except BaseException:
                self.connection.execute("ROLLBACK")
                raise
            self.connection.execute("COMMIT")

    def rows(self, query: str, *args: Any) -> list[sqlite3.Row]:
        with self.lock:
            return self.connection.execute(query, args).fetchall()

    # ------------------------------------------------------------ settings

    def setting(self, key: str, default: Any = None) -> Any:
        found = self.rows("SELECT value FROM settings WHERE key = ?", key)
        return json.loads(found[0]["value"]) if found else default

    def set_setting(self, key: str, value: Any) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, json.dumps(value)))

    # ------------------------------------------------------------ people

    def add_person(self, db: sqlite3.Connection, name: str, teacher: bool = False,
                   extra: dict[str, str] | None = None) -> str:
        """A new student (or the teacher) inside a transaction; their token, shown once."""
        token = new_token()
        db.execute("INSERT INTO students (name, token_hash, teacher, extra) VALUES (?, ?, ?, ?)",
                   (name, token_hash(token), int(teacher), json.dumps(extra or {})))
        return token

    def person(self, token: str) -> Person | None:
        """Who holds `token`; the hash looked up, then compared in constant time."""
        wanted = token_hash(token)
        for row in self.rows("SELECT id, name, teacher, token_hash FROM students WHERE token_hash = ?", wanted):
            if hmac.compare_digest(row["token_hash"], wanted):
                return Person(row["id"], row["name"], bool(row["teacher"]))
        return None

    def person_by_id(self, person_id: int) -> Person | None:
        found = self.rows("SELECT id, name, teacher FROM students WHERE id = ?", person_id)
        return Person(found[0]["id"], found[0]["name"], bool(found[0]["teacher"])) if found else None

    def students(self) -> list[Person]:
        return [Person(row["id"], row["name"], False)
                for row in self.rows("SELECT id, name FROM students WHERE teacher = 0 ORDER BY name")]

    # ------------------------------------------------------------ versions

    VERSION = ("SELECT v.id, v.student, s.name, v.number, v.entry, v.verdict, v.reason, v.stderr "
               "FROM versions v JOIN students s ON s.id = v.student ")

    def versions(self, where: str = "", *args: Any) -> list[Version]:
        return [Version(*row) for row in self.rows(self.VERSION + where, *args)]

    def version(self, version_id: int) -> Version | None:
        found = self.versions("WHERE v.id = ?", version_id)
        return found[0] if found else None

    def current_versions(self) -> list[Version]:
        """Every student's latest upload that passed its check: the field."""
        return self.versions("WHERE v.verdict = 'passed' AND v.number = (SELECT MAX(number) FROM versions "
                             "WHERE student = v.student AND verdict = 'passed') ORDER BY s.name")

    def set_verdict(self, version_id: int, verdict: str, reason: str, stderr: str, game: Game | None) -> None:
        """The smoke game's verdict, and the game itself, in one transaction."""
        with self.transaction() as db:
            db.execute("UPDATE versions SET verdict = ?, reason = ?, stderr = ? WHERE id = ?",
                       (verdict, reason, stderr, version_id))
            if game is not None:
                self._insert_game(db, game)

    # ------------------------------------------------------------ games

    def add_game(self, game: Game) -> bool:
        """Writes a finished game; False when its id is in already (never counted twice)."""
        with self.transaction() as db:
            return self._insert_game(db, game)

    @staticmethod
    def _insert_game(db: sqlite3.Connection, game: Game) -> bool:
        record = game.record
        cursor = db.execute(
            "INSERT OR IGNORE INTO games (game_id, round, first, second, winner, reason, record, stderr_first, "
            "stderr_second, played) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game.game_id, game.round, record.players[0], record.players[1], record.winner, record.reason,
             json.dumps(record.to_json()), game.stderr[0], game.stderr[1], time.time()))
        return cursor.rowcount == 1

    def games(self, where: str = "", *args: Any) -> list[Game]:
        return [Game(row["id"], row["game_id"], row["round"], GameRecord.from_json(json.loads(row["record"])),
                     (row["stderr_first"], row["stderr_second"]))
                for row in self.rows("SELECT * FROM games " + where, *args)]

    def game_ids(self, round_name: str) -> list[str]:
        return [row["game_id"] for row in self.rows("SELECT game_id FROM games WHERE round = ?", round_name)]
