#!/usr/bin/env python3
"""Answers its second move after `sleepy.py SECONDS` (default 2), past any short clock."""
import sys
import time

from protocol import random_answer, run

DELAY = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0


def answer(game):
    if game.mine == 1:
        time.sleep(DELAY)
    return random_answer(game)


run(answer)
