"""`clinea reproduce`: the tables of the reports clinea comes from, in one
command, written to OUT/REPORT.md with their plots beside it.

  greedy player (clinea.training.paper): every row trained once per seed,
      its weights then play games against random, half moving first;
  Connect-4 report: nodes and time per move by depth, plain minimax against
      alpha-beta without and with move ordering (clinea.training.search_table);
  Othello report: a cross-table of every player against every other,
      drawn by `clinea judge` itself over real player processes;
  LMS report: a linear evaluation learned by self-play with a cooling
      rate, its learning curve and its score against random and greedy.

`--quick` runs the same code with tiny populations, generations and game
counts (CI runs it). Every run prints its own wall and CPU time at the end
and writes it at the top of OUT/REPORT.md: that is the figure to quote for
how long the full form takes (results/REPORT.md holds the last full run's).
"""
from __future__ import annotations

import argparse
import csv
import math
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from clinea.bounded import GIB, MIB, bounded_lines
from clinea.core import Rules
from clinea.core.solver import Solver
from clinea.judge.referee import play_bots
from clinea.judge.stats import wilson_interval
from clinea.judge.tournament import random_opening
from clinea.players.options import bounded_int, command_parser
from clinea.players.weights import Weights
from clinea.progress import Progress, progress_bar
from clinea.training import figures, lms, optimality, paper, run_time, search_games, search_table, verdict
from clinea.training.fitness import GameTally, outcome_for, versus
from clinea.training.games import greedy
from clinea.training.parallel import ChunkMapper, ProcessPool
from clinea.training.parametrisation import to_weights
from clinea.training.report import Budget, Recorder
from clinea.training.search_table import Measures

EXAMPLES = """examples:
  clinea reproduce --quick --out results-quick       # every table, tiny settings
  clinea reproduce --jobs 2                          # the reports' settings (time: see results/REPORT.md)
  clinea reproduce --only ga grid-c --seeds 9001,9002,9003
  clinea reproduce --only ga-9x8 --seed-base 9001 --seeds 5

Each run ends with its wall and CPU time, also written at the top of REPORT.md."""

PLAYERS_DIR = Path(__file__).resolve().parents[1] / "players"
OTHER_PARTS = ["search", "win-table", "pruning", "optimality", "cross-table", "lms"]


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("clinea reproduce", __doc__.split("\n\n")[0], EXAMPLES)
    parser.add_argument("--quick", action="store_true", help="tiny settings, same code path (what CI runs)")
    verdict.add_seed_options(parser)
    parser.add_argument("--games", type=bounded_int("--games", 1), default=None,
                        help="evaluation games per colour against random (default 1000, quick 10)")
    parser.add_argument("--jobs", type=bounded_int("--jobs", 1), default=1,
                        help=f"worker processes (this machine has {os.cpu_count()})")
    parser.add_argument("--out", default="results", help="folder for REPORT.md and the plots (default results)")
    keys = [row.key for row in paper.ROWS] + OTHER_PARTS
    parser.add_argument("--only", nargs="+", choices=keys, metavar="PART",
                        help=f"run only these parts: {', '.join(keys)} (default all)")
    return parser


# ------------------------------------------------------------ the greedy table

def win_share(values: Sequence[float], geometry: Rules, opponent: str, games_each_colour: int, seed: int,
              runner: ChunkMapper) -> GameTally:
    return GameTally.of(versus([values], geometry, geometry.c, opponent, games_each_colour, seed, runner)[0])


