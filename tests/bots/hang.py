#!/usr/bin/env python3
"""Forks a child that sleeps, then never answers its second move: the judge
must time it out and kill the whole process group, child included."""
import os
import time

from protocol import random_answer, run


def answer(game):
    if game.mine >= 1:
        if os.fork() == 0:
            time.sleep(600)
            os._exit(0)
        while True:
            time.sleep(600)
    return random_answer(game)


run(answer)
