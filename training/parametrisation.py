"""How a training vector becomes the greedy player's weights.

  clinea   one weight per feature, applied to (own - opponent):
           feature_count(c) = 4 + 4 L numbers (16 for c = 4), the layout of
           clinea.core.features;
  report   the report's 28 parameters for c = 4: one weight per run feature
           and player, 4 + 8 L numbers: the four positional scalars (centre,
           borders, corners, liberties) weigh (own - opponent) as in clinea,
           then the four run vectors for the player's own runs, then the same
           four for the opponent's runs (subtracted, as in clinea);
  windows  clinea's, then L weights of the open windows holding 1..L
           tokens (clinea.core.features.count_windows), also applied to
           (own - opponent): 4 + 5 L numbers. Ours, not the report's: it
           sees where c in a row can still be made, gaps included;
  report-windows  the report's, then L window weights for the player's own
           windows and L for the opponent's: 4 + 10 L numbers;
  monotone-windows  L steps of the player's own window weights, then L of
           the opponent's: 2 L numbers, every other weight 0 (no scalars,
           no runs). Step g in [-1, 1] raises the weight of windows holding
           one token more by (g + 1) / (2 L), so a window never weighs less
           than one holding fewer tokens, and the weights stay in [0, 1].
           On 14x12 c = 10 every rising profile written by hand won 2000
           games of 2000 against random (n / L, (n / L)^2, (n / L)^3),
           while free window weights beside the run features leave the
           genetic algorithm among players drawing 3-5 % of their games,
           and evolved scalars beside rising windows drew 1-2 %.

The lengths differ for every c, so a vector's length tells its
parametrisation and the games need no other flag.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clinea.core.features import feature_count, run_lengths
from clinea.players.weights import Weights

NAMES = ("clinea", "report", "windows", "report-windows", "monotone-windows")
SCALARS = 4


def length(name: str, c: int) -> int:
    """How many numbers a vector of parametrisation `name` has for `c` in a row."""
    if name == "clinea":
        return feature_count(c)
    if name == "report":
        return feature_count(c) + 4 * run_lengths(c)
    if name == "windows":
        return feature_count(c) + run_lengths(c)
    if name == "report-windows":
        return feature_count(c) + 6 * run_lengths(c)
    if name == "monotone-windows":
        return 2 * run_lengths(c)
    raise ValueError(f"parametrisation {name!r} is unknown: allowed {', '.join(NAMES)}")


def name_of(values: Sequence[float], c: int) -> str:
    """The parametrisation a vector of this length belongs to."""
    for name in NAMES:
        if len(values) == length(name, c):
            return name
    raise ValueError(f"{len(values)} weights for c={c}: expected "
                     + ", ".join(f"{length(name, c)} ({name})" for name in NAMES))


def to_weights(values: Sequence[float], c: int, info: dict[str, Any] | None = None) -> Weights:
    """A vector of any parametrisation as the greedy player's weights (with
    opponent weights of their own for the report's, window weights for
    ours with windows), ready to save."""
    values = list(values)
    name = name_of(values, c)
    runs, count = 4 * run_lengths(c), feature_count(c)
    if name == "monotone-windows":
        flat = [0.0] * count
        steps = len(values) // 2
        return Weights(flat, c, info or {}, Weights(flat, c, windows=_rising(values[steps:])),
                       _rising(values[:steps]))
    scalars = values[:SCALARS]
    if name == "clinea":
        return Weights(values, c, info or {})
    if name == "windows":
        return Weights(values[:count], c, info or {}, windows=values[count:])
    own = scalars + values[SCALARS:SCALARS + runs]
    opponent = scalars + values[SCALARS + runs:SCALARS + 2 * runs]
    if name == "report":
        return Weights(own, c, info or {}, Weights(opponent, c))
    windows = values[SCALARS + 2 * runs:]
    half = len(windows) // 2
    return Weights(own, c, info or {}, Weights(opponent, c, windows=windows[half:]), windows[:half])


def player_weights(values: Sequence[float], c: int) -> tuple[list[float], list[float] | None]:
    """(own weights, opponent weights or None when they are the same), both
    in the layout of clinea.core.features, for a vector of any parametrisation
    (window weights left out)."""
    weights = to_weights(values, c)
    return weights.values, None if weights.opponent is None else weights.opponent.values


def vector(weights: Weights, name: str, c: int) -> list[float]:
    """`weights` (a file's, maybe made for another c) as a vector of
    parametrisation `name` for `c` in a row: the report's takes the
    opponent's run weights from the file, or the player's own when it has none."""
    own = weights.for_c(c)
    length(name, c)  # refuses an unknown name
    if name in ("clinea", "windows") and weights.opponent is not None:
        raise ValueError("these weights weigh the opponent's features apart: "
                         "only the report parametrisations can start from them")
    windows = weights.windows_for_c(c) or [0.0] * run_lengths(c)
    if name == "clinea":
        if weights.windows is not None:
            raise ValueError("these weights count open windows: the clinea parametrisation has none")
        return own
    if name == "windows":
        return own + windows
    if name == "monotone-windows":
        return _monotone_vector(weights, own, c)
    opponent = weights.opponent if weights.opponent is not None else weights
    theirs = opponent.for_c(c)
    if name == "report":
        if weights.windows is not None:
            raise ValueError("these weights count open windows: the report parametrisation has none")
        return own + theirs[SCALARS:]
    return own + theirs[SCALARS:] + windows + (opponent.windows_for_c(c) or windows)


def _rising(steps: Sequence[float]) -> list[float]:
    """Window weights from monotone-windows steps: each step g adds (g + 1) / (2 L)."""
    weights, total = [], 0.0
    for g in steps:
        total += (g + 1) / (2 * len(steps))
        weights.append(min(total, 1.0))  # rounding must not push the last past the allowed 1
    return weights


def _steps(windows: Sequence[float], name: str) -> list[float]:
    """The monotone-windows steps of rising window weights; ValueError when they do not rise by 0 to 1 / L."""
    nlen, steps, before = len(windows), [], 0.0
    for n, weight in enumerate(windows, 1):
        rise = (weight - before) * nlen
        if not -1e-9 <= rise <= 1 + 1e-9:
            raise ValueError(f"{name} window weight {n} rises by {weight - before:g} from the one before: "
                             f"monotone-windows allows 0..{1 / nlen:g}")
        steps.append(min(1.0, max(-1.0, 2 * rise - 1)))
        before = weight
    return steps


def _monotone_vector(weights: Weights, own: list[float], c: int) -> list[float]:
    """`weights` as a monotone-windows vector, when they are one: every
    feature weight 0, window weights rising."""
    opponent = weights.opponent if weights.opponent is not None else weights
    if any(own) or any(opponent.for_c(c)):
        raise ValueError("these weights weigh scalar or run features: monotone-windows weighs windows only")
    mine, their_windows = weights.windows_for_c(c), opponent.windows_for_c(c)
    if mine is None or their_windows is None:
        raise ValueError("these weights count no open windows: monotone-windows weighs nothing else")
    return _steps(mine, "the player's") + _steps(their_windows, "the opponent's")
