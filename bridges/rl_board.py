"""What the reinforcement-learning environments show of a Board: the
observation space, the outcome as rewards, and the board as text or as a
picture. Shared by the PettingZoo (`clinea.bridges.pettingzoo`) and
Gymnasium (`clinea.bridges.gymnasium_env`) environments; the arrays
themselves come from the Cython core (`clinea.core.observation`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from clinea.bridges import require
from clinea.core import Board, Rules

if TYPE_CHECKING:  # gymnasium is the rl extra: imported through require, which says how to install it
    from gymnasium import spaces as spaces
else:
    spaces = require("gymnasium.spaces", "rl")

RENDER_MODES = ("ansi", "rgb_array", "human")
# the colours of clinea's text board: blue moves first, red second
STONE_COLOURS = np.array([[235, 235, 235], [40, 90, 220], [215, 40, 40]], dtype=np.uint8)
FRAME_COLOUR = np.array([20, 30, 60], dtype=np.uint8)
LARGEST_PICTURE = 1024  # pixels on the long side: a 128x128 board stays small


def planes_space(rules: Rules) -> spaces.Box:
    """The (rows, columns, 2) int8 planes of `clinea.core.observation.planes`."""
    return spaces.Box(low=0, high=1, shape=(rules.rows, rules.columns, 2), dtype=np.int8)


def mask_space(rules: Rules) -> spaces.Box:
    """The (columns,) int8 action mask: 1 for a playable column."""
    return spaces.Box(low=0, high=1, shape=(rules.columns,), dtype=np.int8)


def check_render_mode(render_mode: str | None) -> str | None:
    """`render_mode` if it is one the environments draw (or None), else ValueError."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode={render_mode!r} is not one of {', '.join(RENDER_MODES)} (or None)")
    return render_mode


def outcome(board: Board, seat: int) -> float:
    """The finished game's reward for `seat` (0 or 1): 1 won, -1 lost, 0 drawn."""
    if board.winner is None:
        return 0.0
    return 1.0 if board.winner == seat else -1.0


def picture(board: Board) -> np.ndarray:
    """The board as an RGB image (height, width, 3) uint8: a dark frame with
    one round hole per cell, blue for the first player's stones, red for
    the second's, top row at the top."""
    cell = max(4, min(48, LARGEST_PICTURE // max(board.columns, board.rows)))
    centre = (cell - 1) / 2
    y, x = np.mgrid[:cell, :cell]
    hole = (x - centre) ** 2 + (y - centre) ** 2 <= (0.42 * cell) ** 2
    grid = np.array(board.grid(), dtype=np.intp)[::-1]  # grid() is bottom row first
    stones = STONE_COLOURS[np.repeat(np.repeat(grid, cell, axis=0), cell, axis=1)]
    inside = np.tile(hole, (board.rows, board.columns))
    image = np.empty_like(stones)
    image[...] = FRAME_COLOUR
    image[inside] = stones[inside]
    return image


def render(board: Board, render_mode: str | None) -> str | np.ndarray | None:
    """`board` as `render_mode` asks: the text board ("ansi"), a picture
    ("rgb_array"), the text printed ("human"), nothing (None)."""
    if render_mode is None:
        return None
    if render_mode == "rgb_array":
        return picture(board)
    text = board.render(color=False)
    if render_mode == "human":
        print(text, flush=True)
        return None
    return text
