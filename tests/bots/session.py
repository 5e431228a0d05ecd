#!/usr/bin/env python3
"""Random columns; at start it says on stderr (the judge's transcript) its
session, its scheduling autogroup and whether it has a controlling
terminal, so a test sees how the judge started it."""
import os
import sys

from protocol import random_answer, run

try:
    with open("/proc/self/autogroup") as file:
        autogroup = file.read().split()[0]
except OSError:
    autogroup = "none"
try:
    os.close(os.open("/dev/tty", os.O_RDWR))
    terminal = "yes"
except OSError:
    terminal = "no"
print(f"session={os.getsid(0)} autogroup={autogroup} terminal={terminal}", file=sys.stderr, flush=True)
run(random_answer)
