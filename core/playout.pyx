# cython: boundscheck=False, wraparound=False
"""Random games played entirely in C: the inner loop of Monte Carlo players,
training and the throughput benchmark."""
from libc.stdint cimport uint64_t

from .board cimport Board
from .rng cimport Rng, rng_below, rng_seed


cdef int random_playout(Board board, Rng* rng) noexcept nogil:
    """Plays uniformly random legal moves on `board` until the game ends.
    Returns the winner (0 or 1) or -1 for a draw."""
    cdef int legal[128]  # MAX_SIDE columns
    cdef int n = board.c_legal_columns(legal)
    while n > 0:
        board.c_play(legal[rng_below(rng, n)])
        n = board.c_legal_columns(legal)
    return board.c_winner()


def play_random_game(Board board, uint64_t seed) -> Board:
    """Finishes a copy of `board` with uniformly random moves and returns it
    (its `moves()` hold the whole game)."""
    cdef Board game = board.copy()
    cdef Rng rng
    rng_seed(&rng, seed)
    with nogil:
        random_playout(game, &rng)
    return game


def simulate_random_games(int columns=7, int rows=6, int c=4, p=None,
                          long games=1000, uint64_t seed=1) -> dict:
    """Plays `games` random games from the empty board, in C.

    Returns counts: {"first": wins of the first player, "second": wins of the
    second, "draws": ..., "moves": moves played in all}."""
    if games < 0:
        raise ValueError(f"games={games} is out of range: allowed 0 or more")
    cdef Board game = Board(columns, rows, c, p)
    cdef Rng rng
    cdef long _game
    cdef long first = 0, second = 0, draws = 0, moves = 0
    cdef int result
    rng_seed(&rng, seed)
    with nogil:
        for _game in range(games):
            game.c_reset()
            result = random_playout(game, &rng)
            moves += game.c_moves()
            if result == 0:
                first += 1
            elif result == 1:
                second += 1
            else:
                draws += 1
    return {"first": first, "second": second, "draws": draws, "moves": moves}
