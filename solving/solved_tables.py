"""`clinea solved-tables`: the value of the empty board of every board in a
range (who wins, and the move on which a perfect game ends), for any c and
p, written to CSV files and one readable page (docs/solved/ by default).

Each table is one CSV file, rewritten whole (through a temporary file) after
every board, so a run stopped anywhere leaves a valid table and the next run
goes on from it: a board already solved is skipped, one left unknown is
tried again only with a longer time limit. A board the time limit does not
cover is written as unknown, never guessed; a second method that disagrees
is written as a MISMATCH and makes the command exit 1. Inside a board, each
answer about a split position is checkpointed as soon as it is found
(clinea.solving.solved_checkpoint), so a run stopped an hour into 7x7
resumes with what it had proved.
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import io
import os
import re
import sys
from dataclasses import dataclass

from clinea.bounded import MIB, read_text
from clinea.core import MAX_SIDE, Rules
from clinea.core.solver import MAX_THREADS, MAX_TT_LOG2, MIN_TT_LOG2
from clinea.players.options import bounded_float, bounded_int, command_parser
from clinea.progress import progress_bar
from clinea.solving.solved_board import (
    BRUTE_FORCE_CELLS,
    BRUTE_FORCE_MOVES,
    BRUTE_FORCE_POSITIONS,
    TABLE_LOG2,
    BoardValue,
    LocalSolve,
    Solve,
    boards_up_to,
    longer_limit,
    solve_board,
)
from clinea.solving.solved_checkpoint import Checkpoint, checkpoint_path, checkpoint_summary

DEFAULT_DIR = os.path.join("docs", "solved")
PAGE = "README.md"
# a table of every board up to width + height = 40 is some 800 rows of 100 bytes
TABLE_LIMIT = 4 * MIB
FIELDS = ["columns", "rows", "c", "p", "max_moves", "outcome", "end_move", "score", "weak", "brute_force",
          "check", "seconds", "nodes", "time_limit"]


@dataclass(frozen=True)
class TableSpec:
    """A named range of boards: `grid` tables list every size (p filling the
    board), the others one size over several p."""
    name: str
    title: str
    boards: tuple[Rules, ...]
    grid: bool


def boards_summing_to(c: int, total: int) -> tuple[Rules, ...]:
    return tuple(rules for rules in boards_up_to(c, total) if rules.columns + rules.rows == total)


def standard_tables() -> dict[str, TableSpec]:
    """The tables docs/solved/ ships."""
    tables = [
        TableSpec("c4-7x6-p", "c = 4 on 7x6, every token limit p from 4 to 21",
                  tuple(Rules(7, 6, 4, p) for p in range(4, 22)), False),
        TableSpec("c4", "c = 4 (Connect-4), every board with columns + rows <= 13", tuple(boards_up_to(4, 13)),
                  True),
        # Tromp's table (solved by him up to columns + rows = 15), one diagonal a table:
        # hours of CPU (8x6: 6 h), resumable inside a board by its checkpoint
        TableSpec("c4-14", "c = 4, every board with columns + rows = 14", boards_summing_to(4, 14), True),
        TableSpec("c4-15", "c = 4, every board with columns + rows = 15", boards_summing_to(4, 15), True),
        TableSpec("c3", "c = 3, every board with columns + rows <= 16", tuple(boards_up_to(3, 16)), True),
        TableSpec("c5", "c = 5, every board with columns + rows <= 12", tuple(boards_up_to(5, 12)), True),
        TableSpec("c5-7x6", "c = 5 (Connect-5) on 7x6, the full game", (Rules(7, 6, 5, 21),), False),
    ]
    return {table.name: table for table in tables}


EPILOG = f"""Without a range the standard tables are computed ({", ".join(standard_tables())});
--table picks some of them; --c with --max-sum (and optionally --p-range),
or --board with --p-range, defines a table of your own (named by --name).

