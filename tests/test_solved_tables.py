"""The solved tables: the published c = 4 values reproduced (Steininger's
readme, whose outcomes for these sizes Tromp found first), the score-to-move conversion against a
perfect game played out by the pure-Python brute force, the split at a
depth backed up to the same value as one solve, on Ray too, a table resumed
after a stop, a board out of time written as unknown, a disagreeing second
method written as a mismatch, and the shipped tables checked against the
published ones."""
import csv
import io
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinea.core import Board, Rules
from clinea.solving.reference_solver import ReferenceSolver
from clinea.solving.solved_board import LeafValue, backed_up, end_move, solve_board, solve_leaves, split_positions
from clinea.solving.solved_tables import main as tables_main
from clinea.solving.solved_tables import read_table, standard_tables

HERE = os.path.dirname(os.path.abspath(__file__))
SHIPPED = os.path.join(HERE, "..", "docs", "solved")


def published() -> dict[tuple[int, int], tuple[str, int]]:
    with open(os.path.join(HERE, "data", "published_c4.csv"), encoding="utf-8") as file:
        lines = [line for line in file if not line.startswith("#")]
    return {(int(row["columns"]), int(row["rows"])): (row["outcome"], int(row["end_move"]))
            for row in csv.DictReader(io.StringIO("".join(lines)))}


# the published boards that solve in seconds (7x6 through the opening book);
# 8x5, 6x7, 9x4 and the other 36..42-cell boards take minutes: the shipped
# table holds them, checked against the same values below
QUICK = [size for size in published() if size[0] * size[1] <= 30 or size == (7, 6)]


@pytest.mark.parametrize("size", QUICK)
def test_published_c4_value_reproduced(size):
    value = solve_board(Rules(*size, 4), time_limit=60, brute_positions=0)
    assert (value.outcome, value.end_move) == published()[size]
    assert value.disagreements() == []


def test_shipped_c4_table_equals_every_published_value():
    rows = read_table(os.path.join(SHIPPED, "c4.csv"))
    for (columns, rows_count), (outcome, move) in published().items():
        row = rows[Rules(columns, rows_count, 4)]
        assert (row["outcome"], row["end_move"]) == (outcome, str(move)), (columns, rows_count)


@pytest.mark.parametrize("name", sorted(standard_tables()))
def test_shipped_tables_hold_no_mismatch_and_no_guess(name):
    rows = read_table(os.path.join(SHIPPED, f"{name}.csv"))
    assert rows
    for rules, row in rows.items():
        assert not row["check"].startswith("MISMATCH"), rules
        if row["score"] == "?":
            assert row["end_move"] == "?", rules
        else:
            assert int(row["end_move"]) == end_move(rules.max_moves, int(row["score"]))
            assert row["check"].startswith("exact = win/draw/loss"), rules


@pytest.mark.parametrize("name", sorted(standard_tables()))
def test_shipped_tables_hold_every_board_of_their_range(name):
    # a range widened in the code but never run would leave the page short
    rows = read_table(os.path.join(SHIPPED, f"{name}.csv"))
    assert set(rows) == set(standard_tables()[name].boards)


@pytest.mark.parametrize("name", sorted(standard_tables()))
def test_shipped_standard_tables_leave_no_board_unknown(name):
    # issue 27: every board of the standard ranges is solved, none left
    # out of time (6x6 and 7x5 with c = 5 once were, at 90 s a board)
    rows = read_table(os.path.join(SHIPPED, f"{name}.csv"))
    assert [rules for rules, row in rows.items() if row["outcome"] == "unknown"] == []


def test_shipped_token_limits_agree_with_the_full_game():
    # a side that could force a win within 2p moves under a token limit p
    # could do the same in the full game, whose first 2p moves are the same
    # game: so when the full game's perfect play ends after move 2p, every
    # such p is a draw (derived independently of the p solves)
    rows = read_table(os.path.join(SHIPPED, "c4-7x6-p.csv"))
    full = rows[Rules(7, 6, 4, 21)]
    assert (full["outcome"], full["end_move"]) == ("first", "41")
    known = {rules.p: row["outcome"] for rules, row in rows.items() if row["outcome"] != "unknown"}
    assert len(known) >= 16
    assert all(outcome == "draw" for p, outcome in known.items() if 2 * p < 41)


def perfect_game_length(reference: ReferenceSolver) -> int:
    """Moves of a game both sides play perfectly, by the brute force alone:
    each move is one whose child keeps the position's score."""
    moves: list[int] = []
    while True:
        grid, n = reference.grid_of(moves), len(moves)
        target = reference.score(grid, n)
        for col in range(reference.columns):
            if len(grid[col]) == reference.rows:
                continue
            after = grid[:col] + (grid[col] + (n % 2,),) + grid[col + 1:]
            if reference.line_through(after, col, len(grid[col])):
                if target == (reference.max_moves + 1 - n) // 2:
                    return n + 1
                continue
            if n + 1 == reference.max_moves:
                if target == 0:
                    return n + 1
                continue
            if -reference.score(after, n + 1) == target:
                moves.append(col)
                break


tiny_rules = st.builds(lambda w, h, c, p: Rules(w, h, c, p), st.integers(1, 4), st.integers(1, 4),
                       st.integers(2, 4), st.integers(1, 8))


