"""A clock that never lies (issue 30): every search stops at its first read
of the clock past its deadline less its reserve for the machine's stalls,
the reads come every ~0.1 ms of measured time whatever a node costs, a
stall the search sees grows its reserve, strong's move hands its searches
no deadline past its budget and the longest stall it knows as their
reserve, and its own clock counts from the request, the game's set-up and
the end of its thinking on the opponent's time included. Asserted on the
searches' own accounting (which read saw the deadline, the deadlines and
reserves handed out), and on stalls made by stopping a process, not on
wall-clock speed: the figures under load are benchmarks/clock.py's."""
import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from judge_helpers import records, run_judge

from clinea.core import Board, play_random_game
from clinea.core.mcts import Mcts
from clinea.core.search import Search
from clinea.core.solver import Solver
from clinea.core.timeman import MIN_SECONDS, Limits, SearchResult, TimeManager, safety_margin, waited_per_run
from clinea.players import strong_player
from clinea.players.strong_player import LATENESS_DECAY, StrongBot, quick_move

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the three boards (one word, three words) and one past 256 bits (the cells)
SHAPES = [(7, 6, 4), (9, 8, 5), (14, 12, 6), (18, 16, 5)]


def position(shape, seed: int) -> Board:
    """A position of a random game of `shape`, not over."""
    moves = play_random_game(Board(*shape), seed).moves()
    cut = random.Random(seed).randrange(len(moves))
    return Board.from_moves(moves[:cut], *shape)


def saw_its_deadline_at_the_first_read_past_it(found: SearchResult, limits: Limits) -> bool:
    """A search stopped by its deadline read the clock last before it (the
    deadline less its reserve, the longest stall known, grown to the
    longest it saw): the read that saw it came less than one measured
    interval after it, or, when that read's own stall grew the reserve,
    less than that growth more."""
    reserve = max(limits.reserve, found.stall)
    return found.late is None or (0.0 <= found.late <= found.read_gap + reserve - limits.reserve
                                  and found.time >= limits.time - reserve)


def search_of(kind: str):
    """A search of `kind`, with tables small enough for a test."""
    if kind == "solver":
        return lambda board, limits: Solver(16, book=False).search(board, limits, weak=True)
    if kind == "alpha-beta":
        return Search(tt_log2=12).think
    return Mcts(arena_nodes=1 << 16).search


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHAPES), st.integers(0, 2**32), st.floats(0.01, 0.03), st.floats(0.0, 0.9),
       st.sampled_from(["solver", "alpha-beta", "monte carlo"]))
def test_every_search_stops_at_its_first_read_of_the_clock_past_its_deadline_less_its_reserve(
        shape, seed, limit, reserve_share, kind):
    limits = Limits(time=limit, reserve=reserve_share * limit)
    found = search_of(kind)(position(shape, seed), limits)
    assert saw_its_deadline_at_the_first_read_past_it(found, limits), found
    assert found.stall >= 0.0


def test_an_unfinished_search_reads_the_clock_and_stops_on_it():
    # the empty 9x8 c5 board does not solve in 0.02 s: the deadline stops it
    limits = Limits(time=0.02)
    found = Solver(16).search(Board(9, 8, 5), limits, weak=True)
    assert not found.proven and found.late is not None
    assert saw_its_deadline_at_the_first_read_past_it(found, limits)


# A child process searching while the test stops it (SIGSTOP) as a loaded
# machine does: its searches print their own account, one JSON line each.
STALLED_CHILD = """
import dataclasses, json, sys
from clinea.core import Board
from clinea.core.mcts import Mcts
from clinea.core.timeman import Limits
from clinea.players.strong_player import StrongBot
kind, seconds = sys.argv[1], float(sys.argv[2])
board = Board(9, 8, 5)
if kind == "strong":
    bot = StrongBot(time_per_move=seconds, solve=False, ponder=False)
    bot.new_game(board.copy(), 0)
    bot.ready()
    print("go", flush=True)
    bot.choose(board.copy())
    found = bot.last
else:
    mcts = Mcts()
    print("go", flush=True)
    found = mcts.search(board, Limits(time=seconds))
print(json.dumps(dataclasses.asdict(found)), flush=True)
"""


