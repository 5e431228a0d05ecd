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
    out = run("search_speed.py", "--positions", "8", "--nodes", "20000")
    rows = {line.split()[0]: line.split() for line in out.splitlines() if re.match(r"\d+x\d+ c\d", line)}
    assert {board: row[2] for board, row in rows.items()} == {
        "7x6": "64-bit", "9x8": "wide", "10x9": "wide", "14x12": "wide", "20x20": "cells"}
    assert all(float(row[3]) > 0 for row in rows.values())
    # positions answered without a search are not timed: on 10x9 c4 they
    # made the median rate and depth those of no search at all
    assert all(float(row[4]) >= 1 for row in rows.values()), out


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
    assert set(rates) == {"7x6", "9x8", "10x9", "14x12", "15x13"}
    assert all(int(rate.replace(",", "")) > 0 for rate in rates.values())


def test_clock_prints_strong_s_answer_times_per_board_and_load_and_the_time_forfeits():
    out = run("clock.py", "--time-per-move", "0.05", "--boards", "7x6", "9x8", "--games", "2", "--busy", "0", "1",
              "--forfeit-games", "2")
    spread = r"median +([\d.]+) +p99 +([\d.]+) +max +([\d.]+) ms"
    own = re.findall(rf"^(\d+x\d+) +busy +(\d+) +own: {spread} +over (\d+) of (\d+)$", out, re.M)
    assert [(board, busy) for board, busy, *_ in own] == [("7x6", "0"), ("9x8", "0"), ("7x6", "1"), ("9x8", "1")]
    assert all(float(median) <= float(p99) <= float(top) and int(over) <= int(answers) and int(answers) > 0
               for _, _, median, p99, top, over, answers in own)
    assert len(re.findall(rf"^ +seen: {spread} +time forfeits \d+$", out, re.M)) == 4
    assert re.search(r"^7x6 quiet, 2 games: time forfeits \d+", out, re.M)


def test_view_prints_the_time_to_value_the_games_and_the_page_size():
    out = run("view.py", "--games", "10", "--solve-time", "0.2", "0.01")
    rows = re.findall(r"^solve time ([\d.]+) s: valued in ([\d.]+) s CPU \(([\d.]+) s wall\), ([\d.]+) % of "
                      r"positions exact, page ([\d.]+) MB$", out, re.M)
    assert [row[0] for row in rows] == ["0.2", "0.01"]
    assert all(0 < float(row[4]) < 2 and 0 <= float(row[3]) <= 100 for row in rows)


def test_league_prints_the_seconds_to_anchor_and_to_rate_a_dropped_bot():
    out = run("league.py", "--config", "[game]\ncolumns = 5\nrows = 4\nc = 3\n[league]\ncalibration_games = 1\n"
              "rating_games = 1\nmax_games = 2\nrefresh = 0.5\npoll = 0.2\n")
    assert re.search(r"baselines anchored in [\d.]+ s \(10 calibration games, once per folder\)", out)
    assert re.search(r"a dropped-in bot rated in [\d.]+ s: \d+ games, Elo [+-]\d+ \[[+-]\d+, [+-]\d+\]", out)


def test_oracle_makes_a_labelled_set_and_judges_strong_on_it(tmp_path):
    run("oracle.py", "--make", "9x8c5", "--positions", "4", "--label-nodes", "200000", "--self-play", "0.005",
        "--folder", str(tmp_path))
    made = (tmp_path / "9x8c5.txt").read_text().splitlines()
    rows = [line.split() for line in made if not line.startswith("#")]
    assert len(rows) == 4 and all(len(marks) == 9 and len(set(marks) - {"."}) > 1 for _, marks in rows)
    out = run("oracle.py", "--sets", "7x6", "9x8c5", "--sample", "2", "--budgets", "0.01", "--budget-7x6", "0.01",
              "--folder", str(tmp_path), "--misses")
    lines = re.findall(r"^(\S+)\s+([\d.]+) s\s+(\d+) positions \((\d+) won, (\d+) drawn\): (\d+) lose value", out, re.M)
    assert [name for name, *_ in lines] == ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2",
                                            "Test_L1_R3", "7x6", "9x8c5"]
    assert all(int(count) == 2 for name, _, count, *_ in lines if name not in ("7x6",))
    assert all(int(lost) <= int(count) for _, _, count, _, _, lost in lines)
    # every position counted as losing value is printed, with a column whose label is below the best
    misses = re.findall(r"^missed: ([\d,]+) ([-+=.]+) played (\d+)$", out, re.M)
    assert len(misses) == sum(int(lost) for name, *_, lost in lines if name != "7x6")
    worth = {"+": 1, "=": 0, "-": -1}
    for _, marks, col in misses:
        assert marks[int(col)] != "." and worth[marks[int(col)]] < max(worth[m] for m in marks if m != ".")


def test_the_oracle_sets_in_the_repository_agree_with_the_solver():
    """The labels shipped as data: a sample of each set re-labelled now."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import oracle
    finally:
        sys.path.remove(str(BENCHMARKS))
    from clinea.core import Board
    from clinea.core.solver import Solver

    solver = Solver(20)
    for name, rules in oracle.BIG_SETS.items():
        labelled = oracle.read_set(str(BENCHMARKS / "oracle" / f"{name}.txt"), rules)
        assert len(labelled) >= 500
        for position in labelled[:: max(1, len(labelled) // 5)]:
            board = Board.from_moves(position.moves, *rules)
            assert solver.analyze(board, weak=True) == position.values, position.moves


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


def test_oracle_measures_strong_without_its_race_when_asked():
    out = run("oracle.py", "--sets", "7x6", "--sample", "1", "--budget-7x6", "0.01", "--no-race")
    assert "--no-race)" in out.splitlines()[0]
    assert re.search(r"^7x6\s+0.01 s\s+6 positions", out, re.M)


def test_serve_load_prints_latency_percentiles_per_endpoint_and_the_request_rate():
    out = run("serve_load.py", "--requests", "30", "--concurrency", "4", "--students", "2")
    rows = {match[0]: match[1:] for match in re.findall(
        r"^(GET /|GET /api/standings|GET /api/games|POST /api/bots) +(\d+) +([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+)"
        r" +(.*)$", out, re.M)}
    assert set(rows) == {"GET /", "GET /api/standings", "GET /api/games", "POST /api/bots"}, out
    assert sum(int(row[0]) for row in rows.values()) == 30
    for _, p50, p90, p99, top, _ in rows.values():
        assert 0 < float(p50) <= float(p90) <= float(p99) <= float(top), out
    # the reads all answered; uploads past the rate limit answer 429
    assert all(rows[kind][5] == f"200 x{rows[kind][0]}" for kind in ("GET /", "GET /api/standings", "GET /api/games"))
    assert set(re.findall(r"(\d+) x\d+", rows["POST /api/bots"][5])) <= {"201", "429"}
    assert re.search(r"^all: 30 requests in [\d.]+ s, [\d.]+ requests/s$", out, re.M)


def test_serve_rating_prints_each_uploads_wait_for_its_verdict_and_its_rating():
    out = run("serve_rating.py", "--students", "2", "--time-per-move", "0.1")
    rows = re.findall(r"^(student\d) +passed +([\d.]+) +([\d.]+)$", out, re.M)
    assert [row[0] for row in rows] == ["student1", "student2"], out
    assert all(0 < float(verdict) <= float(rated) for _, verdict, rated in rows), out
    assert re.search(r"^rated: median [\d.]+ s, max [\d.]+ s$", out, re.M), out