@settings(max_examples=40, deadline=None)
@given(tiny_rules)
def test_value_and_end_move_agree_with_a_perfect_game_of_the_brute_force(rules):
    value = solve_board(rules, time_limit=10)
    reference = ReferenceSolver(*rules)
    assert value.brute == value.exact == reference.solve([])
    assert value.end_move == perfect_game_length(reference)
    assert value.disagreements() == []
    assert value.check() == "exact = win/draw/loss = brute force"


@settings(max_examples=25, deadline=None)
@given(tiny_rules, st.integers(1, 3))
def test_a_board_split_at_a_depth_backs_up_to_its_one_solve(rules, depth):
    whole = solve_board(rules, time_limit=10, brute_positions=0)
    split = solve_board(rules, time_limit=10, depth=depth, brute_positions=0)
    assert (split.exact, split.weak) == (whole.exact, whole.weak)


def test_split_positions_are_distinct_and_not_over():
    rules = Rules(4, 4, 3)
    leaves = split_positions(rules, 3)
    keys = {Board(*rules).play_moves(moves).key() for moves in leaves}
    assert len(keys) == len(leaves) > 0
    assert all(len(moves) == 3 and not Board(*rules).play_moves(moves).is_over() for moves in leaves)


def test_an_unknown_position_leaves_the_board_unknown_not_guessed():
    rules = Rules(4, 4, 3)
    leaves = split_positions(rules, 1)
    known = {Board(*rules).play_moves(moves).key(): value.exact
             for moves, value in zip(leaves, solve_leaves(rules, leaves, 10))}
    assert backed_up(rules, 1, lambda board: known[board.key()], weak=False) == 4
    for unknown_key in known:
        # whichever reply is unknown, the value could hide behind it: no value
        assert backed_up(rules, 1, lambda board, k=unknown_key: None if board.key() == k else known[board.key()],
                         weak=False) is None


def test_a_board_out_of_time_is_written_unknown(tmp_path):
    code = tables_main(["--board", "7x6", "--c", "4", "--p-range", "21..21", "--name", "slow",
                        "--time-limit", "0.01", "--dir", str(tmp_path), "--brute-force-positions", "0"])
    assert code == 0
    [row] = read_table(str(tmp_path / "slow.csv")).values()
    assert (row["outcome"], row["end_move"], row["score"]) == ("unknown", "?", "?")
    assert row["check"] == "out of time"


def test_a_second_method_that_disagrees_is_a_mismatch():
    def lying(rules, move_lists, time_limit):
        return [LeafValue(v.exact, -v.weak if v.weak else 1, v.nodes, v.seconds)
                for v in solve_leaves(rules, move_lists, time_limit)]

    value = solve_board(Rules(4, 4, 3), time_limit=10, solve=lying)
    assert value.disagreements()
    assert value.check().startswith("MISMATCH")


def run_table(directory, *extra, max_sum=7):
    return tables_main(["--c", "3", "--max-sum", str(max_sum), "--name", "t", "--dir", str(directory),
                        "--time-limit", "20", *extra])


def comparable(path) -> dict:
    keep = ("outcome", "end_move", "score", "weak", "brute_force", "check")
    return {rules: {k: row[k] for k in keep} for rules, row in read_table(str(path)).items()}


def test_a_stopped_table_resumes_where_it_stopped(tmp_path):
    assert run_table(tmp_path / "whole") == 0
    whole = tmp_path / "whole" / "t.csv"
    lines = whole.read_text().splitlines()
    assert len(lines) == 1 + 21  # the header and every board with columns + rows <= 7
    # a run stopped after 5 boards left these rows; mark one to see it is kept, not solved again
    part = tmp_path / "part"
    part.mkdir()
    kept = lines[:6]
    kept[1] = kept[1].rsplit(",", 3)[0] + ",123.45,0,20"
    (part / "t.csv").write_text("\n".join(kept) + "\n")
    assert run_table(part) == 0
    assert comparable(part / "t.csv") == comparable(whole)
    assert "123.45" in (part / "t.csv").read_text().splitlines()[1]
    page = (part / "README.md").read_text()
    assert "# Solved tables" in page


def test_tables_on_ray_equal_the_local_ones(ray_address, tmp_path):
    assert run_table(tmp_path / "local", max_sum=6) == 0
    assert run_table(tmp_path / "ray", "--ray", ray_address, "--split-depth", "2", max_sum=6) == 0
    assert comparable(tmp_path / "ray" / "t.csv") == comparable(tmp_path / "local" / "t.csv")


@pytest.mark.parametrize("argv, message", [
    (["--board", "7by6", "--c", "4", "--p-range", "4..5"], "COLUMNSxROWS"),
    (["--board", "7x6", "--c", "4", "--p-range", "9..4"], "FIRST..LAST"),
    (["--c", "4", "--max-sum", "99"], "allowed 2..40"),
    (["--c", "4"], "either --max-sum or --board"),
    (["--split-depth", "9"], "allowed 0..6"),
])
def test_bad_options_name_the_value_and_the_range(argv, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as stop:
        tables_main([*argv, "--dir", str(tmp_path)])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
