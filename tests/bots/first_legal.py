#!/usr/bin/env python3
"""An honest, predictable player: always the leftmost column with room."""
from protocol import run

run(lambda game: next(col for col in range(game.columns) if game.heights[col] < game.rows))
