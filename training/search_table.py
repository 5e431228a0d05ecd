"""The Connect-4 report's table: nodes and time per move by depth for plain
minimax (no pruning), alpha-beta in column order and alpha-beta with the
centre first, all over the evaluator's evaluation, on the same positions
(7x6, c = 4, reached by random plies from the empty board).

Times are medians over the positions: this machine is shared and noisy.
"""
from __future__ import annotations

import statistics
import time
from typing import Literal, TypedDict

from clinea.core import Board, Rules
from clinea.core.depthsearch import DepthLimited
from clinea.core.evaluate import REPORT_WEIGHTS
from clinea.training.positions import random_positions

# label -> clinea.core.depthsearch mode
SEARCHES = {"minimax": "minimax", "alpha-beta, column order": "alphabeta", "alpha-beta, centre first": "ordered"}


def positions(count: int, seed: int) -> list[Board]:
    """`count` unfinished 7x6 positions after 4 to 12 random plies."""
    return random_positions(Rules(7, 6, 4, 21), count, seed, 4, 12)


def _one(mode: str, board: Board, depth: int, search: DepthLimited) -> tuple[int, int, float]:
    """(value, nodes, seconds) of one search."""
    start = time.perf_counter()
    value = search.value(board, depth, mode)
    return value, search.nodes, time.perf_counter() - start


class Measures(TypedDict):
    """What `measure` found: per search, per depth, one figure per position."""

    depths: list[int]
    positions: int
    nodes: dict[str, list[list[int]]]
    seconds: dict[str, list[list[float]]]


def measure(quick: bool) -> Measures:
    """{"depths", "positions", "nodes"/"seconds": {search: [[per position] per depth]}}.
    Raises if the three searches ever disagree on a value: they must not."""
    depths = list(range(1, 5 if quick else 8))
    boards = positions(3 if quick else 20, seed=7)
    search = DepthLimited(REPORT_WEIGHTS)
    result: Measures = {"depths": depths, "positions": len(boards),
              "nodes": {s: [] for s in SEARCHES}, "seconds": {s: [] for s in SEARCHES}}
    for depth in depths:
        for label in SEARCHES:
            result["nodes"][label].append([])
            result["seconds"][label].append([])
        for board in boards:
            values: set[int] = set()
            for label, mode in SEARCHES.items():
                value, nodes, seconds = _one(mode, board, depth, search)
                values.add(value)
                result["nodes"][label][-1].append(nodes)
                result["seconds"][label][-1].append(seconds)
            if len(values) != 1:
                raise AssertionError(f"the searches disagree at depth {depth} on {board.moves()}: {values}")
    return result


def medians(result: Measures, what: Literal["nodes", "seconds"]) -> dict[str, list[float]]:
    return {s: [statistics.median(v) for v in per_depth] for s, per_depth in result[what].items()}


def markdown(result: Measures) -> str:
    nodes, seconds = medians(result, "nodes"), medians(result, "seconds")
    header = "| depth | " + " | ".join(f"{s}: nodes | ms" for s in SEARCHES) + " |"
    lines = [f"Medians over {result['positions']} positions after 4-12 random plies on 7x6 (c = 4); "
             "the three searches return the same value at every depth (checked on every position).", "",
             header, "|---|" + "---|---|" * len(SEARCHES)]
    for k, depth in enumerate(result["depths"]):
        cells = " | ".join(f"{nodes[s][k]:,.0f} | {1000 * seconds[s][k]:.2f}" for s in SEARCHES)
        lines.append(f"| {depth} | {cells} |")
    return "\n".join(lines)
