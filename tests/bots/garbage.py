#!/usr/bin/env python3
"""Answers its second move with something that is not a column (`garbage.py TEXT`)."""
import sys

from protocol import random_answer, run

TEXT = sys.argv[1] if len(sys.argv) > 1 else "tres"


def answer(game):
    return TEXT if game.mine == 1 else random_answer(game)


run(answer)
