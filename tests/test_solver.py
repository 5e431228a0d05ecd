"""The exact solver against the standard 7x6 files and against a plain
exhaustive Python negamax on small boards, both search paths, the budget,
and `clinea solve` as a process."""
import os
import platform
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pons import pons_lines, sign

from clinea.core import Board, mcts
from clinea.core.solver import BUILD_COMPILER, BUILD_PROFILE_GUIDED, Solver, popcnt_search, search_copies
from clinea.core.timeman import Limits
from clinea.solving.reference_solver import ReferenceSolver


@pytest.fixture(scope="module")
def solver():
    # one table for the module, as users are told to do: also checks that
    # what one position leaves in the table never corrupts the next
    return Solver(20)


@pytest.mark.parametrize("name, take", [
    ("Test_L3_R1", slice(0, 100)),
    ("Test_L2_R1", slice(0, 100)),
    ("Test_L2_R2", slice(0, 1000, 50)),
    ("Test_L1_R1", slice(0, 1000, 25)),
])
def test_standard_positions_match_exactly(solver, name, take):
    for moves, expected in pons_lines(name)[take]:
        board = Board.from_string(moves)
        assert solver.solve(board) == expected, moves
        assert solver.solve(board, weak=True) == sign(expected), moves


@pytest.mark.parametrize("threads", [1, 2])
def test_a_table_beyond_its_front_scores_standard_positions_exactly(threads):
    # past 2**23 entries, the positions 16 to 28 moves from the end keep
    # to the table's first 2**23 (front_view), in the slots of others
    solver = Solver(24, threads=threads)
    for moves, expected in pons_lines("Test_L2_R2")[::50] + pons_lines("Test_L1_R2", 3):
        board = Board.from_string(moves)
        assert solver.solve(board) == expected, moves
        assert solver.solve(board, weak=True) == sign(expected), moves


def test_analyze_agrees_with_solve_on_standard_positions(solver):
    for moves, expected in pons_lines("Test_L2_R1")[100:130]:
        board = Board.from_string(moves)
        scores = solver.analyze(board)
        assert max(s for s in scores if s is not None) == expected, moves
        assert [s is None for s in scores] == [not board.can_play(col) for col in range(7)]
        best = solver.best_move(board)
        assert scores[best] == expected
        board.play(best)
        assert -solver.solve(board) == expected  # the best move keeps the value


# Small games, every reachable position (or a prefix of the depth-first
# enumeration where the whole would be too slow for CI).
# (game, opening, positions): every position reachable after the opening, or
# the first ones of the depth-first enumeration where all would be too slow
# for the Python reference on CI.
SMALL_GAMES = [
    ((4, 4, 3, None), [], None),
    ((4, 4, 3, 4), [], None),
    ((5, 4, 4, 6), [], None),
    ((4, 5, 3, 5), [], None),
    ((5, 4, 4, None), [2, 2, 1, 3, 0, 4], 3000),
    ((5, 5, 4, 7), [2, 1, 3, 2], 3000),
    # corners of the geometry: c of 1 and 2, c beyond the board (nobody can
    # win), one column, one row of play per side, p of 1 and 2
    ((2, 2, 1, None), [], None),
    ((3, 3, 2, None), [], None),
    ((6, 2, 2, None), [], None),
    ((4, 1, 2, None), [], None),
    ((1, 6, 3, None), [], None),
    ((3, 3, 4, None), [], None),
    ((4, 3, 3, 1), [], None),
    ((4, 3, 3, 2), [], None),
    # odd cell counts: the second player places one stone fewer than the first
    ((5, 3, 3, None), [], 1500),
    ((3, 5, 3, None), [], 1500),
]


@pytest.mark.parametrize("game, opening, limit", SMALL_GAMES)
def test_small_boards_match_the_reference(game, opening, limit):
    reference = ReferenceSolver(*game)
    solver = Solver(16)
    checked = 0
    for moves in reference.reachable(opening, limit=limit):
        board = Board.from_moves(moves, *game)
        expected = reference.solve(moves)
        assert solver.solve(board) == expected, moves
        assert solver.solve(board, weak=True) == sign(expected), moves
        checked += 1
    assert checked >= min(limit or 1, 1000)


@pytest.fixture(scope="module")
def reference_5x4() -> ReferenceSolver:
    """One reference for 5x4: it keeps the values it solved."""
    return ReferenceSolver(5, 4, 4, None)