def run_row(row: paper.Row, quick: bool, seeds: list[int], games: int, runner: ChunkMapper, out: Path,
            bar: Progress) -> dict[str, Any]:
    """Trains and evaluates one row on every seed; returns its figures and curves."""
    runs: list[dict[str, Any]] = []
    reference_games = 2 if quick else 25
    every = 1 if quick else 5
    (out / "runs" / row.key).mkdir(parents=True, exist_ok=True)
    for k, seed in enumerate(seeds):
        curve: dict[str, list[tuple[int, float]]] = {name: [] for name in row.reference}

        def watch(generation: int, best: Sequence[float], curve: dict[str, list[tuple[int, float]]] = curve,
                  seed: int = seed) -> None:
            # each generation's best against opponents that do not change
            if generation != 1 and generation % every:
                return
            for name in row.reference:
                tally = win_share(best, row.geometry, name, reference_games, seed + generation, runner)
                curve[name].append((generation, 100 * tally.wins / tally.games))

        csv_path = paper.run_path(out, row, seed, "csv")
        start = time.perf_counter()
        weights = paper.train(row, quick, seed, runner, csv_path, watch)
        wall = time.perf_counter() - start
        tally = win_share(weights, row.geometry, "random", games, seed + 7, runner)
        rows = _read_csv(csv_path) if csv_path.exists() else []
        runs.append({"seed": seed, "weights": weights, "tally": tally, "wall": wall, "curve": curve, "rows": rows})
        to_weights(weights, row.geometry.c, {"made_by": f"clinea reproduce {row.key}", "seed": seed,
                                             **paper.run_info(row, tally, wall)}).save(
            paper.run_path(out, row, seed, "json"))
        bar.set_postfix(part=row.key, seed=f"{k + 1}/{len(seeds)}",
                        won=f"{100 * tally.wins / tally.games:.1f} % against random")
        bar.update(1)
    return {"row": row, "runs": runs}


def _read_csv(path: Path) -> list[dict[str, str]]:
    """The rows of a training run's CSV (one row per iteration, under 1 KB)."""
    with open(path, "rb") as f:
        return list(csv.DictReader(line.decode("utf-8") for line in bounded_lines(f, str(path), MIB, GIB)))


def row_figures(result: dict[str, Any]) -> dict[str, Any]:
    """Pooled win rate with its 95 % Wilson interval, and the spread of the per-seed rates."""
    runs = result["runs"]
    wins = sum(r["tally"].wins for r in runs)
    n = sum(r["tally"].games for r in runs)
    rates = [100 * r["tally"].wins / r["tally"].games for r in runs]
    low, high = wilson_interval(wins / n, n)
    return {"rate": 100 * wins / n, "low": 100 * low, "high": 100 * high, "min": min(rates), "max": max(rates),
            "seeds": rates,
            "draws": sum(r["tally"].draws for r in runs), "games": n,
            "wall": statistics.median(r["wall"] for r in runs)}


def row_plots(result: dict[str, Any], out: Path, quick: bool) -> list[str]:
    row = result["row"]
    runs = result["runs"]
    names = []
    size = f"{row.geometry.columns}x{row.geometry.rows} c={row.geometry.c}"
    if row.kind == "genetic":
        name = f"{row.key}.png"
        figures.genetic_curves(out / name, f"{row.key}: {size}",
                               {n: [r["curve"][n] for r in runs] for n in row.reference},
                               population_statistics(runs))
        names.append(name)
    if row.kind == "grid" and row.settings_for(quick)["rule"] == "a":
        name = f"{row.key}.png"
        figures.population_curves(out / name, f"{row.key}: candidates' fitness 2 against the champion, {size}",
                                  population_statistics(runs), "grid step (one pair of weights)")
        names.append(name)
    elif row.kind == "grid":
        name = f"{row.key}.png"
        figures.grid_curves(out / name, f"{row.key}: champion after each step, {size}",
                            [[float(x["champion_wins"]) for x in r["rows"]] for r in runs],
                            [[float(x["champion_losses"]) for x in r["rows"]] for r in runs],
                            2 * row.settings_for(quick)["games"])
        names.append(name)
    return names


def population_statistics(runs: list[dict[str, Any]]) -> dict[str, list[list[float]]]:
    """Best, worst, mean and median per generation (or grid step), one list
    per seed, from each run's CSV."""
    return {name: [[float(x[name]) for x in r["rows"]] for r in runs] for name in figures.STATISTIC_STYLES}


# ------------------------------------------------------------ the other reports

