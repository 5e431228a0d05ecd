#!/usr/bin/env python3
"""Random columns; before each answer it writes `cpus MAIN / HELPER` to
stderr: the CPUs its main thread and a thread it started at its start may
run on. `cpus.py SECONDS` sleeps that long before each answer but its
first (a player that thinks)."""
import os
import sys
import threading

from protocol import random_answer, run

DELAY = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
started = threading.Event()
helper = threading.Thread(target=lambda: (started.set(), threading.Event().wait()), daemon=True)
helper.start()
started.wait()


def listed(tid):
    return ",".join(map(str, sorted(os.sched_getaffinity(tid))))


def answer(game):
    print(f"cpus {listed(0)} / {listed(helper.native_id)}", file=sys.stderr, flush=True)
    if DELAY and game.mine >= 1:
        threading.Event().wait(DELAY)
    return random_answer(game)


run(answer)
