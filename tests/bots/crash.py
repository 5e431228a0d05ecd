#!/usr/bin/env python3
"""Exits with status 3 instead of its k-th move (`crash.py K`, default 2)."""
import sys

from protocol import random_answer, run

K = int(sys.argv[1]) if len(sys.argv) > 1 else 2


def answer(game):
    if game.mine + 1 >= K:
        sys.stderr.write("crash.py: crashing on purpose\n")
        sys.exit(3)
    return random_answer(game)


run(answer)
