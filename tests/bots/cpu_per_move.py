#!/usr/bin/env python3
"""An honest bot that needs a fixed amount of CPU per move: `cpu_per_move.py
MILLISECONDS` (default 30) of its own CPU time, then a random legal column.
Its wall time per move is that CPU divided by the share of a core it gets."""
import sys
import time

from protocol import random_answer, run

NEEDED = (float(sys.argv[1]) if len(sys.argv) > 1 else 30.0) / 1000


def answer(game):
    until = time.process_time() + NEEDED
    while time.process_time() < until:
        pass
    return random_answer(game)


run(answer)
