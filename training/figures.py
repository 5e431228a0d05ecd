"""The reproduction's plots: curves over seeds drawn as the median with the
min-max band, so one lucky seed cannot pass for the trend."""
from __future__ import annotations

import os
import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: CI and servers have no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

FilePath = str | os.PathLike[str]

OPPONENT_NAMES = {"minimax": "randomized minimax, depth 4"}


def _band(axes: Axes, x: Sequence[float], per_seed: Sequence[Sequence[float | None]], label: str,
          style: str = "-") -> None:
    """Median over seeds as a line, min..max as a shaded band; `per_seed`
    holds one list per seed, aligned with `x` (shorter lists end early)."""
    points = [(xi, [v for v in (s[k] for s in per_seed if k < len(s)) if v is not None]) for k, xi in enumerate(x)]
    points = [(xi, vs) for xi, vs in points if vs]
    if not points:
        return
    xs = [xi for xi, _ in points]
    line, = axes.plot(xs, [statistics.median(vs) for _, vs in points], style,
                      label=f"{label} (median of {len(per_seed)} seeds, band: min-max)")
    axes.fill_between(xs, [min(vs) for _, vs in points], [max(vs) for _, vs in points],
                      color=line.get_color(), alpha=0.2)


def _save(figure: Figure, axes: Axes, path: FilePath, title: str) -> None:
    axes.set_title(title)
    axes.grid(alpha=0.3)
    axes.legend(fontsize="small", loc="best")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def genetic_curves(path: FilePath, title: str, references: dict[str, list[list[tuple[int, float]]]],
                   fitness: dict[str, list[list[float]]]) -> None:
    """Top: each generation's best against fixed opponents (win rate, %);
    bottom: the best, worst, mean and median fitness of each generation
    (`fitness`: statistic -> one list per seed), as the report draws them:
    fitness moves with the population and so is no yardstick on its own,
    but the gap between best and worst shows whether it has converged."""
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    for name, per_seed in references.items():
        x = sorted({g for s in per_seed for g, _ in s})
        aligned = [[dict(s).get(g) for g in x] for s in per_seed]
        _band(top, x, aligned, f"best vs {OPPONENT_NAMES.get(name, name)}", "-o")
    top.set_ylabel("games won by the\ngeneration's best (%)")
    top.set_ylim(-2, 102)
    top.set_title(title)
    top.grid(alpha=0.3)
    top.legend(fontsize="small", loc="lower right")
    population_bands(bottom, fitness)
    bottom.set_xlabel("generation")
    bottom.set_ylabel("fitness (relative\nto the population)")
    _save(figure, bottom, path, "")


STATISTIC_STYLES = {"best": "-", "mean": "--", "median": ":", "worst": "-."}


def population_bands(axes: Axes, fitness: dict[str, list[list[float]]]) -> None:
    """Each statistic of the population per generation (best, mean, median,
    worst), over seeds as a median line in a min-max band."""
    length = max((len(s) for per_seed in fitness.values() for s in per_seed), default=0)
    for name, style in STATISTIC_STYLES.items():
        if name in fitness:
            _band(axes, list(range(1, 1 + length)), fitness[name], f"{name} fitness", style)


def population_curves(path: Path, title: str, fitness: dict[str, list[list[float]]], step_name: str) -> None:
    """The population's (or the candidates') best, mean, median and worst
    score per step, on their own (a grid under rule a, which keeps no
    champion's tally to draw)."""
    figure, axes = plt.subplots(figsize=(8, 4.5))
    population_bands(axes, fitness)
    axes.set_xlabel(step_name)
    axes.set_ylabel("score")
    _save(figure, axes, path, title)


def grid_curves(path: FilePath, title: str, wins: list[list[float]], losses: list[list[float]], games: int) -> None:
    """The champion's wins and losses after every grid step (the report's figure 5)."""
    figure, axes = plt.subplots(figsize=(8, 4.5))
    steps = list(range(1, 1 + max(len(s) for s in wins)))
    _band(axes, steps, wins, "champion's wins")
    _band(axes, steps, losses, "champion's losses", "--")
    axes.set_xlabel("grid step (one pair of weights)")
    axes.set_ylabel(f"games out of {games}")
    _save(figure, axes, path, title)


