"""The solved tables: the published c = 4 values reproduced (Steininger's
readme, whose outcomes for these sizes Tromp found first), the score-to-move conversion against a
perfect game played out by the pure-Python brute force, the split at a
depth backed up to the same value as one solve, on Ray too, a table resumed
after a stop, a board out of time written as unknown, a disagreeing second
method written as a mismatch, and the shipped tables checked against the
published ones. A board stopped inside (its process killed) resumes from
its checkpoint and solves no split position twice, locally and on Ray; a
torn checkpoint line is ignored, a line of another board or split depth
refused."""
import csv
import io
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinea.core import Board, Rules
from clinea.core.solver import centre_first
from clinea.solving.reference_solver import ReferenceSolver
from clinea.solving.solved_board import (
    Answer,
    Knowledge,
    LocalSolve,
    Query,
    boards_up_to,
    end_move,
    mirror_key,
    process_solve,
    searched,
    solve_board,
    solve_queries,
    split_leaves,
    split_positions,
)
from clinea.solving.solved_checkpoint import checkpoint_line, checkpoint_path, checkpoint_summary, checksum
from clinea.solving.solved_tables import main as tables_main
from clinea.solving.solved_tables import read_table, standard_tables, write_page

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


# the standard tables still being computed (issue 47: Tromp's table, days of
# CPU a diagonal); each is checked for what it holds, and its completeness
# is an expected failure until the last board is in (then strict xfail fails:
# take it off this list)
UNFINISHED = {"c4-15"}
C4_TABLES = ["c4", "c4-14", "c4-15"]


def shipped(name: str) -> dict:
    return read_table(os.path.join(SHIPPED, f"{name}.csv"))  # empty when not computed yet


def until_finished(name):
    return pytest.param(name, marks=pytest.mark.xfail(name in UNFINISHED, strict=True,
                                                      reason="issue 47: still being computed"))


def test_shipped_c4_tables_equal_every_published_value():
    rows = {rules: row for name in C4_TABLES for rules, row in shipped(name).items()}
    for (columns, rows_count), (outcome, move) in published().items():
        rules = Rules(columns, rows_count, 4)
        if columns + rows_count > 13 and rules not in rows:
            continue  # not computed yet: test_shipped_tables_hold_every_board_of_their_range says so
        row = rows[rules]
        assert (row["outcome"], row["end_move"]) == (outcome, str(move)), (columns, rows_count)


def test_the_tables_past_c4_hold_exactly_the_boards_c4_lacks():
    # issue 47: --table c4-14 computes exactly the boards of columns + rows <= 14
    # missing from c4.csv, and c4-15 then those of 15
    have = set(shipped("c4"))
    for name, most in (("c4-14", 14), ("c4-15", 15)):
        assert set(standard_tables()[name].boards) == set(boards_up_to(4, most)) - have
        have |= set(standard_tables()[name].boards)


@pytest.mark.parametrize("name", sorted(standard_tables()))
def test_shipped_tables_hold_no_mismatch_and_no_guess(name):
    rows = shipped(name)
    assert rows or name in UNFINISHED
    for rules, row in rows.items():
        assert not row["check"].startswith("MISMATCH"), rules
        if row["score"] == "?":
            assert row["end_move"] == "?", rules
        else:
            assert int(row["end_move"]) == end_move(rules.max_moves, int(row["score"]))
            assert row["check"].startswith("exact = win/draw/loss"), rules


@pytest.mark.parametrize("name", [until_finished(name) for name in sorted(standard_tables())])
def test_shipped_tables_hold_every_board_of_their_range(name):
    # a range widened in the code but never run would leave the page short
    assert set(shipped(name)) == set(standard_tables()[name].boards)


@pytest.mark.parametrize("name", sorted(standard_tables()))
def test_shipped_standard_tables_leave_no_board_unknown(name):
    # issue 27: every board of the standard ranges is solved, none left
    # out of time (6x6 and 7x5 with c = 5 once were, at 90 s a board)
    rows = shipped(name)
    assert rows or name in UNFINISHED
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


