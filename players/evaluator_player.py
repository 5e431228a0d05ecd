"""evaluator: depth-limited alpha-beta over a weighted evaluation in the
style of the Connect-4 reports (consecutive tokens, possible alignments,
central tokens, diagonals)."""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from clinea.core import Board
from clinea.core.depthsearch import DepthLimited
from clinea.core.evaluate import FEATURES, REPORT_WEIGHTS
from clinea.players.bot import Bot
from clinea.players.driver import main_for
from clinea.players.options import bounded_int

MAX_DEPTH = 64


class EvaluatorBot(Bot):
    """Alpha-beta to a fixed depth with a weighted window evaluation."""

    name = "evaluator"
    reports = True
    example_options = ("--depth", "3")

    def __init__(self, depth: int = 4, weights: Sequence[float] = REPORT_WEIGHTS) -> None:
        if not 1 <= depth <= MAX_DEPTH:
            raise ValueError(f"depth={depth} is out of range: allowed 1..{MAX_DEPTH}")
        self.depth = depth
        self.search = DepthLimited(weights)

    def choose(self, board: Board) -> int:
        start = time.perf_counter()
        move, value = self.search.best_move(board, self.depth)
        if self.verbose:
            elapsed = time.perf_counter() - start
            print(f"evaluator: depth {self.depth} nodes {self.search.nodes} value {value} "
                  f"time {elapsed:.3f}s", file=sys.stderr, flush=True)
        return move

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--depth", type=bounded_int("--depth", 1, MAX_DEPTH), default=4, help=f"plies to search, 1..{MAX_DEPTH} (default 4)")
        parser.add_argument("--evaluation-weights", type=int, nargs=len(FEATURES), metavar="W",
                            default=list(REPORT_WEIGHTS),
                            help="integer weights of " + ", ".join(FEATURES)
                            + f" (default {' '.join(map(str, REPORT_WEIGHTS))})")

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> EvaluatorBot:
        return cls(args.depth, args.evaluation_weights)


def main(argv: list[str] | None = None) -> int:
    return main_for(EvaluatorBot, argv)
