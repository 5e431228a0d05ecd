"""A linear evaluation learned from self-play with least-mean-squares
updates, in the style of the Chinese-checkers report among the sources (and
Mitchell's checkers learner): after each game, every position the learner
left behind is pulled towards the value of the next one it left, the last
towards the result (+1 win, 0 draw, -1 loss):

    w <- w + rate * (target - w . x) * x

x being the greedy features (own minus opponent, clinea.core.features)
divided by the number of cells, so one rate suits every board size. The
learner plays as the greedy player with its current weights; the opponent
is the learner's previous version (frozen at the start of each iteration)
or random. The rate cools by a factor per iteration.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from clinea.core import Board, Rules
from clinea.core.features import feature_vector
from clinea.players.weights import MAX_WEIGHT, MIN_WEIGHT
from clinea.training.fitness import DRAW, LOSS, WIN, outcome_for, summary
from clinea.training.games import greedy, opponent, play
from clinea.training.report import Budget, Recorder, Watch

OPPONENTS = ("self", "random")


def lms_update(weights: Sequence[float], positions: Sequence[Sequence[float]], result: int,
               rate: float) -> list[float]:
    """One game's updates, in order, each target being the value of the
    next position under the weights so far and the last one `result`."""
    w = list(weights)
    for k, x in enumerate(positions):
        if k + 1 < len(positions):
            target = sum(wi * xi for wi, xi in zip(w, positions[k + 1]))
        else:
            target = float(result)
        error = target - sum(wi * xi for wi, xi in zip(w, x))
        w = [min(MAX_WEIGHT, max(MIN_WEIGHT, wi + rate * error * xi)) for wi, xi in zip(w, x)]
    return w


def learner_positions(moves: Sequence[int], geometry: Rules, me: int) -> list[list[float]]:
    """Scaled features of every position just after a move of player `me`."""
    board = Board(*geometry)
    cells = geometry.columns * geometry.rows
    out = []
    for col in moves:
        mover = board.side_to_move
        board.play(col)
        if mover == me:
            out.append([v / cells for v in feature_vector(board, me)])
    return out


def run(geometry: Rules, start: Sequence[float], against: str, games: int, rate: float, cooling: float,
        budget: Budget, recorder: Recorder, seed: int, watch: Watch | None = None) -> tuple[list[float], float]:
    """Learns until the budget is spent, `games` games per iteration (colours
    alternating). Returns (weights, last iteration's win rate). Runs in one
    process: each game's update depends on the one before. `watch(iteration,
    weights)`, when given, sees the weights after every iteration: against
    its previous self the learner wins about half its games whatever it
    learns, so progress shows only against a fixed opponent."""
    if against not in OPPONENTS:
        raise ValueError(f"--against {against!r} is out of range: allowed {', '.join(OPPONENTS)}")
    if not 0 < rate <= 1:
        raise ValueError(f"--rate {rate} is out of range: allowed more than 0, at most 1")
    if not 0 < cooling <= 1:
        raise ValueError(f"--cooling {cooling} is out of range: allowed more than 0, at most 1")
    rng = random.Random(seed)
    c = geometry.c
    weights = list(start)
    rates: list[float] = []
    iteration = 0
    while True:
        previous = greedy(weights, c)
        wins = draws = losses = 0
        for k in range(games):
            me = k % 2
            learner = greedy(weights, c)
            other = previous if against == "self" else opponent("random", rng.getrandbits(63))
            first, second = (learner, other) if me == 0 else (other, learner)
            result = play(first, second, geometry)
            outcome = outcome_for(result.winner, me)
            wins += outcome == WIN
            draws += outcome == DRAW
            losses += outcome == LOSS
            weights = lms_update(weights, learner_positions(result.moves, geometry, me), outcome, rate)
        win_rate = wins / games
        victory_rate = wins / (wins + losses) if wins + losses else 0.0
        rates.append(win_rate)
        iteration += 1
        recorder.record(iteration, summary(rates), best=(weights, win_rate), win_rate=round(win_rate, 4),
                        victory_rate=round(victory_rate, 4), rate=round(rate, 6))
        rate *= cooling
        if watch is not None:
            watch(iteration, weights)
        if not budget.more(iteration):
            return weights, win_rate
