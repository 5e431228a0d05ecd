"""Steps per second of the reinforcement-learning environments on 7x6,
against PettingZoo's own connect_four_v3, in the same run on the same
machine: PettingZoo's environment, clinea's AEC environment
(clinea.bridges.pettingzoo), clinea's Gymnasium environment against
the random player (one step is the agent's move and the opponent's answer)
and the batched stepper (clinea.core.batch) over many boards.

Every loop plays uniformly random legal moves, read from the action mask as
a learner would, and pays for its observations; the figure is the median
of --repeats runs on CPU time, with the ratio to connect_four_v3. Goals: a single
environment at least 5x connect_four_v3, the batched stepper at least 100x.
"""
from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from clinea.bridges.gymnasium_env import ClineaGymEnv
from clinea.bridges.pettingzoo import env as clinea_aec
from clinea.core.batch import BatchBoards

LARGER_BOARDS = [("9x8 c=5 (three-word bitboards)", (9, 8, 5)), ("20x20 c=5 (cell array)", (20, 20, 5))]


def aec_moves(make_env: Callable, moves: int, rng: np.random.Generator) -> int:
    """Plays AEC games on one environment until `moves` moves are made;
    returns the count."""
    made = 0
    env = make_env()
    while made < moves:
        env.reset(seed=int(rng.integers(1 << 30)))
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            made += 1
    return made


def gym_steps(steps: int, rng: np.random.Generator) -> int:
    env = ClineaGymEnv(opponent="random")
    _, info = env.reset(seed=int(rng.integers(1 << 30)))
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
        if terminated or truncated:
            _, info = env.reset()
    return steps


def batch_moves(boards: int, calls: int, rng: np.random.Generator, rules: tuple[int, int, int] = (7, 6, 4)) -> int:
    batch = BatchBoards(boards, *rules)
    _, masks = batch.reset()
    for _ in range(calls):
        # a random legal column per board: random scores, illegal ones pushed below
        actions = np.argmax(rng.random(masks.shape) + masks, axis=1)
        _, masks, _, _ = batch.step(actions)
    return boards * calls


def rate(run: Callable[[], int], repeats: int) -> float:
    """Median steps per CPU second of `repeats` runs of `run` (CPU time: the
    machines here are shared, and every loop runs on one core)."""
    rates = []
    for _ in range(repeats):
        start = time.process_time()
        done = run()
        rates.append(done / (time.process_time() - start))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="example:\n  python benchmarks/rl_env.py --moves 20000 --repeats 3")
    parser.add_argument("--moves", type=int, default=20_000, help="moves per run of a single environment (default: %(default)s)")
    parser.add_argument("--boards", type=int, default=1024, help="boards of the batched stepper (default: %(default)s)")
    parser.add_argument("--batch-steps", type=int, default=300, help="calls of the batched stepper per run (default: %(default)s)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure, the median printed (default: %(default)s)")
    args = parser.parse_args()
    from pettingzoo.classic import connect_four_v3

    rng = np.random.default_rng(1)
    cases = [
        ("PettingZoo connect_four_v3 (AEC)", lambda: aec_moves(connect_four_v3.env, args.moves, rng)),
        ("clinea AEC (integrations.pettingzoo)", lambda: aec_moves(clinea_aec, args.moves, rng)),
        ("clinea Gymnasium vs random", lambda: gym_steps(args.moves, rng)),
        (f"clinea BatchBoards x {args.boards}", lambda: batch_moves(args.boards, args.batch_steps, rng)),
    ]
    print(f"7x6 c=4, random legal moves, steps per CPU second, median of {args.repeats} runs")
    print(f"{'environment':40} {'steps/s':>14} {'vs connect_four_v3':>19}")
    baseline = None
    for name, run in cases:
        figure = rate(run, args.repeats)
        baseline = baseline or figure
        print(f"{name:40} {figure:14,.0f} {figure / baseline:18.1f}x")
    print("(a Gymnasium step is the agent's move plus the opponent's answer; goals: single >= 5x, batched >= 100x)")
    print(f"\nBatchBoards x {args.boards} beyond 64 bits (connect_four_v3 has no such board), steps per CPU second")
    for name, rules in LARGER_BOARDS:
        figure = rate(lambda rules=rules: batch_moves(args.boards, args.batch_steps, rng, rules), args.repeats)
        print(f"{name:40} {figure:14,.0f}")


if __name__ == "__main__":
    main()
