"""`clinea signature`: one number that names the searches' trees, as
Stockfish's `bench`.

Every search of the core runs on fixed positions with fixed node budgets
(never time: the trees must not depend on the machine's speed): the exact
solver on each of its paths (the 64-bit bitboards on 7x6 and other small
boards, the multi-word bitboards on 9x8 c5, 10x9 c4 and 14x12 c6, the
boards of 193 to 256 bits, 15x13 and 16x14, and the cell array on 17x15),
the alpha-beta of `strong` (`core/search.pyx`) and the Monte Carlo tree
search (`core/mcts.pyx`, seeded). The number folds every
part's node count and answers (scores, moves): a change of move order,
pruning or evaluation changes it, a refactor that claims to change nothing
keeps it, and its commit quotes it. `tests/test_signature.py` pins it.
"""
from __future__ import annotations

import argparse
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass

from clinea.core import Board
from clinea.core.mcts import Mcts
from clinea.core.search import Search
from clinea.core.solver import Solver
from clinea.core.timeman import Limits
from clinea.players.options import command_parser

EPILOG = """examples:
  clinea signature             # one number
  clinea signature --verbose   # and each part's nodes and answers"""

#: small tables: allocated and cleared in milliseconds, and the same on
#: every machine (the trees depend on the table's size through collisions)
TT_LOG2 = 20


@dataclass(frozen=True)
class Part:
    """One search's share of the signature: what it searched and found."""

    name: str
    nodes: int
    answers: tuple[object, ...]

    def line(self) -> str:
        return f"{self.name}: {self.nodes} nodes, answers {list(self.answers)}"


@dataclass(frozen=True)
class Position:
    """A position by its rules and its 0-based moves from the empty board."""

    columns: int
    rows: int
    c: int
    p: int | None
    moves: tuple[int, ...] = ()

    def board(self) -> Board:
        return Board.from_moves(list(self.moves), self.columns, self.rows, self.c, self.p)


def standard(digits: str) -> Position:
    """A 7x6 position in the 1-based notation of the standard test files."""
    return Position(7, 6, 4, None, tuple(int(d) - 1 for d in digits))


# 7x6 positions of the standard test files (tests/data/pons), before and
# past the opening book's 12 stones
STANDARD = [standard(d) for d in ("6146", "243335424257", "32164625", "52753311433677442422121",
                                  "5554224333234511764415115")]
# other bitboard boards: the empty board, c = 3, 4 (unrolled) and 1 and 2
SMALL = [Position(6, 5, 4, None), Position(5, 4, 3, None), Position(6, 5, 3, None), Position(4, 4, 4, None),
         Position(8, 7, 1, None), Position(7, 6, 2, None)]
# multi-word bitboards: two random 9x8 c5 games 48 and 50 moves in, and
# boards cut short by the token limit (14x12 reaches the third word)
WIDE = [Position(9, 8, 5, None, (2, 1, 4, 1, 7, 7, 7, 6, 3, 1, 7, 0, 6, 6, 0, 7, 4, 3, 1, 5, 0, 0, 0, 8,
                                 0, 6, 3, 6, 0, 8, 3, 7, 7, 8, 3, 5, 3, 3, 7, 4, 0, 4, 8, 5, 6, 1, 2, 6)),
        Position(9, 8, 5, None, (4, 3, 7, 8, 5, 1, 5, 0, 3, 1, 0, 0, 4, 3, 1, 8, 2, 4, 3, 3, 0, 6, 0, 0,
                                 5, 5, 2, 3, 0, 1, 1, 1, 0, 1, 1, 4, 4, 3, 8, 3, 8, 4, 7, 8, 2, 6, 7, 2, 4, 4)),
        Position(10, 9, 4, 8), Position(10, 9, 3, 6), Position(14, 12, 6, 7)]
# boards of 193 to 256 bits (15x13, 16x14), playable through the token limit
FOUR_WORDS = [Position(15, 13, 4, 5), Position(16, 14, 4, 5, (7, 7)), Position(15, 13, 3, 5)]
# the cell array: past 256 bits
CELLS = [Position(17, 15, 4, 5), Position(17, 15, 3, 4)]
# the heuristic searches: the opening of 7x6, and a wide and a big board
SEARCHED = [standard("4453"), Position(9, 8, 5, None, (4, 4, 3, 5)), Position(14, 12, 6, None, (6, 7)),
            Position(20, 20, 5, None, (10, 9))]
