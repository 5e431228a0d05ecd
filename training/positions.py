"""Unfinished positions reached by uniformly random plies: what the search
table times and the optimality check solves."""
from __future__ import annotations

import random

from clinea.core import Board, Rules


def random_positions(geometry: Rules, count: int, seed: int, fewest: int, most: int) -> list[Board]:
    """`count` unfinished positions, each after `fewest` to `most` random
    plies from the empty board (a game that ends on the way is drawn again)."""
    rng = random.Random(seed)
    out: list[Board] = []
    while len(out) < count:
        board = Board(*geometry)
        for _ in range(rng.randint(fewest, most)):
            if board.is_over():
                break
            board.play(rng.choice(board.legal_columns()))
        if not board.is_over():
            out.append(board)
    return out