class Asked(LocalSolve):
    """LocalSolve that keeps every query and answer it gives and can leave
    one position out of time on one scale (`unknown`: its moves and weak)."""

    def __init__(self, width=1, unknown=None):
        super().__init__()
        self.width, self.unknown, self.answers = width, unknown, []

    def __call__(self, rules, queries, time_limit):
        for query, answer in super().__call__(rules, queries, time_limit):
            if (query.moves, query.weak) == self.unknown:
                answer = Answer(None, None, 0, 0.0)
            self.answers.append((query, answer))
            yield query, answer


def principal_line(rules, depth):
    """The keys (and their mirror images') of the positions the search over
    the split reaches by the first move of each: the centre-first order's."""
    board, keys = Board(*rules), set()
    for _ in range(depth):
        playable = [col for col in centre_first(rules.columns) if board.can_play(col)]
        if not playable:
            break
        board.play(playable[0])
        keys |= {board.key(), mirror_key(rules, board.moves())}
    return keys


@settings(max_examples=25, deadline=None)
@given(tiny_rules, st.integers(1, 3), st.integers(1, 4))
def test_the_search_over_the_split_asks_each_position_only_what_its_window_needs(rules, depth, width):
    # every answer bounds the position's score (its exact solve) as it
    # claims, none is asked twice, and the board's value is its one solve's,
    # however many siblings are asked at once; past the first move of each
    # position, a position is first asked a null window (issue 47: refuting
    # 10x5's first move 3, the reply [3, 4] proved +3 for the first player,
    # 36 G nodes, and the search went on to ask its siblings whether they
    # beat +3, 8 G nodes, where the root needed only "more than +2?")
    asked = Asked(width)
    split = solve_board(rules, time_limit=10, depth=depth, solve=asked, brute_positions=0)
    whole = solve_board(rules, time_limit=10, brute_positions=0)
    assert (split.exact, split.weak) == (whole.exact, whole.weak)
    queries = [query for query, _ in asked.answers]
    assert len(set(queries)) == len(queries)
    truth = LocalSolve()
    for query, answer in asked.answers:
        [(_, exact)] = truth(rules, [Query(query.moves, query.weak, -99, 99)], 10)
        assert exact.low == exact.high and answer.low <= exact.low <= answer.high, query
        assert answer.high <= query.low or answer.low >= query.high or answer.low == answer.high, query
        # nothing is asked past the score's range: a win by the first stone, a loss to it, cuts the rest off
        limit = 1 if query.weak else (rules.max_moves + 1) // 2
        assert -limit <= query.low < query.high <= limit, query
    line, seen = principal_line(rules, depth), set()
    for query, _ in asked.answers:
        assert query.high - query.low == 1 or (query.moves, query.weak) in seen or \
            Board(*rules).play_moves(query.moves).key() in line, query
        seen.add((query.moves, query.weak))


class Batches(LocalSolve):
    """LocalSolve answering `width` at once that keeps each batch it is asked."""

    def __init__(self, width):
        super().__init__()
        self.width, self.batches = width, []

    def __call__(self, rules, queries, time_limit):
        self.batches.append(list(queries))
        yield from super().__call__(rules, queries, time_limit)


@pytest.mark.parametrize("rules", [Rules(6, 4, 4), Rules(5, 5, 4)])
def test_the_first_replies_of_the_later_moves_are_asked_together(rules):
    # issue 47: split two plies in, the moves refuted by their first reply
    # (most of them) were refuted one after another, one worker busy;
    # now their first replies go out in one batch
    serial, spread = Batches(1), Batches(2)
    values = [solve_board(rules, time_limit=10, depth=2, solve=solve, brute_positions=0) for solve in (serial, spread)]
    assert values[0].exact == values[1].exact and values[0].weak == values[1].weak
    assert any(len({query.moves[0] for query in batch}) > 1 for batch in spread.batches)
    assert all(len({query.moves[0] for query in batch}) == 1 for batch in serial.batches)


