"""Match statistics: Elo difference with a 95 % interval, likelihood of
superiority, and the sequential probability ratio test (SPRT).

All from one player's point of view: `wins`, `losses`, `draws` against the
opponent. The interval uses the normal approximation of the mean game score
(1, 1/2, 0) mapped through the logistic Elo curve; the SPRT uses the same
normal model of a game's score (the "generalised SPRT"), which is what
engine testers run. Game pairs (one opening, colours swapped) have their
own counts and test, the pentanomial ones, below.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # two-sided 95 % quantile of the standard normal


def elo_from_score(score: float) -> float:
    """Elo difference that gives an expected `score` in 0..1 (infinite at the ends)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@dataclass
class Estimate:
    games: int
    score: float           # mean points per game
    elo: float
    low: float             # 95 % interval of the Elo difference
    high: float
    los: float | None   # likelihood of superiority, None without decisive games


def score_variance(wins: int, losses: int, draws: int) -> float:
    """Variance of one game's score (1, 1/2, 0) around the observed mean."""
    n = wins + losses + draws
    s = (wins + draws / 2) / n
    return (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n


def los(wins: int, losses: int) -> float | None:
    """Probability that the player is the stronger one, from the decisive
    games only (draws carry no information about it)."""
    if wins + losses == 0:
        return None
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def estimate(wins: int, losses: int, draws: int) -> Estimate | None:
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


MODELS = ("trinomial", "pentanomial")


@dataclass
class Sprt:
    """H0: the Elo difference is elo0; H1: it is elo1. Stop when the
    log-likelihood ratio leaves (lower, upper). The trinomial model counts
    single games, elo0 and elo1 in logistic Elo; the pentanomial one counts
    game pairs, elo0 and elo1 in normalised Elo (fastchess, fishtest)."""
    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "trinomial"

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

    def pairs_llr(self, pairs: Sequence[int]) -> float:
        """Log-likelihood ratio of H1 over H0 on the pentanomial counts of
        the game pairs."""
        return pentanomial_llr(pairs, self.elo0, self.elo1)

    def verdict_of(self, value: float) -> str | None:
        """"H1" (accept elo1), "H0" (accept elo0) or None (keep playing) at LLR `value`."""
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None

    def verdict(self, wins: int, losses: int, draws: int) -> str | None:
        return self.verdict_of(self.llr(wins, losses, draws))


@dataclass(frozen=True)
class SprtDecision:
    """The test's verdict ("H0" or "H1") and the games it was taken on
    (with the pentanomial model, the counts of the complete pairs)."""
    verdict: str
    wins: int
    losses: int
    draws: int
    llr: float
    pairs: tuple[int, ...] | None = None

    @property
    def games(self) -> int:
        return 2 * sum(self.pairs) if self.pairs is not None else self.wins + self.losses + self.draws


def sprt_decision(sprt: Sprt, wins: int, losses: int, draws: int,
                  pairs: Sequence[int] | None = None) -> SprtDecision | None:
    """The decision on these games (on `pairs` with the pentanomial model),
    or None to keep playing."""
    if sprt.model == "pentanomial":
        value = sprt.pairs_llr(pairs or (0,) * len(PAIR_SCORES))
        verdict = sprt.verdict_of(value)
        return None if verdict is None else SprtDecision(verdict, wins, losses, draws, value, tuple(pairs or ()))
    verdict = sprt.verdict(wins, losses, draws)
    if verdict is None:
        return None
    return SprtDecision(verdict, wins, losses, draws, sprt.llr(wins, losses, draws))

# --- game pairs: the pentanomial model -------------------------------------
#
# Engine testers play each opening twice with the colours swapped and count
# the pair's points for one side, 0, 1/2, 1, 3/2 or 2 (LL, LD, DD or WL, WD,
# WW): a lucky opening then weighs once, not twice, and the pairs' spread is
# the honest one. The test below is the normalised SPRT of fastchess and
# fishtest (M. Van den Bergh, "Comments on normalized Elo"): ELO0 and ELO1
# are normalised Elo, the score's distance from 1/2 in standard deviations
# of a pair's score, times 800/ln 10 / sqrt 2.

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # a pair's mean points per game, bin by bin
NELO_SCALE = 800.0 / math.log(10.0)        # normalised Elo per standard deviation
EMPTY_BIN = 1e-3                           # what an empty bin counts as (fastchess's regularisation)


def pair_bin(first: float, second: float) -> int:
    """The pentanomial bin (0..4) of a pair whose games gave one side `first`
    and `second` points (each 0, 1/2 or 1)."""
    return round(2 * (first + second))


def mean_and_variance(counts: Sequence[float], scores: Sequence[float]) -> tuple[float, float]:
    """Mean and variance of a score observed `counts[i]` times at `scores[i]`."""
    total = sum(counts)
    mean = sum(n * a for n, a in zip(counts, scores)) / total
    return mean, sum(n * (a - mean) ** 2 for n, a in zip(counts, scores)) / total


@dataclass
class NormalisedElo:
    pairs: int
    score: float       # mean points per game
    nelo: float
    margin: float      # half the 95 % interval of nelo (infinite when every pair scored alike)


def pentanomial_estimate(counts: Sequence[int]) -> NormalisedElo | None:
    """Normalised Elo of the pairs with its 95 % interval, as fastchess
    reports it; None without pairs."""
    pairs = sum(counts)
    if pairs == 0:
        return None
    mean, variance = mean_and_variance(counts, PAIR_SCORES)
    if variance == 0:
        return NormalisedElo(pairs, mean, 0.0 if mean == 0.5 else math.copysign(math.inf, mean - 0.5), math.inf)
    spread = math.sqrt(2 * variance)  # the pair's sd, per game
    return NormalisedElo(pairs, mean, (mean - 0.5) / spread * NELO_SCALE,
                         Z95 * math.sqrt(variance / pairs) / spread * NELO_SCALE)


def normalised_llr(counts: Sequence[int], scores: Sequence[float], nelo0: float, nelo1: float,
                   spread: float) -> float:
    """Log-likelihood ratio of normalised Elo nelo1 over nelo0 for the
    outcome `counts` on `scores`, in Van den Bergh's closed form: each
    hypothesis is the score 1/2 + nelo * spread * sd / NELO_SCALE (sd the
    observed standard deviation of one unit), and the LLR the units' count
    over 2 times log(var0 / var1), var_i the observed spread around that
    score. `spread` is 1 for single games, sqrt 2 for pairs. This is the
    LLR fastchess prints in its PR #783; its later exact maximum-likelihood
    LLR stays within 1e-3 of it on such runs (tests/test_judge_pentanomial.py)."""
    regular = [n if n else EMPTY_BIN for n in counts]  # no bin is ever impossible
    mean, variance = mean_and_variance(regular, scores)
    s0, s1 = (0.5 + nelo * spread * math.sqrt(variance) / NELO_SCALE for nelo in (nelo0, nelo1))
    return sum(regular) / 2 * math.log((variance + (mean - s0) ** 2) / (variance + (mean - s1) ** 2))


def pentanomial_llr(counts: Sequence[int], nelo0: float, nelo1: float) -> float:
    """fastchess's pentanomial LLR (model "normalized") of nelo1 over nelo0."""
    if sum(counts) == 0:
        return 0.0
    return normalised_llr(counts, PAIR_SCORES, nelo0, nelo1, math.sqrt(2.0))


def trinomial_normalised_llr(wins: int, losses: int, draws: int, nelo0: float, nelo1: float) -> float:
    """The same test on single games (fastchess's trinomial "normalized")."""
    if wins + losses + draws == 0:
        return 0.0
    return normalised_llr((losses, draws, wins), (0.0, 0.5, 1.0), nelo0, nelo1, 1.0)
