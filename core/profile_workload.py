"""The searches a profile-guided build of the solver and the Monte Carlo
search runs to measure where their branches go (setup.py's
BuildWithSeatExec.profile_guided).

GCC lays out and inlines the searches from the profile this workload leaves,
so it should look like what users run: whole solves of small empty boards
(the deep trees of `clinea solve` and `solved-tables`), middle-game positions
solved exactly and by sign, and the root move search that `strong` runs, on
every word type (7x6 in one word, 9x8 and 14x12 in three, 15x13 in four);
and Monte Carlo searches of middle-game positions on the same word types.
Its positions are drawn from a fixed seed, apart from the standard files,
Fhourstones' positions and the empty boards the benchmarks time, so the
benchmarks do not measure a build fitted to themselves.

Run by path with the folder holding the built `clinea` package first on
sys.path: `python core/profile_workload.py`. It never reads a file.
"""
import random
import sys

from clinea.core.board import Board
from clinea.core.mcts import Mcts
from clinea.core.solver import Solver
from clinea.core.timeman import Limits

SEED = 20261127


def random_position(rng: random.Random, columns: int, rows: int, c: int, stones: int) -> Board | None:
    """A position after `stones` random moves whose side to move cannot win
    at once (the solver would not search it), else None."""
    board = Board(columns, rows, c)
    while board.moves_played < stones:
        column = rng.choice(list(board.legal_columns()))
        if board.is_winning_move(column):
            return None
        board.play(column)
    if any(board.is_winning_move(column) for column in board.legal_columns()):
        return None
    return board


def positions(rng: random.Random, columns: int, rows: int, c: int, stones: range, count: int) -> list[Board]:
    """`count` positions of random_position, their stones drawn from `stones`."""
    found: list[Board] = []
    while len(found) < count:
        board = random_position(rng, columns, rows, c, rng.choice(stones))
        if board is not None:
            found.append(board)
    return found


def main() -> int:
    rng = random.Random(SEED)
    for columns, rows in ((6, 5), (5, 6), (7, 4)):
        for weak in (False, True):
            Solver(20, book=False).solve(Board(columns, rows), weak=weak)
    solver = Solver(22, book=False)
    budget = Limits(nodes=400_000)
    for board in positions(rng, 7, 6, 4, range(8, 24), 80):
        solver.solve(board, weak=False, limits=budget)
        solver.solve(board, weak=True, limits=budget)
        solver.play_value(board, weak=True, limits=budget)
    wide_budget = Limits(nodes=150_000)  # the wide paths search 2-6x fewer nodes a second
    for columns, rows, c, stones in ((9, 8, 5, range(40, 56)), (14, 12, 6, range(120, 150)),
                                     (15, 13, 6, range(140, 170))):
        solver = Solver(22, book=False)
        for board in positions(rng, columns, rows, c, stones, 12):
            solver.solve(board, weak=False, limits=wide_budget)
            solver.play_value(board, weak=True, limits=wide_budget)
    simulations = Limits(nodes=20_000)
    for columns, rows, c, stones in ((7, 6, 4, range(4, 16)), (9, 8, 5, range(8, 30)), (10, 9, 4, range(8, 30)),
                                     (14, 12, 6, range(10, 60)), (15, 13, 5, range(10, 60))):
        for seed, board in enumerate(positions(rng, columns, rows, c, stones, 6)):
            Mcts(seed=seed + 1, reuse=False).search(board, simulations)
    return 0


if __name__ == "__main__":
    sys.exit(main())
