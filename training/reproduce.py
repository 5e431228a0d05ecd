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
counts (CI runs it); the full form takes hours on two cores.
"""
from __future__ import annotations

import argparse
import csv
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypedDict

from clinea.bounded import GIB, MIB, bounded_lines
from clinea.core import Rules
from clinea.judge.referee import play_bots
from clinea.judge.stats import wilson_interval
from clinea.judge.tournament import random_opening
from clinea.players.options import bounded_int
from clinea.players.weights import Weights
from clinea.progress import Progress, progress_bar
from clinea.training import figures, lms, paper, search_table
from clinea.training.fitness import GameTally, outcome_for, versus
from clinea.training.games import greedy
from clinea.training.parallel import ChunkMapper, ProcessPool
from clinea.training.parametrisation import to_weights
from clinea.training.report import Budget, Recorder

EXAMPLES = """examples:
  clinea reproduce --quick --out results-quick       # every table, tiny settings, seconds
  clinea reproduce --jobs 2                          # the reports' settings: an hour or two
  clinea reproduce --only ga grid-c --seeds 5"""

PLAYERS_DIR = Path(__file__).resolve().parents[1] / "players"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="clinea reproduce", description=(__doc__ or "").split("\n\n")[0],
                                     epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="tiny settings, same code path (what CI runs)")
    parser.add_argument("--seeds", type=bounded_int("--seeds", 1), default=3, help="seeds per row (default 3)")
    parser.add_argument("--games", type=bounded_int("--games", 1), default=None,
                        help="evaluation games per colour against random (default 1000, quick 10)")
    parser.add_argument("--jobs", type=bounded_int("--jobs", 1), default=1,
                        help=f"worker processes (this machine has {os.cpu_count()})")
    parser.add_argument("--out", default="results", help="folder for REPORT.md and the plots (default results)")
    keys = [row.key for row in paper.ROWS] + ["search", "cross-table", "lms"]
    parser.add_argument("--only", nargs="+", choices=keys, metavar="PART",
                        help=f"run only these parts: {', '.join(keys)} (default all)")
    return parser


# ------------------------------------------------------------ the greedy table

# one row's training on one seed: its weights, their games against random,
# the curve of each generation's best and the rows of its CSV
class SeedRun(TypedDict):
    seed: int
    weights: list[float]
    tally: GameTally
    wall: float
    curve: dict[str, list[tuple[int, float]]]
    rows: list[dict[str, str]]


class RowResult(TypedDict):
    row: paper.Row
    runs: list[SeedRun]


def win_share(values: Sequence[float], geometry: Rules, opponent: str, games_each_colour: int, seed: int,
              runner: ChunkMapper) -> GameTally:
    return GameTally.of(versus([values], geometry, geometry.c, opponent, games_each_colour, seed, runner)[0])


def run_row(row: paper.Row, quick: bool, seeds: int, games: int, runner: ChunkMapper, out: Path,
            bar: Progress) -> RowResult:
    """Trains and evaluates one row on every seed; returns its figures and curves."""
    runs: list[SeedRun] = []
    reference_games = 2 if quick else 25
    every = 1 if quick else 5
    for k in range(seeds):
        seed = 1000 * (k + 1)
        curve: dict[str, list[tuple[int, float]]] = {name: [] for name in row.reference}

        def watch(generation: int, best: list[float], curve: dict[str, list[tuple[int, float]]] = curve,
                  seed: int = seed) -> None:
            # each generation's best against opponents that do not change
            if generation != 1 and generation % every:
                return
            for name in row.reference:
                tally = win_share(best, row.geometry, name, reference_games, seed + generation, runner)
                curve[name].append((generation, 100 * tally.wins / tally.games))

        csv_path = out / "runs" / f"{row.key}-seed{k + 1}.csv"
        start = time.perf_counter()
        weights = paper.train(row, quick, seed, runner, csv_path, watch)
        wall = time.perf_counter() - start
        tally = win_share(weights, row.geometry, "random", games, seed + 7, runner)
        rows = _read_csv(csv_path) if csv_path.exists() else []
        runs.append({"seed": seed, "weights": weights, "tally": tally, "wall": wall, "curve": curve, "rows": rows})
        to_weights(weights, row.geometry.c, {"made_by": f"clinea reproduce {row.key}", "seed": seed}).save(
            out / "runs" / f"{row.key}-seed{k + 1}.json")
        bar.set_postfix(part=row.key, seed=f"{k + 1}/{seeds}",
                        won=f"{100 * tally.wins / tally.games:.1f} % against random")
        bar.update(1)
    return {"row": row, "runs": runs}


def _read_csv(path: Path) -> list[dict[str, str]]:
    """The rows of a training run's CSV (one row per iteration, under 1 KB)."""
    with open(path, "rb") as f:
        return list(csv.DictReader(line.decode("utf-8") for line in bounded_lines(f, str(path), MIB, GIB)))


def row_figures(result: RowResult) -> dict[str, Any]:
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


def row_plots(result: RowResult, out: Path, quick: bool) -> list[str]:
    row = result["row"]
    runs = result["runs"]
    names = []
    size = f"{row.geometry.columns}x{row.geometry.rows} c={row.geometry.c}"
    if row.kind == "genetic":
        name = f"{row.key}.png"
        figures.genetic_curves(out / name, f"{row.key}: {size}",
                               {n: [r["curve"][n] for r in runs] for n in row.reference},
                               [[float(x["best"]) for x in r["rows"]] for r in runs])
        names.append(name)
    if row.kind == "grid":
        name = f"{row.key}.png"
        figures.grid_curves(out / name, f"{row.key}: champion after each step, {size}",
                            [[float(x["champion_wins"]) for x in r["rows"]] for r in runs],
                            [[float(x["champion_losses"]) for x in r["rows"]] for r in runs],
                            2 * row.settings_for(quick)["games"])
        names.append(name)
    return names


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