def stalled(kind: str, seconds: float, stalls: list[tuple[float, float]]) -> dict:
    """What a child's search of `seconds` (`kind`: "strong", a move of
    strong's on 9x8, or "mcts", one Monte Carlo search) reported, the child
    stopped for each (after, for) of `stalls`: `for` seconds, `after`
    seconds after it said it starts."""
    child = subprocess.Popen([sys.executable, "-c", STALLED_CHILD, kind, str(seconds)],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "go\n"
        started = time.monotonic()
        for after, length in stalls:
            time.sleep(max(0.0, started + after - time.monotonic()))
            child.send_signal(signal.SIGSTOP)
            time.sleep(length)
            child.send_signal(signal.SIGCONT)
        out, _ = child.communicate(timeout=60)
    finally:
        child.kill()
        child.wait()
    return json.loads(out)


def test_a_search_stopped_by_the_machine_sees_the_stall_and_keeps_it_in_reserve():
    found = stalled("mcts", 2.0, [(0.3, 0.4)])
    # the stall is time the search did not run: the whole stop, wherever it fell in the reads
    assert found["stall"] >= 0.4 - 0.005, found
    # and it stopped at its first read past its deadline less the stall: 0.4 s early
    assert saw_its_deadline_at_the_first_read_past_it(SearchResult(**found), Limits(time=2.0)), found


def test_a_stall_early_in_strong_s_move_is_kept_in_reserve_against_one_at_its_end():
    # a move of 3 s on 9x8 (the Monte Carlo search, 2.83 s of budget), the
    # process stopped for 0.5 s early in the move, then again for 0.5 s
    # 2.6 s into it: by its own clock the move ends past 3 s less its
    # margin, unless the first stall made the search stop 0.5 s early
    time_per_move = 3.0
    found = stalled("strong", time_per_move, [(0.2, 0.5), (2.6, 0.5)])
    assert found["time"] <= time_per_move - safety_margin(time_per_move), found
    assert found["stall"] >= 0.5 - 0.005, found


_bots: dict[tuple, StrongBot] = {}


def strong_for(shape, time_per_move: float) -> StrongBot:
    """One strong per board and time (its tables are allocated once)."""
    key = (shape, time_per_move)
    if key not in _bots:
        _bots[key] = StrongBot(time_per_move=time_per_move, ponder=False)
    return _bots[key]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHAPES[:3]), st.integers(0, 2**32), st.sampled_from([0.01, 0.02, 0.05]))
def test_strong_hands_its_searches_no_deadline_past_its_budget(shape, seed, time_per_move):
    board = position(shape, seed)
    bot = strong_for(shape, time_per_move)
    bot.new_game(board.copy(), board.side_to_move)
    known = bot.lateness
    bot.choose(board.copy())
    clock = bot.last_clock
    end = clock.start + clock.budget
    assert clock.budget + safety_margin(time_per_move) <= time_per_move
    # a search handed its limits once the budget is spent gets the least there is
    assert all(deadline <= max(end, handed) + MIN_SECONDS + 1e-9 for handed, deadline in clock.deadlines), \
        (clock.deadlines, end)
    for found in clock.results:
        # the read that saw the deadline came within a read's gap of it, or a stall seen at that read more
        assert found.late is None or 0.0 <= found.late <= found.read_gap + found.stall, found
    # every search keeps the longest stall the move knows of in reserve
    assert all(limits.reserve >= known for limits in clock.handed if limits.time)
    # its own clock: from the request to the answer, the searches' time within it
    assert bot.last.time >= sum(found.time for found in clock.results) - 1e-6


