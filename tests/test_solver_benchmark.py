"""benchmarks/solver.py as a process: its table, and --against, the
same-machine comparison with another solver, fed with stand-in solvers
whose answers we know."""
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from pons import pons_lines, sign

from clinea.core import Board
from clinea.core.solver import Solver

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "solver.py"
LIMIT = 30


def run_benchmark(tmp_path, *args):
    return subprocess.run([sys.executable, str(BENCHMARK), "--files", "Test_L3_R1", "--limit", str(LIMIT),
                           "--tt-log2", "16", "--plot", str(tmp_path / "times.png"), *args],
                          capture_output=True, text=True, timeout=300)


def rows(output: str, name: str) -> list[list[str]]:
    return [line.split() for line in output.splitlines() if line.startswith(name)]


def python_command(code: str) -> str:
    return f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"


def test_against_clinea_solve_itself(tmp_path):
    solve = f"{shlex.quote(sys.executable)} -m clinea solve --nodes --time --tt-log2 16"
    result = run_benchmark(tmp_path, "--against", solve)
    assert result.returncode == 0, result.stderr
    ours, theirs, ratio = rows(result.stdout, "Test_L3_R1")
    assert ours[1:3] == [str(LIMIT), "100.0%"] and theirs[1:3] == [str(LIMIT), "100.0%"]
    assert ours[5] == theirs[5], "the same search, the same mean nodes"
    assert "(wall)" not in result.stdout  # the command's own microseconds are used
    assert float(ratio[1]) > 0 and float(ratio[2]) > 0
    assert (tmp_path / "times.png").stat().st_size > 0


def test_a_wrong_reference_scores_its_accuracy(tmp_path):
    # answers 0 (draw) everywhere and prints no nodes nor times
    always_draw = python_command("import sys\nfor line in sys.stdin: print(line.split()[0], 0)")
    result = run_benchmark(tmp_path, "--against", always_draw)
    assert result.returncode == 0, result.stderr
    ours, theirs, _ = rows(result.stdout, "Test_L3_R1")
    draws = sum(score == 0 for _, score in pons_lines("Test_L3_R1")[:LIMIT])
    assert ours[2] == "100.0%"
    assert theirs[2] == f"{draws / LIMIT:.1%}"
    assert theirs[5] == "?" and theirs[-1] == "(wall)"


def test_a_reference_that_answers_too_little_is_named(tmp_path):
    silent = python_command("import sys; sys.stdin.read(); print('4 1')")
    result = run_benchmark(tmp_path, "--against", silent)
    assert result.returncode != 0
    message = result.stderr.strip().splitlines()[-1]
    assert "--against" in message and f"1 answer lines for {LIMIT} positions" in message


def test_bad_limit_names_the_range(tmp_path):
    result = run_benchmark(tmp_path, "--limit", "0")
    assert result.returncode == 2 and "--limit 0 is out of range" in result.stderr


def test_fhourstones_positions_are_solved_beside_its_nodes(tmp_path):
    # the easiest of Fhourstones' positions (a first-player win), and one of
    # the standard files', for which no Fhourstones count is known
    other, other_score = pons_lines("Test_L3_R1")[0]
    result = run_benchmark(tmp_path, "--limit", "1", "--fhourstones", "45461667", other)
    assert result.returncode == 0, result.stderr
    solver = Solver()
    exact = solver.solve(Board.from_string("45461667"))
    found = {(row[0], row[1]): row for row in map(str.split, result.stdout.splitlines())
             if row[:1] in (["45461667"], [other])}
    assert found[("45461667", "exact")][2] == str(exact) and exact > 0
    assert found[("45461667", "weak")][2] == "1"
    assert found[("45461667", "weak")][6] == "51,596"
    assert int(found[("45461667", "exact")][3].replace(",", "")) > 0
    assert [found[(other, mode)][2] for mode in ("exact", "weak")] == [str(other_score), str(sign(other_score))]
    assert found[(other, "exact")][6] == "?"


def test_the_empty_board_is_solved_on_each_number_of_threads(tmp_path):
    result = run_benchmark(tmp_path, "--empty-board", "1", "2", "--empty-size", "5x4")
    assert result.returncode == 0, result.stderr
    table = result.stdout.split("the empty 5x4 board")[1].splitlines()[2:]
    runs = [line.split() for line in table if line.split() and line.split()[0].isdigit()]
    exact = Solver(16, book=False).solve(Board(5, 4))
    assert [(run[0], run[1], run[2]) for run in runs] == [
        ("1", "exact", str(exact)), ("1", "weak", str(sign(exact))),
        ("2", "exact", str(exact)), ("2", "weak", str(sign(exact)))]
    assert all(int(run[3].replace(",", "")) > 0 for run in runs)