@pytest.mark.parametrize("tt_log2", [8, 10, 11, 12])
def test_tables_with_and_without_room_for_the_move_score_as_the_reference(tt_log2, reference_5x4):
    # an entry keeps the move that cut its position off only where both
    # tables spare the bits (5 columns: 3 bits beside 8 of bound, from 2**11
    # entries); below, the same search without it, and tiny tables crowded
    # with collisions either way, reused across every position
    game = (5, 4, 4, None)
    reference = reference_5x4
    solver = Solver(tt_log2)
    checked = 0
    for moves in reference.reachable([2, 2], limit=800):
        board = Board.from_moves(moves, *game)
        expected = reference.solve(moves)
        assert solver.solve(board) == expected, (tt_log2, moves)
        assert solver.solve(board, weak=True) == sign(expected), (tt_log2, moves)
        checked += 1
    assert checked == 800


@pytest.mark.parametrize("game, left", [((5, 4, 4, None), 11), ((5, 5, 4, 8), 10), ((6, 5, 4, 9), 8),
                                        ((7, 6, 4, 7), 7), ((7, 7, 4, None), 8), ((7, 7, 4, 24), 8)])
def test_random_deep_positions_match_the_reference(game, left):
    # positions the enumeration above does not reach: random games stopped
    # late enough for the Python reference to finish
    rng = random.Random(sum(filter(None, game)))
    reference = ReferenceSolver(*game)
    solver = Solver(16)
    columns, rows, c, p = game
    max_moves = Board(*game).max_moves
    for _ in range(40):
        board = Board(*game)
        stop = rng.randrange(max(0, max_moves - left), max_moves)
        while board.moves_played < stop and not board.is_over():
            board.play(rng.choice(board.legal_columns()))
        if board.is_over():
            continue
        assert solver.solve(board) == reference.solve(board.moves()), board.moves()


@pytest.mark.parametrize("game", [(4, 4, 3, None), (5, 4, 4, 6), (5, 3, 3, None)])
def test_generic_path_matches_bitboard_path(game):
    bitboard, generic = Solver(16), Solver(16, force_generic=True)
    reference = ReferenceSolver(*game)
    for moves in reference.reachable(limit=3000):
        board = Board.from_moves(moves, *game)
        assert generic.solve(board) == bitboard.solve(board), moves
        assert generic.analyze(board, weak=True) == bitboard.analyze(board, weak=True), moves


@pytest.mark.parametrize("game, left", [((8, 8, 3, 5), 6), ((9, 7, 4, 6), 6), ((13, 5, 3, 5), 5)])
def test_generic_boards_match_the_reference(game, left):
    assert not Board(*game).is_bitboard
    rng = random.Random(7)
    reference = ReferenceSolver(*game)
    solver = Solver(16)
    max_moves = Board(*game).max_moves
    for _ in range(25):
        board = Board(*game)
        stop = rng.randrange(max_moves - left, max_moves)
        while board.moves_played < stop and not board.is_over():
            board.play(rng.choice(board.legal_columns()))
        if board.is_over():
            continue
        assert solver.solve(board) == reference.solve(board.moves()), board.moves()


@pytest.mark.parametrize("game", [(7, 6, 3, None), (9, 7, 3, None), (13, 11, 3, None), (14, 12, 3, None),
                                  (16, 8, 3, None), (14, 12, 4, 70)])
def test_quickly_decided_positions_score_as_the_reference_on_boards_of_every_size(game):
    # Scores pass 63 once a game has more than 126 moves: a table entry that
    # kept them in 8 bits (2 x 64 values) read a high upper bound back as a
    # low lower bound, and 14x12 c3 scored 74 where the first player wins at
    # once with its third stone (82).
    reference = ReferenceSolver(*game)
    solver = Solver(16)
    rng = random.Random(11)
    checked = 0
    while checked < 12:
        board = Board(*game)
        for _ in range(rng.randrange(1, 6)):
            board.play(rng.choice(board.legal_columns()))
            if board.is_over():
                break
        if board.is_over():
            continue
        expected = reference.decided_within(board.moves(), 3)
        if expected is None:
            continue
        # a null window far from the true score can cost millions of nodes
        # on the cell-array path: such positions are not what this checks
        found = solver.solve(board, limits=Limits(nodes=300_000))
        if found is None:
            continue
        assert found == expected, (game, board.moves())
        checked += 1