outcome: the first player's result (first: it wins, second: the second
player wins, draw); end_move: the 1-based move on which a perfect game ends
(the winner's winning stone, or the last move of a draw). Each value is
found by the exact solve and checked by the win/draw/loss solve (a separate
solver and table) and, on boards of at most {BRUTE_FORCE_CELLS} cells or {BRUTE_FORCE_MOVES} moves that
meet at most {BRUTE_FORCE_POSITIONS:,} positions, by a pure-Python brute force.

--split-depth D runs alpha-beta over a board's first D plies, asking each
position D plies in only what its window needs. A run stopped inside a
board resumes it: each answer is appended, as soon as it is found, to
DIR/checkpoints/ (such as {checkpoint_path("DIR", Rules(7, 7, 4))}), read
back by the next run (at the deepest split depth it was written at, unless
--split-depth gives another: a deeper one keeps the answers and asks a
question too long for one sitting as its replies' shorter ones; a line
cut short by the stop is ignored), and removed once the board's row holds
its value (kept when the board is left out of time: a run with a longer
--time-limit asks again only what ran out of time). Give a large board a
--split-depth to make it resumable.

examples:
  clinea solved-tables --time-limit 60
  clinea solved-tables --table c4-7x6-p --time-limit 600 --ray
  clinea solved-tables --table c4-15 --time-limit 0 --ray --threads 2
  clinea solved-tables --c 4 --max-sum 9 --name small --dir /tmp/tables
  clinea solved-tables --board 5x4 --c 3 --p-range 2..10 --name 5x4-p"""


def board_size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d+)x(\d+)", text)
    if not match or not all(1 <= int(side) <= MAX_SIDE for side in match.groups()):
        raise argparse.ArgumentTypeError(f"{text!r}: a board is COLUMNSxROWS, each 1..{MAX_SIDE}, such as 7x6")
    return int(match[1]), int(match[2])


def p_range(text: str) -> range:
    match = re.fullmatch(r"(\d+)\.\.(\d+)", text)
    if not match or not 1 <= int(match[1]) <= int(match[2]):
        raise argparse.ArgumentTypeError(f"{text!r}: a range of p is FIRST..LAST with 1 <= FIRST <= LAST, "
                                         "such as 4..21")
    return range(int(match[1]), int(match[2]) + 1)


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("clinea solved-tables",
                            "Solve the empty board of every board in a range; write CSV tables and a page.", EPILOG)
    parser.add_argument("--table", action="append", choices=list(standard_tables()),
                        help="a standard table to compute (repeatable; default: all of them)")
    parser.add_argument("--c", type=int, help="your own table: tokens in a row to win, 1..64 (default: none, the standard tables)")
    parser.add_argument("--max-sum", type=int, help="your own table: every board with columns + rows <= N, 2..40 (default: none)")
    parser.add_argument("--board", type=board_size, help="your own table: one board COLUMNSxROWS, with --p-range (default: none)")
    parser.add_argument("--p-range", type=p_range, help="your own table: token limits FIRST..LAST "
                        "(default: enough to fill each board)")
    parser.add_argument("--name", default="custom", help="your own table's file name (default: custom)")
    parser.add_argument("--dir", default=DEFAULT_DIR, help=f"where the tables and the page go (default {DEFAULT_DIR})")
    parser.add_argument("--time-limit", type=bounded_float("--time-limit", 0.0, what="a number of seconds"), default=60.0,
                        help="seconds for each solve of a board (or of each question to a split position), 0 for none; "
                             "past it the board is unknown (default 60)")
    parser.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                        help="solve on Ray: 'local' (the default when no address is given) starts one on "
                             "this machine; 'auto' or HOST:PORT joins a cluster")
    parser.add_argument("--split-depth", type=bounded_int("--split-depth", 0, 6), default=None,
                        help="alpha-beta over each board's first plies, asking the positions this many plies in "
                             "only what it needs (0..6; default: that of the board's checkpoint, else 2 with "
                             "--ray, else 0)")
    parser.add_argument("--tt-log2", type=bounded_int("--tt-log2", MIN_TT_LOG2, MAX_TT_LOG2), default=TABLE_LOG2,
                        help=f"each solver's transposition table: 2**N entries of 8 bytes, {MIN_TT_LOG2}..{MAX_TT_LOG2}; "
                             f"two solvers a process (default {TABLE_LOG2}: {(8 << TABLE_LOG2) >> 20} MB each)")
    parser.add_argument("--threads", type=bounded_int("--threads", 1, MAX_THREADS), default=1,
                        help=f"threads sharing each solver's table, 1..{MAX_THREADS}; with --ray each task takes as many CPUs. "
                             "One solve on all of a machine's cores beats a solve on each (default 1)")
    parser.add_argument("--keep-checkpoints", action="store_true",
                        help="keep each board's checkpoint (the answers about its split positions) once its row is "
                             "written (default: removed then)")
    parser.add_argument("--brute-force-positions", type=bounded_int("--brute-force-positions", 0),
                        default=BRUTE_FORCE_POSITIONS,
                        help=f"the brute force's budget in positions, 0 to skip it (default {BRUTE_FORCE_POSITIONS})")
    return parser


def chosen_tables(args: argparse.Namespace, parser: argparse.ArgumentParser) -> list[TableSpec]:
    if args.c is None and args.board is None and args.max_sum is None and args.p_range is None:
        tables = standard_tables()
        return [tables[name] for name in args.table] if args.table else list(tables.values())
    if args.table:
        parser.error("--table names a standard table: give it without --c/--max-sum/--board/--p-range")
    if args.c is None or not 1 <= args.c <= 64:
        parser.error(f"your own table needs --c in 1..64, got {args.c}")
    if (args.max_sum is None) == (args.board is None):
        parser.error("your own table needs either --max-sum or --board")
    if args.max_sum is not None and not 2 <= args.max_sum <= 40:
        parser.error(f"--max-sum={args.max_sum} is out of range: allowed 2..40")
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", args.name):
        parser.error(f"--name={args.name!r}: letters, digits, '.', '_' and '-' only")
    if args.board is not None:
        if args.p_range is None:
            parser.error("--board needs --p-range")
        columns, rows = args.board
        boards = tuple(Rules(columns, rows, args.c, p) for p in args.p_range)
        return [TableSpec(args.name, f"c = {args.c} on {args.board[0]}x{args.board[1]}, "
                          f"p from {args.p_range[0]} to {args.p_range[-1]}", boards, False)]
    sizes = list(boards_up_to(args.c, args.max_sum))
    if args.p_range is None:
        return [TableSpec(args.name, f"c = {args.c}, every board with columns + rows <= {args.max_sum}",
                          tuple(sizes), True)]
    boards = tuple(Rules(w, h, args.c, p) for w, h, _, _ in sizes for p in args.p_range)
    return [TableSpec(args.name, f"c = {args.c}, every board with columns + rows <= {args.max_sum}, "
                      f"p from {args.p_range[0]} to {args.p_range[-1]}", boards, False)]


def known(number: int | None) -> str:
    return "?" if number is None else str(number)


def row_of(value: BoardValue) -> dict[str, str]:
    rules = value.rules
    return {"columns": str(rules.columns), "rows": str(rules.rows), "c": str(rules.c), "p": str(rules.p),
            "max_moves": str(rules.max_moves), "outcome": value.outcome, "end_move": known(value.end_move),
            "score": known(value.exact), "weak": known(value.weak),
            "brute_force": "not run" if value.brute is None else str(value.brute), "check": value.check(),
            "seconds": f"{value.seconds:.2f}", "nodes": str(value.nodes), "time_limit": f"{value.time_limit:g}"}


def rules_of(row: dict[str, str]) -> Rules:
    return Rules(int(row["columns"]), int(row["rows"]), int(row["c"]), int(row["p"]))


def read_table(path: str) -> dict[Rules, dict[str, str]]:
    """The rows of a table written before (empty if there is none)."""
    if not os.path.exists(path):
        return {}
    text = read_text(path, TABLE_LIMIT)
    rows = {}
    for number, row in enumerate(csv.DictReader(io.StringIO(text)), start=2):
        try:
            rows[rules_of(row)] = row
        except (KeyError, TypeError, ValueError) as error:
            raise SystemExit(f"clinea solved-tables: {path}, line {number}: not a table row ({error}); "
                             "move the file away to start the table afresh") from None
    return rows


def write_table(path: str, rows: dict[Rules, dict[str, str]]) -> None:
    """All rows, smallest board first, through a temporary file: the table on
    disk is always whole."""
    ordered = [rows[rules] for rules in sorted(rows, key=lambda r: (r.cells, r.columns, r.rows, r.p))]
    partial = path + ".partial"
    with open(partial, "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, FIELDS)
        writer.writeheader()
        writer.writerows(ordered)
    os.replace(partial, path)


def needs_solving(row: dict[str, str] | None, time_limit: float) -> bool:
    """Whether a board must be solved (again): never solved, or left
    incomplete under a shorter time limit than this run's."""
    if row is None:
        return True
    complete = row["score"] != "?" and row["weak"] != "?"
    if complete and not row["check"].startswith("MISMATCH"):
        return False
    return longer_limit(time_limit, float(row["time_limit"]))


def split_depth(args: argparse.Namespace, checkpoint: str) -> int:
    """The board's split depth: --split-depth, else its checkpoint's
    deepest (a board carried from an earlier run, or another machine, goes
    on as it left off), else 2 on Ray and 0 in process."""
    if args.split_depth is not None:
        return int(args.split_depth)
    _, recorded = checkpoint_summary(checkpoint)
    return recorded if recorded is not None else 2 if args.ray else 0


def compute_table(table: TableSpec, directory: str, args: argparse.Namespace, solve: Solve) -> int:
    """Solves the table's boards still to do; returns the mismatches found."""
    path = os.path.join(directory, f"{table.name}.csv")
    rows = read_table(path)
    todo = [rules for rules in table.boards if needs_solving(rows.get(rules), args.time_limit)]
    bar = progress_bar(len(table.boards), initial=len(table.boards) - len(todo), unit="board", desc=table.name)
    mismatches = 0
    try:
        for rules in todo:
            board = f"{rules.columns}x{rules.rows} p={rules.p}"
            bar.set_postfix(board=board)

            def report(answers: int, nodes: int, board: str = board) -> None:
                bar.set_postfix(board=board, answers=answers, nodes=f"{nodes / 1e9:.1f}G")

            depth = split_depth(args, checkpoint_path(directory, rules))
            checkpoint = Checkpoint(directory, rules, depth)
            value = solve_board(rules, args.time_limit, depth=depth, solve=solve,
                                brute_positions=args.brute_force_positions, store=checkpoint, report=report)
            rows[rules] = row_of(value)
            write_table(path, rows)
            checkpoint.finish(complete=value.exact is not None and value.weak is not None,
                              keep=args.keep_checkpoints)
            if value.disagreements():
                mismatches += 1
                print(f"clinea solved-tables: {rules}: {value.check()}", file=sys.stderr, flush=True)
            bar.update(1)
    finally:
        bar.close()
    return mismatches


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    tables = chosen_tables(args, parser)
    os.makedirs(args.dir, exist_ok=True)
    mismatches = 0
    with contextlib.ExitStack() as stack:
        solve: Solve = LocalSolve(args.tt_log2, args.threads)
        if args.ray:
            from clinea.solving.solved_ray import RaySolver
            solve = stack.enter_context(RaySolver(args.ray, args.tt_log2, args.threads))
        for table in tables:
            mismatches += compute_table(table, args.dir, args, solve)
    write_page(args.dir)
    return 1 if mismatches else 0


# ---------------------------------------------------------------- the page

def cell_text(row: dict[str, str] | None) -> str:
    if row is None:
        return ""
    outcome = {"first": "1st", "second": "2nd", "draw": "draw", "unknown": "?"}[row["outcome"]]
    if row["check"].startswith("MISMATCH"):
        return f"{outcome} (mismatch!)"
    if row["outcome"] == "unknown":
        return "?"
    return f"{outcome} ({row['end_move']})"


def grid_section(table: TableSpec, rows: dict[Rules, dict[str, str]]) -> list[str]:
    by_size = {(rules.columns, rules.rows): row for rules, row in rows.items()}
    widths = sorted({rules.columns for rules in table.boards})
    heights = sorted({rules.rows for rules in table.boards})
    lines = ["| rows \\ columns | " + " | ".join(str(w) for w in widths) + " |",
             "|---:|" + "---|" * len(widths)]
    for h in heights:
        lines.append(f"| **{h}** | " + " | ".join(cell_text(by_size.get((w, h))) for w in widths) + " |")
    return lines


def list_section(rows: dict[Rules, dict[str, str]]) -> list[str]:
    lines = ["| board | p | outcome | ends on move | exact score | check | seconds |", "|---|---:|---|---:|---:|---|---:|"]
    for rules in sorted(rows, key=lambda r: (r.columns, r.rows, r.p)):
        row = rows[rules]
        lines.append(f"| {rules.columns}x{rules.rows} | {rules.p} | {row['outcome']} | {row['end_move']} | "
                     f"{row['score']} | {row['check']} | {row['seconds']} |")
    return lines


def p_findings(rows: dict[Rules, dict[str, str]]) -> list[str]:
    """Where the first player's win stops as p falls, per board, and what
    the full game's value implies for the smaller p."""
    lines = []
    for size in sorted({(r.columns, r.rows, r.c) for r in rows}):
        same = {r.p: rows[r] for r in rows if (r.columns, r.rows, r.c) == size}
        board = f"{size[0]}x{size[1]}, c = {size[2]}"
        wins = sorted(p for p, row in same.items() if row["outcome"] == "first")
        known_below = [p for p, row in same.items() if row["outcome"] != "unknown" and wins and p < wins[0]]
        unknown = sorted(p for p, row in same.items() if row["outcome"] == "unknown")
        if wins:
            text = f"{board}: the first player wins for p = {', '.join(map(str, wins))}"
            if known_below:
                highest = max(known_below)
                text += f"; the largest p below that solved: p = {highest}, a {same[highest]['outcome']}" \
                        + (" (the first player's win is gone)" if same[highest]["outcome"] != "first" else "")
        else:
            text = f"{board}: the first player wins for no p in the table"
        if unknown:
            text += f"; unknown (out of time): p = {', '.join(map(str, unknown))}"
        lines.append("- " + text + ".")
        full = max(same)
        if same[full]["end_move"] not in ("?", "") and 2 * full >= size[0] * size[1]:
            end = int(same[full]["end_move"])
            against = [p for p, row in same.items() if 2 * p < end and row["outcome"] not in ("draw", "unknown")]
            verdict = (f"the table's solved values disagree at p = {', '.join(map(str, sorted(against)))}!"
                       if against else "the table's solved values agree (a check, not a value written for them)")
            lines.append(f"- The full game ({board}, p = {full}) ends on move {end} with perfect play, so every "
                         f"p with 2p < {end} must be a draw: a side that could force a win within 2p moves "
                         f"could do it in the full game too, whose first 2p moves are the same game; {verdict}.")
    return lines


def under_way(directory: str, table: TableSpec, rows: dict[Rules, dict[str, str]]) -> list[str]:
    """The table's boards not in it yet whose checkpoint holds answers,
    which the next run resumes."""
    found = []
    for rules in table.boards:
        path = checkpoint_path(directory, rules)
        if rules not in rows and (count := checkpoint_summary(path)[0]):
            link = os.path.relpath(path, directory)
            found.append(f"{rules.columns}x{rules.rows} ({count} answer{'s' if count > 1 else ''} about its split positions so far, "
                         f"in [{link}]({link}))")
    if not found:
        return []
    return ["", "Under way: " + ", ".join(found) + ". `clinea solved-tables` resumes a board from its "
            "checkpoint, at the deepest split depth that wrote it."]


def write_page(directory: str) -> None:
    """docs/solved/README.md from the standard tables found in `directory`."""
    parts = ["# Solved tables", "",
             "The value of the empty board, both sides playing perfectly, written by "
             "`clinea solved-tables` (`make solved-tables`). An entry such as `1st (41)` means the first "
             "player wins with the stone it plays on move 41, `2nd (24)` that the second player wins on "
             "move 24, `draw (16)` that the game is drawn when the 16th and last move is played; `?` that "
             "no value was found within the time limit (never guessed). Every exact value was checked "
             "against a separate win/draw/loss solve and, on the smallest boards, a pure-Python brute "
             "force (the `check` column of each CSV file).", ""]
    for table in standard_tables().values():
        path = os.path.join(directory, f"{table.name}.csv")
        rows = read_table(path)
        if not rows:
            continue
        unknown = sum(row["outcome"] == "unknown" for row in rows.values())
        missing = len(table.boards) - len(rows)
        parts += [f"## {table.title}", "",
                  f"[{table.name}.csv]({table.name}.csv): {len(rows)} boards, {unknown} unknown"
                  + (f", {missing} not reached yet" if missing else "") + ".", ""]
        if table.grid:
            parts += grid_section(table, rows)
        else:
            parts += p_findings(rows) + [""] + list_section(rows)
        parts += under_way(directory, table, rows)
        parts.append("")
    text = "\n".join(parts)
    partial = os.path.join(directory, PAGE + ".partial")
    with open(partial, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(partial, os.path.join(directory, PAGE))

