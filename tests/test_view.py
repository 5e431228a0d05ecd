"""`clinea view` without a browser: the page's data against the solver and
the results file, the finishing ply of the solver's scores against perfect
games, the analysis cache, bad input, the size of 1000 games of 7x6, and
`clinea judge --view` end to end (tests/test_view_browser.py drives the
page itself)."""
import json
import random
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from view_games import write_results

from clinea.arena.analysis import HURRIED_SHARE, analyse, finishing_ply, outcome
from clinea.arena.view import load_games, page_data, write_view
from clinea.core import Board, Rules
from clinea.core.solver import Solver
from clinea.core.timeman import Limits

SMALL = Rules(5, 4, 3, 10)
MB = 1 << 20


def embedded_data(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def run(*argv, cwd):
    return subprocess.run([sys.executable, "-m", "clinea", *argv], capture_output=True, text=True, timeout=240,
                          cwd=cwd)


@given(st.sampled_from([(4, 4, 3, 8), (5, 4, 3, 10), (4, 3, 3, 6), (3, 4, 3, 4)]), st.integers(0, 10**6))
@settings(max_examples=30)
def test_a_perfect_game_ends_at_the_finishing_ply_with_its_parity_s_winner(size, seed):
    """From a random position both sides play the solver's best move (the
    winner the fastest win, the loser the slowest loss): the game ends with
    the stone of the predicted ply, odd plies being the first player's."""
    rng = random.Random(seed)
    board = Board(*size)
    for _ in range(rng.randrange(board.max_moves)):
        if board.is_over():
            break
        board.play(rng.choice(board.legal_columns()))
    solver = Solver(16)
    value = solver.solve(board)
    predicted = finishing_ply(value, board.moves_played, board.max_moves)
    while not board.is_over():
        scores = solver.analyze(board)
        board.play(max((s, col) for col, s in enumerate(scores) if s is not None)[1])
    if predicted is None:
        assert board.winner is None
    else:
        assert board.winner == (predicted - 1) % 2 and board.moves_played == predicted


def test_a_finished_game_finishes_at_its_own_ply():
    board = Board.from_moves([0, 1, 0, 1, 0, 1, 0], 7, 6, 4, 21)
    assert finishing_ply(Solver(16).solve(board), 7, 42) == 7


class CountingSolver:
    """The solver, keeping the time limit of every position it is asked."""

    def __init__(self):
        self.solver = Solver(16)
        self.limits = []

    def solve(self, board, weak=False, limits=None):
        limits = limits or Limits()
        self.limits.append(limits.time)
        return self.solver.solve(board, weak=weak, limits=limits)


def test_the_cache_answers_positions_already_solved_with_the_same_marks():
    moves = Board(*SMALL).play_moves([2, 2, 1, 3, 3, 1]).moves()
    cache = {}
    counting = CountingSolver()
    first = analyse(SMALL, moves, counting, time_limit=0, cache=cache)
    assert len(counting.limits) == len(moves) + 1
    again = analyse(SMALL, moves[:4], counting, time_limit=0, cache=cache)
    assert len(counting.limits) == len(moves) + 1  # every position of the shorter game was in the cache
    assert again.first_player_values == first.first_player_values[:5]
    assert [(m.before, m.after, m.lost) for m in again.marks] == [(m.before, m.after, m.lost) for m in first.marks[:4]]


def test_after_n_unsolved_positions_in_a_row_the_earlier_ones_get_a_short_try():
    rng = random.Random(5)
    board = Board(9, 8, 5, 36)
    while not board.is_over():
        board.play(rng.choice(board.legal_columns()))
    counting = CountingSolver()
    game = analyse((9, 8, 5, 36), board.moves(), counting, time_limit=0.002, hurry_after=3)
    values = game.first_player_values
    # walking back from the end: the third position in a row left unknown
    third = max(ply for ply in range(len(values)) if values[ply:ply + 3] == [None] * 3)
    limits = counting.limits[::-1]  # asked from the last position to the first
    assert limits[third:] == [0.002] * (len(values) - third)
    assert limits[:third] == [0.002 * HURRIED_SHARE] * third


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """A real run of the judge on a small board, and its page."""
    folder = tmp_path_factory.mktemp("view")
    done = run("judge", "--player", "strong --time-per-move 0.05", "--player", "greedy", "--player", "random",
               "--iterations", "2", "--columns", "5", "--rows", "4", "--c", "3", "--p", "10", "--openings", "2",
               "--seed", "4", "--results", "r.jsonl", "--quiet", "--view", cwd=folder)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in (folder / "r.jsonl").read_text().splitlines()[1:]]
    return folder, records


def test_judge_view_writes_the_page_of_its_results_with_every_game_valued_by_the_solver(judged):
    folder, records = judged
    html = (folder / "r.html").read_text()
    data = embedded_data(html)
    assert len(data["games"]) == len(records) == 6
    solver = Solver(16)
    for record, game in zip(records, data["games"]):
        assert game["i"] == record["id"] and game["m"] == record["moves"]
        assert [data["names"][i] for i in game["p"]] == record["players"]
        assert data["reasons"][game["r"]] == record["reason"]
        assert game["w"] == (-1 if record["winner"] is None else record["players"].index(record["winner"]))
        # 5x4 solves at once: every position exact, its winning ply as the solver's score says
        board = Board(*SMALL)
        for ply, value in enumerate(game["v"]):
            score = solver.solve(board)
            assert value == (finishing_ply(score, ply, board.max_moves) or 0)
            if ply < len(record["moves"]):
                board.play(record["moves"][ply])
        assert "e" not in game
        expected = analyse(SMALL, record["moves"], solver, time_limit=0)
        # the opening's plies were drawn at random, not chosen: never a blunder
        assert game["o"] == len(record["opening"]) == 2 and game["a"][:2] == "oo"
        blunders = [mark.ply for mark in expected.marks[2:] if mark.lost]
        assert game.get("x") == (blunders[0] if blunders else None)
        assert game["t"] == [round(t * 10000) for t in record["times"]]
        for mark, flag in zip(expected.marks[2:], game["a"][2:]):
            assert flag == {"win": "W", "draw": "D"}.get(mark.lost, "F" if mark.lost_faster else ".")
            if flag == "F":  # the loss came sooner: the opponent's winning stone is an earlier one
                assert outcome(mark.before) == outcome(mark.after) == "loss"
                assert game["v"][mark.ply] < game["v"][mark.ply - 1]


