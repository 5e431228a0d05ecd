"""Where a row of `clinea reproduce` stands against the report's figure
(beats only above the whole 95 % interval), and the seeds it runs on."""
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clinea.judge.stats import wilson_interval
from clinea.training.verdict import BEATS, FALLS_SHORT, MATCHES, seed_values, verdict

Z95 = 1.959963984540054


def interval_by_hand(wins: int, games: int) -> tuple[float, float]:
    """The 95 % Wilson interval in %, as the two roots of
    (wins/games - p)^2 = z^2 p (1 - p) / games, solved for p."""
    observed = wins / games
    k = Z95 * Z95 / games
    # p^2 (1 + k) - p (2 observed + k) + observed^2 = 0
    a, b, c = 1 + k, -(2 * observed + k), observed * observed
    root = math.sqrt(b * b - 4 * a * c)
    return 100 * (-b - root) / (2 * a), 100 * (-b + root) / (2 * a)


@pytest.mark.parametrize("wins, games, report, expected", [
    (1930, 2000, 96.3, MATCHES),      # 96.5 %: the old table said "yes", yet its interval holds 96.3
    (5990, 6000, 99.8, MATCHES),      # 99.83 % pooled, low end 99.69
    (5997, 6000, 99.8, BEATS),        # low end 99.85
    (5880, 6000, 98.4, FALLS_SHORT),  # 98.0 %, high end 98.32
    (5622, 6000, 95.0, FALLS_SHORT),  # 93.7 %
])
def test_the_verdict_follows_an_interval_computed_by_hand(wins, games, report, expected):
    low, high = interval_by_hand(wins, games)
    ours_low, ours_high = (100 * x for x in wilson_interval(wins / games, games))
    assert ours_low == pytest.approx(low, abs=1e-9) and ours_high == pytest.approx(high, abs=1e-9)
    assert verdict(ours_low, ours_high, report) == expected


def test_every_game_won_matches_a_report_of_100_percent():
    low, high = wilson_interval(1.0, 6000)
    assert verdict(100 * low, 100 * high, 100.0) == MATCHES


@given(st.floats(0, 100), st.floats(0, 100), st.floats(0, 100))
def test_beats_only_above_the_low_end_and_falls_short_only_below_the_high_end(a, b, report):
    low, high = min(a, b), max(a, b)
    word = verdict(low, high, report)
    assert (word == BEATS) == (report < low)
    assert (word == FALLS_SHORT) == (report > high)
    assert (word == MATCHES) == (low <= report <= high)


def test_an_empty_interval_is_refused():
    with pytest.raises(ValueError, match="interval 60 .. 50 is empty|interval 60..50 is empty"):
        verdict(60, 50, 55)


def test_seeds_are_values_a_count_or_a_count_from_a_base():
    assert seed_values("9001,9002,9003", None) == [9001, 9002, 9003]
    assert seed_values("9001,", None) == [9001]
    assert seed_values("3", None) == [1000, 2000, 3000]
    assert seed_values("4", 9001) == [9001, 9002, 9003, 9004]


@pytest.mark.parametrize("seeds, base, message", [
    ("0", None, "--seeds 0 is out of range: allowed 1 or more"),
    ("x", None, "--seeds 'x' is not a count"),
    ("1,x", None, "--seeds 'x' is not a seed"),
    ("5,5", None, "repeats \\[5\\]"),
    (",", None, "names no seed"),
    ("1,2", 7, "--seed-base 7 goes with a count"),
    ("2", -1, "--seed-base -1 is out of range: allowed 0 or more"),
])
def test_bad_seeds_are_named(seeds, base, message):
    with pytest.raises(ValueError, match=message):
        seed_values(seeds, base)
