"""The greedy player: its features against a plain-Python count, its one-ply
tactics against the reference rules, its weights files and command line."""
import copy
import json
import random
import subprocess
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from reference_rules import ReferenceGame

from clinea.core import Board
from clinea.core.features import RUN_KINDS, SCALARS, count_features, count_windows, feature_count, feature_names
from clinea.core.greedy import Greedy
from clinea.players.greedy_player import GreedyBot
from clinea.players.weights import Weights, resample

PLAYERS_DIR = Path(__file__).resolve().parents[1] / "players"


# ------------------------------------------------------------ positions

@st.composite
def positions(draw, max_columns=9, max_rows=8, wide=True, max_c=6):
    """(columns, rows, c, p, moves): a random legal game prefix, sometimes on
    a board beyond 64 cells (the cell-array path)."""
    if wide and draw(st.booleans()):
        columns, rows = draw(st.sampled_from([(9, 8), (12, 6), (10, 10)]))
    else:
        columns = draw(st.integers(1, max_columns))
        rows = draw(st.integers(1, max_rows))
    c = draw(st.integers(2, max_c))
    p = draw(st.one_of(st.none(), st.integers(1, columns * rows)))
    p = p if p is not None else (columns * rows + 1) // 2
    game = ReferenceGame(columns, rows, c, p)
    # a seeded generator rather than a list of integers, which hypothesis
    # leans to zeros (stacks in column 0)
    rng = random.Random(draw(st.integers(0, 2 ** 32)))
    moves = []
    for _ in range(draw(st.integers(0, columns * rows))):
        if game.over():
            break
        moves.append(rng.choice(game.legal()))
        game.play(moves[-1])
    return columns, rows, c, p, moves


def reference_after(columns, rows, c, p, moves) -> ReferenceGame:
    game = ReferenceGame(columns, rows, c, p)
    for col in moves:
        game.play(col)
    return game


# -------------------------------------------------- features, in plain Python

