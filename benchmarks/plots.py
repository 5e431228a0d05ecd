"""PNG timing curves for the benchmarks: what people would rather see than
read. Each benchmark passes its raw times; this file knows only matplotlib."""
from __future__ import annotations

import os

import matplotlib

matplotlib.use("Agg")  # files only: benchmarks run on machines with no display
import matplotlib.pyplot as plt  # noqa: E402


def _curve(axes, times: list[float], **style) -> None:
    """`times` (seconds) sorted, against the share of cases done within that time."""
    ordered = sorted(max(t, 1e-7) for t in times)
    shares = [(i + 1) / len(ordered) for i in range(len(ordered))]
    axes.step([t * 1000 for t in ordered], shares, where="post", **style)


def _axes_labels(axes, what: str) -> None:
    axes.set_xscale("log")
    axes.set_xlabel(f"{what} (ms, log scale)")
    axes.grid(True, which="both", alpha=0.3)


def time_curves(path: str, curves: dict[str, list[float]], title: str, what: str) -> None:
    """One curve per label, on a log time axis."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    figure, axes = plt.subplots(figsize=(8, 4.5))
    for label, times in curves.items():
        if times:
            _curve(axes, times, label=label)
    _axes_labels(axes, what)
    axes.set_ylabel("share done within that time")
    axes.set_title(title)
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    print(f"wrote {path}")


def time_panels(path: str, panels: dict[str, dict[str, list[float]]], title: str, what: str) -> None:
    """One panel per board, one curve per player in each, a player keeping
    its colour and dash across panels (ten colours times four dashes), the
    legend outside the data. A player with no times on a board is named in
    that panel rather than left out."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    players = sorted({name for curves in panels.values() for name in curves})
    colours = plt.get_cmap("tab10").colors
    dashes = ["-", "--", ":", "-."]
    style = {name: {"color": colours[k % len(colours)], "linestyle": dashes[(k // len(colours)) % len(dashes)]}
             for k, name in enumerate(players)}
    figure, axes_row = plt.subplots(1, len(panels), figsize=(5 * len(panels) + 2.5, 4.8), sharey=True,
                                    squeeze=False)
    for axes, (board, curves) in zip(axes_row[0], panels.items()):
        silent = [name for name in players if not curves.get(name)]
        for name in players:
            if curves.get(name):
                _curve(axes, curves[name], **style[name], linewidth=1.6)
        _axes_labels(axes, what)
        # above the panel, not over its curves
        axes.set_title(board + ("\nno move in time: " + ", ".join(silent) if silent else "\n"), fontsize="medium")
    axes_row[0][0].set_ylabel("share of moves done within that time")
    handles = [plt.Line2D([], [], **style[name], linewidth=1.6) for name in players]
    labels = [name if any(curves.get(name) for curves in panels.values()) else f"{name} (no move anywhere)"
              for name in players]
    figure.legend(handles, labels, loc="center right", fontsize="small", title="player")
    figure.suptitle(title)
    figure.tight_layout(rect=(0, 0, 1 - 2.3 / (5 * len(panels) + 2.5), 1))
    figure.savefig(path, dpi=100)
    plt.close(figure)
    print(f"wrote {path}")


def elo_ladder(path: str, lines: dict[str, list[tuple[float, float, float, float]]], title: str, what: str,
               edge: float = 800.0) -> None:
    """One line per label through its (x, Elo, low, high) points, the 95 %
    intervals as error bars, on a log x axis; an infinite Elo (every game
    won) is drawn at +-`edge`, as the title says."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for label, points in lines.items():
        xs = [x for x, *_ in points]
        ys = [max(-edge, min(edge, elo)) for _, elo, _, _ in points]
        below = [y - max(-edge, low) for y, (_, _, low, _) in zip(ys, points)]
        above = [min(edge, high) - y for y, (_, _, _, high) in zip(ys, points)]
        axes.errorbar(xs, ys, yerr=[below, above], marker="o", capsize=4, label=label)
    axes.set_xscale("log")
    axes.set_xlabel(what)
    axes.set_ylabel("Elo (95 % interval)")
    axes.set_title(f"{title} (an infinite Elo drawn at +-{edge:g})")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
