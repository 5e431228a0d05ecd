"""The judge's choice to spin while it waits for a fast player
(clinea.judge.spin): only while a core is free for the player, counted
between games, not guessed from the load average."""
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinea.judge.spin import SAMPLE_EVERY, SAMPLES, SPIN, SpinChoice, others_running


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += 2 * SAMPLE_EVERY  # every game is a sample
        return self.now


def choice_seeing(counts, cpus=2):
    """A choice whose samples are `counts`, one per game; the spins it chose."""
    pending = []
    choice = SpinChoice(cpus=cpus, count=lambda players: pending.pop(), clock=Clock())
    spins = []
    for count in counts:
        pending[:] = [count]
        choice.after_relay((1, 2))
        spins.append(choice.spin)
    return choice, spins


def test_a_fresh_judge_spins_when_a_core_is_free_whatever_the_load_average(monkeypatch):
    # A judge started just after another run saw a load average above 1 on
    # two cores and played a whole run of 1000 games without spinning,
    # where spinning made the games twice as fast.
    monkeypatch.setattr(os, "getloadavg", lambda: (1.2, 1.2, 1.2))
    choice, spins = choice_seeing([0] * 10)
    assert choice.spin == SPIN and set(spins) == {SPIN}


@pytest.mark.parametrize("cpus, busy", [(2, 1), (2, 3), (4, 3), (8, 9)])
def test_no_spin_while_the_other_tasks_fill_the_other_cores(cpus, busy):
    choice, spins = choice_seeing([busy] * 10, cpus=cpus)
    assert choice.spin == 0.0 and spins[SAMPLES // 2:] == [0.0] * (10 - SAMPLES // 2)
    choice, spins = choice_seeing([cpus - 2] * 10, cpus=cpus)
    assert set(spins) == {SPIN}


def test_the_choice_follows_the_machine_and_a_passing_task_does_not_flip_it():
    counts = [0] * 20 + [3] + [0] * 20 + [2] * 20 + [0] * 20
    choice, spins = choice_seeing(counts)
    assert spins[:40] == [SPIN] * 40  # one sample of 3 is outvoted
    assert spins[45:60] == [0.0] * 15  # busy from game 41 on
    assert spins[-10:] == [SPIN] * 10  # and quiet again


def test_one_usable_cpu_or_no_proc_never_spins():
    choice, spins = choice_seeing([0] * 10, cpus=1)
    assert choice.spin == 0.0 and set(spins) == {0.0}

    def no_proc(players):
        raise FileNotFoundError("/proc/loadavg")

    choice = SpinChoice(cpus=2, count=no_proc, clock=Clock())
    choice.after_relay((1, 2))
    assert choice.spin == 0.0


@given(st.lists(st.integers(0, 6), max_size=40), st.integers(1, 4))
@settings(max_examples=200, deadline=None)
def test_the_spin_follows_the_median_of_the_last_samples(counts, cpus):
    choice, spins = choice_seeing(counts, cpus=cpus)
    for k, spin in enumerate(spins):
        recent = sorted(counts[max(0, k + 1 - SAMPLES):k + 1])
        others = recent[len(recent) // 2]
        assert spin == (SPIN if cpus >= 2 and others <= cpus - 2 else 0.0)


def test_the_count_leaves_out_the_judges_own_players():
    # two busy loops: running whatever the machine does, so leaving them out
    # of the count (as the judge's players) takes exactly two off it
    loops = [subprocess.Popen([sys.executable, "-c", "print('spinning', flush=True)\nwhile True: pass"],
                              stdout=subprocess.PIPE) for _ in range(2)]
    try:
        # counted only once both spin: a python starting up on a busy machine
        # (the suite's other worker) sleeps on its files and is not running
        assert [loop.stdout.readline() for loop in loops] == [b"spinning\n"] * 2
        pids = [loop.pid for loop in loops]
        differences = [others_running([]) - others_running(pids) for _ in range(21)]
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    # another process on the machine may start or stop between two counts
    assert differences.count(2) > len(differences) // 2, differences


def test_the_running_count_read_through_the_kept_descriptor_is_the_fresh_one():
    # /proc/loadavg stays open between samples: each must read what opening
    # it afresh reads, and change as it does (busy loops come and go to make
    # the count move; a stale reading would stay where it started)
    import time

    from clinea.judge import spin

    def fresh():
        with open("/proc/loadavg", "rb") as file:
            return int(file.read().split()[3].split(b"/")[0])

    pairs = []
    for _ in range(4):
        loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(4)]
        try:
            time.sleep(0.05)
            pairs += [(spin._running_tasks(), fresh()) for _ in range(10)]
        finally:
            for loop in loops:
                loop.kill()
                loop.wait()
        pairs += [(spin._running_tasks(), fresh()) for _ in range(10)]
    assert sum(kept == read for kept, read in pairs) > len(pairs) // 2, pairs
    assert len({read for _, read in pairs}) > 1 and len({kept for kept, _ in pairs}) > 1, pairs
