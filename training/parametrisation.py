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
