#!/usr/bin/env python3
"""Plays honestly but answers every result word with a line of its own."""
import sys

from protocol import random_answer, run


def after_result(word):
    sys.stdout.write(f"gg ({word})\n")
    sys.stdout.flush()


run(random_answer, after_result=after_result)
