"""The checkpoint of one board of `clinea solved-tables`: each answer the
search over its split asked of a split position (clinea.solving.solved_board),
appended as soon as it is found, so a run stopped inside a board (an hour
into 7x7) loses only the solves under way.

One JSON object a line in DIR/checkpoints/c4-7x7-p25.jsonl: the board, the
split depth (the mode: which positions the board is cut into), the
position's moves (0-based columns), the scale (weak: win/draw/loss), the
window asked, the bounds proved (null: out of time), the time limit they
were found under, the nodes and seconds spent, and a checksum of all of
these. A run may split the board deeper than the one that began it (a
question too long for one sitting, asked again as its replies' questions):
it keeps the lines of the shallower splits, whose answers settle their
positions above its own split. Each line is written whole
with its newline, flushed and fsynced before the next position counts as
solved, so a kill can only leave the last line cut short: a line without
its newline is torn, ignored (never trusted, even when it reads as JSON)
and cut off before the next line is appended. A whole line that fails its
checksum, or names another board, a position that is not one of the
board's, or one deeper than this run's split (whose answer it could not
use), is refused with one line: the file is not this board's checkpoint
as this run would write it.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
from typing import Any

from clinea.bounded import KIB, MIB, TooLarge, WholeLines, append_durably, bounded_lines, json_value
from clinea.core import Rules
from clinea.solving.solved_board import Answer, Query, longer_limit

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


def checkpoint_line(rules: Rules, depth: int, query: Query, answer: Answer, time_limit: float) -> bytes:
    """One answer's line, newline included."""
    bounds = None if answer.low is None else [answer.low, answer.high]
    fields = {"board": board_text(rules), "depth": depth, "moves": list(query.moves), "weak": query.weak,
              "window": [query.low, query.high], "bounds": bounds, "time_limit": time_limit,
              "nodes": answer.nodes, "seconds": round(answer.seconds, 3)}
    return (json.dumps({**fields, "check": checksum(fields)}, separators=(",", ":")) + "\n").encode()


def whole(value: object) -> bool:
    """A JSON number with no fraction: JSON's true and false are Python ints too."""
    return isinstance(value, int) and not isinstance(value, bool)


def checkpoint_summary(path: str) -> tuple[int, int | None]:
    """How many whole lines (answers) the checkpoint at `path` holds, and
    its split depth (its deepest line's, None where it has none): (0, None)
    where there is no checkpoint. A file that breaks its bounds counts the
    lines before; the run that resumes it checks every line
    (Checkpoint.solved) and says what is wrong."""
    count, depth = 0, None
    with contextlib.suppress(OSError, TooLarge), open(path, "rb") as source:
        for _, line in WholeLines(bounded_lines(source, path, LINE_LIMIT, FILE_LIMIT)):
            with contextlib.suppress(ValueError):
                fields = json_value(line)
                found = fields.get("depth") if isinstance(fields, dict) else None
                if whole(found) and (depth is None or found > depth):
                    depth = found
            count += 1
    return count, depth


def still_to_solve(answer: Answer, recorded_limit: float, time_limit: float) -> bool:
    """A query answered before is asked again only when it ran out of time
    and this run gives it longer than the run that asked it."""
    return answer.low is None and longer_limit(time_limit, recorded_limit)


class Checkpoint:
    """solve_board's LeafStore for one board, on disk."""

    def __init__(self, directory: str, rules: Rules, depth: int):
        self.path = checkpoint_path(directory, rules)
        self.rules, self.depth = rules, depth
        self.time_limit = 0.0

    def solved(self, leaves: list[list[int]], time_limit: float) -> list[tuple[Query, Answer]]:
        """The answers found by earlier runs that this one keeps; a torn
        last line is cut off the file."""
        self.time_limit = time_limit
        if not os.path.exists(self.path):
            return []
        wanted = {tuple(moves) for moves in leaves}
        found: list[tuple[Query, Answer]] = []
        try:
            with open(self.path, "rb") as source:
                lines = WholeLines(bounded_lines(source, self.path, LINE_LIMIT, FILE_LIMIT))
                for number, line in lines:
                    query, answer, limit = self.parse(line, number, wanted)
                    if not still_to_solve(answer, limit, time_limit):
                        found.append((query, answer))
        except (OSError, TooLarge) as error:
            raise CheckpointError(f"clinea solved-tables: {error}") from None
        lines.cut_torn(self.path)
        return found

    def parse(self, line: bytes, number: int, wanted: set[tuple[int, ...]]) -> tuple[Query, Answer, float]:
        def refuse(why: str) -> CheckpointError:
            return CheckpointError(f"clinea solved-tables: {self.path}, line {number}: {why}; move the file away "
                                   "to solve the board afresh")

        try:
            fields = json_value(line)
            if not isinstance(fields, dict):
                raise ValueError("not a JSON object")
            check = fields.pop("check", None)
            board, depth = fields["board"], fields["depth"]
            moves, weak, window, bounds = tuple(fields["moves"]), fields["weak"], fields["window"], fields["bounds"]
            limit, nodes, seconds = float(fields["time_limit"]), fields["nodes"], float(fields["seconds"])
            low, high = window
            answer_low, answer_high = (None, None) if bounds is None else bounds
        except (ValueError, KeyError, TypeError) as error:
            raise refuse(f"not a checkpoint line ({error})") from None
        if check != checksum(fields):
            raise refuse("its checksum does not match its values (the line was changed or damaged)")
        if board != board_text(self.rules):
            raise refuse(f"a position of {board}, not of {board_text(self.rules)}")
        if not (isinstance(weak, bool) and all(map(whole, (depth, *moves, low, high, nodes)))
                and all(value is None or whole(value) for value in (answer_low, answer_high))):
            raise refuse("its values are not whole numbers")
        if depth > self.depth:
            raise refuse(f"a position {depth} plies in (--split-depth {depth}), this run splits the board "
                         f"{self.depth} plies in: rerun with --split-depth {depth} or more")
        if len(moves) != depth or moves not in wanted:
            raise refuse(f"moves {list(moves)} are not one of the board's positions {depth} plies in")
        return Query(moves, weak, low, high), Answer(answer_low, answer_high, nodes, seconds), limit

    def record(self, query: Query, answer: Answer) -> None:
        """Appends the answer's line and makes it durable before returning."""
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        append_durably(self.path, checkpoint_line(self.rules, self.depth, query, answer, self.time_limit))

    def finish(self, complete: bool, keep: bool) -> None:
        """After the board's row is written: the file goes once the row holds
        both values (it only served to resume the board), unless `keep`; a
        board left out of time keeps it, so that a run with a longer limit
        solves only the positions still missing."""
        if complete and not keep and os.path.exists(self.path):
            os.remove(self.path)
