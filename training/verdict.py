"""How a row of the reproduction stands against the report's figure, and
which seeds it runs on.

A row's share won is an estimate: it beats the report only when its whole
95 % interval lies above the report's figure, falls short when the whole
interval lies below, and otherwise matches it (the figure is within the
interval: the games cannot tell the two apart).
"""
from __future__ import annotations

import argparse

BEATS = "beats"
MATCHES = "matches"
FALLS_SHORT = "falls short"

# the seeds a row runs on when only their number is given (what every
# earlier run of `clinea reproduce` used, so their figures stay comparable)
DEFAULT_SEED_STEP = 1000
MAX_SEEDS = 1000


def verdict(low: float, high: float, report: float) -> str:
    """BEATS when `low` (the interval's lower bound, in the report's unit) is
    above `report`, FALLS_SHORT when `high` is below it, else MATCHES."""
    if low > high:
        raise ValueError(f"interval {low}..{high} is empty: its low end must not exceed its high end")
    if low > report:
        return BEATS
    if high < report:
        return FALLS_SHORT
    return MATCHES


def seed_values(seeds: str, base: int | None) -> list[int]:
    """The seeds `--seeds` names: a comma-separated list is the seeds
    themselves ("9001,9002,9003"; "9001," is the one seed 9001); a single
    number K is how many, from `base` on (base, base + 1, ...) or, without
    a base, 1000, 2000, ... K * 1000. Raises ValueError naming the bad value."""
    text = seeds.strip()
    if "," in text:
        if base is not None:
            raise ValueError(f"--seed-base {base} goes with a count of seeds, not the list {text!r}")
        parts = [part.strip() for part in text.split(",") if part.strip()]
        values = [_integer(part, "--seeds", "a seed") for part in parts]
        if not values:
            raise ValueError(f"--seeds {seeds!r} names no seed: give a count or seeds like 9001,9002")
        if len(values) > MAX_SEEDS:
            raise ValueError(f"--seeds names {len(values)} seeds: allowed 1..{MAX_SEEDS}")
        if len(set(values)) != len(values):
            repeated = sorted({v for v in values if values.count(v) > 1})
            raise ValueError(f"--seeds {text!r} repeats {repeated}: each seed runs once")
        return values
    count = _integer(text, "--seeds", "a count")
    if not 1 <= count <= MAX_SEEDS:
        raise ValueError(f"--seeds {count} is out of range: allowed 1 or more (at most {MAX_SEEDS}), "
                         "or a list such as 9001,9002")
    if base is None:
        return [DEFAULT_SEED_STEP * (k + 1) for k in range(count)]
    if base < 0:
        raise ValueError(f"--seed-base {base} is out of range: allowed 0 or more")
    return [base + k for k in range(count)]


def _integer(text: str, option: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{option} {text!r} is not {what}: give a count or seeds like 9001,9002") from None


def add_seed_options(parser: argparse.ArgumentParser) -> None:
    """--seeds and --seed-base, read back with `seeds_of`."""
    parser.add_argument("--seeds", default="3", metavar="K|S1,S2,...",
                        help="how many seeds per row (default 3: seeds 1000, 2000, 3000), "
                             "or the seeds themselves, comma-separated (9001,9002,9003)")
    parser.add_argument("--seed-base", type=int, default=None, metavar="N",
                        help="with a count K: seeds N, N+1, ..., N+K-1")


def seeds_of(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[int]:
    """The seeds the options name; a bad value exits through parser.error."""
    try:
        return seed_values(str(args.seeds), args.seed_base)
    except ValueError as error:
        parser.error(str(error))
        raise  # parser.error exits; this line keeps the type checker informed