def plain_features(grid, columns, rows, c, stone):
    """The documented feature counts for `stone`, written as directly as possible."""
    nlen = min(c - 1, 128)

    def at(col, row):
        if 0 <= col < columns and 0 <= row < rows:
            return grid[col][row]
        return None

    def playable(col, row):
        return at(col, row) == 0 and (row == 0 or grid[col][row - 1] != 0)

    centre = {(columns - 1) // 2, columns // 2}
    mine = [(col, row) for col in range(columns) for row in range(rows) if grid[col][row] == stone]
    out = dict(centre=0, borders=0, corners=0, liberties=0)
    runs = {kind: [0] * nlen for kind in RUN_KINDS}
    for col, row in mine:
        out["centre"] += col in centre
        edge_col = col in (0, columns - 1)
        edge_row = row in (0, rows - 1)
        out["borders"] += edge_col or edge_row
        out["corners"] += edge_col and edge_row
    free_next_to_me = set()
    for col, row in mine:
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if at(col + dc, row + dr) == 0:
                    free_next_to_me.add((col + dc, row + dr))
    out["liberties"] = len(free_next_to_me)
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for col, row in mine:
            if at(col - dc, row - dr) == stone:
                continue
            length = 0
            while at(col + length * dc, row + length * dr) == stone:
                length += 1
            if length > nlen:
                continue
            ends = [(col - dc, row - dr), (col + length * dc, row + length * dr)]
            free = [at(*end) == 0 for end in ends]
            runs["consecutive"][length - 1] += 1
            runs["extensible"][length - 1] += any(free)
            runs["extensible_next"][length - 1] += any(playable(*end) for end in ends)
            runs["bi_extensible"][length - 1] += all(free)
    return [out[name] for name in SCALARS] + [x for kind in RUN_KINDS for x in runs[kind]]


def assert_counts_match(position, count, plain) -> None:
    """`count(board)` gives, for each player, what `plain` counts on the reference grid."""
    columns, rows, c, p, moves = position
    game = reference_after(*position)
    first, second = count(Board.from_moves(moves, columns, rows, c, p))
    assert first == plain(game.grid, columns, rows, c, 1)
    assert second == plain(game.grid, columns, rows, c, 2)


@given(positions())
def test_feature_counts_match_a_plain_count(position):
    assert_counts_match(position, count_features, plain_features)


def plain_windows(grid, columns, rows, c, stone):
    """Open windows of `stone`, as documented: every segment of c cells in
    one of the four directions, all on the board, holding n of its stones
    and none of the other player's; index n - 1."""
    nlen = min(c - 1, 128)
    out = [0] * nlen
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for col in range(columns):
            for row in range(rows):
                cells = [(col + k * dc, row + k * dr) for k in range(c)]
                if not all(0 <= x < columns and 0 <= y < rows for x, y in cells):
                    continue
                held = [grid[x][y] for x, y in cells]
                mine = held.count(stone)
                if 0 < mine <= nlen and mine + held.count(0) == c:
                    out[mine - 1] += 1
    return out


@given(positions(max_columns=14, max_rows=12, max_c=12))
def test_open_windows_match_a_plain_count(position):
    assert_counts_match(position, count_windows, plain_windows)


def test_a_run_hemmed_in_short_of_c_has_no_open_window_and_a_gap_has():
    # row 0: O X X _ O on c = 4: "extensible", yet no window of four fits
    board = Board.from_moves([0, 1, 4, 2], 5, 2, 4)
    first, second = count_windows(board)
    assert count_features(board)[1][4 + 3 + 1] == 1  # the run of two counts as extensible
    assert second == [0, 0, 0] and first == [0, 0, 0]
    # X _ X _ on 4 columns: two lone stones as runs, one window of two
    board = Board.from_moves([0, 0, 2, 2], 4, 3, 4)
    assert count_windows(board)[0] == [0, 1, 0]


def test_layout_is_named_once_and_sized_by_c():
    for c in (2, 4, 7):
        names = feature_names(c)
        assert len(names) == feature_count(c) == 4 + 4 * (c - 1)
        assert len(set(names)) == len(names)
    assert feature_count(1000) == 4 + 4 * 128  # no run is longer than a side


# -------------------------------------------------- one-ply tactics

def winning_moves(game: ReferenceGame) -> list[int]:
    wins = []
    for col in game.legal():
        after = copy.deepcopy(game)
        after.play(col)
        if after.winner is not None:
            wins.append(col)
    return wins


def safe_moves(game: ReferenceGame) -> list[int]:
    """Moves after which the opponent has no immediate win."""
    safe = []
    for col in game.legal():
        after = copy.deepcopy(game)
        after.play(col)
        if not winning_moves(after):
            safe.append(col)
    return safe


weights_strategy = st.lists(st.floats(-1, 1, allow_nan=False), min_size=feature_count(8), max_size=feature_count(8))


@settings(max_examples=60)
@given(positions(max_columns=8, max_rows=7, wide=False), weights_strategy)
def test_greedy_takes_a_win_and_otherwise_never_allows_one(position, raw_weights):
    columns, rows, c, p, moves = position
    game = reference_after(*position)
    assume(not game.over())
    weights = Weights.from_flat(raw_weights[:feature_count(c)])
    board = Board.from_moves(moves, columns, rows, c, p)
    col = GreedyBot(weights).choose(board)
    assert board.moves() == moves  # the caller's board is left as it was
    wins = winning_moves(game)
    if wins:
        assert col in wins
        return
    safe = safe_moves(game)
    assert col in (safe or game.legal())


def test_greedy_plays_every_size_and_the_p_limit_to_the_end():
    bot = GreedyBot()
    for columns, rows, c, p in ((7, 6, 4, 21), (3, 3, 3, 2), (20, 20, 5, 30), (1, 5, 2, 3), (9, 8, 5, 36)):
        board = Board(columns, rows, c, p)
        while not board.is_over():
            board.play(bot.choose(board))
        assert board.winner is not None or board.moves_played == min(2 * p, columns * rows)


def test_scores_prefer_what_the_weights_reward():
    # only "centre" weighs: from the empty board the centre column is best
    only_centre = [1.0] + [0.0] * (feature_count(4) - 1)
    assert Greedy(only_centre, 4).choose(Board()) == 3
    # only "corners" weighs: a corner column wins
    only_corners = [0.0, 0.0, 1.0] + [0.0] * (feature_count(4) - 3)
    assert Greedy(only_corners, 4).choose(Board()) in (0, 6)


# -------------------------------------------------- weights and command line

def test_default_weights_are_in_range_and_fit_every_c():
    weights = Weights.default()
    for c in (2, 3, 4, 5, 9):
        values = weights.for_c(c)
        assert len(values) == feature_count(c)
        assert all(-1 <= v <= 1 for v in values)
    assert weights.for_c(weights.c) == weights.values


def test_resample_keeps_the_ends_of_a_run_vector():
    assert resample([0.0, 0.5, 1.0], 3) == [0.0, 0.5, 1.0]
    assert resample([0.0, 0.5, 1.0], 5)[-1] == 1.0
    assert resample([0.0, 0.5, 1.0], 1) == [1.0]


def test_weights_file_round_trip(tmp_path):
    weights = Weights([0.1 * (i % 10) - 0.45 for i in range(feature_count(5))], 5, {"made_by": "test"})
    weights.save(tmp_path / "w.json")
    assert Weights.load(tmp_path / "w.json") == weights
    windowed = Weights(weights.values, 5, {}, Weights(weights.values, 5, windows=[0.2, 0.1, 0.0, -0.3]),
                       [0.1, 0.2, 0.3, 0.4])
    windowed.save(tmp_path / "windows.json")
    assert Weights.load(tmp_path / "windows.json") == windowed


@pytest.mark.parametrize("change, message", [
    (lambda d: d["weights"].update(windows=[0.1, 0.2]), '"windows" must be a list of 3'),
    (lambda d: d["weights"].update(windows=[0.1, 2.0, 0.2]), "windows_2=2.0 is out of range"),
    (lambda d: d.update(opponent_weights={**d["weights"], "windows": [0.0] * 3}),
     "opponent window weights need the player's own"),
    (lambda d: d["weights"].update(centre=1.5), "centre=1.5 is out of range: allowed -1..1"),
    (lambda d: d["weights"].update(consecutive=[0.1]), '"consecutive" must be a list of 3'),
    (lambda d: d.update(c=0), '"c"=0 is out of range'),
])
def test_bad_weights_files_are_named(tmp_path, change, message):
    data = Weights.default().to_json()
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("[", r"\[")):
        Weights.load(path)


