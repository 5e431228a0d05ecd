#!/usr/bin/env python3
"""Loads for `slow_start.py SECONDS` (default 1) before it reads anything,
as a big interpreter or a weights file does, then plays random columns at once."""
import sys
import time

from protocol import random_answer, run

time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0)
run(random_answer)
