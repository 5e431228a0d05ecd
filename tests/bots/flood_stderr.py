#!/usr/bin/env python3
"""Writes 256 kB to stderr before every move, far more than a pipe holds, and
otherwise plays honestly: it must not be blocked or forfeited."""
import sys

from protocol import random_answer, run


def answer(game):
    sys.stderr.write(("x" * 1023 + "\n") * 256)
    sys.stderr.flush()
    return random_answer(game)


run(answer)
