"""`clinea analyze`: the judge's games (or one move string) replayed with the
exact solver; every move marked with the value before and after it, the
moves that threw a win or a draw away, the move that decided the game, and
per player the share of moves that kept the value. Text, JSON lines, and a
PNG of the value along the games."""
from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from clinea.arena.analysis import GameAnalysis, analyse, solver_notation
from clinea.core import Board
from clinea.core.solver import Solver
from clinea.judge.results import ResultsError, read_header, read_records
from clinea.judge.seat_settings import shown_names
from clinea.players.options import add_board_options, bounded_float, command_parser
from clinea.progress import progress_bar
from clinea.solving.solve import position

EPILOG = """values: the solver's score for the player who moves (positive: a win,
larger is faster; 0 a draw; negative a loss), "?" where the position was not
solved within --time-limit; --weak gives only 1 / 0 / -1, sooner.

examples:
  clinea judge --player strong --player greedy --iterations 4 --results run.jsonl
  clinea analyze run.jsonl --plot run.png --jsonl run-analysis.jsonl
  clinea analyze 4453326 --columns 7 --rows 6
  clinea analyze 2,10,3 --columns 10 --rows 8 --c 5 --weak --time-limit 0.2"""

#: games drawn in the plot: more lines than this are unreadable
PLOTTED_GAMES = 12


