"""PNG timing curves for the benchmarks: what people would rather see than
read. Each benchmark passes its raw times; this file knows only matplotlib."""
from __future__ import annotations

import os

import matplotlib

matplotlib.use("Agg")  # files only: benchmarks run on machines with no display
import matplotlib.pyplot as plt  # noqa: E402


def time_curves(path: str, curves: dict[str, list[float]], title: str, what: str) -> None:
    """One curve per label: its times (seconds) sorted, against the share of
    cases done within that time, on a log time axis."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    figure, axes = plt.subplots(figsize=(8, 4.5))
    for label, times in curves.items():
        if not times:
            continue
        ordered = sorted(max(t, 1e-7) for t in times)
        shares = [(i + 1) / len(ordered) for i in range(len(ordered))]
        axes.step([t * 1000 for t in ordered], shares, where="post", label=label)
    axes.set_xscale("log")
    axes.set_xlabel(f"{what} (ms, log scale)")
    axes.set_ylabel("share done within that time")
    axes.set_title(title)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    print(f"wrote {path}")
