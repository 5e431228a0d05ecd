"""The exported Kaggle agent moving first on 7x6 (a first-player win)
against Kaggle's `negamax`, each of its moves checked by clinea's solver:
the moves that give the win away. W/D/L hides them, negamax seldom
punishes one. Played in this process (not in Kaggle's environment) with
negamax's random tie-breaks seeded per game, so a game is played again
from its seed (the agent's own clock aside).

example:
  python benchmarks/kaggle_lost_wins.py --games 100
  python benchmarks/kaggle_lost_wins.py --first-seed 1000 --games 50 --act-timeout 0.9   # a slower machine
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from kaggle_environments.envs.connectx.connectx import negamax_agent
from kaggle_environments.utils import Struct

from clinea.bridges.export import OVERAGE_BANK, agent_source
from clinea.bridges.kaggle import kaggle_board
from clinea.core import Board
from clinea.core.solver import Solver


def play(source: str, seed: int, act_timeout: float, solver: Solver) -> tuple[Board, list[float], list[str]]:
    """One game of the agent (first) against negamax: the final board, the
    agent's move times, and a line for each move that gave the win away."""
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # noqa: S102 - the submission file, as Kaggle runs it
    configuration = Struct(columns=7, rows=6, inarow=4, actTimeout=act_timeout, timeout=act_timeout)
    random.seed(seed)
    board, bank, times, lost = Board(7, 6, 4), OVERAGE_BANK, [], []
    winning = True
    while not board.is_over():
        mark = board.side_to_move + 1
        observation = Struct(board=kaggle_board(board), mark=mark, remainingOverageTime=bank)
        if mark == 2:
            board.play(negamax_agent(observation, configuration))
            continue
        started = time.perf_counter()
        col = namespace["agent"](observation, configuration)
        times.append(time.perf_counter() - started)
        bank -= max(0.0, times[-1] - act_timeout)
        before = board.moves()
        board.play(col)
        if winning and not board.is_over() and solver.solve(board, weak=True) != -1:
            winning = False  # what follows is no longer the agent's win to lose
            lost.append(f"seed {seed}: lost the win at {len(before)} stones, moves {before}, played {col} "
                        f"in {times[-1]:.2f} s")
    return board, times, lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog=__doc__[__doc__.index("example:"):],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games, one seed each (default 100)")
    parser.add_argument("--first-seed", type=int, default=0, help="the first game's seed (default 0)")
    parser.add_argument("--act-timeout", type=float, default=2.0,
                        help="the agent's actTimeout in seconds (default 2, ConnectX's); less plays a slower machine")
    parser.add_argument("--overage-reserve", type=float, help="the export's option (default the export's)")
    args = parser.parse_args()
    if args.games < 1 or args.act_timeout <= 0:
        parser.error(f"--games {args.games} and --act-timeout {args.act_timeout}: allowed 1 or more, above 0")
    source, solver = agent_source("best", args.overage_reserve), Solver()
    outcomes, times, lost = [], [], []
    started = time.monotonic()
    for seed in range(args.first_seed, args.first_seed + args.games):
        board, game_times, game_lost = play(source, seed, args.act_timeout, solver)
        outcomes.append("W" if board.winner == 0 else "D" if board.winner is None else "L")
        times += game_times
        lost += game_lost
        for line in game_lost:
            print(line, flush=True)
    print(f"games {len(outcomes)} (seeds {args.first_seed}..{args.first_seed + args.games - 1}), W "
          f"{outcomes.count('W')} D {outcomes.count('D')} L {outcomes.count('L')}, games with a lost win "
          f"{len(lost)}, agent moves {len(times)}, median {statistics.median(times):.3f} s, slowest "
          f"{max(times):.3f} s ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
