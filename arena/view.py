"""`clinea view`: the games of a results file as one self-contained HTML page.

Every game is replayed with the exact solver (clinea.arena.analysis, the same marks
as `clinea analyze`): each position's value where it solves within
`--solve-time`, else the strong player's evaluation, marked as such. The
page (arena/view_page.html, a small dependency-free front end) gets the
games as compact JSON in the file itself: no network, no other file, and a
Content-Security-Policy that allows only its own inline script and style,
so it opens from file:// anywhere and cannot reach out.
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import html
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

from clinea.arena.analysis import GameAnalysis, SolvedPositions, analyse, finishing_ply
from clinea.core import Board, Rules
from clinea.core.search import MATE_SCORE, Search
from clinea.core.solver import Solver
from clinea.core.timeman import Limits
from clinea.judge.record import GameRecord
from clinea.judge.results import ResultsError, read_header, read_records
from clinea.judge.seat_settings import shown_names
from clinea.players.options import command_parser
from clinea.progress import progress_bar

#: seconds the solver may spend on one position before the page shows the
#: evaluation instead: a run's 1000 games of 7x6 take about a minute
DEFAULT_SOLVE_TIME = 0.2
#: positions in a row out of time, walking back from a game's end, after
#: which the earlier ones (more to search) get a short try (analyse's hurry_after)
HURRY_AFTER = 3
#: plies the evaluation's search looks ahead where the solver did not finish
ESTIMATE_DEPTH = 2
PAGE = "view_page.html"

EPILOG = """The page shows every game of the file: a list to pick one (filters by player
and result), the board move by move (buttons, the slider, the arrow keys; Home
and End; up and down for the previous and next game; B for the first blunder),
each move's value (exact: win or loss in k more stones of the winner, or a
draw; else the evaluation's score, marked "eval"), a chart of the value along
the game, and the first move that threw a win or a draw away. Columns are
numbered from 0, as the judge's prompt and window number them.

examples:
  clinea judge --player strong --player greedy --iterations 10 --results run.jsonl
  clinea view run.jsonl                      (writes run.html)
  clinea view run.jsonl -o replays.html --solve-time 0.05
  clinea judge --player strong --player random --iterations 4 --results run.jsonl --view"""


class ViewError(ValueError):
    """A results file that cannot be shown: the message names it and why."""


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("clinea view",
                            "Write the games of a results file as one self-contained HTML replay page, "
                            "every move valued by the exact solver.",
                            EPILOG)
    parser.add_argument("results", metavar="RESULTS.jsonl", help="a results file of `clinea judge --results`")
    parser.add_argument("-o", "--output", metavar="FILE.html",
                        help="where to write the page (default: RESULTS with .html for .jsonl)")
    parser.add_argument("--solve-time", type=float, default=DEFAULT_SOLVE_TIME, metavar="SECONDS",
                        help=f"solver time per position, more than 0; past it the evaluation's score is "
                             f"shown (default {DEFAULT_SOLVE_TIME:g})")
    parser.add_argument("--quiet", action="store_true", help="no progress bar (default: off)")
    return parser


def default_output(results: str) -> str:
    """The page beside its results file: run.jsonl -> run.html."""
    stem, extension = os.path.splitext(results)
    return (stem if extension == ".jsonl" else results) + ".html"


def load_games(path: str) -> tuple[dict[str, Any], list[GameRecord]]:
    """The run header and the game records of a results file, read with
    the judge's own (bounded) reader; ViewError names what is wrong."""
    records: list[GameRecord] = []
    if not os.path.lexists(path):
        raise ViewError(f"{path}: no such file")
    try:
        header = read_header(path)
        if header is None:
            raise ViewError(f"{path}: empty, no run in it")
        for record in read_records(path):
            records.append(record)
    except ResultsError as error:
        raise ViewError(str(error)) from None
    except ValueError as error:  # a line that is not JSON, or not a game record
        raise ViewError(f"{path}: game {len(records) + 1} (line {len(records) + 2}): not a judge record: "
                        f"{error}") from None
    except OSError as error:
        raise ViewError(f"{path}: {error.strerror}") from None
    return header, records