def cross_table(quick: bool, out: Path) -> str:
    """`clinea judge`'s round robin over real player processes, its report as printed."""
    iterations = 2 if quick else 10
    players = {
        "random": [str(PLAYERS_DIR / "random")],
        "greedy": [str(PLAYERS_DIR / "greedy")],
        "minimax4": [str(PLAYERS_DIR / "randomized_minimax"), "--depth", "4"],
        "evaluator": [str(PLAYERS_DIR / "evaluator"), "--depth", "4"],
        "strong": [str(PLAYERS_DIR / "strong"), "--time-per-move", "0.05" if quick else "0.1"],
    }
    command = [sys.executable, "-m", "clinea.judge"]
    for name, argv in players.items():
        command += ["--player", f"{name}={' '.join(argv)}"]
    command += ["--iterations", str(iterations), "--columns", "7", "--rows", "6", "--c", "4", "--p", "21",
                "--seed", "1", "--concurrency", "2", "--results", str(out / "runs" / "cross-table.jsonl")]
    if (out / "runs" / "cross-table.jsonl").exists():
        (out / "runs" / "cross-table.jsonl").unlink()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return done.stdout


def lms_part(quick: bool, seeds: list[int], games: int, runner: ChunkMapper, out: Path) -> dict[str, Any]:
    """LMS by self-play on 7x6; the learner measured against random as it
    learns, then against random and against the hand-made greedy."""
    geometry = paper.STANDARD
    iterations = 3 if quick else 100
    per_iteration = 4 if quick else 20
    every, reference_games = (1, 2) if quick else (5, 50)
    openings = 2 if quick else 100
    curves, against_random, against_greedy = [], [], []
    (out / "runs" / "lms").mkdir(parents=True, exist_ok=True)
    for seed in seeds:
        rng = random.Random(seed)
        start = [rng.uniform(-0.1, 0.1) for _ in Weights.default().for_c(geometry.c)]
        budget = Budget(iterations, None)
        recorder = Recorder(out / "runs" / "lms" / f"{seed}.csv", budget, ["win_rate", "victory_rate", "rate"],
                            quiet=True)
        curve: list[tuple[int, float]] = []

        def watch(iteration: int, weights: Sequence[float], curve: list[tuple[int, float]] = curve,
                  seed: int = seed) -> None:
            if iteration == 1 or iteration % every == 0:
                tally = win_share(weights, geometry, "random", reference_games, seed + iteration, runner)
                curve.append((iteration, 100 * tally.wins / tally.games))

        try:
            weights, _ = lms.run(geometry, start, "self", per_iteration, 0.1, 0.97, budget, recorder, seed, watch)
        finally:
            recorder.close()
        curves.append(curve)
        against_random.append(win_share(weights, geometry, "random", games, seed + 1, runner))
        against_greedy.append(versus_greedy(weights, geometry, openings, seed + 2))
    figures.lms_curves(out / "lms.png", "LMS self-play on 7x6 c=4, rate 0.1 cooling 0.97", curves,
                       2 * reference_games)
    return {"iterations": iterations, "per_iteration": per_iteration, "random": against_random,
            "greedy": against_greedy, "openings": openings, "seeds": seeds}


def versus_greedy(weights: Sequence[float], geometry: Rules, openings: int, seed: int) -> GameTally:
    """The learner against the hand-made greedy from `openings` random
    two-ply openings, each played in both colours: both players are
    deterministic, so the openings are what makes the games differ."""
    rng = random.Random(seed)
    hand = Weights.default().for_c(geometry.c)
    tally = GameTally()
    for _ in range(openings):
        opening = random_opening(rng, geometry, 2)
        for me in (0, 1):
            pair = (greedy(weights, geometry.c), greedy(hand, geometry.c))
            first, second = pair if me == 0 else pair[::-1]
            tally.count(outcome_for(play_bots(first, second, *geometry, opening=opening).winner, me))
    return tally