class AnalyzeError(ValueError):
    """Input that cannot be analysed: the message names where and why."""


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("clinea analyze",
                            "Replay games with the exact solver and mark every move.",
                            EPILOG)
    parser.add_argument("games", metavar="RESULTS.jsonl|MOVES",
                        help="a results file of `clinea judge --results`, or one game as 1-based moves")
    add_board_options(parser, what="for MOVES")
    parser.add_argument("--time-limit", type=bounded_float("--time-limit", 0.0, what="a number of seconds"), default=1.0,
                        metavar="SECONDS",
                        help="solver time per position, 0 for no limit (default 1)")
    parser.add_argument("--weak", action="store_true", help="only win/draw/loss values: faster")
    parser.add_argument("--jsonl", metavar="FILE", help="also write one JSON line per game to FILE ('-': stdout)")
    parser.add_argument("--plot", metavar="FILE.png",
                        help=f"draw the value along the games (the first {PLOTTED_GAMES})")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def games_from(args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    """Judge records to analyse, as dicts: those of a results file (read
    and checked by the judge's own reader, which ignores fields it does not
    know), or one made of the move string."""
    if os.path.isfile(args.games):
        try:
            header = read_header(args.games)
        except ResultsError as error:
            raise AnalyzeError(f"{error} (not a results file of clinea judge?)") from None
        if header is None:
            raise AnalyzeError(f"{args.games}: empty, not a results file of clinea judge")
        shown = shown_names(header)  # a course match's seats, as its tally names them
        records = read_records(args.games)
        for index in itertools.count():
            try:
                record = next(records).to_json()
            except StopIteration:
                return
            except ValueError as error:  # the judge's own check of every field
                raise AnalyzeError(f"{args.games}: game {index + 1}: not a judge record: {error}") from None
            size = tuple(record[key] for key in ("columns", "rows", "c", "p"))
            yield {**record, "rules": size, "moves": list(record["moves"]),
                   "players": [shown.get(name, name) for name in record["players"]],
                   "winner": shown.get(record["winner"], record["winner"])}
    try:
        board = position(Board(args.columns, args.rows, args.c, args.p), args.games)
    except ValueError as error:
        raise AnalyzeError(f"{args.games!r} is neither a results file nor a move string: {error}") from None
    yield {"id": args.games, "rules": board.rules, "moves": board.moves(), "players": ["X", "O"]}


def shown(value: int | None) -> str:
    return "?" if value is None else f"{value:+d}" if value else "0"


def game_text(record: dict[str, Any], game: GameAnalysis, names: list[str]) -> str:
    columns, rows, c, p = record["rules"]
    notation = solver_notation(game.moves, columns, rows, c, p)
    result = record.get("winner")
    ending = f"winner {result}" if result else ("a draw" if "winner" in record else "")
    if record.get("reason"):
        ending += f" ({record['reason']})"
    lines = [f"game {record['id']}: {columns}x{rows} c={c} p={p}, players {names[0]} (first) and {names[1]} (second), "
             f"moves {notation or '-'} in the solver's 1-based notation {ending}".rstrip(),
             "   ply  player          col  before  after   (columns from 0, as the judge numbers them)"]
    for mark in game.marks:
        note = {None: "  lost faster" if mark.lost_faster else "", "win": "  threw away a win",
                "draw": "  threw away a draw"}[mark.lost]
        lines.append(f"  {mark.ply:4d}  {names[mark.player]:14.14s}  {mark.column:3d}  {shown(mark.before):>6s}"
                     f"  {shown(mark.after):>5s}{note}")
    decided = "unknown" if game.decided_at is None else (
        "from the start" if game.decided_at == 0 else f"by ply {game.decided_at}")
    kept = ", ".join(f"{names[player]} {share_text(*game.kept_counts(player))}" for player in (0, 1))
    lines.append(f"  result decided {decided}; moves that kept the value: {kept}")
    return "\n".join(lines)


def share_text(kept: int, judged: int) -> str:
    return f"{100 * kept / judged:.0f}% ({kept}/{judged})" if judged else "-"


def plot_values(path: str, analysed: list[tuple[dict[str, Any], GameAnalysis]]) -> None:
    """The first player's value along each game, the moves that threw a
    result away marked with a cross where they landed."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(9, 4.8))
    for record, game in analysed[:PLOTTED_GAMES]:
        names = record.get("players") or ["X", "O"]
        plies = range(len(game.first_player_values))
        values = [float("nan") if v is None else v for v in game.first_player_values]
        line, = axes.plot(plies, values, marker=".", label=f"{record['id']} ({names[0]} first)")
        blunders = [mark.ply for mark in game.marks if mark.lost]
        axes.plot(blunders, [values[ply] for ply in blunders], "x", color=line.get_color(), markersize=10)
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_xlabel("ply (x: a move that threw a win or a draw away)")
    axes.set_ylabel("value for the first player")
    axes.set_title("exact value along the game")
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        records = list(games_from(args))
    except (AnalyzeError, ValueError, OSError) as error:  # ValueError: a line of the file is not JSON
        print(f"clinea analyze: {error}", file=sys.stderr)
        return 2
    from tqdm import tqdm  # tqdm.write: results printed around a bar on the terminal

    solver = Solver()
    # a tqdm bar on a terminal, a plain line now and then in a log file
    bar = None if args.quiet else progress_bar(sum(len(r["moves"]) + 1 for r in records), 0, "position")
    advance = bar.update if bar is not None else (lambda n=1: None)
    analysed: list[tuple[dict[str, Any], GameAnalysis]] = []
    jsonl: TextIO | None = None if args.jsonl is None else (sys.stdout if args.jsonl == "-" else open(args.jsonl, "w", encoding="utf-8"))
    kept_by_name: dict[str, list[int]] = {}
    try:
        for record in records:
            try:
                game = analyse(record["rules"], record["moves"], solver, args.time_limit, args.weak, advance)
            except ValueError as error:  # an illegal move or a bad size in a record
                print(f"clinea analyze: game {record['id']}: {error}", file=sys.stderr)
                return 2
            names = list(record.get("players") or ["X", "O"])
            analysed.append((record, game))
            if args.jsonl != "-":
                tqdm.write(game_text(record, game, names), file=sys.stdout)
            if jsonl is not None:
                jsonl.write(json.dumps({"id": record["id"], "players": names, **game.to_dict(),
                                        "notation": solver_notation(game.moves, *record["rules"])}) + "\n")
            for player in (0, 1):
                tally = kept_by_name.setdefault(names[player], [0, 0])
                for index, count in enumerate(game.kept_counts(player)):
                    tally[index] += count
    finally:
        if bar is not None:
            bar.close()
        if jsonl not in (None, sys.stdout):
            jsonl.close()
    if args.jsonl != "-":
        print("moves that kept the value: "
              + ", ".join(f"{name} {share_text(kept, judged)}" for name, (kept, judged) in kept_by_name.items()))
    if args.plot:
        # matplotlib writes a name without an extension as a .png: say the name it wrote
        plot = args.plot if os.path.splitext(args.plot)[1] else args.plot + ".png"
        plot_values(plot, analysed)
        print(f"wrote {plot}", file=sys.stderr)
    return 0