@pytest.mark.parametrize("rules, depth", [(Rules(6, 4, 4), 2), (Rules(5, 5, 4), 2), (Rules(5, 4, 3), 3)])
def test_a_position_and_its_mirror_image_are_asked_as_one(rules, depth):
    asked = Asked(2)
    solve_board(rules, time_limit=10, depth=depth, solve=asked, brute_positions=0)
    keys = {Board(*rules).play_moves(query.moves).key() for query, _ in asked.answers}
    assert all(mirror_key(rules, query.moves) not in keys - {Board(*rules).play_moves(query.moves).key()}
               for query, _ in asked.answers)


class Remembered:
    """A LeafStore holding answers found before, recording nothing."""

    def __init__(self, answers):
        self.answers = answers

    def solved(self, leaves, time_limit):
        return self.answers

    def record(self, query, answer):
        pass


class Looked(dict):
    """split_leaves' mapping, keeping every key the search looked up."""

    def __init__(self, leaves):
        super().__init__(leaves)
        self.looked = set()

    def __getitem__(self, key):
        self.looked.add(key)
        return super().__getitem__(key)


@pytest.mark.parametrize("rules", [Rules(6, 4, 4), Rules(5, 4, 3), Rules(7, 4, 4)])
@pytest.mark.parametrize("weak", [False, True])
def test_a_symmetric_position_searches_one_of_each_move_and_its_mirror_image(rules, weak):
    # issue 47: 10x5's search above the split, having settled the first
    # move 4, went on to refute 5, its mirror image, with new questions
    # (14 G nodes for the first of them)
    depth = 2
    leaves = Looked(split_leaves(rules, [moves for above in range(depth + 1)
                                         for moves in split_positions(rules, above)]))
    solve, known = LocalSolve(), Knowledge()

    def ask(queries):
        for query, answer in solve(rules, queries, 10):
            known.add(query, answer)
        return [known.score(query) for query in queries]

    value = searched(rules, depth, weak, leaves, ask, 1)
    whole = solve_board(rules, time_limit=10, brute_positions=0)
    assert value == (whole.weak if weak else whole.exact)
    first_moves = {Board(*rules).play_moves([col]).key(): col for col in range(rules.columns)}
    assert all(col <= rules.columns - 1 - col for key, col in first_moves.items() if key in leaves.looked)
    assert first_moves.keys() & leaves.looked


def test_an_answer_kept_for_a_mirror_image_answers_its_position():
    # a checkpoint written before positions and their images were asked as one
    rules = Rules(6, 4, 4)
    first = Asked()
    value = solve_board(rules, time_limit=10, depth=2, solve=first, brute_positions=0)
    query, answer = first.answers[0]
    image = {Board(*rules).play_moves(moves).key(): tuple(moves) for moves in split_positions(rules, 2)}[
        mirror_key(rules, query.moves)]
    assert image != query.moves
    again = Asked()
    resumed = solve_board(rules, time_limit=10, depth=2, solve=again, brute_positions=0,
                          store=Remembered([(Query(image, query.weak, query.low, query.high), answer)]))
    assert (resumed.exact, resumed.weak) == (value.exact, value.weak)
    assert query not in [asked for asked, _ in again.answers]


@pytest.mark.parametrize("rules", [Rules(6, 4, 4), Rules(6, 5, 4)])
def test_answers_found_before_are_taken_in_turn_not_batched_with_new_questions(rules):
    # a known answer may cut its siblings off: asked in a batch beside it,
    # they were solved for nothing (8x6: an hour's question beside one
    # answered by its mirror image)
    first = Asked(1)
    value = solve_board(rules, time_limit=10, depth=2, solve=first, brute_positions=0)
    again = Asked(2)
    resumed = solve_board(rules, time_limit=10, depth=2, solve=again, brute_positions=0,
                          store=Remembered(first.answers))
    assert (resumed.exact, resumed.weak) == (value.exact, value.weak)
    assert again.answers == []


def test_an_unknown_position_leaves_the_board_unknown_not_guessed():
    rules = Rules(4, 4, 3)
    asked = Asked()
    assert solve_board(rules, time_limit=10, depth=1, solve=asked, brute_positions=0).exact == 4
    for moves, weak in {(query.moves, query.weak) for query, _ in asked.answers}:
        # whichever asked position is unknown, the value could hide behind it: no value on that scale
        value = solve_board(rules, time_limit=10, depth=1, solve=Asked(unknown=(moves, weak)), brute_positions=0)
        assert (value.weak if weak else value.exact) is None