def test_an_empty_board_option_out_of_range_is_named(tmp_path):
    result = run_benchmark(tmp_path, "--empty-board", "0")
    assert result.returncode == 2
    assert "--empty-board 0 is out of range: allowed 1..64" in result.stderr
    result = run_benchmark(tmp_path, "--empty-board", "--empty-size", "9x8")
    assert result.returncode == 2
    assert "'9x8' is out of range" in result.stderr
    result = run_benchmark(tmp_path, "--tt-log2", "40")
    assert result.returncode == 2
    assert "--tt-log2 40 is out of range: allowed 8..30" in result.stderr and "Traceback" not in result.stderr


def test_the_move_search_counts_play_values_nodes(tmp_path):
    # the same searches done here, position by position, give the same
    # node totals: weak over the won and drawn positions, exact over all
    lines = pons_lines("Test_L2_R2", 8)
    result = run_benchmark(tmp_path, "--files", "Test_L2_R2", "--limit", "8", "--move-search")
    assert result.returncode == 0, result.stderr
    table = result.stdout.split("the move search")[1]
    found = {row[1]: row for row in map(str.split, table.splitlines()) if row[:1] == ["Test_L2_R2"]}
    solver = Solver(16)
    for mode, weak in (("weak", True), ("exact", False)):
        counts = []
        for moves, score in lines:
            value = sign(score) if weak else score
            if weak and value < 0:
                continue
            board = Board.from_string(moves)
            solver.reset()
            solver.prepare(board)
            solver.play_value(board, weak=weak, at_least=value)
            counts.append(solver.nodes)
        assert found[mode][2] == str(len(counts)), mode
        assert int(found[mode][3].replace(",", "")) == sum(counts) > 0, mode
        assert int(found[mode][5].replace(",", "")) == max(counts), mode


# ------------------------------------------- the references, by stand-ins
# Each stand-in prints what the reference prints (Pons' part-13 benchmark
# main, Steininger's c4, Fhourstones 3.2), with figures of its own that the
# table must show, so the parsing is covered without the references.

def stand_in(tmp_path, name: str, code: str) -> str:
    path = tmp_path / name
    path.write_text(f"#!{sys.executable}\nimport os, sys\n{code}")
    path.chmod(0o755)
    return str(path)


def pons_stand_in(tmp_path) -> str:
    # the right score of each position, 7 nodes and 250 us each; it notes
    # its arguments and whether an opening book lies where it runs
    scores = dict(pons_lines("Test_L3_R1"))
    return stand_in(tmp_path, "pons", f"""
scores = {scores!r}
open({str(tmp_path / 'pons-run')!r}, 'w').write(repr((sys.argv[1:], os.listdir('.'))))
for line in sys.stdin:
    moves = line.strip()
    score = scores[moves] if '-w' not in sys.argv else (scores[moves] > 0) - (scores[moves] < 0)
    print(moves, score, 7, 250)
""")


def test_pons_is_run_on_the_same_positions_with_the_ratio(tmp_path):
    result = run_benchmark(tmp_path, "--pons", pons_stand_in(tmp_path), "--weak")
    assert result.returncode == 0, result.stderr
    assert "no opening book, reset per position" in result.stdout  # --pons: Pons' conditions on our side too
    ours, theirs, ratio = rows(result.stdout, "Test_L3_R1")
    assert theirs[1:6] == [str(LIMIT), "100.0%", "250.0us", "250.0us", "7"]
    mean = float(ours[3].removesuffix("us"))  # printed to 0.1 us, the ratio (to 0.01) from the unrounded mean
    assert 250 / (mean + 0.05) - 0.01 <= float(ratio[1]) <= 250 / max(mean - 0.05, 1e-9) + 0.01
    arguments, folder = eval((tmp_path / "pons-run").read_text())
    assert arguments == ["-w"] and folder == []  # weak, and in an empty folder: no 7x6.book to load


STEININGER = """
print("Using a 5 x 4 board, a 0.01 GB table, and {threads} threads.")
print("{mode}ly solving:")
print("Search took 0.10 s and explored 999 nodes (9 nodes per ms).")
print("Search completed!")
print("Final {mode_word} score is {score} (draw).")
print("Time to solve       = 2.50 s")
print("Nodes: ")
print("    Exact           = 11")
print("    Total           = 12345")
"""


