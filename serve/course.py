"""A course folder: what `clinea serve init` writes and `run` reads.

DIR/state/course.db   the store (clinea.serve.store), hidden from every seat
DIR/state/secret      the key that signs the session cookies
DIR/bots/vID/         each upload's files, where its seat runs it
DIR/tokens.csv        name,token of every student (the teacher hands them out)
DIR/teacher-token     the teacher's token (mode 0600)
"""
from __future__ import annotations

import csv
import io
import json
import os
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from clinea.bounded import MIB, read_text
from clinea.serve.store import Store

STUDENTS_LIMIT = 4 * MIB
MAX_STUDENTS = 5000
NAME_LIMIT = 100


class CourseError(ValueError):
    """A course folder or students file that cannot be used: one line saying why."""


@dataclass(frozen=True)
class CourseSettings:
    columns: int = 7
    rows: int = 6
    c: int = 4
    p: int = 21
    time_per_move: float = 1.0
    grade_max: float = 10.0


class Course:
    """The paths of a course folder and its open store."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.state = folder / "state"
        self.bots = folder / "bots"
        self.database = self.state / "course.db"
        self.secret_path = self.state / "secret"
        self.tokens = folder / "tokens.csv"
        self.teacher_token = folder / "teacher-token"
        if not self.database.is_file():
            raise CourseError(f"{folder}: not a course folder (no {self.database}): "
                              "make one with clinea serve init DIR --students students.csv")
        self.store = Store(self.database)
        self.settings = CourseSettings(**self.store.setting("course"))

    def secret(self) -> str:
        return read_text(self.secret_path, 1024).strip()

    def hidden(self) -> tuple[str, ...]:
        """What no seat may see: the store, the tokens, the session key."""
        return tuple(str(path) for path in (self.state, self.tokens, self.teacher_token))

    @property
    def closed(self) -> bool:
        return bool(self.store.setting("closed", False))

    def version_folder(self, version_id: int) -> Path:
        return self.bots / f"v{version_id}"


def read_students(path: Path) -> list[tuple[str, dict[str, str]]]:
    """(name, the row's other columns) of every student in a CSV with a header and a `name` column."""
    try:
        text = read_text(path, STUDENTS_LIMIT)
    except (OSError, ValueError) as error:
        raise CourseError(f"--students {path}: {getattr(error, 'strerror', None) or error}") from None
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is None or "name" not in reader.fieldnames:
        raise CourseError(f"--students {path}: no `name` column in its header row "
                          f"(found: {', '.join(reader.fieldnames or []) or 'nothing'})")
    students: list[tuple[str, dict[str, str]]] = []
    seen = set()
    try:
        for line, row in enumerate(reader, 2):
            name = (row.get("name") or "").strip()
            if not name or len(name) > NAME_LIMIT or not name.isprintable():
                raise CourseError(f"--students {path}: line {line}: name {name[:NAME_LIMIT]!r}: expected 1.."
                                  f"{NAME_LIMIT} printable characters")
            if name in seen:
                raise CourseError(f"--students {path}: line {line}: {name!r} comes twice")
            if len(students) == MAX_STUDENTS:
                raise CourseError(f"--students {path}: more than {MAX_STUDENTS} students")
            seen.add(name)
            students.append((name, {key: value or "" for key, value in row.items()
                                    if key not in (None, "name") and isinstance(value, str)}))
    except csv.Error as error:
        raise CourseError(f"--students {path}: line {reader.line_num}: {error}") from None
    if not students:
        raise CourseError(f"--students {path}: no student in it (a header row, then one student a line)")
    return students


def write_private(path: Path, text: str) -> None:
    """A file only its owner can read, from its first byte."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)


def init_course(folder: Path, students_csv: Path, settings: CourseSettings) -> str:
    """Creates the course in `folder` (new or empty); returns the teacher's token."""
    students = read_students(students_csv)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise CourseError(f"{folder}: exists and is not an empty folder: give a new one")
    state = folder / "state"
    state.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        (folder / "bots").mkdir()
        write_private(state / "secret", os.urandom(32).hex() + "\n")
        store = Store(state / "course.db")
        with store.transaction() as db:
            db.execute("INSERT INTO settings VALUES ('course', ?)", (json.dumps(asdict(settings)),))
            db.execute("INSERT INTO settings VALUES ('created', ?)", (str(time.time()),))
            teacher = store.add_person(db, "teacher", teacher=True)
            tokens = [(name, store.add_person(db, name, extra=extra)) for name, extra in students]
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["name", "token"])
        writer.writerows(tokens)
        write_private(folder / "tokens.csv", out.getvalue())
        write_private(folder / "teacher-token", teacher + "\n")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return teacher
