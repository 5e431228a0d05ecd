"""The game log: one JSON line per finished game, written and fsynced the
moment the game ends, so that killing the judge loses no finished game; the
first line records the run (its options) so `--resume` can continue it
without repeating a game.
"""
from __future__ import annotations

import json
import os
from typing import Iterator, Optional


class ResultLog:
    """Appends game records to `path`. Opening an existing file for resume
    first cuts a half-written last line (the judge was killed mid-write)."""

    def __init__(self, path: str):
        self.path = path
        self.records: list[dict] = []
        self.header: Optional[dict] = None
        if os.path.exists(path):
            self._load()
        self.file = open(path, "a", encoding="utf-8")

    def _load(self) -> None:
        good = 0
        with open(self.path, "rb") as file:
            for raw in file:
                if not raw.endswith(b"\n"):
                    break
                try:
                    record = json.loads(raw)
                except ValueError:
                    break
                good += len(raw)
                if record.get("type") == "run":
                    self.header = record
                else:
                    self.records.append(record)
        if good != os.path.getsize(self.path):
            with open(self.path, "r+b") as file:
                file.truncate(good)

    @staticmethod
    def peek_header(path: str) -> Optional[dict]:
        """The run record of an existing log, or None."""
        try:
            with open(path, encoding="utf-8") as file:
                first = file.readline()
        except FileNotFoundError:
            return None
        if not first.endswith("\n"):
            return None
        record = json.loads(first)
        return record if record.get("type") == "run" else None

    def done(self) -> set:
        """The ids of the games already in the log."""
        return {record["id"] for record in self.records}

    def _write(self, record: dict) -> None:
        self.file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def write_header(self, run: dict) -> None:
        self.header = {"type": "run", **run}
        self._write(self.header)

    def append(self, record: dict) -> None:
        self.records.append(record)
        self._write(record)

    def close(self) -> None:
        self.file.close()


def read_records(path: str) -> Iterator[dict]:
    """The game records of a log (the run header left out)."""
    with open(path, encoding="utf-8") as file:
        for line in file:
            if line.endswith("\n"):
                record = json.loads(line)
                if record.get("type") != "run":
                    yield record