def lms_curves(path: FilePath, title: str, per_seed: list[list[tuple[int, float]]], games: int) -> None:
    """The learner against random as it learns (self-play alone says nothing:
    against its previous self it wins about half whatever it knows)."""
    figure, axes = plt.subplots(figsize=(8, 4.5))
    x = sorted({i for s in per_seed for i, _ in s})
    _band(axes, x, [[dict(s).get(i) for i in x] for s in per_seed], f"learner vs random, {games} games", "-o")
    axes.set_xlabel("iteration (self-play games, then an LMS update per game)")
    axes.set_ylabel("games won (%)")
    axes.set_ylim(-2, 102)
    _save(figure, axes, path, title)


def search_curves(path: FilePath, title: str, depths: Sequence[int], nodes: Mapping[str, Sequence[Sequence[float]]],
                  seconds: dict[str, list[list[float]]]) -> None:
    """Nodes and milliseconds per move against depth, log scale, one line per
    search: the median over the positions, the band their middle half."""
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    for axes, data, scale, label in ((left, nodes, 1, "nodes per move"), (right, seconds, 1000, "ms per move")):
        for name, per_depth in data.items():
            quartiles = [statistics.quantiles([scale * v for v in values], n=4, method="inclusive")
                         for values in per_depth]
            line, = axes.plot(depths[:len(per_depth)], [q[1] for q in quartiles], "-o", label=name)
            axes.fill_between(depths[:len(per_depth)], [q[0] for q in quartiles], [q[2] for q in quartiles],
                              color=line.get_color(), alpha=0.2)
        axes.set_yscale("log")
        axes.set_xlabel("depth (plies)")
        axes.set_ylabel(f"{label} (median, band: quartiles; log)")
        axes.grid(alpha=0.3)
        axes.legend(fontsize="small", loc="upper left")
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def table_bars(path: FilePath, labels: Sequence[str], report: Sequence[float], ours: Sequence[float],
               intervals: Sequence[tuple[float, float]], per_seed: Sequence[Sequence[float]]) -> None:
    """The greedy table at a glance: per row the report's figure, ours with
    its 95 % interval, and every seed's own share as a dot."""
    figure, axes = plt.subplots(figsize=(9, 0.55 * len(labels) + 1.6))
    y = list(range(len(labels)))
    axes.scatter(report, [v + 0.15 for v in y], marker="s", color="black", label="report", zorder=3)
    axes.errorbar(ours, [v - 0.15 for v in y], xerr=[[o - lo for o, (lo, _) in zip(ours, intervals)],
                                                      [hi - o for o, (_, hi) in zip(ours, intervals)]],
                  fmt="o", color="tab:blue", capsize=3, label="ours, all seeds pooled (95 % interval)", zorder=3)
    for row, seeds in enumerate(per_seed):
        axes.scatter(seeds, [row - 0.15] * len(seeds), marker="|", s=120, color="tab:orange",
                     label="ours, one seed" if row == 0 else None, zorder=2)
    axes.set_yticks(y)
    axes.set_yticklabels(labels)
    axes.invert_yaxis()
    axes.set_xlabel("games won against random (%)")
    # a row whose report figure is not known has NaN there (drawn as nothing)
    low = min([*(r for r in report if r == r), *(lo for lo, _ in intervals), *(s for seeds in per_seed for s in seeds)])
    axes.set_xlim(max(0, low - 5), 101)
    axes.grid(axis="x", alpha=0.3)
    axes.legend(fontsize="small", loc="lower left", bbox_to_anchor=(0, 1.0), ncol=3, frameon=False)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def pruning_curves(path: Path, title: str, seconds: dict[str, list[float]]) -> None:
    """The time of every move searched without pruning and with it: one
    panel per search (the course report's figures 2-4, log scale), then the
    running total of all of them (its comparison over the whole game)."""
    figure, panels = plt.subplots(len(seconds) + 1, 1, figsize=(8, 2.4 * (len(seconds) + 1)), sharex=True)
    for axes, (label, times) in zip(panels, seconds.items()):
        axes.plot(range(1, len(times) + 1), [1000 * t for t in times], ".", markersize=3, label=label)
        axes.set_yscale("log")
        axes.set_ylabel("ms per move")
        axes.grid(alpha=0.3)
        axes.legend(fontsize="small", loc="upper right")
    total = panels[-1]
    for label, times in seconds.items():
        running, sums = 0.0, []
        for t in times:
            running += t
            sums.append(running)
        total.plot(range(1, len(times) + 1), sums, label=label)
    total.set_ylabel("seconds so far")
    total.set_xlabel("move (in game order)")
    panels[0].set_title(title)
    _save(figure, total, path, "")
