"""The Connect-4 report's searches in whole games, on 7x6 (c = 4), beside
its node table (clinea.training.search_table):

  `win_table`: its alpha-beta player (centre first, its evaluation) at each
      depth against uniform random, half the games moving first, as its
      1000-game win table;
  `pruning_timing`: the time of every move along real games searched
      without pruning (plain minimax) and with it (alpha-beta in column
      order, and centre first), the course report's timing figures and its
      comparison over 688 moves.

Both are our reading of what the reports measured: the same searches and
evaluation as the node table, on positions from games rather than random
plies.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from clinea.core import Board
from clinea.core.depthsearch import DepthLimited
from clinea.core.evaluate import REPORT_WEIGHTS
from clinea.judge.referee import play_bots
from clinea.players.bot import Bot
from clinea.training.fitness import GameTally, outcome_for
from clinea.training.games import FastRandomBot
from clinea.training.search_table import SEARCHES

STANDARD = (7, 6, 4, 21)
COMPARISON_MOVES = 688  # the course report's comparison: the moves of its games, timed both ways


class SearchBot(Bot):
    """The report's player: centre-first alpha-beta to `depth` plies over its evaluation."""

    name = "alpha-beta"

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.search = DepthLimited(REPORT_WEIGHTS)

    def choose(self, board: Board) -> int:
        column, _ = self.search.best_move(board, self.depth)
        return int(column)


@dataclass
class DepthRow:
    """One depth of the win table: the player's tally and its time per move."""
    depth: int
    tally: GameTally
    seconds_per_move: float


def win_table(depths: list[int], games_each_colour: int, seed: int) -> list[DepthRow]:
    """Per depth, `games_each_colour` games moving first and as many second
    against uniform random (seeded by `seed`)."""
    rows = []
    for depth in depths:
        tally = GameTally()
        thinking, moves = 0.0, 0
        player = SearchBot(depth)
        for game in range(games_each_colour):
            for me in (0, 1):
                rival = FastRandomBot(seed + 2 * game + me)
                first, second = (player, rival) if me == 0 else (rival, player)
                result = play_bots(first, second, *STANDARD, in_core=False)
                tally.count(outcome_for(result.winner, me))
                mine = result.times[me::2]
                thinking += sum(mine)
                moves += len(mine)
        rows.append(DepthRow(depth, tally, thinking / max(1, moves)))
    return rows


def win_table_markdown(rows: list[DepthRow]) -> str:
    lines = ["| depth | won | drawn | lost | share won | ms per move |", "|---|---|---|---|---|---|"]
    for row in rows:
        t = row.tally
        lines.append(f"| {row.depth} | {t.wins} | {t.draws} | {t.losses} | {100 * t.wins / t.games:.1f} % | "
                     f"{1000 * row.seconds_per_move:.2f} |")
    return "\n".join(lines)


def game_positions(count: int, depth: int, seed: int) -> list[Board]:
    """`count` positions, each one a move to make, from games of the
    report's player (to `depth`) against random, in order, game after game."""
    rng = random.Random(seed)
    player = SearchBot(depth)
    positions: list[Board] = []
    while len(positions) < count:
        board = Board(*STANDARD)
        me = rng.randrange(2)
        while not board.is_over() and len(positions) < count:
            positions.append(board.copy())
            board.play(player.choose(board) if board.side_to_move == me else rng.choice(board.legal_columns()))
    return positions


def pruning_timing(count: int, depth: int, seed: int) -> dict[str, list[float]]:
    """Seconds to search each of `count` game positions to `depth` plies,
    per search (clinea.training.search_table.SEARCHES). Raises if the
    searches disagree on a value."""
    search = DepthLimited(REPORT_WEIGHTS)
    seconds: dict[str, list[float]] = {label: [] for label in SEARCHES}
    for board in game_positions(count, depth, seed):
        values = set()
        for label, mode in SEARCHES.items():
            start = time.perf_counter()
            values.add(search.value(board, depth, mode))
            seconds[label].append(time.perf_counter() - start)
        if len(values) != 1:
            raise AssertionError(f"the searches disagree at depth {depth} on {board.moves()}: {values}")
    return seconds


def pruning_markdown(seconds: dict[str, list[float]], depth: int) -> str:
    plain = sum(seconds["minimax"])
    lines = [f"{len(seconds['minimax'])} moves of real games (the report's player against random), each "
             f"searched to depth {depth} by every search; the same value every time.", "",
             "| search | total s | ms per move (mean) | slowest move ms | total against minimax |",
             "|---|---|---|---|---|"]
    for label, times in seconds.items():
        total = sum(times)
        lines.append(f"| {label} | {total:.3f} | {1000 * total / len(times):.3f} | {1000 * max(times):.2f} | "
                     f"{total / plain:.3f} |")
    return "\n".join(lines)