def test_second_player_win_on_7x7_scores_as_the_reference_convention():
    # 49 cells: the second player places at most 24 stones, so winning with
    # its 4th after 7 stones scores (49 + 1 - 7) // 2 = 21 = 24 + 1 - 4, not
    # the first player's 25 + 1 - 4
    board = Board.from_moves([0, 1, 0, 2, 6, 3, 5], 7, 7, 4)
    solver = Solver(16)
    assert board.is_winning_move(4)
    assert solver.solve(board) == 21
    board.play(4)
    assert solver.solve(board) == -21


def test_finished_games_score_as_the_loss_or_draw_they_are():
    solver = Solver(10)
    won = Board.from_string("1212121")  # the first player's 4th stone wins
    assert solver.solve(won) == -(22 - 4)
    assert solver.solve(won, weak=True) == -1
    assert solver.analyze(won) == [None] * 7 and solver.best_move(won) is None
    drawn = Board.from_moves([0, 1], 7, 6, 4, 1)
    assert solver.solve(drawn) == 0


def mirror_image(board: Board) -> Board:
    """`board` with its columns in reverse order (same moves, mirrored)."""
    columns, rows, c, p = board.rules
    image = Board(columns, rows, c, p)
    for col in board.moves():
        image.play(columns - 1 - col)
    return image


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([(6, 5, 4), (7, 4, 4), (5, 5, 3), (6, 4, 3)]), st.integers(0, 2**32), st.integers(0, 9))
def test_a_position_and_its_mirror_image_share_the_table_and_the_score(game, seed, stones):
    # the large table keys a position and its mirror image alike (and a
    # symmetric position searches one of each pair of mirrored moves): the
    # image, answered from what the position left in the table, scores as
    # a fresh solver scores it, and so does the position itself
    columns, rows, c = game
    board = quiet_position(columns, rows, c, None, columns * rows - stones, seed)
    if board is None:
        return
    shared = Solver(18)
    image = mirror_image(board)
    for weak in (False, True):
        value = shared.solve(board, weak=weak)
        assert shared.solve(image, weak=weak) == value, (board.moves(), weak)
        assert Solver(18).solve(image, weak=weak) == value == Solver(18).solve(board, weak=weak), (board.moves(), weak)


def test_symmetric_positions_score_as_their_best_column():
    # solve prunes the mirrored moves of a symmetric position; analyze
    # solves every column on its own (each child is asymmetric, or its own image)
    for columns, rows, c, moves in [(6, 5, 4, []), (7, 4, 4, []), (7, 4, 4, [3, 3]), (5, 4, 3, [0, 1, 4, 3])]:
        board = Board(columns, rows, c)
        for col in moves:
            board.play(col)
        scores = Solver(18).analyze(board)
        assert scores == scores[::-1], (columns, rows, moves)
        assert Solver(18).solve(board) == max(score for score in scores if score is not None), (columns, rows, moves)


def test_budget_aborts_and_leaves_the_table_sound():
    moves, expected = pons_lines("Test_L1_R2")[0]
    board = Board.from_string(moves)
    solver = Solver(18)
    assert solver.solve(board, limits=Limits(nodes=500)) is None
    assert solver.nodes <= 501
    assert solver.analyze(board, limits=Limits(nodes=500)) is None
    assert solver.best_move(board, limits=Limits(nodes=500)) is None
    assert solver.solve(board, limits=Limits(time=1e-9)) is None
    assert board.to_string() == moves  # the board is the caller's, untouched
    assert solver.solve(board) == expected


def test_bad_arguments_name_the_range():
    with pytest.raises(ValueError, match="8..30"):
        Solver(40)
    with pytest.raises(ValueError, match="nodes=-1 is out of range"):
        Solver(10).solve(Board(), limits=Limits(nodes=-1))


