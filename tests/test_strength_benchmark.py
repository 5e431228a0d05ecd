"""benchmarks/strength.py at reduced sizes: a run stopped (killed, or
Ctrl-C) and started again loses no game and counts none twice; the report
is written from the results of a tiny real run; a lost game's first move
that gave the value away is the one an independent solver finds. Seconds,
never a speed asserted: the figures are the benchmark's business."""
import functools
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from clinea.core import Board
from clinea.solving.reference_solver import ReferenceSolver

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
SCRIPT = BENCHMARKS / "strength.py"
# a ladder of strong against itself on 9x8 c5: no OpenSpiel needed, and each
# game long enough (tens of moves at 10 ms) for a run to be stopped between two
LADDER = ["--openings", "0", "--mcts", "--ladder", "0.01", "--ladder-odds", "2", "--ladder-boards", "9x8c5",
          "--ladder-games", "6"]


def load_strength():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import strength
    finally:
        sys.path.remove(str(BENCHMARKS))
    return strength


strength = load_strength()


def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=timeout)


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def stop_after(args: list[str], results: Path, games: int, how: signal.Signals) -> subprocess.Popen:
    """The benchmark started and sent `how` once `games` games are in the results file."""
    process = subprocess.Popen([sys.executable, str(SCRIPT), *args, "--results", str(results)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 240
    while len(lines_of(results)) < games:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run wrote no results"
        time.sleep(0.01)
    if how == signal.SIGKILL:
        os.killpg(process.pid, how)  # the parent and its game processes, as a kill -9 of the whole run
    else:
        process.send_signal(how)  # a Ctrl-C reaches the parent; it stops the games itself
    return process


def expected_keys(args: list[str]) -> set[str]:
    rungs = strength.plan(strength.build_parser().parse_args(args))
    return {game["key"] for rung in rungs for game in strength.games_of(rung)}


def test_every_game_of_the_full_and_the_quick_set_has_a_key_of_its_own():
    """Two pairs of the 40 games on 9x8 c5 start from the same two moves: a
    key made of the opening alone counted them as one game, and a resumed
    run skipped the second."""
    for args in ([], ["--quick"]):
        rungs = strength.plan(strength.build_parser().parse_args(args))
        keys = [game["key"] for rung in rungs for game in strength.games_of(rung)]
        assert len(set(keys)) == len(keys) == sum(rung.games for rung in rungs)


def test_a_killed_run_started_again_plays_only_the_missing_games(tmp_path):
    results = tmp_path / "games.jsonl"
    args = [*LADDER, "--jobs", "2"]
    process = stop_after(args, results, 2, signal.SIGKILL)
    process.wait(timeout=60)
    first = results.read_text()
    # what a kill in the middle of a write leaves: half a line
    with open(results, "a") as out:
        out.write('{"key": "half a li')
    kept = len(first.splitlines())
    assert 2 <= kept < 6
    again = run(*args, "--results", str(results))
    assert again.returncode == 0, again.stderr
    assert f"{kept} games already in {results}" in again.stderr
    assert results.read_text().startswith(first)  # the games of the first run untouched
    keys = [record["key"] for record in lines_of(results)]
    assert len(keys) == len(set(keys)) == 6 and set(keys) == expected_keys(args)
    # and a third run has nothing left to play
    third = run(*args, "--results", str(results))
    assert third.returncode == 0 and "6 games already in" in third.stderr
    assert len(lines_of(results)) == 6


def test_ctrl_c_stops_the_run_in_one_line_and_the_same_command_continues(tmp_path):
    results = tmp_path / "games.jsonl"
    process = stop_after([*LADDER, "--jobs", "1"], results, 1, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "the same command continues" in err.splitlines()[-1]
    again = run(*LADDER, "--jobs", "1", "--results", str(results))
    assert again.returncode == 0, again.stderr
    keys = [record["key"] for record in lines_of(results)]
    assert len(keys) == len(set(keys)) == 6


def test_the_games_run_as_ray_tasks_and_resume_the_same_way(ray_address, tmp_path):
    results = tmp_path / "games.jsonl"
    few = [*LADDER[:-1], "2", "--results", str(results), "--ray", ray_address]
    done = run(*few)
    assert done.returncode == 0, done.stderr
    assert len(lines_of(results)) == 2
    more = run(*LADDER, "--results", str(results), "--ray", ray_address)
    assert more.returncode == 0 and "2 games already in" in more.stderr, more.stderr
    keys = [record["key"] for record in lines_of(results)]
    assert len(keys) == len(set(keys)) == 6 and set(keys) == expected_keys(LADDER)


def test_a_results_file_cut_mid_line_is_read_without_that_line_and_repaired(tmp_path):
    path = tmp_path / "games.jsonl"
    whole = [{"key": f"game {n}", "result": n % 3 - 1} for n in range(3)]
    path.write_text("".join(json.dumps(record) + "\n" for record in whole) + '{"key": "game 3", "res')
    assert strength.read_results(str(path)) == whole
    assert path.read_text().endswith('"res')  # read only: left as it was
    assert strength.read_results(str(path), repair=True) == whole
    assert path.read_text() == "".join(json.dumps(record) + "\n" for record in whole)


def test_a_results_file_with_a_bad_line_is_refused_in_one_line_naming_it(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text('{"key": "a", "result": 1}\nnot json\n{"key": "b", "result": 0}\n')
    done = run("--no-run", "--results", str(path))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and f"{path}:2: not a JSON line" in done.stderr


def test_help_has_examples_and_bad_values_are_named_with_their_range():
    done = run("--help")
    assert done.returncode == 0 and "examples:" in done.stdout and "--quick" in done.stdout
    for args, named in ((["--mcts", "9x8c5:lots:2"], "'9x8c5:lots:2'"), (["--ladder", "-1"], "0..3600"),
                        (["--openings", "50"], "0..49"), (["--ladder-boards", "9x8"], "COLUMNSxROWScC")):
        done = run(*args, "--no-run")
        assert done.returncode == 2 and named in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_the_report_of_a_tiny_real_run(tmp_path):
    results, report, summary = tmp_path / "games.jsonl", tmp_path / "STRENGTH.md", tmp_path / "oracle.json"
    oracle = subprocess.run([sys.executable, str(BENCHMARKS / "oracle.py"), "--sets", "7x6", "--sample", "1",
                             "--budget-7x6", "0.01", "--summary", str(summary)], capture_output=True, text=True,
                            timeout=300)
    assert oracle.returncode == 0, oracle.stderr
    args = ["--openings", "1", "--mcts", "9x8c5:200:2", "--ladder", "0.005", "--ladder-odds", "2", "4",
            "--ladder-boards", "9x8c5", "--ladder-games", "2", "--results", str(results), "--report", str(report),
            "--oracle", str(summary), "--analysis-time", "0.05"]
    done = run(*args)
    assert done.returncode == 0, done.stderr
    text = report.read_text()
    games = lines_of(results)
    # a row per rung, its games all counted, with both sides' CPU a move
    row = re.search(r"^\| MCTS-200 \(solver on\) \| MCTS's median CPU a move, no pondering \| 2 \| (\d+)-(\d+)-(\d+) \| "
                    r"[\d.]+% \[[\d.]+%, [\d.]+%\] \| ([\d.]+) s \| ([\d.]+) s \| \d+ cores, .+ \| [\d.]+-[\d.]+ \| "
                    r"\[1\] \|$", text, re.M)
    assert row and sum(map(int, row.groups()[:3])) == 2, text
    mcts = [game for game in games if game["rung"]["kind"] == "mcts" and "result" in game]
    assert [int(count) for count in row.groups()[:3]] == [[g["result"] for g in mcts].count(v) for v in (1, 0, -1)]
    assert re.search(r"^\| the exact solver \| 0.05 s, pondering \| 3 \| \d+-\d+-\d+; \d+ worse than the opening's "
                     r"value \|", text, re.M)
    ladder = re.findall(r"^\| 9x8 c5 \| 0.005 s \| (0.01|0.02) s \| 2 \| \d+-\d+-\d+ \| .* \| [-+](\d+|inf) "
                        r"\[[-+](\d+|inf), [-+](\d+|inf)\] \|", text, re.M)
    assert [rung for rung, *_ in ladder] == ["0.01", "0.02"]
    assert (tmp_path / "STRENGTH-ladder.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the oracle's seven lines: the six standard files and their whole
    assert len(re.findall(r"^\| (Test_L\d_R\d|7x6) \| 0.01 \| ", text, re.M)) == 7
    # every game strong did not win against MCTS, replayed
    section = text.split("## Where strong lost or drew against MCTS", 1)[1].split("## The runs")[0]
    not_won = [game for game in mcts if game["result"] < 1]
    assert len(re.findall(r"^\| 9x8 c5 \| MCTS-200", section, re.M)) == len(not_won)
    assert not_won or "None: strong won every game against MCTS." in section
    assert re.search(r"^1\. `python benchmarks/strength.py --openings 1 .*` at commit [0-9a-f?]+", text, re.M)
    # regenerated from the results alone, the report is the same
    first = text
    again = run("--no-run", "--results", str(results), "--report", str(report), "--oracle", str(summary),
                "--analysis-time", "0.05")
    assert again.returncode == 0, again.stderr
    assert report.read_text() == first


@functools.cache
def reference_solver(board: tuple[int, int, int]) -> ReferenceSolver:
    """One for the test's games: its memo of positions is shared."""
    return ReferenceSolver(*board)


def reference_first_loss(moves: list[int], side: int, board: tuple[int, int, int]) -> tuple[int, int, int] | None:
    """(ply, value before, value after) of `side`'s first move that lowered
    its win / draw / loss value, by the plain reference negamax."""
    reference = reference_solver(board)

    def sign(value: int) -> int:
        return (value > 0) - (value < 0)

    for ply in range(len(moves)):
        if ply % 2 != side:
            continue
        before = sign(reference.solve(moves[:ply]))
        after_board = Board.from_moves(moves[:ply + 1], *board)
        after = -sign(reference.solve(moves[:ply + 1])) if not after_board.is_over() else \
            (0 if after_board.winner is None else 1)
        if after < before:
            return ply + 1, before, after
    return None


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 1 << 32), st.integers(0, 1))
def test_the_first_move_that_gave_the_value_away_is_the_reference_solver_s(seed, side):
    board = (4, 4, 3)
    moves = random_game(board, seed)
    result = strength.result_for(Board.from_moves(moves, *board), side)
    if result == 1:
        side, result = 1 - side, -1
    rung = strength.Rung("mcts", board, 0, simulations=1)
    record = {"key": f"game {moves} {side}", "rung": asdict(rung), "opening": [], "side": side,
              "moves": moves, "result": result, "seen": [], "machine": {}}
    with tempfile.TemporaryDirectory() as folder:
        found = strength.analysed_losses([record], os.path.join(folder, "cache.jsonl"), 0.0)
    assert len(found) == 1
    first = found[0]["first"]
    expected = reference_first_loss(moves, side, board)
    assert (None if first is None else (first["ply"], first["before"], first["after"])) == expected


def random_game(board: tuple[int, int, int], seed: int) -> list[int]:
    rng = random.Random(seed)
    game = Board(*board)
    while not game.is_over():
        game.play(rng.choice(game.legal_columns()))
    return game.moves()


def test_the_report_lists_a_lost_game_with_the_move_that_gave_the_value_away(tmp_path):
    """A real game the first player lost on 4x4 c3, a win for it from the empty board."""
    board = (4, 4, 3)
    moves = next(moves for moves in map(functools.partial(random_game, board), range(1000))
                 if strength.result_for(Board.from_moves(moves, *board), 0) == -1)
    ply, before, after = reference_first_loss(moves, 0, board)
    rung = strength.Rung("mcts", board, 0, simulations=1)
    record = {"key": "lost", "rung": asdict(rung), "opening": [], "side": 0, "moves": moves, "result": -1,
              "seen": [[ply, "search depth 3 score 12"]], "machine": {}}
    found = strength.analysed_losses([record], str(tmp_path / "cache.jsonl"), 0.0)
    text = strength.losses_text(found, 0.0)
    words = strength.VALUE_WORD
    assert (f"| 4x4 c3 | MCTS-1 (solver on) | first | loss | win | {','.join(map(str, moves))} | "
            f"{ply}: {moves[ply - 1]} | {words[before]} / {words[after]} | search depth 3 score 12 |") in text
    # solved once: the second report reads the cache
    assert len(lines_of(tmp_path / "cache.jsonl")) == 1
    strength.analysed_losses([record], str(tmp_path / "cache.jsonl"), 0.0)
    assert len(lines_of(tmp_path / "cache.jsonl")) == 1
    # the rung played again: another game under the same key is solved anew, not read from the cache
    other = next(moves for moves in map(functools.partial(random_game, board), range(1000, 2000))
                 if strength.result_for(Board.from_moves(moves, *board), 0) == -1
                 and reference_first_loss(moves, 0, board) != (ply, before, after))
    [again] = strength.analysed_losses([{**record, "moves": other, "seen": []}], str(tmp_path / "cache.jsonl"), 0.0)
    assert (again["first"]["ply"], again["first"]["before"], again["first"]["after"]) == \
        reference_first_loss(other, 0, board)
    assert len(lines_of(tmp_path / "cache.jsonl")) == 2


def test_the_commit_is_dirty_for_changed_code_not_for_the_results_file(tmp_path, monkeypatch):
    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)
    git("init", "-q")
    (tmp_path / "games.jsonl").write_text("{}\n")
    (tmp_path / "player.py").write_text("x = 1\n")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")
    monkeypatch.setattr(strength, "REPO", str(tmp_path))
    results = str(tmp_path / "games.jsonl")
    (tmp_path / "games.jsonl").write_text("")  # a rerun removed its games
    assert not strength.git_commit(results).endswith("-dirty")
    (tmp_path / "player.py").write_text("x = 2\n")
    assert strength.git_commit(results).endswith("-dirty")
    assert strength.git_commit(str(tmp_path.parent / "elsewhere.jsonl")).endswith("-dirty")
