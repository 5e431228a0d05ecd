"""benchmarks/rl_env.py runs with tiny settings and prints a figure and a
ratio for every environment (the goals are the benchmark's to print, never
asserted here)."""
import re

from test_benchmark_scripts import run


def test_rl_env_prints_steps_per_second_and_the_ratio_to_connect_four_v3():
    out = run("rl_env.py", "--moves", "300", "--boards", "8", "--batch-steps", "20", "--repeats", "1")
    rows = re.findall(r"^(.+?)\s+([\d,]+)\s+([\d.]+)x$", out, re.M)
    assert [name.split(" (")[0].split(" x ")[0] for name, *_ in rows] == [
        "PettingZoo connect_four_v3", "clinea AEC", "clinea Gymnasium vs random", "clinea BatchBoards"]
    assert rows[0][2] == "1.0" and all(int(rate.replace(",", "")) > 0 for _, rate, _ in rows)
    larger = re.findall(r"^(9x8|20x20) c=5 .*?\s+([\d,]+)$", out, re.M)
    assert [board for board, _ in larger] == ["9x8", "20x20"]
