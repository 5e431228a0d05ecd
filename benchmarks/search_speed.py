"""Speed of the strong player's search per board: nodes per CPU second.

For each board it builds --positions positions (seeded random openings of
--plies moves on each side, games that ended skipped) and runs
Search.think on each to a fixed node budget, timing it with the process CPU
clock (less noisy than the wall clock on a loaded machine). It prints, per
board, which representation the board uses, the median nodes per CPU second
and the median depth reached. The 7x6 figure is the reference the big
boards are compared with.
"""
import argparse
import random
import statistics
import time
from collections.abc import Iterator

from clinea.core import Board
from clinea.core.search import Search
from clinea.core.timeman import Limits

BOARDS = [("7x6 c4", 7, 6, 4), ("9x8 c5", 9, 8, 5), ("10x9 c4", 10, 9, 4),
          ("14x12 c6", 14, 12, 6), ("20x20 c5", 20, 20, 5)]


def positions(columns: int, rows: int, c: int, plies: int, seed: int) -> Iterator[Board]:
    """Seeded random openings, the games that ended skipped, without end."""
    rng = random.Random(seed)
    while True:
        board = Board(columns, rows, c)
        for _ in range(plies):
            if board.is_over():
                break
            board.play(rng.choice(board.legal_columns()))
        if not board.is_over():
            yield board


def representation(board: Board) -> str:
    if board.is_bitboard:
        return "64-bit"
    if board.is_wide:
        return "wide"
    return "cells"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example:\n  python benchmarks/search_speed.py --positions 5 --nodes 100000")
    parser.add_argument("--positions", type=int, default=8, help="positions per board (default 8)")
    parser.add_argument("--plies", type=int, default=10, help="random moves before each position (default 10)")
    parser.add_argument("--nodes", type=int, default=200000, help="node budget per search (default 200000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Search.think to {args.nodes} nodes, {args.positions} positions of {args.plies} random plies per board")
    print(f"{'board':10} {'path':7} {'median knodes/CPU s':>20} {'median depth':>13}")
    for label, columns, rows, c in BOARDS:
        rates: list[float] = []
        depths: list[int] = []
        for board in positions(columns, rows, c, args.plies, args.seed):
            search = Search()
            start = time.process_time()
            result = search.think(board, Limits(nodes=args.nodes))
            seconds = time.process_time() - start
            if result.nodes == 0:
                # answered without a search (a win at once, a forced reply):
                # its rate would be 0 and its depth 0 (10 random plies on
                # 10x9 c4 leave that in half the openings)
                continue
            rates.append(result.nodes / max(seconds, 1e-6) / 1000)
            depths.append(result.depth)
            if len(rates) == args.positions:
                break
        print(f"{label:10} {representation(board):7} {statistics.median(rates):20.0f} "
              f"{statistics.median(depths):13.1f}", flush=True)


if __name__ == "__main__":
    main()
