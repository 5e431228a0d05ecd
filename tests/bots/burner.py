#!/usr/bin/env python3
"""A bot that takes its opponent's time: it answers at once with a random
legal column, and from its first move on COUNT burners inside its seat spin
on the CPU whenever they are let run. `burner.py HOW COUNT`, HOW one of:
children (forked, in its process group), threads (hashing, which releases
the GIL), grandchild (double-forked: their parent exits, they stay in the
seat), none (the same bot, quiet)."""
import hashlib
import os
import sys
import threading

from protocol import random_answer, run

HOW = sys.argv[1] if len(sys.argv) > 1 else "children"
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 4
BLOCK = b"x" * (1 << 20)
started = False


def spin():
    while True:
        pass


def hash_forever():
    while True:
        hashlib.sha256(BLOCK).digest()


def fork_spinner():
    if os.fork() == 0:
        spin()


def start_burners():
    if HOW == "children":
        for _ in range(COUNT):
            fork_spinner()
    elif HOW == "threads":
        for _ in range(COUNT):
            threading.Thread(target=hash_forever, daemon=True).start()
    elif HOW == "grandchild":
        middle = os.fork()
        if middle == 0:
            for _ in range(COUNT):
                fork_spinner()
            os._exit(0)
        os.waitpid(middle, 0)


def answer(game):
    global started
    if not started:
        started = True
        start_burners()
    return random_answer(game)


run(answer)
