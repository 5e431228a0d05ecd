"""The small-board optimality check: on a board small enough to solve, how
often a greedy player's move keeps the game's value (win, draw or loss,
both sides playing perfectly after it), over positions from random games.

The exact solver (clinea.core.solver, weak mode: the sign of the value)
scores every column; a move is optimal when its value is the best any
column reaches. A one-ply player cannot see deep wins, so the share says
how far its weights go without search.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from clinea.core import Board, Rules
from clinea.core.solver import Solver
from clinea.training import positions
from clinea.training.games import greedy

SMALL = Rules(5, 4, 4, 10)


@dataclass
class Optimality:
    """Positions checked and how many of the player's moves kept their value."""
    positions: int
    optimal: int

    @property
    def share(self) -> float:
        return 100 * self.optimal / self.positions if self.positions else 0.0


def random_positions(geometry: Rules, count: int, seed: int) -> list[Board]:
    """`count` unfinished positions after 0 to half the board's moves of random plies."""
    return positions.random_positions(geometry, count, seed, 0, geometry.max_moves // 2)


def optimal_columns(scores: Sequence[int | None]) -> set[int]:
    """The columns whose value is the best of the playable ones."""
    playable = [s for s in scores if s is not None]
    best = max(playable)
    return {col for col, s in enumerate(scores) if s is not None and s == best}


def check(values: Sequence[float], geometry: Rules, positions: list[Board], solver: Solver) -> Optimality:
    """How often the greedy player with `values` picks a column of the best value."""
    player = greedy(list(values), geometry.c)
    optimal = 0
    for board in positions:
        scores = solver.analyze(board, weak=True)
        if scores is None:
            raise RuntimeError("the solver ran out of budget on a small board: it has none here")
        optimal += player.choose(board.copy()) in optimal_columns(scores)
    return Optimality(len(positions), optimal)