@pytest.mark.parametrize("threads, time_limit", [("1", "0.01"), ("2", "0.3")])
def test_a_board_out_of_time_is_written_unknown(tmp_path, threads, time_limit):
    # (two threads: past the solo phase, so that the helpers are stopped too; 8x5: no book)
    code = tables_main(["--board", "8x5", "--c", "4", "--p-range", "20..20", "--name", "slow", "--threads", threads,
                        "--time-limit", time_limit, "--dir", str(tmp_path), "--brute-force-positions", "0"])
    assert code == 0
    [row] = read_table(str(tmp_path / "slow.csv")).values()
    assert (row["outcome"], row["end_move"], row["score"]) == ("unknown", "?", "?")
    assert row["check"] == "out of time"


def test_a_second_method_that_disagrees_is_a_mismatch():
    class Lying(LocalSolve):
        def __call__(self, rules, queries, time_limit):
            for query, answer in super().__call__(rules, queries, time_limit):
                # the win/draw/loss answers turned round
                yield query, Answer(-answer.high, -answer.low, 0, 0.0) if query.weak else answer

    value = solve_board(Rules(4, 4, 3), time_limit=10, solve=Lying())
    assert value.disagreements()
    assert value.check().startswith("MISMATCH")


def run_table(directory, *extra, max_sum=7):
    return tables_main(["--c", "3", "--max-sum", str(max_sum), "--name", "t", "--dir", str(directory),
                        "--time-limit", "20", *extra])


def comparable(path) -> dict:
    keep = ("outcome", "end_move", "score", "weak", "brute_force", "check")
    return {rules: {k: row[k] for k in keep} for rules, row in read_table(str(path)).items()}


def test_a_long_board_reports_its_answers_as_they_come(tmp_path, capsys, monkeypatch):
    # 8x6 ran for hours with nothing on its log: now each answer is news
    monkeypatch.setattr("clinea.progress.PLAIN_INTERVAL", 0.0)
    assert run_table(tmp_path, "--split-depth", "2", max_sum=6) == 0
    counts = [int(line.split(" answers ")[1].split()[0]) for line in capsys.readouterr().err.splitlines()
              if " answers " in line and "board 3x3 " in line]
    assert len(counts) > 1 and counts == sorted(counts)


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


@pytest.mark.parametrize("threads", ["1", "2"])
def test_tables_on_ray_equal_the_local_ones(ray_address, tmp_path, threads):
    # (the tasks' solvers on the smallest table: its size changes the work, not the values;
    # two threads a task on the two CPUs: one task at a time)
    assert run_table(tmp_path / "local", max_sum=6) == 0
    assert run_table(tmp_path / "ray", "--ray", ray_address, "--split-depth", "2", "--tt-log2", "8",
                     "--threads", threads, max_sum=6) == 0
    assert comparable(tmp_path / "ray" / "t.csv") == comparable(tmp_path / "local" / "t.csv")


def test_more_threads_than_a_node_has_cpus_is_refused_not_waited_for(ray_address, tmp_path):
    with pytest.raises(SystemExit, match="threads=3 is out of range: the cluster's largest node has 2 CPUs"):
        run_table(tmp_path, "--ray", ray_address, "--threads", "3", max_sum=4)


def test_threads_change_the_work_not_the_values():
    # split one ply in, 6x5's questions run past the solo phase of a threaded solve
    rules, threaded = Rules(6, 5, 4), LocalSolve(20, threads=2)
    two, one = solve_board(rules, 0, 1, threaded, brute_positions=0), solve_board(rules, 0, 1, brute_positions=0)
    assert (two.exact, two.weak) == (one.exact, one.weak)
    assert {solver.threads for solver in threaded.solvers.values()} == {2}


