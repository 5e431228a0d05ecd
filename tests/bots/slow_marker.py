#!/usr/bin/env python3
"""Random columns, each after `slow_marker.py FILE SECONDS`; at start it
appends the pid of the process that started it (a judge worker) to FILE, so a
test can kill that worker while it is in the middle of a game."""
import os
import sys
import time

from protocol import random_answer, run

with open(sys.argv[1], "a") as marks:
    marks.write(f"{os.getppid()}\n")
DELAY = float(sys.argv[2])


def answer(game):
    time.sleep(DELAY)
    return random_answer(game)


run(answer)