def run_cli(args, stdin):
    return subprocess.run([sys.executable, "-m", "clinea", "solve", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_cli_reproduces_a_standard_file():
    lines = [f"{moves} {score}" for moves, score in pons_lines("Test_L3_R1")[:50]]
    result = run_cli([], "\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == lines


def test_cli_reports_bad_lines_and_goes_on():
    # an empty line is the empty board (as in the reference solver's input);
    # a comma with no number beside it makes the line invalid, not shorter
    moves, score = pons_lines("Test_L3_R1")[0]
    stdin = f"{moves}\n8\n1111111\n44x\n\n1212121 3\n,,\n1,,2\n1,2,\n{moves} extra words\n"
    result = run_cli(["--nodes", "--time"], stdin)
    assert result.returncode == 1
    out = result.stdout.splitlines()
    assert [line.split(" ")[:2] for line in out] == [[moves, str(score)], ["", "1"], ["1212121", "-18"],
                                                     [moves, str(score)]]
    assert all(len(line.split()) == 3 + bool(line.split(" ")[0]) and int(line.split()[-2]) >= 0 for line in out)
    errors = result.stderr.splitlines()
    assert len(errors) == 6
    assert [e.split(":")[1] for e in errors[3:]] == [" line 7", " line 8", " line 9"]
    assert all("empty (a comma with no column number" in e for e in errors[3:])
    assert "line 2" in errors[0] and "column 8" in errors[0] and "1..7" in errors[0]
    assert "line 3" in errors[1] and "column 1 is full" in errors[1]
    assert "line 4" in errors[2] and "'x'" in errors[2]


def test_cli_analyze_weak_and_other_games():
    reference = ReferenceSolver(10, 4, 3, 4)
    result = run_cli(["--columns", "10", "--rows", "4", "--c", "3", "--p", "4", "--analyze"], "1,10,2\n")
    assert result.returncode == 0, result.stderr
    start = [0, 9, 1]
    expected = []
    for col in range(10):
        board = Board.from_moves(start, 10, 4, 3, 4)
        if board.is_winning_move(col):
            expected.append((reference.max_moves + 1 - len(start)) // 2)
        else:
            expected.append(-reference.solve(start + [col]))
    assert result.stdout.split() == ["1,10,2", *map(str, expected)]
    weak = run_cli(["--weak"], "444444\n")
    assert weak.stdout.split()[1] in {"-1", "0", "1"}


@pytest.mark.parametrize(("option", "allowed"), [(["--tt-log2", "31"], "--tt-log2 31 is out of range: allowed 8..30"),
                                               (["--tt-log2", "7"], "--tt-log2 7 is out of range: allowed 8..30"),
                                               (["--threads", "65"], "--threads 65 is out of range: allowed 1..64")])
def test_cli_names_an_option_out_of_range_in_one_line(option, allowed):
    result = run_cli(option, "4\n")
    assert result.returncode == 2 and result.stdout == ""
    assert allowed in result.stderr and "Traceback" not in result.stderr


def test_cli_help_has_an_example():
    result = run_cli(["--help"], "")
    assert result.returncode == 0 and "example" in result.stdout


def score_after(reference: ReferenceSolver, board: Board, col: int) -> int:
    """The exact score, for the side to move in `board`, of playing `col`."""
    n = board.moves_played
    board.play(col)
    if board.winner is not None:
        return (reference.max_moves + 1 - n) // 2
    return 0 if board.is_draw() else -reference.solve(board.moves())


@pytest.mark.parametrize("game", [(4, 4, 3, None), (5, 3, 3, None), (4, 5, 3, 5)])
def test_play_value_moves_keep_the_score_or_a_known_lower_bound(game):
    # without a bound: the exact score (weak: its sign) and a move keeping
    # it; given any lower bound of it: a move keeping at least the bound
    reference = ReferenceSolver(*game)
    solver = Solver(16)
    for index, moves in enumerate(reference.reachable(limit=300)):
        expected = reference.solve(moves)
        for weak in (False, True):
            exact = sign(expected) if weak else expected
            bounds = [None]
            if index < 150:
                bounds += sorted({exact, max(exact - 1, -1) if weak else exact - 1, 0 if exact >= 0 else exact})
            for bound in bounds:
                board = Board.from_moves(moves, *game)
                col, value = solver.play_value(board, weak=weak, at_least=bound)
                if weak and exact < 0 and (bound is None or bound < 0):
                    assert (col, value) == (None, -1), moves
                    continue
                assert value in (exact, bound), (moves, bound, weak)
                kept = score_after(reference, board, col)
                assert (sign(kept) if weak else kept) >= value, (moves, col, weak, bound)
                if bound is None:
                    assert (sign(kept) if weak else kept) == value, (moves, col, weak)


small_games = pytest.mark.parametrize("game", [(4, 4, 3, None), (5, 3, 3, None), (4, 5, 3, 5)])
both_paths = pytest.mark.parametrize("generic", [False, True], ids=["bitboard", "generic"])


def reference_positions(game, generic, limit):
    """(reference, solver, moves, board) for the first `limit` positions of
    `game` (the solver's table kept from one to the next)."""
    reference = ReferenceSolver(*game)
    solver = Solver(16, force_generic=generic)
    for moves in reference.reachable(limit=limit):
        yield reference, solver, moves, Board.from_moves(moves, *game)


@small_games
@both_paths
def test_reach_finds_a_column_reaching_the_target_exactly_when_one_does(game, generic):
    # the target around the exact score, weak and exact: a column whose
    # score (by the Python reference) is at least the target when the best
    # column's is, none otherwise; always proven without a budget
    for reference, solver, moves, board in reference_positions(game, generic, 150):
        best = max(score_after(reference, board.copy(), col) for col in board.legal_columns())
        for weak in (False, True):
            exact = sign(best) if weak else best
            targets = {exact - 1, exact, exact + 1, 0, 1}
            for target in sorted(t for t in targets if not weak or -1 <= t <= 1):
                found = solver.reach(board, target, weak=weak)
                assert found.proven and found.source == "solver", (moves, target)
                if exact < target:
                    assert found.move is None and found.score is None, (moves, target, weak)
                    continue
                assert found.move is not None and found.score == target, (moves, target, weak)
                kept = score_after(reference, board.copy(), found.move)
                assert (sign(kept) if weak else kept) >= target, (moves, found.move, target, weak)


@small_games
@both_paths
def test_a_windowed_solve_bounds_the_reference_score_as_alpha_beta_does(game, generic):
    # every window around and away from the score, weak and exact: r <= low
    # bounds the score from above, r >= high from below, else it is exact
    for reference, solver, moves, board in reference_positions(game, generic, 100):
        exact = reference.solve(moves)
        for weak in (False, True):
            value = sign(exact) if weak else exact
            edges = sorted({value - 2, value - 1, value, value + 1, value + 2, -1, 0, 1})
            for low, high in ((low, high) for low in edges for high in edges if low < high):
                r = solver.solve(board, weak=weak, window=(low, high))
                if r <= low:
                    assert value <= r, (moves, weak, low, high, r)
                elif r >= high:
                    assert value >= r, (moves, weak, low, high, r)
                else:
                    assert value == r, (moves, weak, low, high, r)
                if low < value < high:
                    assert r == value, (moves, weak, low, high, r)
    with pytest.raises(ValueError, match=r"window=\(2, 2\): allowed \(low, high\) with low < high"):
        Solver(16).solve(Board(*game[:3]), window=(2, 2))


def check_cut_search(solver: Solver, truth: Solver, board: Board, value: int, budget: int, reach: bool = False) -> int:
    """`solver`'s move search on `board`, keeping `value`, within `budget`
    nodes (`play_value`, or `reach` for `value`). If it ran out: every column it `refuted` scores below `value`
    (by `truth`), and the column it was `trying` is legal and not among
    them. How many columns it checked."""
    solver.reset()
    if reach:
        if solver.reach(board, value, weak=True, limits=Limits(nodes=budget)).proven:
            return 0
    elif solver.play_value(board, weak=True, limits=Limits(nodes=budget),
                           at_least=value if value >= 0 else None) is not None:
        return 0
    for col in solver.refuted:
        assert not board.is_winning_move(col), (board.moves(), col)
        board.play(col)
        assert -truth.solve(board, weak=True) < value, (board.moves(), col)
        board.undo()
    if solver.trying is not None:
        assert board.can_play(solver.trying) and solver.trying not in solver.refuted
    return len(solver.refuted)


def test_a_move_search_cut_short_names_only_moves_proved_below_the_score():
    # standard positions with known scores: the columns `refuted` once a
    # budget ran out score below the position (checked by unbudgeted
    # solves), and the column it was `trying` is legal and not among them
    solver, truth = Solver(18), Solver(20)
    checked = 0
    for moves, expected in pons_lines("Test_L2_R2", 12):
        value = sign(expected)
        for budget in (3_000, 30_000):
            checked += check_cut_search(solver, truth, Board.from_string(moves), value, budget)
            # strong's order: a column keeping at least the draw, then a winning one
            for target in range(min(value, 0), value + 1):
                checked += check_cut_search(solver, truth, Board.from_string(moves), target, budget, reach=True)
    assert checked > 0


def test_play_value_keeps_the_score_of_standard_positions():
    # standard positions whose move search takes ten thousand to a
    # million nodes: the move found keeps the file's score, weak and exact,
    # whether the score is solved first or given as known; a target above
    # the score gives no column; a call's node budget bounds the search
    solver, truth = Solver(20), Solver(20)
    costly = 0
    for moves, expected in pons_lines("Test_L1_R2", 6) + pons_lines("Test_L2_R2", 30)[::3]:
        board = Board.from_string(moves)
        for weak in (True, False):
            value = sign(expected) if weak else expected
            if weak and value < 0:
                continue
            for known in (None, value):
                solver.reset()
                col, score = solver.play_value(board, weak=weak, at_least=known)
                costly += solver.nodes > 10_000
                assert score == value, (moves, weak, known)
                board.play(col)
                kept = -truth.solve(board, weak=weak) if not board.is_over() else value
                board.undo()
                assert kept >= value, (moves, col, weak, known)
            solver.reset()
            unreachable = solver.reach(board, value + 1, weak=weak) if not weak or value < 1 else None
            if unreachable is not None:
                assert unreachable.proven and unreachable.move is None, (moves, weak)
            for budget in (20_000, 200_000):
                solver.reset()
                if solver.play_value(board, weak=weak, limits=Limits(nodes=budget)) is None:
                    assert solver.nodes <= budget + 1, (moves, weak, budget, solver.nodes)
    assert costly >= 10


def test_play_value_gives_up_when_the_budget_runs_out():
    board = Board.from_moves([3, 3, 3, 3, 3, 1, 1, 1, 1, 5, 5, 5])
    assert Solver(16).play_value(board, weak=True, limits=Limits(nodes=1000)) is None


# Boards of 65..192 bits (columns * (rows + 1)), searched on the wide path:
# columns straddling the words, exactly three words (12x15), one row (no
# vertical or diagonal lines), two columns (no horizontal line), and the
# strength benchmark's three boards.
WIDE_SHAPES = [(9, 8), (10, 9), (14, 12), (8, 8), (7, 9), (12, 15), (33, 1), (2, 63), (16, 11)]


def quiet_position(columns: int, rows: int, c: int, p: int | None, left: int, seed: int) -> Board | None:
    """A random game stopped `left` moves before its end, never playing a
    winning move (random games on big boards end long before): None if it
    ended anyway."""
    rng = random.Random(seed)
    board = Board(columns, rows, c, p)
    while board.max_moves - board.moves_played > left:
        quiet = [col for col in board.legal_columns() if not board.is_winning_move(col)]
        if not quiet:
            return None
        board.play(rng.choice(quiet))
    return None if board.is_over() else board


@settings(max_examples=60)
@given(st.sampled_from(WIDE_SHAPES), st.integers(3, 6), st.integers(0, 2**32), st.integers(1, 6))
def test_wide_path_matches_the_reference(shape, c, seed, left):
    columns, rows = shape
    p = columns * rows // 2 - 1 if (columns * rows) % 2 == 0 else None
    board = quiet_position(columns, rows, c, p, left, seed)
    if board is None:
        return
    assert board.is_wide
    check_against_reference(board, ReferenceSolver(columns, rows, c, p))


def check_against_reference(board: Board, reference: ReferenceSolver) -> None:
    """solve, weak and exact, and play_value's moves on `board` as the
    reference has them."""
    expected = reference.solve(board.moves())
    solver = Solver(16)
    assert solver.solve(board) == expected, board.moves()
    assert solver.solve(board, weak=True) == sign(expected), board.moves()
    for weak in (False, True):
        col, value = solver.play_value(board, weak=weak)
        assert value == (sign(expected) if weak else expected), (board.moves(), weak)
        if col is None:
            assert weak and expected < 0
            continue
        kept = score_after(reference, board.copy(), col)
        assert (sign(kept) if weak else kept) == value, (board.moves(), col, weak)


@settings(max_examples=40)
@given(st.sampled_from([(9, 8, 5), (10, 9, 4), (14, 12, 6), (8, 8, 3), (12, 15, 4), (33, 1, 3)]),
       st.integers(0, 2**32), st.integers(7, 16))
def test_wide_path_matches_the_generic_path_further_from_the_end(game, seed, left):
    # past the Python reference's reach: the generic path, which shares
    # nothing with the wide one but the table's bound logic, within a budget
    board = quiet_position(*game, None, left, seed)
    if board is None:
        return
    check_against_generic(board)


def check_against_generic(board: Board) -> None:
    """The bit-parallel solve of `board` as the generic path's, where that
    finishes within a budget."""
    bits, generic = Solver(18), Solver(18, force_generic=True)
    expected = generic.solve(board, weak=True, limits=Limits(nodes=200_000))
    if expected is not None:
        assert bits.solve(board, weak=True) == expected, board.moves()
    exact = generic.solve(board, limits=Limits(nodes=200_000))
    if exact is not None:
        assert bits.solve(board) == exact, board.moves()


def test_a_wide_move_search_cut_short_names_only_moves_proved_below_the_score():
    # 9x8 c5 positions of a game strong lost to MCTS (after 45 moves, a win
    # it threw away, 27 cells left): what a budgeted search calls refuted loses the
    # win, and the column it was trying is legal and not among them
    moves = [4, 4, 3, 4, 2, 5, 4, 4, 5, 4, 5, 0, 2, 4, 2, 2, 1, 4, 7, 2, 2, 2, 7, 2, 0, 0, 8, 1, 8,
              1, 8, 1, 1, 8, 8, 3, 6, 5, 6, 5, 6, 0, 5, 5, 0, 5, 1, 6, 6]
    solver, truth = Solver(18), Solver(20)
    checked = 0
    for stop in range(41, len(moves) + 1, 2):
        board = Board.from_moves(moves[:stop], 9, 8, 5)
        value = truth.solve(board, weak=True)
        for budget in (300, 3_000, 30_000):
            checked += check_cut_search(solver, truth, board, value, budget)
    assert checked > 0


def test_cli_refuses_a_line_over_the_bound_with_one_short_line():
    moves, score = pons_lines("Test_L3_R1")[0]
    result = run_cli([], f"{moves}\n" + "4" * (2 << 20) + f"\n{moves}\n")
    assert result.returncode == 1
    assert result.stdout.splitlines() == [f"{moves} {score}"]
    assert result.stderr.strip() == "clinea solve: stdin: line 2 is longer than 1 MiB, the most allowed here " \
                                    "(not the file it should be?)"


# Boards of 193..256 bits, which the Board keeps as cells: the solver
# searches them on four words of its own. Columns straddling the words,
# exactly four words (8x31; 2x127: two columns). The very wide ones (64x3,
# 128x1: one row) are beyond the reference's reach: against the generic
# path only.
FOUR_WORD_SHAPES = [(15, 13), (16, 14), (13, 18), (8, 31), (2, 127)]


@settings(max_examples=60)
@given(st.sampled_from(FOUR_WORD_SHAPES), st.integers(3, 6), st.integers(6, 14), st.integers(0, 2**32),
       st.integers(1, 5))
def test_four_word_path_matches_the_reference(shape, c, p, seed, left):
    # the token limit keeps random games short enough to stay quiet: on
    # these boards a full-length one nearly always runs into a threat
    columns, rows = shape
    board = quiet_position(columns, rows, c, p, left, seed)
    if board is None:
        return
    assert not board.is_wide and 192 < columns * (rows + 1) <= 256
    check_against_reference(board, ReferenceSolver(columns, rows, c, p))


@settings(max_examples=30)
@given(st.sampled_from([(15, 13, 4), (16, 14, 5), (13, 18, 4), (8, 31, 4), (64, 3, 3), (128, 1, 3), (2, 127, 3)]),
       st.integers(10, 30), st.integers(0, 2**32), st.integers(7, 14))
def test_four_word_path_matches_the_generic_path_further_from_the_end(game, p, seed, left):
    board = quiet_position(*game, p, left, seed)
    if board is None:
        return
    check_against_generic(board)


def test_15x13_positions_decided_within_two_stones_solve_within_a_small_budget():
    # On the cell array a third of these stayed unsolved at 2 M nodes (19
    # of 26 such positions in issue 27): the threat analysis of the
    # bitboard search settles them in a few nodes.
    reference = ReferenceSolver(15, 13, 4, None)
    solver = Solver(18)
    rng = random.Random(5)
    checked = 0
    while checked < 12:
        board = Board(15, 13, 4)
        for _ in range(rng.randrange(10, 40)):
            quiet = [col for col in board.legal_columns() if not board.is_winning_move(col)]
            board.play(rng.choice(quiet))
        if board.is_over() or any(board.is_winning_move(col) for col in board.legal_columns()):
            continue
        expected = reference.decided_within(board.moves(), 4)
        if expected is None:
            continue
        assert solver.solve(board, limits=Limits(nodes=20_000)) == expected, board.moves()
        checked += 1


def test_a_four_word_move_search_cut_short_names_only_moves_proved_below_the_score():
    solver, truth = Solver(18), Solver(20)
    checked = 0
    # 15x13 c5 with 14 tokens left: draws, most moves losing them
    for seed in range(5):
        board = quiet_position(15, 13, 5, 24, 14, seed)
        if board is None:
            continue
        value = truth.solve(board, weak=True)
        for budget in (300, 3_000):
            checked += check_cut_search(solver, truth, board, value, budget)
    assert checked > 0


def column_for_column_position(columns: int, rows: int, c: int, p: int | None, left: int,
                               seed: int) -> Board | None:
    """A random quiet game stopped at the first position, at most `left`
    moves before its end, where every column has an even number of empty
    cells: the opponent of the side to move may answer every move in the
    same column (claimeven), which the solver's bound reads. None if the
    game never got there."""
    rng = random.Random(seed)
    board = Board(columns, rows, c, p)
    while not board.is_over():
        if (board.max_moves - board.moves_played <= left
                and all((rows - board.height(col)) % 2 == 0 for col in range(columns))):
            return board
        quiet = [col for col in board.legal_columns() if not board.is_winning_move(col)]
        if not quiet:
            return None
        board.play(rng.choice(quiet))
    return None


@settings(max_examples=60)
@given(st.sampled_from([(4, 4, 3, None), (5, 4, 3, None), (6, 4, 4, None), (5, 5, 3, None), (4, 5, 3, 8),
                        (5, 4, 4, 9), (6, 4, 3, 11), (3, 5, 3, None)]),
       st.integers(0, 2**32))
def test_positions_the_opponent_can_answer_column_for_column_match_the_reference(game, seed):
    # the claimeven bound at the root and deep in the tree, on even and odd
    # heights, with the board filling or the tokens running out first
    board = column_for_column_position(*game, 12, seed)
    if board is None:
        return
    check_against_reference(board, ReferenceSolver(*game))


def test_a_gcc_build_compiles_the_solver_and_mcts_from_the_profile_of_their_workload():
    # setup.py falls back to a plain build, with only a warning, when a
    # step of the profile-guided one fails (the workload crashing, GCC not
    # finding a profile): 5-25 % slower, and nothing else fails
    if not BUILD_COMPILER.startswith("GCC ") or os.environ.get("CLINEA_PGO") == "0":
        pytest.skip(f"{BUILD_COMPILER}: setup.py builds from a profile with GCC only, unless CLINEA_PGO=0")
    assert BUILD_PROFILE_GUIDED, "the solver was built without its profile: see the build's warning"
    assert mcts.BUILD_PROFILE_GUIDED, "the Monte Carlo search was built without its profile"


def test_the_search_runs_its_popcnt_copy_where_the_cpu_has_the_instruction():
    # what the build made, not the compiler's promise: a macro guard gone
    # wrong leaves a single baseline copy (about 7 % slower), and nothing else fails
    if search_copies() == 1:
        assert not popcnt_search()
        gcc_for_x86_64_glibc = (BUILD_COMPILER.startswith("GCC ") and sys.platform == "linux"
                                and platform.machine() == "x86_64" and platform.libc_ver()[0] == "glibc")
        assert not gcc_for_x86_64_glibc, f"{BUILD_COMPILER} on x86-64 glibc built one copy of the search, not two"
        return
    assert search_copies() == 2
    with open("/proc/cpuinfo", encoding="ascii", errors="replace") as cpuinfo:
        flags = next((line.split(":", 1)[1].split() for line in cpuinfo if line.startswith("flags")), [])
    assert popcnt_search() == ("popcnt" in flags)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([(7, 6), (9, 6), (8, 7), (4, 4)]), st.integers(0, 2**32), st.integers(1, 4))
def test_a_reset_solver_searches_as_a_fresh_one(size, seed, resets):
    # reset gives the tables a new salt rather than clearing them: what it
    # forgot must never answer again. A new solver reset as many times has
    # the same salt, so the same slots: the reused one, its tables full of
    # forgotten entries, must search the same tree, node for node. 9x6 and
    # 8x7 keys use 63 and 64 bits: the salt wraps (or has no room) there,
    # and the tables are cleared
    columns, rows = size
    rng = random.Random(seed)
    reused, salts = Solver(12, book=False), 0
    for _ in range(3):
        board = Board(columns, rows, 4)
        for _ in range(rng.randrange(columns * rows // 2, columns * rows - 4)):
            free = [col for col in range(columns) if board.can_play(col) and not board.is_winning_move(col)]
            if not free or board.is_over():
                break
            board.play(rng.choice(free))
        if board.is_over():
            continue
        for _ in range(2):  # the same position again: its entries forgotten, it is searched anew
            for _ in range(resets):
                reused.reset()
            fresh = Solver(12, book=False)
            fresh.prepare(Board(columns, rows, 4))
            for _ in range(salts):
                fresh.reset()
            limits = Limits(nodes=200_000)
            assert reused.solve(board, limits=limits) == fresh.solve(board, limits=limits), board.moves()
            assert reused.nodes == fresh.nodes, board.moves()
            salts += resets
