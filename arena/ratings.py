"""Elo ratings from many players' games: the maximum-likelihood fit of the
Bradley-Terry model on the logistic Elo scale, with some players anchored.

Each game scores 1, 1/2 or 0, and the model gives player i an expected
score 1 / (1 + 10 ** ((R_j - R_i) / 400)) against j; a draw counts as half
a win and half a loss (the usual reading of the Elo model). The ratings
that make the games most likely solve a concave problem, found here by
Newton's method; the anchored players' ratings stay as given, so the others
are measured on their scale (a league's fixed baselines). Being fitted
jointly, a bot's games against other bots count too, not only those
against the anchors.

A player with every game won has no finite maximum: like BayesElo, the fit
adds `prior_draws` virtual draws to every pairing that played, which keeps
every rating finite and pulls a short record towards its opponents.

The 95 % interval of each free rating is +-1.96 standard errors from the
inverse of the observed information (the negated Hessian of the
log-likelihood at the maximum), relative to the anchors, which are fixed by
definition. The fit is a few players' Newton steps: numpy's linear algebra
is all it needs (choix, the Bradley-Terry library, has no anchors and no
intervals).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from clinea.judge.stats import Z95

#: Elo points per natural-log unit of the odds: 400 / ln 10
ELO_SCALE = 400.0 / math.log(10.0)
#: Newton steps stop when no rating moves by more than this many Elo
TOLERANCE = 1e-7
MAX_STEPS = 200
#: Elo past which a rating is taken to grow without end: a perfect score without a prior
#: (1000 straight wins with prior_draws 0.1 stay under 1900)
DIVERGED = 5000.0


@dataclass(frozen=True)
class Rating:
    """A player's Elo and its 95 % interval (the Elo itself when anchored)."""
    elo: float
    low: float
    high: float
    anchored: bool = False


@dataclass
class PairScore:
    """What the games of one pairing added up to, for the first-named player."""
    points: float = 0.0
    games: int = 0


class FitError(ValueError):
    """Games from which no finite ratings follow."""


def pair_scores(games: Iterable[tuple[str, str, float]]) -> dict[tuple[str, str], PairScore]:
    """Adds up (player, opponent, player's points) game results by pairing,
    each pairing under its names in sorted order."""
    scores: dict[tuple[str, str], PairScore] = {}
    for a, b, points in games:
        if a > b:
            a, b, points = b, a, 1.0 - points
        score = scores.setdefault((a, b), PairScore())
        score.points += points
        score.games += 1
    return scores


def connected_to(anchors: Iterable[str], scores: Mapping[tuple[str, str], PairScore]) -> set[str]:
    """The players linked to an anchor by a chain of played pairings: only
    they can be placed on the anchors' scale."""
    reached = set(anchors)
    grew = True
    while grew:
        grew = False
        for (a, b), score in scores.items():
            if score.games and (a in reached) != (b in reached):
                reached |= {a, b}
                grew = True
    return reached


def fit(scores: Mapping[tuple[str, str], PairScore], anchors: Mapping[str, float],
        prior_draws: float = 1.0) -> dict[str, Rating]:
    """The maximum-likelihood Elo of every player connected to an anchor,
    anchors included (as given). `scores` by pairing (pair_scores);
    FitError when the maximum is not finite (a perfect score, prior_draws 0)."""
    if not anchors:
        raise FitError("no anchored player: Elo is only defined relative to one")
    if prior_draws < 0:
        raise FitError(f"prior_draws {prior_draws:g} is out of range: allowed 0 or more")
    placed = connected_to(anchors, scores)
    free = sorted(placed - set(anchors))
    ratings = {name: Rating(elo, elo, elo, True) for name, elo in anchors.items()}
    if not free:
        return ratings
    index = {name: i for i, name in enumerate(free)}
    # ratings in natural-log units of the odds, the anchors fixed
    fixed = {name: elo / ELO_SCALE for name, elo in anchors.items()}
    pairs = [(a, b, score.points + prior_draws / 2, score.games + prior_draws)
             for (a, b), score in scores.items() if score.games and a in placed and b in placed
             and not (a in fixed and b in fixed)]
    theta = np.zeros(len(free))
    if fixed:
        theta += sum(fixed.values()) / len(fixed)  # start at the anchors' mean
    for _ in range(MAX_STEPS):
        gradient, information = _derivatives(theta, pairs, index, fixed)
        try:
            step = np.linalg.solve(information, gradient)
        except np.linalg.LinAlgError:
            raise FitError("the games leave some rating undetermined") from None
        # a damped step: far from the maximum a full Newton step can overshoot
        largest = float(np.max(np.abs(step)))
        if largest > 2.0:
            step *= 2.0 / largest
        theta += step
        if float(np.max(np.abs(theta))) * ELO_SCALE > DIVERGED:
            raise FitError("a perfect score has no finite Elo: give prior_draws > 0")
        if largest * ELO_SCALE < TOLERANCE:
            break
    else:
        raise FitError(f"the fit did not settle in {MAX_STEPS} steps")
    _, information = _derivatives(theta, pairs, index, fixed)
    covariance = np.linalg.inv(information)
    for name, i in index.items():
        elo = float(theta[i]) * ELO_SCALE
        margin = Z95 * math.sqrt(max(float(covariance[i, i]), 0.0)) * ELO_SCALE
        ratings[name] = Rating(elo, elo - margin, elo + margin)
    return ratings


def _derivatives(theta: np.ndarray, pairs: list[tuple[str, str, float, float]], index: dict[str, int],
                 fixed: dict[str, float]) -> tuple[np.ndarray, np.ndarray]:
    """The log-likelihood's gradient and the observed information (its
    negated Hessian) at `theta`, over the free players."""
    gradient = np.zeros(len(index))
    information = np.zeros((len(index), len(index)))

    def value(name: str) -> float:
        return fixed[name] if name in fixed else float(theta[index[name]])

    for a, b, points, games in pairs:
        expected = 1.0 / (1.0 + math.exp(value(b) - value(a)))
        weight = games * expected * (1.0 - expected)
        residual = points - games * expected
        for name, sign in ((a, 1.0), (b, -1.0)):
            if name in index:
                gradient[index[name]] += sign * residual
                information[index[name], index[name]] += weight
        if a in index and b in index:
            information[index[a], index[b]] -= weight
            information[index[b], index[a]] -= weight
    return gradient, information