def run_player(*args, stdin="azul rojo\n5 4 3 10\nvos\n1\nempataron\nsalir\n"):
    return subprocess.run([str(PLAYERS_DIR / "greedy"), *args], input=stdin, capture_output=True,
                          text=True, timeout=30)


def test_command_line_weights_and_file_both_play(tmp_path):
    numbers = [str(v) for v in Weights.default().values]
    by_numbers = run_player(*numbers)
    Weights.default().save(tmp_path / "w.json")
    by_file = run_player("--weights", str(tmp_path / "w.json"))
    assert by_numbers.returncode == by_file.returncode == 0
    assert by_numbers.stdout == by_file.stdout and by_numbers.stdout.endswith("listo\n")


@pytest.mark.parametrize("args, message", [
    (["0.5", "2"], "weight=2 is out of range: allowed -1..1"),
    (["0.5", "x"], "'x' is not a number"),
    (["0.1"] * 5, "5 weights: expected 4 + 4 (c - 1)"),
    (["--weights", "/nonexistent.json"], "cannot read weights file /nonexistent.json"),
])
def test_bad_command_lines_name_the_value_and_range(args, message):
    result = run_player(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("content, message", [
    ("[" * 100_000 + "]" * 100_000, "is not JSON: JSON nested deeper than can be read"),
    (" " * (2 << 20), "larger than 1 MiB, the most allowed here"),
])
def test_a_weights_file_nested_too_deep_or_too_large_is_an_error_naming_it(tmp_path, content, message):
    path = tmp_path / "w.json"
    path.write_text(content)
    result = run_player("--weights", str(path))
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert f"weights file {path}" in result.stderr and message in result.stderr