def search_games_parts(wanted: set[str], quick: bool, out: Path) -> list[str]:
    """The Connect-4 report's win table, the course report's timing with and
    without pruning and the small-board optimality check, as REPORT.md lines
    (their plots written into `out`)."""
    lines: list[str] = []
    if "win-table" in wanted:
        depths = [1, 2] if quick else [1, 2, 3, 4, 5, 6]
        each = 5 if quick else 500
        rows = search_games.win_table(depths, each, seed=11)
        lines += ["## Connect-4 report: games won against random by depth", "",
                  f"Its alpha-beta player (centre first, its evaluation) against uniform random, {2 * each} "
                  "games a depth, half moving first, on 7x6 (c = 4):", "",
                  search_games.win_table_markdown(rows), ""]
    if "pruning" in wanted:
        count = 20 if quick else search_games.COMPARISON_MOVES
        depth = 2 if quick else 5
        seconds = search_games.pruning_timing(count, depth, seed=13)
        figures.pruning_curves(out / "pruning.png", f"time per move at depth {depth}, 7x6 c=4, "
                               f"{count} moves of real games", seconds)
        lines += ["## Course report: time per move with and without pruning", "",
                  search_games.pruning_markdown(seconds, depth), "", "![pruning](pruning.png)", ""]
    if "optimality" in wanted:
        geometry = optimality.SMALL
        positions = optimality.random_positions(geometry, 20 if quick else 1000, seed=17)
        players = {"the report's hand-made player (shipped weights)": paper.report_hand_made(geometry.c),
                   "our hand-made player (open windows)": paper.hand_made_with_windows(geometry.c)}
        solver = Solver()
        lines += ["## Course report: optimality on a small board", "",
                  f"{len(positions)} positions after random plies on {geometry.columns}x{geometry.rows} "
                  f"c={geometry.c} p={geometry.p}, each solved exactly: how often the greedy player's move "
                  "keeps the position's value (win, draw or loss).", "",
                  "| player | optimal moves | share |", "|---|---|---|"]
        for name, values in players.items():
            found = optimality.check(values, geometry, positions, solver)
            lines.append(f"| {name} | {found.optimal} of {found.positions} | {found.share:.1f} % |")
        lines.append("")
    return lines


# ------------------------------------------------------------ REPORT.md

def shortfall_notes(results: list[dict[str, Any]]) -> list[str]:
    """Under the table: for each report's-method row below the report's
    figure, what was measured about why (paper.SHORTFALLS)."""
    notes = []
    for result in results:
        row = result["row"]
        f = row_figures(result)
        if (row.report is not None and row.method.startswith(paper.REPORTS_METHOD)
                and verdict.verdict(f["low"], f["high"], row.report) == verdict.FALLS_SHORT):
            why = paper.SHORTFALLS.get(row.key, "not measured yet.")
            notes.append(f"- **{row.key}** falls short of the report's {row.report:g} %: {why}")
    return ["", "Where the report's method falls short of its figure, what was measured:", ""] + notes if notes else []


def _pct(tally: GameTally) -> str:
    return f"{100 * tally.wins / tally.games:.1f} %"


