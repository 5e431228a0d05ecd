"""Match statistics: Elo difference with a 95 % interval, likelihood of
superiority, and the sequential probability ratio test (SPRT).

All from one player's point of view: `wins`, `losses`, `draws` against the
opponent. The interval uses the normal approximation of the mean game score
(1, 1/2, 0) mapped through the logistic Elo curve; the SPRT uses the same
normal model of a game's score (the "generalised SPRT"), which is what
engine testers run.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

Z95 = 1.959963984540054  # two-sided 95 % quantile of the standard normal


def elo_from_score(score: float) -> float:
    """Elo difference that gives an expected `score` in 0..1 (infinite at the ends)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass
class Estimate:
    games: int
    score: float           # mean points per game
    elo: float
    low: float             # 95 % interval of the Elo difference
    high: float
    los: Optional[float]   # likelihood of superiority, None without decisive games


def score_variance(wins: int, losses: int, draws: int) -> float:
    """Variance of one game's score (1, 1/2, 0) around the observed mean."""
    n = wins + losses + draws
    s = (wins + draws / 2) / n
    return (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n


def los(wins: int, losses: int) -> Optional[float]:
    """Probability that the player is the stronger one, from the decisive
    games only (draws carry no information about it)."""
    if wins + losses == 0:
        return None
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def estimate(wins: int, losses: int, draws: int) -> Optional[Estimate]:
    n = wins + losses + draws
    if n == 0:
        return None
    s = (wins + draws / 2) / n
    variance = score_variance(wins, losses, draws)
    if variance == 0:
        # every game ended the same way: the normal interval would shrink to a
        # point (100-0 would read [+inf, +inf]); Wilson's stays honest there
        low, high = wilson_interval(s, n)
    else:
        margin = Z95 * math.sqrt(variance / n)
        low, high = max(0.0, s - margin), min(1.0, s + margin)
    return Estimate(n, s, elo_from_score(s), elo_from_score(low), elo_from_score(high), los(wins, losses))


def wilson_interval(score: float, n: int) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion observed as `score` over n trials."""
    z2 = Z95 * Z95
    centre = (score + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(score * (1 - score) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # at the ends the bound is exactly the end; the formula only gets there up to rounding
    low = 0.0 if score == 0 else max(0.0, centre - half)
    high = 1.0 if score == 1 else min(1.0, centre + half)
    return low, high


@dataclass
class Sprt:
    """H0: the Elo difference is elo0; H1: it is elo1. Stop when the
    log-likelihood ratio leaves (lower, upper)."""
    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, wins: int, losses: int, draws: int) -> float:
        """Log-likelihood ratio of H1 over H0 with the game score modelled as
        normal with the observed variance."""
        n = wins + losses + draws
        if n == 0:
            return 0.0
        var = score_variance(wins, losses, draws)
        if var == 0:
            # all games alike (a bot that always forfeits): take the spread
            # one more drawn game would give, so the test can still decide
            var = score_variance(wins, losses, draws + 1)
        s = (wins + draws / 2) / n
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)

    def verdict(self, wins: int, losses: int, draws: int) -> Optional[str]:
        """"H1" (accept elo1), "H0" (accept elo0) or None (keep playing)."""
        value = self.llr(wins, losses, draws)
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None


@dataclass(frozen=True)
class SprtDecision:
    """The test's verdict ("H0" or "H1") and the games it was taken on."""
    verdict: str
    wins: int
    losses: int
    draws: int
    llr: float

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws


def sprt_decision(sprt: Sprt, wins: int, losses: int, draws: int) -> Optional[SprtDecision]:
    """The decision on these games, or None to keep playing."""
    verdict = sprt.verdict(wins, losses, draws)
    if verdict is None:
        return None
    return SprtDecision(verdict, wins, losses, draws, sprt.llr(wins, losses, draws))