def test_the_page_loads_nothing_from_outside(judged):
    folder, _ = judged
    html = (folder / "r.html").read_text()
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html).group(1)
    assert policy.startswith("default-src 'none'; script-src 'sha256-")
    assert "unsafe" not in policy
    assert not re.search(r"""(src|href)\s*=\s*["']?[a-z]+:""", html, re.I)
    assert "@import" not in html and "url(" not in html


def test_names_cannot_break_out_of_the_page(tmp_path):
    path = tmp_path / "r.jsonl"
    write_results(path, SMALL, 1)
    lines = path.read_text().splitlines()
    game = json.loads(lines[1])
    evil = "</script><script>alert(1)</script>"
    game["players"][0] = game["winner"] = evil  # as a bot's name would be
    path.write_text(lines[0] + "\n" + json.dumps(game) + "\n")
    html = (tmp_path / "r.html")
    write_view(str(path), quiet=True)
    text = html.read_text()
    assert evil not in text and text.count("</script>") == 2
    assert embedded_data(text)["names"][0] == evil


def test_one_thousand_games_of_7x6_make_at_most_2_mb(tmp_path):
    path = tmp_path / "thousand.jsonl"
    write_results(path, Rules(7, 6, 4, 21), 1000)
    # a tight solve time leaves some positions to the evaluation, whose
    # scores take more room than the exact values: the larger page
    output = write_view(str(path), solve_time=0.005, quiet=True)
    size = (tmp_path / "thousand.html").stat().st_size
    print(f"1000 games of 7x6: {size / MB:.3f} MB")
    assert output.endswith("thousand.html") and size <= 2 * MB
    assert len(embedded_data((tmp_path / "thousand.html").read_text())["games"]) == 1000


def test_page_data_marks_a_forfeit_with_its_reason_and_offender(tmp_path):
    path = tmp_path / "r.jsonl"
    records = write_results(path, Rules(7, 6, 4, 21), 1, forfeit=True)
    header, games = load_games(str(path))
    data = page_data(str(path), header, games, 0.2)
    forfeited = data["games"][-1]
    assert data["reasons"][forfeited["r"]] == records[-1]["reason"] == "illegal move: column 7 out of range 0..6"
    assert forfeited["f"] == 1 and forfeited["w"] == 0


@pytest.mark.parametrize("content, message", [
    ("", "empty, no run in it"),
    ('{"id": 1}\n', "line 1 is not a run header"),
    ('{"type": "run", "argv": []}\n{"id": 1}\n', "game 1 (line 2): not a judge record: a game record without"),
    ('{"type": "run", "argv": []}\nnot json\n', "game 1 (line 2): not a judge record"),
    ('{"type": "run", "argv": []}\n' + json.dumps(dict(
        id="g", columns=3, rows=2, c=3, p=3, players=["a", "b"], colours=["azul", "rojo"], opening=[],
        moves=[0, 0, 0], times=[0, 0, 0], winner=None, reason="draw", forfeit=None)) + "\n",
     "game g: move 3: column 0 is full"),
])
def test_bad_input_exits_2_with_one_line_naming_it(tmp_path, content, message):
    (tmp_path / "bad.jsonl").write_text(content)
    result = run("view", "bad.jsonl", "--quiet", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr
    assert not (tmp_path / "bad.html").exists()


def test_a_line_longer_than_the_bound_is_refused_not_read_whole(tmp_path):
    from clinea.bounded import size_text
    from clinea.judge import results
    (tmp_path / "long.jsonl").write_text('{"type": "run", "argv": []}\n' + "x" * (results.MAX_LINE + 10) + "\n")
    result = run("view", "long.jsonl", "--quiet", cwd=tmp_path)
    assert result.returncode == 2 and f"line 2 is longer than {size_text(results.MAX_LINE)}" in result.stderr


def test_solve_time_out_of_range_is_refused(tmp_path):
    result = run("view", "r.jsonl", "--solve-time", "0", cwd=tmp_path)
    assert result.returncode == 2 and "--solve-time 0 is out of range: allowed more than 0" in result.stderr


def test_judge_view_without_a_results_file_is_refused(tmp_path):
    result = run("judge", "--player", "random", "--player", "greedy", "--iterations", "1", "--view", cwd=tmp_path)
    assert result.returncode == 2 and "--view needs --results FILE" in result.stderr


def test_the_judge_alone_refuses_view_it_cannot_write(tmp_path, capsys):
    """The judge imports no page: its own main, without the page writer that
    `clinea judge` hands in (clinea.arena.judge_command), says so."""
    from clinea.judge import cli

    with pytest.raises(SystemExit) as stopped:
        cli.main(["--player", "random", "--player", "greedy", "--iterations", "1", "--results",
                  str(tmp_path / "r.jsonl"), "--view"])
    assert stopped.value.code == 2 and "writes no replay page; clinea judge does" in capsys.readouterr().err
    assert not (tmp_path / "r.jsonl").exists()