class Valuer:
    """Values positions for the page: the solver within `solve_time` per
    position (positions kept between games), the evaluation's search where
    it does not finish."""

    def __init__(self, solve_time: float):
        self.solve_time = solve_time
        self.solver = Solver()
        self.search: Search | None = None
        self.solved: SolvedPositions = {}
        self.estimated: dict[tuple[Rules, int], int] = {}

    def analyse(self, record: GameRecord, progress: Callable[[], object]) -> GameAnalysis:
        return analyse(Rules(record.columns, record.rows, record.c, record.p), record.moves, self.solver,
                       self.solve_time, progress=progress, cache=self.solved, hurry_after=HURRY_AFTER)

    def estimate(self, board: Board) -> int:
        """The strong player's evaluation for the side to move, after a
        search of ESTIMATE_DEPTH plies (it sees the wins in one)."""
        key = (board.rules, board.key())
        if key not in self.estimated:
            if self.search is None:
                self.search = Search(tt_log2=16)
            score = self.search.think(board, Limits(time=self.solve_time, depth=ESTIMATE_DEPTH)).score
            assert score is not None  # the heuristic search always scores the position it is given
            self.estimated[key] = score
        return self.estimated[key]


def game_data(record: GameRecord, game: GameAnalysis, valuer: Valuer,
              index: dict[str, dict[Any, int]]) -> dict[str, Any]:
    """One game in the page's compact form (the keys are read by the page's
    script; see `page_data`)."""
    board = Board(record.columns, record.rows, record.c, record.p)
    values: list[int | None] = []
    estimates: dict[int, int] = {}
    for ply, value in enumerate(game.first_player_values):
        if value is not None:
            # the ply of the winning stone under best play, 0 a draw
            values.append(finishing_ply(value if ply % 2 == 0 else -value, ply, board.max_moves) or 0)
        else:
            values.append(None)
            estimate = valuer.estimate(board)
            estimates[ply] = estimate if ply % 2 == 0 else -estimate
        if ply < len(record.moves):
            board.play(record.moves[ply])
    opening = len(record.opening)
    marks = "".join("o" if mark.ply <= opening else "?" if mark.kept is None else
                    {"win": "W", "draw": "D"}.get(mark.lost or "", "F" if mark.lost_faster else ".")
                    for mark in game.marks)
    first_blunder = next((mark.ply for mark in game.marks if mark.ply > opening and mark.lost), None)
    players = list(record.players)
    data: dict[str, Any] = {
        "i": record.id,
        "b": interned(index["boards"], (record.columns, record.rows, record.c, record.p)),
        "p": [interned(index["names"], name) for name in players],
        "k": [interned(index["colours"], colour) for colour in record.colours],
        "w": -1 if record.winner is None else players.index(record.winner),
        "r": interned(index["reasons"], record.reason),
        "f": -1 if record.forfeit is None else players.index(record.forfeit),
        "o": opening,
        "m": list(record.moves),
        # tenths of a millisecond: the page shows a fast bot's 0.3 ms as such
        "t": [round(seconds * 10000) for seconds in record.times],
        "v": values,
        "a": marks,
    }
    if estimates:
        data["e"] = estimates
    if first_blunder is not None:
        data["x"] = first_blunder
    return data


def interned(table: dict[Any, int], value: object) -> int:
    """The index of `value` in a table of the page (names, reasons, ...),
    added at its end when new: each string is written once."""
    return table.setdefault(value, len(table))