def test_a_process_keeps_its_tables_from_one_task_to_the_next():
    # a Ray worker runs its tasks one after another: the second asking of a
    # position finds what the first proved (a fresh table searches it again)
    rules, query = Rules(6, 5, 4), Query((2, 3), False, -16, 16)
    process_solve.cache_clear()
    fresh = solve_queries(rules, [query], 0, 21)[0]
    again = solve_queries(rules, [query], 0, 21)[0]
    assert (again.low, again.high) == (fresh.low, fresh.high)
    assert again.nodes * 100 < fresh.nodes
    # one table size kept at a time: asking for another lets the first go
    solve_queries(rules, [query], 0, 20)
    assert solve_queries(rules, [query], 0, 21)[0].nodes == fresh.nodes


def test_the_smallest_table_changes_the_work_not_the_values(tmp_path):
    assert run_table(tmp_path / "default", max_sum=6) == 0
    assert run_table(tmp_path / "small", "--tt-log2", "8", "--split-depth", "1", max_sum=6) == 0
    assert comparable(tmp_path / "small" / "t.csv") == comparable(tmp_path / "default" / "t.csv")


@pytest.mark.parametrize("argv, message", [
    (["--board", "7by6", "--c", "4", "--p-range", "4..5"], "COLUMNSxROWS"),
    (["--board", "7x6", "--c", "4", "--p-range", "9..4"], "FIRST..LAST"),
    (["--c", "4", "--max-sum", "99"], "allowed 2..40"),
    (["--c", "4"], "either --max-sum or --board"),
    (["--split-depth", "9"], "allowed 0..6"),
    (["--tt-log2", "31"], "allowed 8..30"),
    (["--threads", "0"], "--threads 0 is out of range: allowed 1..64"),
])
def test_bad_options_name_the_value_and_the_range(argv, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as stop:
        tables_main([*argv, "--dir", str(tmp_path)])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


# ------------------------------------------------------------ checkpoints

# a board whose split positions take long enough (156 of them, 4 s in all
# here) for a kill to land inside it, and few enough for the test to be quick
KILLED_BOARD = ("6x5", 4, 15)
KILLED_DEPTH = 3


def board_argv(directory, board=KILLED_BOARD, depth=KILLED_DEPTH, *extra):
    size, c, p = board
    return ["solved-tables", "--board", size, "--c", str(c), "--p-range", f"{p}..{p}", "--name", "t",
            "--dir", str(directory), "--split-depth", str(depth), "--time-limit", "0",
            "--brute-force-positions", "0", "--keep-checkpoints", *extra]


def rules_of_board(board=KILLED_BOARD) -> Rules:
    columns, rows = map(int, board[0].split("x"))
    return Rules(columns, rows, board[1], board[2])


def checkpoint_lines(directory, rules) -> list[bytes]:
    path = checkpoint_path(str(directory), rules)
    with open(path, "rb") as file:
        return file.read().splitlines(keepends=True)


def query_of(fields: dict) -> Query:
    return Query(tuple(fields["moves"]), fields["weak"], *fields["window"])


def queries_of(lines) -> list[Query]:
    return [query_of(json.loads(line)) for line in lines]


def values_of(lines) -> dict[Query, list]:
    """Each query's bounds (nodes and seconds hang on the table's past)."""
    return {query_of(fields): fields["bounds"] for fields in map(json.loads, lines)}


def assert_true_answers(rules, lines):
    """Each line's bounds hold its position's score (by a solve of its own)
    and settle the window it was asked with."""
    truth = LocalSolve()
    for query, (low, high) in values_of(lines).items():
        [(_, exact)] = truth(rules, [Query(query.moves, query.weak, -99, 99)], 10)
        assert low <= exact.low <= high, query
        assert high <= query.low or low >= query.high or low == high, query


def clinea(*argv, timeout=300):
    return subprocess.run([sys.executable, "-m", "clinea", *argv], capture_output=True, text=True, timeout=timeout)


def test_a_board_killed_inside_resumes_and_asks_nothing_twice(tmp_path):
    rules = rules_of_board()
    assert clinea(*board_argv(tmp_path / "whole")).returncode == 0
    asked = len(checkpoint_lines(tmp_path / "whole", rules))
    path = checkpoint_path(str(tmp_path / "killed"), rules)
    run = subprocess.Popen([sys.executable, "-m", "clinea", *board_argv(tmp_path / "killed")],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and run.poll() is None:
            if os.path.exists(path) and len(open(path, "rb").read().splitlines()) >= 3:
                break
            time.sleep(0.005)
        run.send_signal(signal.SIGKILL)
    finally:
        run.wait(timeout=60)
    # a kill inside a write leaves a torn last line: the resumed run cuts it
    before = [line for line in checkpoint_lines(tmp_path / "killed", rules) if line.endswith(b"\n")]
    # killed inside the board: some answers kept, its row not written
    assert 3 <= len(before) < asked
    assert read_table(str(tmp_path / "killed" / "t.csv")) == {}
    assert clinea(*board_argv(tmp_path / "killed")).returncode == 0
    after = checkpoint_lines(tmp_path / "killed", rules)
    # the lines found before the kill are kept as they were, and the rest
    # added once each: no query was asked twice
    assert after[:len(before)] == before
    assert len(set(queries_of(after))) == len(after)
    assert_true_answers(rules, after)
    assert comparable(tmp_path / "killed" / "t.csv") == comparable(tmp_path / "whole" / "t.csv")


def test_the_checkpoint_is_removed_once_the_row_is_written(tmp_path):
    argv = board_argv(tmp_path, ("4x4", 3, 8), 2)
    argv.remove("--keep-checkpoints")
    assert tables_main(argv[1:]) == 0
    assert read_table(str(tmp_path / "t.csv"))
    assert os.listdir(tmp_path / "checkpoints") == []


def lying_line(line: bytes) -> bytes:
    """The line with its bounds changed and its checksum made again: a line
    that reads as whole, with a wrong value."""
    fields = json.loads(line)
    rules = Rules(*map(int, fields["board"].replace("x", " ").replace("c=", "").replace("p=", "").split()))
    answer = Answer(99, 99, fields["nodes"], fields["seconds"])
    return checkpoint_line(rules, fields["depth"], query_of(fields), answer, fields["time_limit"])


@pytest.mark.parametrize("torn", ["half a line", "a whole line but its newline"])
def test_a_torn_last_line_is_ignored_never_trusted(tmp_path, torn):
    board = ("4x4", 3, 8)
    rules = rules_of_board(board)
    assert tables_main(board_argv(tmp_path / "whole", board)[1:]) == 0
    lines = checkpoint_lines(tmp_path / "whole", rules)
    # the torn line claims a value no position has: were it trusted, the row would differ
    lying = lying_line(lines[-1])
    cut = lying[:len(lying) // 2] if torn == "half a line" else lying[:-1]
    (tmp_path / "resumed" / "checkpoints").mkdir(parents=True)
    with open(checkpoint_path(str(tmp_path / "resumed"), rules), "wb") as file:
        file.write(b"".join(lines[:-1]) + cut)
    assert tables_main(board_argv(tmp_path / "resumed", board)[1:]) == 0
    assert comparable(tmp_path / "resumed" / "t.csv") == comparable(tmp_path / "whole" / "t.csv")
    # the torn line was cut off and its query asked again, once
    resumed = checkpoint_lines(tmp_path / "resumed", rules)
    assert resumed[:-1] == lines[:-1] and queries_of(resumed) == queries_of(lines)
    assert values_of(resumed) == values_of(lines)


def stopped_one_answer_short(tmp_path, board, depth, name) -> tuple[Rules, list[bytes], str]:
    """The board solved whole at `depth` in tmp_path/whole, and a run of it
    stopped one answer short in tmp_path/name: that checkpoint but its last
    line. Returns the rules, the whole checkpoint's lines, the short one's path."""
    rules = rules_of_board(board)
    assert tables_main(board_argv(tmp_path / "whole", board, depth)[1:]) == 0
    lines = checkpoint_lines(tmp_path / "whole", rules)
    (tmp_path / name / "checkpoints").mkdir(parents=True)
    path = checkpoint_path(str(tmp_path / name), rules)
    with open(path, "wb") as file:
        file.write(b"".join(lines[:-1]))
    return rules, lines, path


def test_a_board_goes_on_at_its_checkpoints_split_depth_when_none_is_given(tmp_path):
    # issue 47: a board carried to another run (or machine) resumes as it
    # began, though that run's own default (0 in process) differs
    board = ("4x4", 3, 8)
    rules, lines, _ = stopped_one_answer_short(tmp_path, board, 2, "resumed")
    argv = board_argv(tmp_path / "resumed", board, 2)[1:]
    del argv[argv.index("--split-depth"):argv.index("--split-depth") + 2]
    assert tables_main(argv) == 0
    assert comparable(tmp_path / "resumed" / "t.csv") == comparable(tmp_path / "whole" / "t.csv")
    # the answers kept, the one missing asked again at depth 2
    resumed = checkpoint_lines(tmp_path / "resumed", rules)
    assert len(lines) > 1 and resumed[:-1] == lines[:-1] and queries_of(resumed) == queries_of(lines)


@pytest.mark.parametrize("stranger, message", [
    ("another board", "a position of 4x4 c=3 p=8, not of 5x4 c=3 p=10"),
    ("a deeper split", "rerun with --split-depth 3 or more"),
    ("a changed value", "checksum does not match"),
    ("true for a number", "not whole numbers"),
])
def test_a_checkpoint_line_of_another_board_or_mode_is_refused(tmp_path, stranger, message):
    board = ("4x4", 3, 8)
    assert tables_main(board_argv(tmp_path / "other", board, 3 if stranger == "a deeper split" else 2)[1:]) == 0
    [line, *rest] = checkpoint_lines(tmp_path / "other", rules_of_board(board))
    target_board, depth = (("5x4", 3, 10), 2) if stranger == "another board" else (board, 2)
    if stranger == "a changed value":
        line = lying_line(line).replace(b'"bounds":[99,99]', b'"bounds":[98,98]')
    if stranger == "true for a number":  # which Python's json reads as an int, 1
        fields = json.loads(line)
        del fields["check"]
        fields["bounds"] = [True, True]
        line = json.dumps({**fields, "check": checksum(fields)}).encode() + b"\n"
    (tmp_path / "run" / "checkpoints").mkdir(parents=True)
    with open(checkpoint_path(str(tmp_path / "run"), rules_of_board(target_board)), "wb") as file:
        file.write(b"".join([*rest, line]))
    done = clinea(*board_argv(tmp_path / "run", target_board, depth))
    assert done.returncode == 1
    [error] = done.stderr.splitlines()
    assert message in error and "line " in error and "move the file away" in error


def test_a_board_resumed_deeper_keeps_its_answers_and_splits_only_the_rest(tmp_path):
    # issue 47: a question longer than a sitting (10x5's first: 1 h 51 min)
    # is lost at each stop; resumed a ply deeper, the board keeps every
    # answer and asks the missing one as its replies' shorter questions
    board = ("4x4", 3, 8)
    rules, lines, path = stopped_one_answer_short(tmp_path, board, 2, "deeper")
    assert tables_main(board_argv(tmp_path / "deeper", board, 3)[1:]) == 0
    assert comparable(tmp_path / "deeper" / "t.csv") == comparable(tmp_path / "whole" / "t.csv")
    resumed = checkpoint_lines(tmp_path / "deeper", rules)
    new = [json.loads(line) for line in resumed[len(lines) - 1:]]
    assert resumed[:len(lines) - 1] == lines[:-1] and new
    assert {fields["depth"] for fields in new} == {3}
    assert_true_answers(rules, resumed)
    assert not asked_under_settled(rules, values_of(lines[:-1]), [query_of(fields).moves for fields in new])
    # a rerun without --split-depth goes on at the deepest split the file holds
    assert checkpoint_summary(path) == (len(resumed), 3)


def asked_under_settled(rules, earlier, moves_asked) -> list:
    """The positions asked (moves_asked) that lie under one the `earlier`
    answers (query: bounds) settle exactly, or under its mirror image."""
    mirror = [rules.columns - 1 - col for col in range(rules.columns)]
    settled = {Board(*rules).play_moves(query.moves).key()
               for query, (low, high) in earlier.items() if low == high}
    return [moves for moves in moves_asked if any(
        Board(*rules).play_moves(line).key() in settled
        for above in range(len(moves)) for line in (moves[:above], [mirror[col] for col in moves[:above]]))]


@pytest.mark.parametrize("rules", [Rules(6, 4, 4), Rules(5, 5, 4)])
@pytest.mark.parametrize("width", [1, 2])
def test_answers_of_a_shallower_split_settle_their_positions_above_a_deeper_one(rules, width):
    shallow = Asked()
    value = solve_board(rules, time_limit=10, depth=2, solve=shallow, brute_positions=0)
    deeper = Asked(width)
    resumed = solve_board(rules, time_limit=10, depth=3, solve=deeper, brute_positions=0,
                          store=Remembered(shallow.answers))
    assert (resumed.exact, resumed.weak) == (value.exact, value.weak)
    earlier = {query: (answer.low, answer.high) for query, answer in shallow.answers}
    assert not asked_under_settled(rules, earlier, [query.moves for query, _ in deeper.answers])
    if width == 1:  # alpha-beta needs no more than the shallower split asked; width 2 batches ahead of it
        assert deeper.answers == []


def test_the_page_names_the_boards_under_way_and_their_checkpoints(tmp_path):
    # issue 47: a board of days is carried from run to run by its checkpoint
    # (committed in docs/solved/checkpoints/); the page says which and where
    table = standard_tables()["c4-15"]
    done, [missing, *_] = table.boards[0], [rules for rules in table.boards if rules not in shipped("c4-15")]
    (tmp_path / "checkpoints").mkdir()
    with open(os.path.join(SHIPPED, "c4-15.csv"), "rb") as source:
        (tmp_path / "c4-15.csv").write_bytes(source.read())
    line = checkpoint_line(missing, 2, Query((0, 0), False, -1, 0), Answer(0, 0, 1, 0.1), 0.0)
    for rules, text in ((missing, line * 2 + line[:-1]), (done, line)):  # a torn third; a board in the table
        with open(checkpoint_path(str(tmp_path), rules), "wb") as file:
            file.write(text)
    write_page(str(tmp_path))
    page = (tmp_path / "README.md").read_text(encoding="utf-8")
    name = os.path.basename(checkpoint_path(str(tmp_path), missing))
    assert f"{missing.columns}x{missing.rows} (2 answers" in page and f"(checkpoints/{name})" in page
    assert os.path.basename(checkpoint_path(str(tmp_path), done)) not in page


def test_tables_on_ray_write_the_checkpoint(ray_address, tmp_path):
    board = ("5x4", 4, 10)
    rules = rules_of_board(board)
    assert tables_main([*board_argv(tmp_path, board, 2)[1:], "--ray", ray_address]) == 0
    lines = checkpoint_lines(tmp_path, rules)
    leaves = {tuple(moves) for moves in split_positions(rules, 2)}
    assert lines and {query.moves for query in queries_of(lines)} <= leaves
    assert_true_answers(rules, lines)


def test_a_board_left_out_of_time_keeps_its_checkpoint_for_a_longer_limit(tmp_path):
    # 8x7 one ply in: no position is solved in 0.01 s, on any machine, nor in
    # 0.02 (7x6's were, most of them, with the profile-guided build)
    rules = Rules(8, 7, 4)
    argv = ["--board", "8x7", "--c", "4", "--p-range", "28..28", "--name", "t", "--dir", str(tmp_path),
            "--split-depth", "1", "--brute-force-positions", "0", "--time-limit"]
    assert tables_main([*argv, "0.01"]) == 0
    [row] = read_table(str(tmp_path / "t.csv")).values()
    assert row["outcome"] == "unknown"
    # the search stops at its first unknown answer, exact and win/draw/loss
    first = checkpoint_lines(tmp_path, rules)
    assert [query.weak for query in queries_of(first)] == [False, True]
    assert all(json.loads(line)["bounds"] is None for line in first)
    # the same limit asks nothing again; a longer one asks the unknown queries again, once
    assert tables_main([*argv, "0.01"]) == 0
    assert checkpoint_lines(tmp_path, rules) == first
    assert tables_main([*argv, "0.02"]) == 0
    again = checkpoint_lines(tmp_path, rules)
    assert again[:2] == first and queries_of(again[2:]) == queries_of(first)