ALPHABETA_NODES = 60_000
MCTS_SIMULATIONS = 2_000
CUT_SHORT_NODES = 3_000


def solved(solver: Solver, positions: list[Position]) -> tuple[int, list[object]]:
    """The solver's nodes and answers: the exact score, the weak one and a
    move keeping each (`play_value`, the root's own search) per position,
    one table for all, as `clinea solve` uses it."""
    nodes = 0
    answers: list[object] = []
    for position in positions:
        board = position.board()
        for call, weak in ((solver.solve, False), (solver.solve, True),
                           (solver.play_value, False), (solver.play_value, True)):
            answers.append(call(board, weak=weak))
            nodes += solver.nodes
    return nodes, answers


def solver_part(name: str, positions: list[Position], book: bool = True) -> Callable[[], Part]:
    def run() -> Part:
        nodes, answers = solved(Solver(TT_LOG2, book=book), positions)
        return Part(name, nodes, tuple(answers))
    return run


def cut_short_part() -> Part:
    """Move searches for a draw at least (`at_least=0`, as `strong` asks),
    stopped by a node budget: the moves they refuted and the one they were
    on (what `strong` falls back on)."""
    nodes, answers = 0, []
    for position in (STANDARD[2], WIDE[0]):
        solver = Solver(TT_LOG2, book=False)
        answers.append((solver.play_value(position.board(), limits=Limits(nodes=CUT_SHORT_NODES), at_least=0),
                        tuple(solver.refuted), solver.trying))
        nodes += solver.nodes
    return Part("solver cut short", nodes, tuple(answers))


def alphabeta_part() -> Part:
    nodes, answers = 0, []
    for position in SEARCHED:
        result = Search(tt_log2=TT_LOG2).think(position.board(), Limits(nodes=ALPHABETA_NODES))
        nodes += result.nodes
        answers.append((result.move, result.score, result.depth))
    return Part("alpha-beta (strong)", nodes, tuple(answers))


def mcts_part() -> Part:
    nodes, answers = 0, []
    for position in SEARCHED[1:]:
        search = Mcts(arena_nodes=1 << 16, seed=1)
        result = search.search(position.board(), Limits(nodes=MCTS_SIMULATIONS))
        nodes += result.nodes
        # the visits say where the rollouts went, which the count alone does not
        answers.append((result.move, result.score, search.nodes_used,
                        tuple(visits for _, visits, _, _ in search.root_children())))
    return Part("Monte Carlo (seed 1)", nodes, tuple(answers))


PARTS: list[Callable[[], Part]] = [
    solver_part("solver 7x6 book", STANDARD),
    solver_part("solver 7x6 no book", STANDARD, book=False),
    solver_part("solver bitboards", SMALL),
    solver_part("solver wide", WIDE),
    solver_part("solver 193-256 bits", FOUR_WORDS),
    solver_part("solver cells", CELLS),
    cut_short_part,
    alphabeta_part,
    mcts_part,
]


def parts() -> list[Part]:
    """Every part, run in order (the same order every time: a solver's
    table carries from one position to the next)."""
    return [run() for run in PARTS]


def signature(found: list[Part]) -> int:
    """The number: a 48-bit hash of every part's line."""
    text = "\n".join(part.line() for part in found).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=6).digest(), "big")


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("clinea signature",
                            "Print the search signature: one number that changes when any search's tree does.", EPILOG)
    parser.add_argument("--verbose", action="store_true",
                        help="also print each part's nodes, answers and CPU time, and the total nodes (default: off)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    found = []
    for run in PARTS:
        started = time.process_time()
        found.append(run())
        if args.verbose:
            print(f"{found[-1].line()} ({time.process_time() - started:.2f} s CPU)", flush=True)
    if args.verbose:
        print(f"total: {sum(part.nodes for part in found)} nodes")
    print(signature(found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