def lms_part(quick: bool, seeds: int, games: int, runner: ChunkMapper, out: Path) -> dict[str, Any]:
    """LMS by self-play on 7x6; the learner measured against random as it
    learns, then against random and against the hand-made greedy."""
    geometry = paper.STANDARD
    iterations = 3 if quick else 100
    per_iteration = 4 if quick else 20
    every, reference_games = (1, 2) if quick else (5, 50)
    openings = 2 if quick else 100
    curves: list[list[tuple[int, float]]] = []
    against_random: list[GameTally] = []
    against_greedy: list[GameTally] = []
    for k in range(seeds):
        seed = 1000 * (k + 1)
        rng = random.Random(seed)
        start = [rng.uniform(-0.1, 0.1) for _ in Weights.default().for_c(geometry.c)]
        budget = Budget(iterations, None)
        recorder = Recorder(out / "runs" / f"lms-seed{k + 1}.csv", budget, ["win_rate", "victory_rate", "rate"],
                            quiet=True)
        curve: list[tuple[int, float]] = []

        def watch(iteration: int, weights: list[float], curve: list[tuple[int, float]] = curve,
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
            "greedy": against_greedy, "openings": openings}


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


# ------------------------------------------------------------ REPORT.md

def _pct(tally: GameTally) -> str:
    return f"{100 * tally.wins / tally.games:.1f} %"


def write_report(out: Path, args: argparse.Namespace, results: list[RowResult],
                 search: search_table.Measures | None, table: str | None, learned: dict[str, Any] | None,
                 wall: float, games: int) -> None:
    form = "quick (tiny settings: the figures say nothing about strength)" if args.quick else "full"
    lines = ["# clinea against its reports", "",
             f"Written by `clinea reproduce{' --quick' if args.quick else ''}` ({form}), {args.seeds} seeds, "
             f"{os.cpu_count()} cores, {args.jobs} jobs, {wall:.0f} s in all.", ""]
    if results:
        lines += ["## Greedy player: share of games won against random", "",
                  f"{2 * games} games per seed and row, half moving first. *ours* pools every seed's games: "
                  "the share won with its 95 % Wilson interval; *seeds* is the lowest and highest share "
                  "of one seed (two decimals: one game in 6,000 is 0.02 %); *wall* the median training "
                  "time of one seed.", "",
                  "| experiment | report | ours (95 % interval) | seeds (min-max) | beats report | draws | wall | settings |",
                  "|---|---|---|---|---|---|---|---|"]
        plots = ["greedy-table.png"]
        summary = []
        for result in results:
            row = result["row"]
            f = row_figures(result)
            beats = "baseline" if row.kind == "random weights" else ("yes" if f["rate"] >= row.report else "no")
            summary.append((row.key, row.report, f))
            settings = ", ".join(f"{k} {v}" for k, v in row.settings_for(args.quick).items()) or "-"
            geometry = row.geometry
            lines.append(f"| {row.title} ({geometry.columns}x{geometry.rows} c{geometry.c} p{geometry.p}) | "
                         f"{row.report:g} % | {f['rate']:.2f} % ({f['low']:.2f}-{f['high']:.2f}) | "
                         f"{f['min']:.2f}-{f['max']:.2f} % | {beats} | {f['draws']} | {f['wall']:.2f} s | {settings} |")
            plots += row_plots(result, out, args.quick)
        figures.table_bars(out / "greedy-table.png", [k for k, _, _ in summary], [r for _, r, _ in summary],
                           [f["rate"] for _, _, f in summary], [(f["low"], f["high"]) for _, _, f in summary],
                           [f["seeds"] for _, _, f in summary])
        lines += [""] + [f"![{p}]({p})" for p in plots] + [""]
    if search:
        lines += ["## Connect-4 report: nodes and time per move by depth", "",
                  search_table.markdown(search), "", "![search](search.png)", ""]
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
        for k, (r, g) in enumerate(zip(learned["random"], learned["greedy"]), 1):
            lines.append(f"| {k} | {_pct(r)} ({r}) | {_pct(g)} ({g}) |")
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
    wanted = set(args.only or [row.key for row in paper.ROWS] + ["search", "cross-table", "lms"])
    rows = [row for row in paper.ROWS if row.key in wanted]
    start = time.perf_counter()
    results: list[RowResult] = []
    search: search_table.Measures | None = None
    table: str | None = None
    learned: dict[str, Any] | None = None
    bar = progress_bar(len(rows) * args.seeds, unit="run", desc="reproduce")
    try:
        with ProcessPool(args.jobs) as runner:
            for row in rows:
                bar.set_postfix(part=row.key)
                results.append(run_row(row, args.quick, args.seeds, games, runner, out, bar))
            if "lms" in wanted:
                bar.set_postfix(part="lms")
                learned = lms_part(args.quick, args.seeds, games, runner, out)
    finally:
        bar.close()
    if "search" in wanted:
        search = search_table.measure(args.quick)
        figures.search_curves(out / "search.png", f"7x6 c=4, the evaluator's evaluation, {search['positions']} "
                              "positions", search["depths"], search["nodes"], search["seconds"])
    if "cross-table" in wanted:
        table = cross_table(args.quick, out)
    write_report(out, args, results, search, table, learned, time.perf_counter() - start, games)
    print(f"wrote {out / 'REPORT.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
