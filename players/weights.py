"""Weights of the greedy player: validation, the JSON file format, and fitting
a vector made for one `c` to another.

The layout (which entry weighs which feature) is defined once, in
`clinea.core.features`: four scalars (centre, borders, corners, liberties),
then four run vectors (consecutive, extensible, extensible_next,
bi_extensible) of L = c - 1 entries each, for run lengths 1..L.

File format (what `players/greedy --weights FILE` reads and training writes):

    {"format": "clinea-greedy-weights/1",
     "c": 4,
     "weights": {"centre": 0.3, "borders": -0.05, "corners": -0.1,
                 "liberties": 0.05,
                 "consecutive": [0.0, 0.1, 0.3], "extensible": [...],
                 "extensible_next": [...], "bi_extensible": [...]},
     "opponent_weights": {...},           # optional: the same groups, for the
                                          # opponent's features (the report's
                                          # parametrisation); default "weights"
     "info": {...}}                       # optional: how the weights were made

A vector made for one `c` plays on boards with another `c`: each run vector
is resampled by relative run length (length n of L reads the source at
n / L of its length, linearly interpolated), so "the longest runs matter
most" survives the change of size.
"""
from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clinea.bounded import MIB, json_value, read_text
from clinea.core.features import RUN_KINDS, SCALARS, feature_count, feature_groups, feature_names, run_lengths

WINDOWS = "windows"
"""The optional group of the open-window weights, one per token count 1..L."""
MIN_WEIGHT = -1.0
MAX_WEIGHT = 1.0
FORMAT = "clinea-greedy-weights/1"
DEFAULT_FILE = Path(__file__).with_name("greedy_default.json")
# A weights file is a few hundred bytes (a few KB for c = 64, with "info").
FILE_LIMIT = MIB