@pytest.mark.parametrize("shape", [(7, 6, 4), (9, 8, 5)])
def test_strong_s_first_answer_counts_the_game_s_set_up(shape):
    # the opening's line starts the clock of the first move: the set-up (the
    # tables, on 7x6 the book and the lines) runs inside it, never before it
    bot = StrongBot(time_per_move=0.05, ponder=False)
    board = Board(*shape)
    asked = time.monotonic()
    bot.new_game(board.copy(), 0)
    bot.choose(board.copy())
    answered = time.monotonic()
    assert bot.last.time >= (answered - asked) - 0.002
    # the game's set-up does not hold the move: a move it is not done for plays without it
    assert bot.last_clock.start - asked < 0.002


def test_under_the_judge_s_clock_strong_never_forfeits_on_time(tmp_path):
    cores = len(os.sched_getaffinity(0))
    results = tmp_path / "results.jsonl"
    strong = os.path.join(REPO, "players", "strong")
    games = run_judge(["--player", f"strong={strong} --time-per-move 0.1", "--player",
                       f"random={os.path.join(REPO, 'players', 'random')}", "--iterations", "6",
                       "--columns", "7", "--rows", "6", "--c", "4", "--p", "21", "--time-per-move", "0.1",
                       "--concurrency", str(cores), "--seed", "3", "--results", str(results), "--quiet"],
                      timeout=240)
    assert games.returncode == 0, games.stderr
    played = records(results)
    assert len(played) == 6
    assert [game["reason"] for game in played if game["forfeit"]] == []


@settings(max_examples=60)
@given(st.sampled_from(SHAPES[:3] + [(5, 4, 3)]), st.integers(0, 2**32))
def test_the_quick_move_before_the_set_up_wins_blocks_or_keeps_out_from_under_a_win(shape, seed):
    board = position(shape, seed)
    move = quick_move(board)
    legal = board.legal_columns()
    assert move in legal
    wins = [col for col in legal if board.is_winning_move(col)]

    def safe(col: int) -> bool:
        after = board.copy()
        after.play(col)
        return after.is_over() or not any(after.is_winning_move(reply) for reply in after.legal_columns())

    if wins:
        assert board.is_winning_move(move)
    elif any(safe(col) for col in legal):
        assert safe(move)


@pytest.mark.parametrize("limits, keeps", [(Limits(time=1e-6), False), (Limits(nodes=1), True)])
def test_the_monte_carlo_search_gives_up_its_old_tree_rather_than_its_deadline(limits, keeps):
    # a kept subtree is copied node by node: past the deadline the copy stops and a new tree starts
    board = Board(9, 8, 5)
    mcts = Mcts(seed=3)
    mcts.search(board, Limits(nodes=40_000))
    reply = max(mcts.root_children(), key=lambda child: child[1])[0]
    board.play(reply)
    mcts.search(board, limits)
    assert (mcts.nodes_kept > 16384) == keeps, mcts.nodes_kept


@given(st.floats(0.001, 10.0), st.floats(0.0, 0.2), st.lists(st.floats(0.0, 0.3), max_size=4))
def test_a_move_hands_its_searches_the_longest_stall_it_knows_of_as_their_reserve(time_per_move, lateness, stalls):
    clock = TimeManager(Limits(time=time_per_move), lateness=lateness)
    known = lateness
    for stall in stalls:
        assert clock.share(0.5).reserve == known
        clock.spent(SearchResult(0, 0, stall=stall))
        known = max(known, stall)
    assert clock.lateness == known and clock.stall == max(stalls, default=0.0)
    # the reserve counts as spent: the move's time is up that much sooner
    clock.start = time.monotonic() - max(0.0, clock.budget - known)
    assert clock.exhausted()
    assert TimeManager(Limits(nodes=100), lateness=lateness).share().reserve == 0.0  # a node limit has no clock


@given(st.floats(0.0, 0.2), st.floats(0.0, 0.2), st.floats(0.0, 0.5), st.floats(0.01, 1.0))
def test_the_next_move_keeps_this_one_s_stalls_and_overrun_and_forgets_them_slowly(lateness, stall, answered,
                                                                                 time_per_move):
    clock = TimeManager(Limits(time=time_per_move), lateness=lateness)
    clock.spent(SearchResult(0, 0, stall=stall))
    later = clock.next_lateness(LATENESS_DECAY, answered)
    # never more than the whole budget, where every search stops at once
    assert later <= clock.budget
    assert later >= min(clock.budget, max(stall, LATENESS_DECAY * clock.lateness))
    if answered > clock.budget:
        # the searches stopped that long before the budget, and the move still ended past it
        assert later >= min(clock.budget, clock.lateness + answered - clock.budget) - 1e-12
    else:
        assert later == min(clock.budget, max(stall, LATENESS_DECAY * clock.lateness))


