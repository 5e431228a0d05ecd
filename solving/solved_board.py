"""The value of one board's empty position, as the solved tables hold it:
who wins (or a draw) and the move on which a perfect game ends, each value
found twice (the exact solve and, independently, the win/draw/loss solve;
on tiny boards also the pure-Python brute force of clinea.solving.reference_solver).

A board may be split at a fixed depth: its positions `depth` plies in are
solved one by one (in process, or as Ray tasks by clinea.solving.solved_ray) and
their values backed up to the empty board by negamax here, so a large board
spreads over a cluster; each position's value goes to a LeafStore (the
checkpoint of clinea.solving.solved_checkpoint) as soon as it is found, so a
run stopped inside a board solves only the positions still missing. Scores
follow the solver's convention (`solver`):
a win by the stone played after n stones scores (max_moves + 1 - n) // 2 for
its player, whichever position it is seen from, so backing up is plain
negation and needs no distance arithmetic.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from clinea.core import Board, Rules
from clinea.core.solver import Solver
from clinea.core.timeman import Limits
from clinea.solving.reference_solver import ReferenceSolver, TooManyPositions

#: the brute force runs on a board when it meets at most this many positions
#: (some 6 s of pure Python); past it the table says it did not run
BRUTE_FORCE_POSITIONS = 200_000
#: it is tried only on boards of at most this many cells or moves: larger
#: ones always ran past the budget (5x4: 6 s to find out), 4x4 and 7x6 with
#: p = 4 fit (4 to 5 s)
BRUTE_FORCE_CELLS = 16
BRUTE_FORCE_MOVES = 8
#: the transposition table of each solve: 2**N entries of 8 bytes
TABLE_LOG2 = 22


@dataclass(frozen=True)
class LeafValue:
    """One split position's values for its side to move (None: out of time)."""
    exact: int | None
    weak: int | None
    nodes: int
    seconds: float


def leaf_values(rules: Rules, move_lists: Sequence[Sequence[int]], time_limit: float) -> Iterator[LeafValue]:
    """The exact and the win/draw/loss value of each position (0-based moves
    from the empty board), each within `time_limit` seconds (0: none), each
    given as soon as it is found. The two come from two solvers with their
    own tables, so neither reuses a bound the other proved."""
    exact_solver, weak_solver = Solver(TABLE_LOG2), Solver(TABLE_LOG2)
    for moves in move_lists:
        board = Board(*rules).play_moves(moves)
        start = time.monotonic()
        exact = exact_solver.solve(board, limits=Limits(time=time_limit))
        nodes = exact_solver.nodes
        weak = weak_solver.solve(board, weak=True, limits=Limits(time=time_limit))
        yield LeafValue(exact, weak, nodes + weak_solver.nodes, time.monotonic() - start)


def solve_leaves(rules: Rules, move_lists: Sequence[Sequence[int]], time_limit: float) -> list[LeafValue]:
    """leaf_values all at once: a top-level function, Ray ships it as a task."""
    return list(leaf_values(rules, move_lists, time_limit))


#: how a board's split positions are solved: (moves, value) pairs, each as
#: soon as it is found, in any order (solve_locally; RaySolver on a cluster)
Solve = Callable[[Rules, list[list[int]], float], Iterable[tuple[list[int], LeafValue]]]


def solve_locally(rules: Rules, move_lists: list[list[int]], time_limit: float) -> Iterator[tuple[list[int], LeafValue]]:
    return zip(move_lists, leaf_values(rules, move_lists, time_limit))


class LeafStore(Protocol):
    """Where a board's split positions' values are kept while it is solved
    (clinea.solving.solved_checkpoint.Checkpoint)."""

    def solved(self, leaves: list[list[int]], time_limit: float) -> dict[tuple[int, ...], LeafValue]:
        """The values found before that a run with `time_limit` reuses."""

    def record(self, moves: Sequence[int], value: LeafValue) -> None:
        """Keeps one position's value, found just now."""


def split_positions(rules: Rules, depth: int) -> list[list[int]]:
    """The positions `depth` plies from the empty board whose game is not
    over, once each (transpositions merged), as 0-based move lists."""
    found: dict[int, list[int]] = {}

    def walk(board: Board, moves: list[int], left: int) -> None:
        if left == 0:
            found.setdefault(board.key(), list(moves))
            return
        columns = board.legal_columns()
        # a win at once decides the position: nothing below it is needed
        if board.moves_played + 1 >= board.max_moves or any(board.is_winning_move(col) for col in columns):
            return
        for col in columns:
            board.play(col)
            moves.append(col)
            walk(board, moves, left - 1)
            moves.pop()
            board.undo()

    walk(Board(*rules), [], depth)
    return list(found.values())


def backed_up(rules: Rules, depth: int, leaf_value: Callable[[Board], int | None], weak: bool) -> int | None:
    """The empty board's value from its positions at `depth` plies
    (leaf_value gives each one's value for its side to move, None if
    unknown): negamax over the plies above them. None when an unknown
    position could still decide it."""

    def value(board: Board, left: int) -> int | None:
        if left == 0:
            return leaf_value(board)
        n = board.moves_played
        win_now = 1 if weak else (board.max_moves + 1 - n) // 2
        columns = board.legal_columns()
        if any(board.is_winning_move(col) for col in columns):
            return win_now  # nothing beats winning at once (and split_positions went no deeper)
        best, unknown = None, False
        for col in columns:
            child: int | None
            if n + 1 >= board.max_moves:
                child = 0
            else:
                board.play(col)
                below = value(board, left - 1)
                board.undo()
                child = None if below is None else -below
            if child is None:
                unknown = True
            elif best is None or child > best:
                best = child
        return None if unknown else best

    return value(Board(*rules), depth)


