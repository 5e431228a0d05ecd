"""The Connect-4 report's table: nodes and time per move by depth for plain
minimax (no pruning), alpha-beta in column order and alpha-beta with the
centre first, all over the evaluator's evaluation, on the same positions
(7x6, c = 4, reached by random plies from the empty board).

Times are medians over the positions: this machine is shared and noisy.
"""
from __future__ import annotations

import random
import statistics
import time

from clinea.core import Board
from clinea.core.depthsearch import DepthLimited
from clinea.core.evaluate import REPORT_WEIGHTS
from clinea.core.search import Search

SEARCHES = ("minimax", "alpha-beta, column order", "alpha-beta, centre first")


def positions(count: int, seed: int) -> list[Board]:
    """`count` unfinished 7x6 positions after 4 to 12 random plies."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = Board(7, 6, 4, 21)
        for _ in range(rng.randint(4, 12)):
            if board.is_over():
                break
            board.play(rng.choice(board.legal_columns()))
        if not board.is_over():
            out.append(board)
    return out


def _one(search: str, board: Board, depth: int, plain: DepthLimited, ordered: Search) -> tuple[int, int, float]:
    """(value, nodes, seconds) of one search."""
    start = time.perf_counter()
    if search == SEARCHES[2]:
        value, nodes = ordered.value(board, depth), ordered.nodes
    else:
        value = plain.value(board, depth, "minimax" if search == SEARCHES[0] else "alphabeta")
        nodes = plain.nodes
    return value, nodes, time.perf_counter() - start


def measure(quick: bool) -> dict:
    """{"depths", "positions", "nodes"/"seconds": {search: [[per position] per depth]}}.
    Raises if the three searches ever disagree on a value: they must not."""
    depths = list(range(1, 5 if quick else 8))
    boards = positions(3 if quick else 20, seed=7)
    plain, ordered = DepthLimited(REPORT_WEIGHTS), Search(REPORT_WEIGHTS)
    result = {"depths": depths, "positions": len(boards),
              "nodes": {s: [] for s in SEARCHES}, "seconds": {s: [] for s in SEARCHES}}
    for depth in depths:
        for search in SEARCHES:
            result["nodes"][search].append([])
            result["seconds"][search].append([])
        for board in boards:
            values = set()
            for search in SEARCHES:
                value, nodes, seconds = _one(search, board, depth, plain, ordered)
                values.add(value)
                result["nodes"][search][-1].append(nodes)
                result["seconds"][search][-1].append(seconds)
            if len(values) != 1:
                raise AssertionError(f"the searches disagree at depth {depth} on {board.moves()}: {values}")
    return result


def medians(result: dict, what: str) -> dict[str, list[float]]:
    return {s: [statistics.median(v) for v in per_depth] for s, per_depth in result[what].items()}


def markdown(result: dict) -> str:
    nodes, seconds = medians(result, "nodes"), medians(result, "seconds")
    header = "| depth | " + " | ".join(f"{s}: nodes | ms" for s in SEARCHES) + " |"
    lines = [f"Medians over {result['positions']} positions after 4-12 random plies on 7x6 (c = 4); "
             "the three searches return the same value at every depth (checked on every position).", "",
             header, "|---|" + "---|---|" * len(SEARCHES)]
    for k, depth in enumerate(result["depths"]):
        cells = " | ".join(f"{nodes[s][k]:,.0f} | {1000 * seconds[s][k]:.2f}" for s in SEARCHES)
        lines.append(f"| {depth} | {cells} |")
    return "\n".join(lines)