def test_strong_keeps_a_stalled_move_s_overrun_in_reserve_on_the_next_moves(monkeypatch):
    bot = StrongBot(time_per_move=0.05, solve=False, ponder=False)
    board = Board(9, 8, 5)
    bot.new_game(board.copy(), 0)
    bot.choose(board.copy())
    mcts = bot._monte_carlo()

    class StoppedByTheMachine:
        """The Monte Carlo search, then 40 ms lost as a loaded machine stops a process."""

        def search(self, *args):
            found = mcts.search(*args)
            time.sleep(0.04)
            return found

    monkeypatch.setattr(bot, "_monte_carlo", StoppedByTheMachine)
    bot.choose(board.copy())
    stalled = bot.last_clock
    overrun = bot.last.time - stalled.budget
    assert overrun >= 0.04 - 0.01
    assert bot.lateness == pytest.approx(stalled.next_lateness(LATENESS_DECAY, bot.last.time))
    assert bot.lateness >= min(stalled.budget, stalled.lateness + overrun)
    monkeypatch.undo()
    kept = bot.lateness
    bot.choose(board.copy())
    # the next move's search stopped that long before its deadline
    assert [limits.reserve for limits in bot.last_clock.handed] == [kept]
    assert saw_its_deadline_at_the_first_read_past_it(bot.last_clock.results[0], bot.last_clock.handed[0])
    assert bot.lateness >= LATENESS_DECAY * kept


def test_strong_s_clock_starts_when_the_opponent_s_move_stops_its_thinking():
    # the driver stops the thinking on the opponent's time as soon as its
    # line comes: the time the thinking thread takes to stop is the move's
    bot = StrongBot(time_per_move=0.05, ponder=True)
    board = Board(9, 8, 5)
    bot.new_game(board.copy(), 0)
    bot.ready()
    board.play(bot.choose(board.copy()))
    bot.ponder(board.copy())
    time.sleep(0.01)
    board.play(0)
    asked = time.monotonic()
    bot.stop_pondering()
    stopped = time.monotonic()
    bot.choose(board.copy())
    assert asked <= bot.last_clock.start <= stopped


def test_the_switch_interval_comes_back_after_overlapping_set_ups():
    # two strongs in one process set games up at once: Python's interval is back after both
    before = sys.getswitchinterval()
    bots = [StrongBot(time_per_move=0.05, ponder=False) for _ in range(2)]
    for bot, shape in zip(bots, [(7, 6, 4), (9, 8, 5)]):
        bot.new_game(Board(*shape), 0)
    for bot in bots:
        bot._finish_set_up()
    assert sys.getswitchinterval() == before


def test_a_fresh_strong_starts_from_how_long_its_thread_waited_for_a_core(tmp_path, monkeypatch):
    # Linux's schedstat line: CPU ns, ns waiting for a core, runs
    figures = tmp_path / "schedstat"
    figures.write_text("81000000 12000000 4\n")
    assert waited_per_run(str(figures)) == pytest.approx(0.003)
    for bad in ["", "1 2\n", "a b c\n", "1 2 0\n", "9" * 300]:
        figures.write_text(bad)
        assert waited_per_run(str(figures)) == 0.0, bad
    assert waited_per_run(str(tmp_path / "absent")) == 0.0
    # the calling thread's own figures, where Linux keeps them
    assert waited_per_run() >= 0.0
    # before any move of its own has seen a stall, strong keeps that wait in reserve
    monkeypatch.setattr(strong_player, "waited_per_run", lambda: 0.007)
    assert StrongBot(time_per_move=0.05, ponder=False).lateness == 0.007
