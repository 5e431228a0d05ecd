#!/usr/bin/env python3
"""Random columns, each after `slow_marker.py FILE SECONDS`; at its first
move of every game it appends the pid of the process that started it (a
judge worker) to FILE, so a test can kill that worker in the middle of a game."""
import os
import sys
import time

from protocol import random_answer, run

MARKS, DELAY = sys.argv[1], float(sys.argv[2])


def answer(game):
    if game.mine == 0:
        with open(MARKS, "a") as marks:
            marks.write(f"{os.getppid()}\n")
    time.sleep(DELAY)
    return random_answer(game)


run(answer)