def check_weight(value: Any, name: str = "weight") -> float:
    """`value` as a float in [MIN_WEIGHT, MAX_WEIGHT]; ValueError naming it otherwise."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: {value!r} is not a number (allowed {MIN_WEIGHT:g}..{MAX_WEIGHT:g})") from None
    if not (MIN_WEIGHT <= number <= MAX_WEIGHT) or math.isnan(number):
        raise ValueError(f"{name}={value} is out of range: allowed {MIN_WEIGHT:g}..{MAX_WEIGHT:g}")
    return number


def c_for_length(length: int) -> int:
    """The `c` whose vector has `length` entries (4 + 4 (c - 1)); ValueError otherwise."""
    if length < 4 or (length - 4) % 4:
        raise ValueError(f"{length} weights: expected 4 + 4 (c - 1) of them, "
                         f"e.g. {feature_count(4)} for c = 4")
    return (length - 4) // 4 + 1


def resample(values: list[float], length: int) -> list[float]:
    """A run vector stretched or shrunk to `length` entries by relative run length."""
    if length == len(values):
        return list(values)
    if not values:
        return [0.0] * length
    out = []
    for n in range(1, length + 1):
        x = min(max(n / length * len(values) - 1, 0.0), len(values) - 1)
        low = math.floor(x)
        high = min(low + 1, len(values) - 1)
        out.append(values[low] + (values[high] - values[low]) * (x - low))
    return out


@dataclass
class Weights:
    """A weight vector for `c` in a row, flat, in the layout of clinea.core.features."""

    values: list[float]
    c: int
    info: dict[str, Any] = field(default_factory=dict)
    # the opponent's features weighed apart (same c, same layout); None: `values` for both
    opponent: Weights | None = None
    # weights of the open windows with 1..L tokens (clinea.core.features.count_windows);
    # None: windows are not counted
    windows: list[float] | None = None

    def __post_init__(self) -> None:
        expected = feature_count(self.c)
        if len(self.values) != expected:
            raise ValueError(f"{len(self.values)} weights for c={self.c}: expected {expected}")
        if self.opponent is not None and self.opponent.c != self.c:
            raise ValueError(f"opponent weights for c={self.opponent.c}, own weights for c={self.c}")
        names = feature_names(self.c)
        self.values = [check_weight(v, names[i]) for i, v in enumerate(self.values)]
        if self.windows is not None:
            if len(self.windows) != run_lengths(self.c):
                raise ValueError(f"{len(self.windows)} window weights for c={self.c}: "
                                 f"expected {run_lengths(self.c)}")
            self.windows = [check_weight(v, f"windows_{n}") for n, v in enumerate(self.windows, 1)]
        if self.opponent is not None and self.opponent.windows is not None and self.windows is None:
            raise ValueError("opponent window weights need the player's own window weights")

    @classmethod
    def from_flat(cls, values: Iterable[float], info: dict[str, Any] | None = None) -> Weights:
        """A vector given as plain numbers (the command line); its length sets c."""
        vector = list(values)
        return cls(vector, c_for_length(len(vector)), info or {})

    def groups(self) -> dict[str, float | list[float]]:
        """{"centre": x, ..., "consecutive": [...], ...}: the JSON "weights" object."""
        out: dict[str, float | list[float]] = {}
        for name, start, stop in feature_groups(self.c):
            out[name] = self.values[start] if name in SCALARS else self.values[start:stop]
        if self.windows is not None:
            out[WINDOWS] = list(self.windows)
        return out

    @classmethod
    def from_groups(cls, groups: object, c: int, info: dict[str, Any] | None = None) -> Weights:
        if not isinstance(groups, dict):
            raise ValueError(f'"weights" must be an object of named groups, got {type(groups).__name__}')
        unknown = set(groups) - set(SCALARS) - set(RUN_KINDS) - {WINDOWS}
        if unknown:
            raise ValueError(f"unknown weight group(s) {sorted(unknown)}: "
                             f"allowed {list(SCALARS + RUN_KINDS + (WINDOWS,))}")
        values = []
        for name, start, stop in feature_groups(c):
            if name not in groups:
                raise ValueError(f'weight group "{name}" is missing')
            item = groups[name]
            if name in SCALARS:
                values.append(item)
            else:
                if not isinstance(item, list) or len(item) != stop - start:
                    raise ValueError(f'weight group "{name}" must be a list of {stop - start} numbers for c={c}')
                values.extend(item)
        windows = groups.get(WINDOWS)
        if windows is not None and (not isinstance(windows, list) or len(windows) != run_lengths(c)):
            raise ValueError(f'weight group "{WINDOWS}" must be a list of {run_lengths(c)} numbers for c={c}')
        return cls(values, c, info or {}, windows=windows)

    def for_c(self, c: int) -> list[float]:
        """The flat vector for a game with `c` in a row (resampled if c differs)."""
        if c == self.c:
            return list(self.values)
        out: list[float] = []
        for (name, start, stop), (_, own_start, own_stop) in zip(feature_groups(c), feature_groups(self.c)):
            if name in SCALARS:
                out.append(self.values[own_start])
            else:
                out.extend(resample(self.values[own_start:own_stop], stop - start))
        return out

    def windows_for_c(self, c: int) -> list[float] | None:
        """The window weights for a game with `c` in a row (resampled if c
        differs), or None when these weights do not count windows."""
        if self.windows is None:
            return None
        return resample(self.windows, run_lengths(c))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT, "c": self.c, "weights": self.groups(), "info": self.info}
        if self.opponent is not None:
            data["opponent_weights"] = self.opponent.groups()
        return data

    def save(self, path: str | os.PathLike[str]) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Weights:
        """Reads a weights file; ValueError naming the file and the problem."""
        try:
            text = read_text(path, FILE_LIMIT)
        except OSError as error:
            raise ValueError(f"cannot read weights file {path}: {error.strerror}") from None
        except ValueError as error:
            raise ValueError(f"weights file {error}") from None
        try:
            data = json_value(text)
        except ValueError as error:
            raise ValueError(f"weights file {path} is not JSON: {error}") from None
        try:
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise ValueError(f'"format" must be "{FORMAT}"')
            c = data.get("c")
            if isinstance(c, bool) or not isinstance(c, int) or c < 1:
                raise ValueError(f'"c"={c!r} is out of range: allowed an integer 1 or more')
            opponent = None
            if data.get("opponent_weights") is not None:
                try:
                    opponent = cls.from_groups(data["opponent_weights"], c)
                except ValueError as error:
                    raise ValueError(f'"opponent_weights": {error}') from None
            own = cls.from_groups(data.get("weights"), c)
            return cls(own.values, c, data.get("info") or {}, opponent, own.windows)
        except ValueError as error:
            raise ValueError(f"weights file {path}: {error}") from None

    @classmethod
    def default(cls) -> Weights:
        """The hand-made weights shipped with the player."""
        return cls.load(DEFAULT_FILE)
