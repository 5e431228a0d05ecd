#!/usr/bin/env python3
"""Stacks column 0 and keeps playing it when it is full."""
from protocol import run

run(lambda game: 0)