def brute_force(rules: Rules, max_positions: int = BRUTE_FORCE_POSITIONS) -> int | None:
    """The empty board's exact score by the pure-Python reference, or None
    when it would meet more than `max_positions` positions."""
    try:
        return ReferenceSolver(*rules, max_positions=max_positions).solve([])
    except TooManyPositions:
        return None


@dataclass(frozen=True)
class BoardValue:
    """A board's row in a solved table. Scores are for the first player."""
    rules: Rules
    exact: int | None
    weak: int | None
    brute: int | None
    seconds: float
    nodes: int
    time_limit: float

    @property
    def outcome(self) -> str:
        """'first', 'second' or 'draw' (the first player's result), 'unknown'."""
        sign = self.weak if self.exact is None else self.exact
        if sign is None:
            return "unknown"
        return "first" if sign > 0 else "second" if sign < 0 else "draw"

    @property
    def end_move(self) -> int | None:
        """The move (1-based) on which a perfect game ends, None if unknown."""
        return None if self.exact is None else end_move(self.rules.max_moves, self.exact)

    def disagreements(self) -> list[str]:
        """What the second methods say against the exact value (empty: none)."""
        found = []
        if self.exact is not None and self.weak is not None and sign_of(self.exact) != self.weak:
            found.append(f"exact {self.exact} but win/draw/loss {self.weak}")
        if self.brute is not None and self.exact is not None and self.brute != self.exact:
            found.append(f"exact {self.exact} but brute force {self.brute}")
        if self.brute is not None and self.weak is not None and sign_of(self.brute) != self.weak:
            found.append(f"brute force {self.brute} but win/draw/loss {self.weak}")
        return found

    def check(self) -> str:
        """The checks' summary for the table: which methods agree, or how not."""
        problems = self.disagreements()
        if problems:
            return "MISMATCH: " + "; ".join(problems)
        if self.exact is None:
            return "win/draw/loss only (exact out of time)" if self.weak is not None else "out of time"
        methods = ["exact"] + (["win/draw/loss"] if self.weak is not None else []) + \
                  (["brute force"] if self.brute is not None else [])
        return " = ".join(methods) if len(methods) > 1 else "exact only (win/draw/loss out of time)"


def sign_of(score: int) -> int:
    return (score > 0) - (score < 0)


def end_move(max_moves: int, score: int) -> int:
    """The 1-based move ending a perfect game whose exact score, for the first
    player, is `score`: the winner's k-th stone scores S + 1 - k, S its most
    stones ((max_moves + 1) // 2 first, max_moves // 2 second); a draw ends
    when the tokens run out or the board is full."""
    if score > 0:
        return 2 * ((max_moves + 1) // 2 + 1 - score) - 1
    if score < 0:
        return 2 * (max_moves // 2 + 1 + score)
    return max_moves


def solve_board(rules: Rules, time_limit: float, depth: int = 0, solve: Solve = solve_locally,
                brute_positions: int = BRUTE_FORCE_POSITIONS, store: LeafStore | None = None) -> BoardValue:
    """The board's value: its positions at `depth` plies solved by `solve`
    (in process by default; clinea.solving.solved_ray's on a cluster), but
    for those `store` holds already, and backed up; the brute force run
    when the board is tiny enough."""
    start = time.monotonic()
    leaves = split_positions(rules, depth)
    found = store.solved(leaves, time_limit) if store else {}
    todo = [moves for moves in leaves if tuple(moves) not in found]
    for moves, value in solve(rules, todo, time_limit) if todo else ():
        found[tuple(moves)] = value
        if store:
            store.record(moves, value)
    values = {Board(*rules).play_moves(moves).key(): found[tuple(moves)] for moves in leaves}

    def leaf(weak: bool) -> Callable[[Board], int | None]:
        return lambda board: getattr(values[board.key()], "weak" if weak else "exact")

    exact = backed_up(rules, depth, leaf(False), weak=False)
    weak = backed_up(rules, depth, leaf(True), weak=True)
    tiny = rules.cells <= BRUTE_FORCE_CELLS or rules.max_moves <= BRUTE_FORCE_MOVES
    brute = brute_force(rules, brute_positions) if brute_positions and tiny else None
    nodes = sum(value.nodes for value in values.values())
    return BoardValue(rules, exact, weak, brute, time.monotonic() - start, nodes, time_limit)


def longer_limit(time_limit: float, recorded: float) -> bool:
    """Whether `time_limit` (0: none) gives a solve longer than `recorded`,
    the limit a value was left unknown under: only then is it tried again."""
    return recorded != 0 and (time_limit == 0 or time_limit > recorded)


def boards_up_to(c: int, max_sum: int) -> Iterable[Rules]:
    """Every board with columns + rows <= max_sum (both at least 1), the
    smallest first, so a table's quick boards come before its slow ones."""
    sizes = [(w, h) for w in range(1, max_sum) for h in range(1, max_sum + 1 - w)]
    for w, h in sorted(sizes, key=lambda size: (size[0] * size[1], size)):
        yield Rules(w, h, c)
