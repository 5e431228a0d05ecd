"""How a training vector becomes the greedy player's weights.

  clinea   one weight per feature, applied to (own - opponent):
           feature_count(c) = 4 + 4 L numbers (16 for c = 4), the layout of
           clinea.core.features;
  report   the report's 28 parameters for c = 4: one weight per run feature
           and player, 4 + 8 L numbers: the four positional scalars (centre,
           borders, corners, liberties) weigh (own - opponent) as in clinea,
           then the four run vectors for the player's own runs, then the same
           four for the opponent's runs (subtracted, as in clinea).

The lengths differ for every c, so a vector's length tells its
parametrisation and the games need no other flag.
"""
from __future__ import annotations

from typing import Sequence

from clinea.core.features import feature_count, run_lengths
from clinea.players.weights import Weights

NAMES = ("clinea", "report")
SCALARS = 4


def length(name: str, c: int) -> int:
    """How many numbers a vector of parametrisation `name` has for `c` in a row."""
    if name == "clinea":
        return feature_count(c)
    if name == "report":
        return feature_count(c) + 4 * run_lengths(c)
    raise ValueError(f"parametrisation {name!r} is unknown: allowed {', '.join(NAMES)}")


def player_weights(values: Sequence[float], c: int) -> tuple[list[float], list[float] | None]:
    """(own weights, opponent weights or None when they are the same), both
    in the layout of clinea.core.features, for a vector of either parametrisation."""
    values = list(values)
    if len(values) == length("clinea", c):
        return values, None
    if len(values) == length("report", c):
        runs = 4 * run_lengths(c)
        scalars = values[:SCALARS]
        return scalars + values[SCALARS:SCALARS + runs], scalars + values[SCALARS + runs:]
    raise ValueError(f"{len(values)} weights for c={c}: expected {length('clinea', c)} (clinea) "
                     f"or {length('report', c)} (report)")


def to_weights(values: Sequence[float], c: int, info: dict | None = None) -> Weights:
    """A vector of either parametrisation as the greedy player's weights
    (with opponent weights of their own for the report's), ready to save."""
    own, opponent = player_weights(values, c)
    return Weights(own, c, info or {}, None if opponent is None else Weights(opponent, c))


def vector(weights: Weights, name: str, c: int) -> list[float]:
    """`weights` (a file's, maybe made for another c) as a vector of
    parametrisation `name` for `c` in a row: the report's takes the
    opponent's run weights from the file, or the player's own when it has none."""
    own = weights.for_c(c)
    if name == "clinea":
        if weights.opponent is not None:
            raise ValueError("these weights weigh the opponent's features apart: "
                             "only the report parametrisation can start from them")
        return own
    length(name, c)  # refuses an unknown name
    opponent = weights.opponent.for_c(c) if weights.opponent is not None else own
    return own + opponent[SCALARS:]