def write_report(out: Path, args: argparse.Namespace, results: list[dict[str, Any]], search: Measures | None,
                 table: str | None, learned: dict[str, Any] | None,
                 spent: run_time.Spent, games: int, seeds: list[int], extras: list[str]) -> None:
    form = "quick (tiny settings: the figures say nothing about strength)" if args.quick else "full"
    lines = ["# clinea against its reports", "",
             f"Written by `clinea reproduce{' --quick' if args.quick else ''}` ({form}), seeds "
             f"{', '.join(map(str, seeds))}, {os.cpu_count()} cores, {args.jobs} jobs: {spent}.", ""]
    if results:
        lines += ["## Greedy player: share of games won against random", "",
                  f"{2 * games} games per seed and row, half moving first. *method* says whether a row runs "
                  "the report's own parametrisation, fitness, opponent, grid step and budget, or what it "
                  "changes. *ours* pools every seed's games: the share won with its 95 % Wilson interval; "
                  "*against the report*: beats when the interval's lower bound is above the report's "
                  "figure, falls short when its upper bound is below, matches otherwise; *seeds* is the "
                  "lowest and highest share of one seed (two decimals: one game in 6,000 is 0.02 %), each "
                  "seed's weights and training curve in `runs/ROW/SEED.json` and `.csv`; *wall* the median "
                  "training time of one seed.", "",
                  "| experiment | method | report | ours (95 % interval) | seeds (min-max) | against the report "
                  "| draws | wall | settings |",
                  "|---|---|---|---|---|---|---|---|---|"]
        plots = ["greedy-table.png"]
        summary = []
        for result in results:
            row = result["row"]
            f = row_figures(result)
            standing = "-" if row.report is None else verdict.verdict(f["low"], f["high"], row.report)
            summary.append((row.key, row.report, f))
            settings = ", ".join(f"{k} {v}" for k, v in row.settings_for(args.quick).items()) or "-"
            geometry = row.geometry
            lines.append(f"| {row.title} ({geometry.columns}x{geometry.rows} c{geometry.c} p{geometry.p}) | "
                         f"{row.method} | {paper.report_figure(row)} | "
                         f"{f['rate']:.2f} % ({f['low']:.2f}-{f['high']:.2f}) | "
                         f"{f['min']:.2f}-{f['max']:.2f} % | {standing} | {f['draws']} | {f['wall']:.2f} s | {settings} |")
            plots += row_plots(result, out, args.quick)
        figures.table_bars(out / "greedy-table.png", [k for k, _, _ in summary],
                           [math.nan if r is None else r for _, r, _ in summary],
                           [f["rate"] for _, _, f in summary], [(f["low"], f["high"]) for _, _, f in summary],
                           [f["seeds"] for _, _, f in summary])
        lines += shortfall_notes(results)
        lines += [""] + [f"![{p}]({p})" for p in plots] + [""]
    if search:
        lines += ["## Connect-4 report: nodes and time per move by depth", "",
                  search_table.markdown(search), "", "![search](search.png)", ""]
    lines += list(extras)
    if table:
        lines += ["## Othello report: cross-table (`clinea judge`, real player processes)", ""]
        if "forfeits" in table:
            lines += ["**Some games were forfeited** (crash, timeout or bad move: see the `forfeits` lines): "
                      "those players' scores say nothing about their play.", ""]
        lines += ["```", table.strip(), "```", ""]
    if learned:
        lines += ["## LMS report: linear evaluation learned by self-play", "",
                  f"{learned['iterations']} iterations of {learned['per_iteration']} games, rate 0.1 cooling "
                  "0.97 per iteration, from small random weights; then, per seed, the share won against "
                  f"random ({2 * games} games) and against the hand-made greedy ({learned['openings']} random "
                  "two-ply openings, each in both colours):", "",
                  "| seed | against random | against the hand-made greedy |", "|---|---|---|"]
        for seed, r, g in zip(learned["seeds"], learned["random"], learned["greedy"]):
            lines.append(f"| {seed} | {_pct(r)} ({r}) | {_pct(g)} ({g}) |")
        lines += ["", "![lms](lms.png)", ""]
    (out / "REPORT.md").write_text("\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    out = Path(args.out)
    try:
        (out / "runs").mkdir(parents=True, exist_ok=True)
    except OSError as error:
        parser.error(f"--out {args.out!r} cannot be written: {error}")
    games = args.games or (10 if args.quick else 1000)
    seeds = verdict.seeds_of(parser, args)
    wanted = set(args.only or [row.key for row in paper.ROWS] + OTHER_PARTS)
    rows = [row for row in paper.ROWS if row.key in wanted]
    clock = run_time.Clock()
    results, search, table, learned = [], None, None, None
    bar = progress_bar(len(rows) * len(seeds), unit="run", desc="reproduce")
    try:
        with ProcessPool(args.jobs) as runner:
            for row in rows:
                bar.set_postfix(part=row.key)
                results.append(run_row(row, args.quick, seeds, games, runner, out, bar))
            if "lms" in wanted:
                bar.set_postfix(part="lms")
                learned = lms_part(args.quick, seeds, games, runner, out)
    finally:
        bar.close()
    if "search" in wanted:
        search = search_table.measure(args.quick)
        figures.search_curves(out / "search.png", f"7x6 c=4, the evaluator's evaluation, {search['positions']} "
                              "positions", search["depths"], search["nodes"], search["seconds"])
    extras = search_games_parts(wanted, args.quick, out)
    if "cross-table" in wanted:
        table = cross_table(args.quick, out)
    spent = clock.spent()
    write_report(out, args, results, search, table, learned, spent, games, seeds, extras)
    print(f"wrote {out / 'REPORT.md'}; {spent}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