class Page:
    """The page's data, built game by game: a game is valued once, so a
    page rewritten as games come in (clinea league) values only the new."""

    def __init__(self, solve_time: float) -> None:
        self.solve_time = solve_time
        self.valuer = Valuer(solve_time)
        self.index: dict[str, dict[Any, int]] = {"boards": {}, "names": {}, "colours": {}, "reasons": {}}
        self.games: list[dict[str, Any]] = []

    def add(self, path: str, record: GameRecord, progress: Callable[[], object] = lambda: None) -> None:
        """Values `record` (a game of the file `path`) and adds it to the page."""
        try:
            game = self.valuer.analyse(record, progress)
        except ValueError as error:  # an illegal move or a bad size in a record
            raise ViewError(f"{path}: game {record.id}: {error}") from None
        self.games.append(game_data(record, game, self.valuer, self.index))

    def data(self, path: str, header: dict[str, Any]) -> dict[str, Any]:
        """Everything the page shows, as JSON-ready data."""
        tables = {name: [list(key) if isinstance(key, tuple) else key for key in table]
                  for name, table in self.index.items()}
        labels = shown_names(header)
        tables["names"] = [labels.get(name, name) for name in self.index["names"]]
        return {
            "file": os.path.basename(path),
            "argv": header.get("argv", []),
            "solveTime": self.solve_time,
            "mate": MATE_SCORE,
            **tables,
            "games": self.games,
        }



def page_data(path: str, header: dict[str, Any], records: Sequence[GameRecord], solve_time: float,
              progress: Callable[[], object] = lambda: None) -> dict[str, Any]:
    """Everything the page shows, as JSON-ready data."""
    page = Page(solve_time)
    for record in records:
        page.add(path, record, progress)
    return page.data(path, header)


def csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def render(data: dict[str, Any], refresh: float | None = None, above: str = "", title: str | None = None) -> str:
    """The page: the template with the data inlined, and a policy that
    lets nothing but its own script and style run (no request can leave).
    `refresh`: seconds after which the browser reloads it (a league's
    page, rewritten as games come in); `above`: static HTML shown above
    the replays (a league's standings)."""
    template = resources.files("clinea.arena").joinpath(PAGE).read_text(encoding="utf-8")
    # "<" escaped: no name or reason in the data can close the script element
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c")
    text = template.replace("%%TITLE%%", html.escape(title or f"clinea replays: {data['file']}"), 1)
    text = text.replace("%%REFRESH%%", "" if refresh is None else
                        f'<meta http-equiv="refresh" content="{refresh:g}">', 1)
    text = text.replace("%%ABOVE%%", above, 1)
    text = text.replace("%%DATA%%", payload, 1)
    script, style = _element(text, "script"), _element(text, "style")
    policy = (f"default-src 'none'; script-src {csp_hash(script)}; style-src {csp_hash(style)}; "
              "img-src data:; base-uri 'none'; form-action 'none'")
    return text.replace("%%CSP%%", policy, 1)


def _element(page: str, tag: str) -> str:
    """The text inside the page's first <tag> element."""
    found = re.search(f"<{tag}>(.*?)</{tag}>", page, re.S)
    if found is None:
        raise ValueError(f"{PAGE} has no <{tag}> element")
    return found.group(1)


def write_view(results: str, output: str | None = None, solve_time: float = DEFAULT_SOLVE_TIME,
               quiet: bool = False) -> str:
    """Writes the page of the results file `results` to `output` (default
    beside it) and returns its path; ViewError for a file it cannot show."""
    header, records = load_games(results)
    output = output or default_output(results)
    bar = None if quiet else progress_bar(sum(len(record.moves) + 1 for record in records), 0, "position",
                                          "valuing the games")
    try:
        data = page_data(results, header, records, solve_time, bar.update if bar is not None else lambda: None)
    finally:
        if bar is not None:
            bar.close()
    text = render(data)
    try:
        with open(output, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as error:
        raise ViewError(f"{output}: {error.strerror}") from None
    return output


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.solve_time > 0:
        parser.error(f"--solve-time {args.solve_time:g} is out of range: allowed more than 0 seconds")
    try:
        output = write_view(args.results, args.output, args.solve_time, args.quiet)
    except ViewError as error:
        print(f"clinea view: {error}", file=sys.stderr)
        return 2
    print(f"wrote {output}", file=sys.stderr)
    return 0
