#!/usr/bin/env python3
"""Plays one column past the right edge on its second move."""
from protocol import random_answer, run

run(lambda game: game.columns if game.mine == 1 else random_answer(game))
