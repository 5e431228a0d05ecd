"""The game core: the board (bitboards where they fit, a cell array beyond),
move generation, win and draw detection, and fast in-C game simulation."""
from clinea.core.board import Board, IllegalMove, parse_moves
from clinea.core.playout import play_random_game, simulate_random_games
from clinea.core.rules import MAX_SIDE, MAX_TOKENS, Rules

__all__ = [
    "MAX_SIDE", "MAX_TOKENS", "Board", "IllegalMove", "Rules", "parse_moves",
    "play_random_game", "simulate_random_games",
]
