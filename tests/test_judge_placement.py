"""A worker's games on one CPU (clinea.judge.placement): who gets which CPU,
pinning inherited by the players, released for players that think, moved
off a contended CPU; and the judge doing it to real players."""
import os
import re
import subprocess
import sys
import tempfile
import threading
import unittest.mock

from hypothesis import given, settings
from hypothesis import strategies as st
from judge_helpers import REPO, bot, run_judge

from clinea.judge import placement as placement_module
from clinea.judge.placement import FAST, FOREIGN, LOOK_EVERY, Cores, Placement, tree_threads

ALLOWED = frozenset(os.sched_getaffinity(0))
MANY = len(ALLOWED) > 1


def in_a_thread(work):
    """`work()` run in a thread of its own (affinity is per thread: the
    test's own thread keeps every CPU), its result or its exception."""
    box = {}

    def run():
        try:
            box["value"] = work()
        except BaseException as error:  # re-raised in the test's thread
            box["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    if "error" in box:
        raise box["error"]
    return box["value"]


def allowed_of(tid: int) -> frozenset[int]:
    return frozenset(os.sched_getaffinity(tid))


@given(cpus=st.sets(st.integers(0, 7), min_size=1, max_size=6), workers=st.integers(1, 12),
       here=st.one_of(st.none(), st.integers(0, 7)))
@settings(max_examples=60)
def test_workers_spread_over_the_cpus_before_any_shares_one(cpus, workers, here):
    cores = Cores(cpus)
    taken = [cores.take(here) for _ in range(workers)]
    counts = [taken.count(cpu) for cpu in cpus]
    assert set(taken) <= cpus
    assert max(counts) - min(counts) <= 1
    if here in cpus:
        assert taken[0] == here
    for cpu in taken:
        cores.give_back(cpu)
    assert set(cores.held.values()) == {0}


def test_one_cpu_pins_nothing():
    placement = Placement(Cores({min(ALLOWED)}))
    in_a_thread(placement.settle)
    assert not placement.pinned


def child_tree() -> subprocess.Popen:
    """A Python process with a second thread and a child of its own, each
    waiting for its stdin to close."""
    code = ("import subprocess, sys, threading\n"
            "threading.Thread(target=sys.stdin.read, daemon=True).start()\n"
            "child = subprocess.Popen([sys.executable, '-c', 'import sys; sys.stdin.read()'], stdin=subprocess.PIPE)\n"
            "print(child.pid, flush=True)\n"
            "sys.stdin.read()\n")
    return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def test_players_started_pinned_inherit_the_cpu_and_get_every_cpu_back_when_released():
    placement = Placement(Cores(ALLOWED))
    if not MANY:  # one CPU: nothing to choose, nothing pinned
        in_a_thread(placement.settle)
        assert not placement.pinned
        return

    def start():
        placement.settle()
        process = child_tree()
        grandchild = int(process.stdout.readline())
        placement.join(process.pid)
        return process, grandchild, allowed_of(0)

    process, grandchild, worker = in_a_thread(start)
    try:
        threads = tree_threads(process.pid)
        assert {tid for tid in threads if os.path.exists(f"/proc/{grandchild}/task/{tid}")}
        assert len(threads) >= 3  # main, its thread, the grandchild
        assert worker == {placement.cpu}
        assert all(allowed_of(tid) == worker for tid in threads)
        in_a_thread(placement.release)
        assert not placement.pinned and placement.released
        assert all(allowed_of(tid) == ALLOWED for tid in tree_threads(process.pid))
        placement.settle()  # released is for good
        assert not placement.pinned
        assert set(placement.cores.held.values()) == {0}
    finally:
        process.stdin.close()
        process.wait(10)


@given(ours=st.floats(0.0, 1.0), others=st.floats(0.0, 1.0), then=st.floats(0.0, 1.0))
@settings(max_examples=40, deadline=None)
def test_a_worker_comes_loose_while_others_use_the_machine_and_pins_again_after(ours, others, then):
    now = [100.0]
    ran = [0]
    idle = {cpu: 0 for cpu in ALLOWED}
    ticks = os.sysconf("SC_CLK_TCK")
    cores = Cores(ALLOWED)
    cores.ran = lambda: ran[0]
    placement = Placement(cores, clock=lambda: now[0], chance=lambda: 0.5)

    def look(ours: float, others: float) -> None:
        """A span in which the judge and its players ran `ours` CPUs of it
        and other processes `others`, spread evenly over the CPUs."""
        span = 2 * LOOK_EVERY
        now[0] = placement.looked + span
        ran[0] += int(ours * span * 1e9)
        for cpu in ALLOWED:
            idle[cpu] += int(max(0.0, 1.0 - (ours + others) / len(ALLOWED)) * span * ticks)
        placement.between_games()

    def scenario():
        placement.settle()
        settled = placement.cpu
        placement.between_games()  # too soon to look
        assert placement.cpu == settled
        look(ours, others)
        first = (placement.pinned, placement.loose, allowed_of(0))
        look(ours, then)
        return first, (placement.pinned, placement.loose, allowed_of(0))

    with unittest.mock.patch.object(placement_module, "idle_times", lambda: dict(idle)):
        first, second = in_a_thread(scenario)
    if not MANY:  # one CPU: never pinned
        assert first[:2] == second[:2] == (False, False)
        return
    # the ticks' rounding blurs the threshold by a few hundredths
    for (pinned, loose, where), load in ((first, others), (second, then)):
        if load > FOREIGN + 0.05:
            assert not pinned and loose and where == ALLOWED
        elif load < FOREIGN - 0.05:
            assert pinned and not loose and len(where) == 1
    held = sum(cores.held.values())
    assert held == (1 if placement.pinned else 0)


def test_not_pinned_it_neither_spins_less_nor_waits_less():
    placement = Placement(Cores(ALLOWED))
    assert placement.spin(5e-5) == 5e-5 and placement.patience(0.25) == 0.25
    if MANY:
        in_a_thread(placement.settle)
        assert placement.spin(5e-5) == 0.0 and placement.patience(0.25) == FAST
        placement.close()
        assert not placement.pinned and set(placement.cores.held.values()) == {0}


# ---------------------------------------------------------------- the judge

def reported(log_dir: str, seat: str) -> list[tuple[frozenset[int], frozenset[int]]]:
    """What tests/bots/cpus.py said before each answer: (main thread's CPUs,
    its helper thread's)."""
    with open(os.path.join(log_dir, f"{seat}.log")) as file:
        return [(frozenset(map(int, main.split(","))), frozenset(map(int, helper.split(","))))
                for main, helper in re.findall(r"^! cpus ([\d,]+) / ([\d,]+)$", file.read(), re.M)]


def judged(*options: str, blue=("cpus.py",), red=("cpus.py",), games=4) -> tuple[list, list]:
    with tempfile.TemporaryDirectory() as logs:
        result = run_judge(["--blue_player", *bot(*blue), "--red_player", *bot(*red), "--iterations", str(games),
                            "--seed", "3", "--log-dir", logs, "--quiet", *options], timeout=120)
        assert result.returncode == 0, result.stderr
        return reported(logs, "azul"), reported(logs, "rojo")


def test_fast_players_share_the_judge_cpu():
    azul, rojo = judged()
    assert azul and rojo
    # the first game is played where the worker settled (it looks for a
    # better CPU, or comes loose on a busy machine, only between games)
    assert azul[0] == rojo[0]
    assert len(azul[0][0]) == 1 if MANY else azul[0][0] == ALLOWED
    for main, helper in azul + rojo:  # a process's threads go together
        assert main == helper
        assert len(main) == 1 or main == ALLOWED


def test_a_player_that_thinks_gets_every_cpu_back_and_so_does_its_opponent():
    azul, rojo = judged(blue=("cpus.py", str(4 * FAST)))
    # its first answer may come pinned (its start-up is not thinking), its
    # second is late: from its third answer on it is free
    assert all(main == helper == frozenset(ALLOWED) for main, helper in azul[2:])
    assert rojo[-1] == (ALLOWED, ALLOWED)


def test_same_core_off_leaves_the_players_where_the_scheduler_puts_them():
    azul, rojo = judged("--same-core", "off")
    assert set(azul + rojo) == {(ALLOWED, ALLOWED)}


def test_a_run_of_one_worker_leaves_its_thread_free_to_run_anywhere(tmp_path):
    from clinea.core import Rules
    from clinea.judge.referee import Clock
    from clinea.judge.tournament import Player, Runner, course_schedule

    # C players: nothing in their games, their start or their `listo` is slow
    # enough to release the worker, which must let go of its CPU all the same
    player = str(tmp_path / "random_player")
    subprocess.run([os.environ.get("CC", "cc"), "-O2", "-o", player,
                    os.path.join(REPO, "benchmarks", "random_player.c")], check=True)
    rules = Rules(5, 4, 3, 10)
    runner = Runner([Player("azul", [player]), Player("rojo", [player])], rules, lambda: Clock(per_move=10.0))
    records = []

    def run():
        runner.run(course_schedule("azul", "rojo", 2, None, 1, rules), records.append)
        return allowed_of(0)

    # the worker's is the calling thread (a run of one worker: the judge's main thread)
    assert in_a_thread(run) == ALLOWED
    assert len(records) == 2 and set(runner.cores.held.values()) == {0} and not runner.cores.placements
