"""The benchmark scripts run end to end with tiny settings and print their
figures: a benchmark that breaks silently measures nothing (their figures
are goals, so only their shape is checked here, never a speed)."""
import re
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_search_speed_prints_nodes_per_second_and_the_representation_of_each_board():
    out = run("search_speed.py", "--positions", "1", "--nodes", "20000")
    rows = {line.split()[0]: line.split() for line in out.splitlines() if re.match(r"\d+x\d+ c\d", line)}
    assert {board: row[2] for board, row in rows.items()} == {
        "7x6": "64-bit", "9x8": "wide", "10x9": "wide", "14x12": "wide", "20x20": "cells"}
    assert all(float(row[3]) > 0 for row in rows.values())


def test_strength_prints_the_value_losing_count_and_a_score_per_big_board():
    out = run("strength.py", "--openings", "1", "--nodes-per-move", "20000", "--games", "1",
              "--simulations", "30")
    assert re.search(r"(\d+) of 2 games ended worse than the opening's exact value", out)
    assert re.search(r"from the empty board, strong first: result -?[01]", out)
    boards = re.findall(r"^(\d+x\d+ c\d+) vs MCTS 30 simulations.*W-D-L (\d+)-(\d+)-(\d+)", out, re.M)
    assert [board for board, *_ in boards] == ["9x8 c5", "10x9 c4", "14x12 c6"]
    assert all(sum(map(int, tally)) == 1 for _, *tally in boards)


def test_driver_prints_the_cpu_per_move_and_the_ratio_against_a_checkout():
    # against itself, only the lines' shape: in so few games the start-up's
    # noise, taken off, can even make a figure negative
    repo = str(BENCHMARKS.parent)
    out = run("driver.py", "--games", "20", "--repeats", "1", "--against", repo)
    assert re.search(r"CPU per move .*median of 1 runs: -?[\d.]+ us", out)
    assert re.search(r"--against: -?[\d.]+ us .*this / --against x-?[\d.]+", out)


def test_playouts_prints_games_and_the_monte_carlo_search_s_simulations_per_second():
    out = run("playouts.py", "--repeats", "1")
    after = out.split("MCTS from the empty board", 1)[1]
    rates = dict(re.findall(r"^(\d+x\d+) c=\d+\s+([\d,]+)$", after, re.M))
    assert set(rates) == {"7x6", "9x8", "10x9", "14x12"}
    assert all(int(rate.replace(",", "")) > 0 for rate in rates.values())


def test_view_prints_the_time_to_value_the_games_and_the_page_size():
    out = run("view.py", "--games", "10", "--solve-time", "0.2", "0.01")
    rows = re.findall(r"^solve time ([\d.]+) s: valued in ([\d.]+) s CPU \(([\d.]+) s wall\), ([\d.]+) % of "
                      r"positions exact, page ([\d.]+) MB$", out, re.M)
    assert [row[0] for row in rows] == ["0.2", "0.01"]
    assert all(0 < float(row[4]) < 2 and 0 <= float(row[3]) <= 100 for row in rows)


def test_kaggle_export_prints_errors_timeouts_move_times_tallies_and_the_score_against_strong():
    out = run("kaggle_export.py", "--board", "4x4x3", "--episodes", "1", "--workers", "2", "--strong-games", "1",
              "--strong-time", "0.1")
    assert re.search(r"^episodes 4, errors 0, timeouts 0, moves \d+, median move [\d.]+ s, slowest move [\d.]+ s",
                     out, re.M)
    tallies = re.findall(r"^4x4 inarow 3 +vs (negamax|random) +(first|second)\s*: W (\d) D (\d) L (\d)$", out, re.M)
    assert sorted(tally[:2] for tally in tallies) == [("negamax", "first"), ("negamax", "second"),
                                                      ("random", "first"), ("random", "second")]
    assert re.search(r"^4x4 inarow 3 +vs strong 0.1 s: first W-D-L \d-\d-\d, second \d-\d-\d, score [\d.]+ %",
                     out, re.M)
