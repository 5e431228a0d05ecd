"""The checkpoint of one board of `clinea solved-tables`: the value of each
split position, appended as soon as it is found, so a run stopped inside a
board (an hour into 7x7) loses only the positions under way.

One JSON object a line in DIR/checkpoints/c4-7x7-p25.jsonl: the board, the
split depth (the mode: which positions the board is cut into), the
position's moves (0-based columns), its exact and win/draw/loss values
(null: out of time), the time limit they were found under, the nodes and
seconds spent, and a checksum of all of these. Each line is written whole
with its newline, flushed and fsynced before the next position counts as
solved, so a kill can only leave the last line cut short: a line without
its newline is torn, ignored (never trusted, even when it reads as JSON)
and cut off before the next line is appended. A whole line that fails its
checksum, or names another board, depth or a position that is not one of
the board's, is refused with one line: the file is not this board's
checkpoint as this run would write it.
"""
from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from typing import Any

from clinea.bounded import KIB, MIB, TooLarge, WholeLines, append_durably, bounded_lines, json_value
from clinea.core import Rules
from clinea.solving.solved_board import LeafValue, longer_limit

FOLDER = "checkpoints"
#: a line is some 200 bytes; 7x7 split 6 plies in is some 100,000 positions
LINE_LIMIT = 4 * KIB
FILE_LIMIT = 256 * MIB


class CheckpointError(SystemExit):
    """A checkpoint this run cannot use; the message says which line and why."""


def board_text(rules: Rules) -> str:
    return f"{rules.columns}x{rules.rows} c={rules.c} p={rules.p}"


def checkpoint_path(directory: str, rules: Rules) -> str:
    return os.path.join(directory, FOLDER, f"c{rules.c}-{rules.columns}x{rules.rows}-p{rules.p}.jsonl")


def checksum(fields: dict[str, Any]) -> str:
    canonical = json.dumps(fields, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def checkpoint_line(rules: Rules, depth: int, moves: Sequence[int], value: LeafValue, time_limit: float) -> bytes:
    """One position's line, newline included."""
    fields = {"board": board_text(rules), "depth": depth, "moves": list(moves), "exact": value.exact,
              "weak": value.weak, "time_limit": time_limit, "nodes": value.nodes, "seconds": round(value.seconds, 3)}
    return (json.dumps({**fields, "check": checksum(fields)}, separators=(",", ":")) + "\n").encode()


def still_to_solve(value: LeafValue, recorded_limit: float, time_limit: float) -> bool:
    """A position found before is solved again only when a value is missing
    and this run gives it longer than the run that found it."""
    return (value.exact is None or value.weak is None) and longer_limit(time_limit, recorded_limit)


class Checkpoint:
    """solve_board's LeafStore for one board, on disk."""

    def __init__(self, directory: str, rules: Rules, depth: int):
        self.path = checkpoint_path(directory, rules)
        self.rules, self.depth = rules, depth
        self.time_limit = 0.0

    def solved(self, leaves: list[list[int]], time_limit: float) -> dict[tuple[int, ...], LeafValue]:
        """The positions found by earlier runs that this one keeps; a torn
        last line is cut off the file."""
        self.time_limit = time_limit
        if not os.path.exists(self.path):
            return {}
        wanted = {tuple(moves) for moves in leaves}
        found: dict[tuple[int, ...], tuple[LeafValue, float]] = {}
        try:
            with open(self.path, "rb") as source:
                lines = WholeLines(bounded_lines(source, self.path, LINE_LIMIT, FILE_LIMIT))
                for number, line in lines:
                    moves, value, limit = self.parse(line, number, wanted)
                    found[moves] = (value, limit)  # a later line (the position tried again) wins
        except (OSError, TooLarge) as error:
            raise CheckpointError(f"clinea solved-tables: {error}") from None
        lines.cut_torn(self.path)
        return {moves: value for moves, (value, limit) in found.items()
                if not still_to_solve(value, limit, time_limit)}

    def parse(self, line: bytes, number: int, wanted: set[tuple[int, ...]]) -> tuple[tuple[int, ...], LeafValue, float]:
        def refuse(why: str) -> CheckpointError:
            return CheckpointError(f"clinea solved-tables: {self.path}, line {number}: {why}; move the file away "
                                   "to solve the board afresh")

        try:
            fields = json_value(line)
            if not isinstance(fields, dict):
                raise ValueError("not a JSON object")
            check = fields.pop("check", None)
            board, depth = fields["board"], fields["depth"]
            moves, exact, weak = tuple(fields["moves"]), fields["exact"], fields["weak"]
            limit, nodes, seconds = float(fields["time_limit"]), int(fields["nodes"]), float(fields["seconds"])
        except (ValueError, KeyError, TypeError) as error:
            raise refuse(f"not a checkpoint line ({error})") from None
        if check != checksum(fields):
            raise refuse("its checksum does not match its values (the line was changed or damaged)")
        if board != board_text(self.rules):
            raise refuse(f"a position of {board}, not of {board_text(self.rules)}")
        if depth != self.depth:
            raise refuse(f"a position {depth} plies in (--split-depth {depth}), this run splits the board "
                         f"{self.depth} plies in: rerun with --split-depth {depth}")
        if moves not in wanted:
            raise refuse(f"moves {list(moves)} are not one of the board's positions {self.depth} plies in")
        if not all(value is None or isinstance(value, int) for value in (exact, weak)):
            raise refuse("its values are not whole numbers")
        return moves, LeafValue(exact, weak, nodes, seconds), limit

    def record(self, moves: Sequence[int], value: LeafValue) -> None:
        """Appends the position's line and makes it durable before returning."""
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        append_durably(self.path, checkpoint_line(self.rules, self.depth, moves, value, self.time_limit))

    def finish(self, complete: bool, keep: bool) -> None:
        """After the board's row is written: the file goes once the row holds
        both values (it only served to resume the board), unless `keep`; a
        board left out of time keeps it, so that a run with a longer limit
        solves only the positions still missing."""
        if complete and not keep and os.path.exists(self.path):
            os.remove(self.path)
