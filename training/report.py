"""What a training run leaves behind: a CSV row per generation/iteration,
a PNG of the fitness curves, a progress bar while it runs, and the final
evaluation printed."""
from __future__ import annotations

import csv
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType, ModuleType
from typing import Any, TextIO

from clinea.core import Rules
from clinea.progress import progress_bar
from clinea.training.fitness import GameTally, tallies, versus
from clinea.training.parallel import ChunkMapper

COLUMNS = ["iteration", "best", "worst", "mean", "median", "elapsed"]

# what sees a run's best weights as it goes: watch(generation or iteration, weights)
Watch = Callable[[int, list[float]], None]
# {opponent: (tally moving first, tally moving second)}
Evaluation = dict[str, tuple[GameTally, GameTally]]


class Budget:
    """Stops a run after `iterations` and/or `time_limit` seconds (whichever
    comes first; at least one must be set)."""

    def __init__(self, iterations: int | None, time_limit: float | None) -> None:
        if iterations is None and time_limit is None:
            raise ValueError("give a generation/iteration limit, --time-limit, or both")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations={iterations} is out of range: allowed 1 or more")
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"--time-limit {time_limit} is out of range: allowed more than 0 seconds")
        self.iterations = iterations
        self.time_limit = time_limit
        self.start = time.perf_counter()

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def more(self, done: int) -> bool:
        if self.iterations is not None and done >= self.iterations:
            return False
        return self.time_limit is None or self.elapsed() < self.time_limit


class Recorder:
    """Writes the CSV as the run goes (a crash leaves the rows so far) and
    drives the progress bar. The file is made by the first row: a run
    refused before it (a setting out of range) leaves an earlier run's CSV
    as it was."""

    def __init__(self, path: str | os.PathLike[str], budget: Budget, extra: Sequence[str] = (),
                 label: str = "training", quiet: bool = False) -> None:
        self.path = path
        self.budget = budget
        self.columns = COLUMNS + list(extra)
        self.rows: list[dict[str, Any]] = []
        self.best: tuple[list[float], float] | None = None
        self._file: TextIO | None = None
        total = budget.iterations if budget.iterations is not None else None
        self._bar = None if quiet else progress_bar(total, unit="iteration", desc=label)

    def record(self, iteration: int, stats: dict[str, float], best: tuple[Sequence[float], float],
               **extra: object) -> None:
        """One row; `best` is (the run's best weights so far, their fitness),
        what an interrupted run writes."""
        row = {"iteration": iteration, **{k: round(stats[k], 6) for k in ("best", "worst", "mean", "median")},
               "elapsed": round(self.budget.elapsed(), 3), **extra}
        with interrupts_held():
            # a run interrupted here writes `best` and len(rows) beside the CSV: all three must agree
            self.best = (list(best[0]), best[1])
            self.rows.append(row)
            if self._file is None:
                self._file = open(self.path, "w", newline="")
                self._writer = csv.DictWriter(self._file, fieldnames=self.columns)
                self._writer.writeheader()
            self._writer.writerow(row)
            self._file.flush()
        if self._bar is not None:
            self._bar.update(1)
            self._bar.set_postfix(best=f"{stats['best']:.3f}", mean=f"{stats['mean']:.3f}")

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        if self._file is not None:
            self._file.close()


HELD_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM arriving inside the block take effect when it ends
    (Python runs signal handlers in the main thread only, so elsewhere the
    block is plain)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []
    previous: dict[signal.Signals, Callable[[int, FrameType | None], Any] | int | None] = {}
    try:
        for number in HELD_SIGNALS:
            # a signal before this swap raises at once, with nothing yet to restore
            previous[number] = signal.signal(number, lambda number, frame: arrived.append(number))
        yield
    finally:
        for held, handler in previous.items():
            signal.signal(held, handler)
        for arrival in arrived:
            signal.raise_signal(arrival)  # now to the handlers the program had


def plotting() -> ModuleType:
    """matplotlib's pyplot, without a display (CI and servers have none).
    Slow the first time (about a second): a run loads it before it starts,
    so that an interrupted run still writes its PNG at once."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


# what one row of a method's CSV is, for the plot's x axis
STEP_NAMES = {"genetic": "generation", "grid": "grid step (one pair of weights)"}


def plot(rows: Sequence[dict[str, Any]], path: str | os.PathLike[str], title: str,
         method: str | None = None) -> None:
    """The best / mean / median / worst curves against the iteration, as a
    PNG; when the rows carry the champion's wins and losses (grid rules b
    and c), those per step instead: the spread of all candidates says little
    about where the search stands."""
    plt = plotting()

    figure, axes = plt.subplots(figsize=(8, 4.5))
    x = [row["iteration"] for row in rows]
    if rows and rows[0].get("champion_wins") not in (None, ""):
        axes.plot(x, [row["champion_wins"] for row in rows], "-o", label="champion's wins")
        axes.plot(x, [row["champion_losses"] for row in rows], "--o", label="champion's losses")
        axes.set_ylabel("games")
    else:
        for key, style in (("best", "-"), ("mean", "--"), ("median", ":"), ("worst", "-.")):
            axes.plot(x, [row[key] for row in rows], style, label=key)
        axes.set_ylabel("fitness")
    axes.set_xlabel(STEP_NAMES.get(method or "", "iteration"))
    axes.set_title(title)
    axes.legend()
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def final_evaluation(values: Sequence[float], geometry: Rules, c: int, games_each_colour: int, seed: int,
                     runner: ChunkMapper, depth: int = 4) -> Evaluation:
    """The winner against random and against randomized minimax, `games_each_colour`
    games moving first and as many moving second. Returns
    {opponent: (first GameTally, second GameTally)}."""
    result: Evaluation = {}
    for kind in ("random", "minimax"):
        games = versus([values], geometry, c, kind, games_each_colour, seed, runner, depth)[0]
        result[kind] = tallies(games)
    return result


def print_evaluation(evaluation: Evaluation, out: TextIO | None = None) -> None:
    names = {"random": "random", "minimax": "randomized minimax"}
    for kind, (first, second) in evaluation.items():
        print(f"against {names[kind]}: moving first {first}; moving second {second}", file=out)