def test_steininger_builds_solve_their_board_beside_ours(tmp_path):
    exact = Solver(16, book=False).solve(Board(5, 4))
    right = stand_in(tmp_path, "c4-right", STEININGER.format(threads=1, mode="Strong", mode_word="strong",
                                                              score=exact))
    wrong = stand_in(tmp_path, "c4-wrong", STEININGER.format(threads=2, mode="Weak", mode_word="weak",
                                                              score=1 - abs(sign(exact)) * 2))
    result = run_benchmark(tmp_path, "--steininger", right, wrong)
    assert result.returncode == 0, result.stderr
    table = [row for row in map(str.split, result.stdout.split("Steininger's c4")[1].splitlines()) if row[:1] == ["5x4"]]
    # each build: ours with the benchmark's table (2**16), then with c4's
    # 0.01 GB of eight-byte entries (2**20)
    assert [row[9] for row in table] == ["2**16", "2**20"] * 2
    first, first_large, second, _ = table
    assert first[:4] == ["5x4", "1", "exact", f"{exact}/{exact}"] and first[4] == "12,345"
    assert first[6] == "2.50s" and "DIFFER" not in first
    assert first_large[:5] == first[:5] and "DIFFER" not in first_large
    assert second[:3] == ["5x4", "2", "weak"] and second[-2:] == ["SCORES", "DIFFER"]


def test_fhourstones_is_run_on_its_positions_beside_ours(tmp_path):
    program = stand_in(tmp_path, "fhourstones", """
print("Fhourstones 3.2 (C)")
for line in sys.stdin:
    print(f"\\nSolving {len(line.strip())}-ply position after {line.strip()} . . .")
    print("score = 5 (+)  work = 14")
    print("40000 pos / 4 msec = 10000.0 Kpos/sec")
""")
    result = run_benchmark(tmp_path, "--limit", "1", "--fhourstones-program", program, "--fhourstones", "45461667")
    assert result.returncode == 0, result.stderr
    found = {row[1]: row for row in map(str.split, result.stdout.splitlines()) if row[:1] == ["45461667"]}
    for mode in ("exact", "weak"):
        assert found[mode][6] == "40,000" and found[mode][8] == "0.004s", mode
        assert float(found[mode][7]) == pytest.approx(int(found[mode][3].replace(",", "")) / 40000, abs=0.01)
        assert "DIFFER" not in found[mode]  # 45461667 is a win for the side to move, as the stand-in says


@pytest.mark.parametrize("option", ["--pons", "--fhourstones-program", "--steininger"])
def test_a_reference_that_fails_is_named_in_one_line(tmp_path, option):
    failing = stand_in(tmp_path, "failing", "print('half an answer'); sys.exit('out of memory')")
    result = run_benchmark(tmp_path, "--limit", "2", option, failing)
    assert result.returncode == 1
    [message] = [line for line in result.stderr.splitlines() if line.strip()]
    assert message.startswith(f"{option} {failing!r}") and "Traceback" not in result.stderr


def test_a_missing_reference_is_refused_before_anything_runs(tmp_path):
    result = run_benchmark(tmp_path, "--pons", str(tmp_path / "nowhere" / "c4solver"))
    assert result.returncode == 2 and "--pons" in result.stderr and "no program there" in result.stderr


def test_rounds_run_each_file_again_and_give_the_median_ratio(tmp_path):
    # a stand-in that knows the scores, takes 1000 us a position by its own
    # timer and counts its runs in a file
    runs = tmp_path / "runs"
    answers = {moves: score for moves, score in pons_lines("Test_L3_R1")[:LIMIT]}
    reference = python_command(f"import sys\nopen({str(runs)!r}, 'a').write('run\\n')\n"
                               f"answers = {answers!r}\n"
                               "for line in sys.stdin: print(line.split()[0], answers[line.split()[0]], 1, 1000)")
    result = run_benchmark(tmp_path, "--against", reference, "--rounds", "3")
    assert result.returncode == 0, result.stderr
    assert runs.read_text().count("run") == 3
    ours, theirs, ratio = rows(result.stdout, "Test_L3_R1")
    assert theirs[2] == "100.0%"
    assert "median of 3 rounds" in result.stdout
    each = [float(value) for value in ratio[ratio.index("rounds:") + 1:]]
    assert len(each) == 3 and float(ratio[1]) == sorted(each)[1]


def test_bad_rounds_names_the_range(tmp_path):
    result = run_benchmark(tmp_path, "--rounds", "0")
    assert result.returncode == 2 and "--rounds 0 is out of range" in result.stderr
