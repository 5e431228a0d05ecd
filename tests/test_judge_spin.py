"""The judge's choice to spin while it waits for a fast player
(clinea.judge.spin): measured on the games played, not guessed from the
load average."""
import os
import random
from array import array
from statistics import median

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinea.judge.spin import EXPLORE, MIN_MOVES, SPIN, TRIALS, SpinChoice


def play_games(choice, per_move, games, rng, moves=21):
    """`games` games through `choice`, each move taking about
    per_move[way] seconds; the ways the games used."""
    used = []
    for _ in range(games):
        way = choice.next()
        times = array("d", (per_move[way] * (0.8 + 0.4 * rng.random()) for _ in range(moves)))
        choice.record(way, times, moves)
        used.append(way)
    return used


def other(way):
    return 0.0 if way == SPIN else SPIN


@pytest.mark.parametrize("faster", [SPIN, 0.0])
def test_a_fresh_judge_plays_the_way_its_games_measured_faster(faster, monkeypatch):
    # A judge started just after another run saw a load average above 1 on
    # two cores and played a whole run of 1000 games without spinning,
    # where spinning made the games twice as fast.
    monkeypatch.setattr(os, "getloadavg", lambda: (1.2, 1.2, 1.2))
    choice = SpinChoice(cpus=2)
    used = play_games(choice, {faster: 10e-6, other(faster): 25e-6}, 2 * TRIALS + 20 * EXPLORE, random.Random(1))
    assert sorted(used[:2 * TRIALS]) == sorted([SPIN, 0.0] * TRIALS)  # both tried first
    settled = used[2 * TRIALS:]
    explored = settled.count(other(faster))
    assert choice.best == faster
    assert 1 <= explored <= len(settled) // EXPLORE + 1  # the other way now and then, no more


# seconds a move: on a quiet machine spinning wins; on a busy one the
# player waits for the core the judge spins on
QUIET = {SPIN: 10e-6, 0.0: 25e-6}
BUSY = {SPIN: 60e-6, 0.0: 40e-6}


@pytest.mark.parametrize("before, after", [(QUIET, BUSY), (BUSY, QUIET)])
def test_the_choice_follows_a_change_of_the_machines_load(before, after):
    # from busy to quiet, the way in use gets faster too: only trying the
    # other way now and then shows it has become the faster
    rng = random.Random(2)
    choice = SpinChoice(cpus=2)
    play_games(choice, before, 200, rng)
    assert choice.best == min(before, key=before.get)
    now_faster = min(after, key=after.get)
    used = play_games(choice, after, 8 * EXPLORE + 40, rng)
    assert choice.best == now_faster and used[-40:].count(other(now_faster)) <= 40 // EXPLORE + 1


def test_one_usable_cpu_never_spins():
    # the player cannot answer while the judge spins on the only core
    choice = SpinChoice(cpus=1)
    assert set(play_games(choice, {0.0: 30e-6}, 3 * EXPLORE, random.Random(3))) == {0.0}


GAMES = st.lists(st.tuples(st.sampled_from([SPIN, 0.0, 1e-3]),
                           st.lists(st.floats(0, 1, allow_nan=False), max_size=30)), max_size=60)


@given(GAMES)
@settings(max_examples=200, deadline=None)
def test_the_best_way_has_the_lowest_median_of_its_games_mean_move_time(games):
    choice = SpinChoice(cpus=2)
    kept = {SPIN: [], 0.0: []}
    for way, moves in games:
        assert choice.next() in (SPIN, 0.0)
        choice.record(way, array("d", moves + [9.0]), len(moves))  # slots past the moves played do not count
        if way in kept and len(moves) >= MIN_MOVES:
            kept[way].append(sum(moves) / len(moves))
    if all(len(means) >= TRIALS for means in kept.values()):
        medians = {way: median(means[-len(choice.per_move[way]):]) for way, means in kept.items()}
        assert medians[choice.best] == min(medians.values())
    else:
        assert choice.best == SPIN  # nothing decided yet
