#!/usr/bin/env python3
"""An honest random player; `random_bot.py SEED`."""
import sys

from protocol import random_answer, run

run(random_answer, int(sys.argv[1]) if len(sys.argv) > 1 else 1)
