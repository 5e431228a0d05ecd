"""Scoring players from game results: the seed's two fitness formulas, the
tallies the evaluations print, and the batches of games they come from.

A game is seen from one player as (outcome, second): outcome 1 win, 0 draw,
-1 loss; `second` True when that player moved second.
"""
from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Literal, overload

from clinea.core import Rules
from clinea.judge.report import Tally as JudgeTally
from clinea.players.greedy_player import GreedyBot
from clinea.training.games import greedy, opponent, play
from clinea.training.parallel import ChunkMapper

WIN, DRAW, LOSS = 1, 0, -1
# fitness 2: loss / draw / win, and the bonus for having moved second
POINTS = {LOSS: 0, DRAW: 5, WIN: 10}
SECOND_BONUS = {LOSS: 1, DRAW: 2, WIN: 4}

# one game seen from one player: (outcome, second), or with the plies it lasted
Game = tuple[int, bool]
TimedGame = tuple[int, bool, int]


def outcome_for(winner: int | None, me: int) -> int:
    """WIN, DRAW or LOSS for player `me` (0 first, 1 second) of a game won by `winner`."""
    if winner is None:
        return DRAW
    return WIN if winner == me else LOSS


def fitness_not_lost(games: Sequence[Game]) -> float:
    """Fitness 1: the share of games not lost."""
    if not games:
        return 0.0
    return sum(outcome != LOSS for outcome, _ in games) / len(games)


def fitness_points(games: Sequence[Game]) -> float:
    """Fitness 2: 0 / 5 / 10 for loss / draw / win, plus 1 / 2 / 4 when moving
    second, divided by the number of games."""
    if not games:
        return 0.0
    return sum(POINTS[o] + (SECOND_BONUS[o] if second else 0) for o, second in games) / len(games)


FITNESS = {1: fitness_not_lost, 2: fitness_points}

SPEED_BONUS = 4


def fitness_fast_wins(games: Sequence[TimedGame], max_plies: int) -> float:
    """Fitness 2 plus, for each win, up to SPEED_BONUS more the sooner it came
    (SPEED_BONUS * (1 - plies / max_plies)). Against random a decent greedy
    wins nearly every game, so fitness 2 ties at its maximum and stops
    ranking; how fast the wins come still separates the players, and fast
    winners leave random fewer chances to block them into a draw."""
    if not games:
        return 0.0
    bonus = sum(SPEED_BONUS * (1 - plies / max_plies) for o, _, plies in games if o == WIN)
    return fitness_points([(o, second) for o, second, _ in games]) + bonus / len(games)


OUTCOME_NAMES = {WIN: "wins", DRAW: "draws", LOSS: "losses"}


class GameTally(JudgeTally):
    """The judge's win/loss/draw tally, fed with training's outcomes."""

    def count(self, outcome: int) -> None:
        self.add(OUTCOME_NAMES[outcome])

    @classmethod
    def of(cls, games: Sequence[Game]) -> GameTally:
        """The tally of a list of (outcome, second)."""
        tally = cls()
        for outcome, _ in games:
            tally.count(outcome)
        return tally

    @property
    def margin(self) -> int:
        """wins - losses"""
        return self.wins - self.losses


def summary(values: Sequence[float]) -> dict[str, float]:
    """best, worst, mean and median of a list of fitness values."""
    return {"best": max(values), "worst": min(values),
            "mean": statistics.fmean(values), "median": statistics.median(values)}


# ---------------------------------------------------------------- batches
# Top-level functions over plain data, so ProcessPool can ship them to workers.

# (geometry, c, population, i, j) -> (i, j, winner)
RoundRobinTask = tuple[Rules, int, list[list[float]], int, int]
RoundRobinAnswer = tuple[int, int, int | None]
# (geometry, c, values, kind, depth, seed, me) -> (outcome, plies)
VersusTask = tuple[Rules, int, list[float], str, int, int, int]
VersusAnswer = tuple[int, int]


def round_robin_task(task: list[RoundRobinTask]) -> list[RoundRobinAnswer]:
    """[(geometry, c, population, i, j)] -> [(i, j, winner)]: i moves first."""
    out = []
    bots: dict[int, GreedyBot] = {}
    for geometry, c, population, i, j in task:
        for k in (i, j):
            if k not in bots:
                bots[k] = greedy(population[k], c)
        out.append((i, j, play(bots[i], bots[j], geometry).winner))
    return out


def versus_task(task: list[VersusTask]) -> list[VersusAnswer]:
    """[(geometry, c, values, kind, depth, seed, me)] -> [(outcome for the
    greedy player, which moves first when me == 0, plies played)]."""
    out = []
    player: GreedyBot | None = None
    made_for: list[float] | None = None
    for geometry, c, values, kind, depth, seed, me in task:
        if player is None or made_for != values:
            # compared with the vector given, not the player's own weights:
            # the report's parametrisation holds more than those
            player, made_for = greedy(values, c), values
        other = opponent(kind, seed, depth)
        first, second = (player, other) if me == 0 else (other, player)
        result = play(first, second, geometry)
        out.append((outcome_for(result.winner, me), len(result.moves)))
    return out


def round_robin(population: Sequence[Sequence[float]], geometry: Rules, c: int,
                runner: ChunkMapper) -> list[list[Game]]:
    """Every ordered pair plays once (so every pair twice, once in each
    colour). Returns, per individual, its games as (outcome, second)."""
    vectors = [list(v) for v in population]
    n = len(vectors)
    tasks = [(geometry, c, vectors, i, j) for i in range(n) for j in range(n) if i != j]
    games: list[list[Game]] = [[] for _ in range(n)]
    for i, j, winner in runner.map_chunks(round_robin_task, tasks):
        games[i].append((outcome_for(winner, 0), False))
        games[j].append((outcome_for(winner, 1), True))
    return games


def game_seed(seed: int, index: int) -> int:
    """The opponent's seed of game `index` of a batch: the same for every
    candidate, so they are compared on the same dice (common random numbers)."""
    return (seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9 + 1) % 2 ** 64


@overload
def versus(players: Sequence[Sequence[float]], geometry: Rules, c: int, kind: str,
           games_each_colour: int, seed: int, runner: ChunkMapper, depth: int = 4,
           lengths: Literal[False] = False) -> list[list[Game]]: ...


@overload
def versus(players: Sequence[Sequence[float]], geometry: Rules, c: int, kind: str,
           games_each_colour: int, seed: int, runner: ChunkMapper, depth: int = 4, *,
           lengths: Literal[True]) -> list[list[TimedGame]]: ...


def versus(players: Sequence[Sequence[float]], geometry: Rules, c: int, kind: str,
           games_each_colour: int, seed: int, runner: ChunkMapper, depth: int = 4,
           lengths: bool = False) -> list[list[Game]] | list[list[TimedGame]]:
    """Each player plays `games_each_colour` games moving first and as many
    moving second against a fresh `kind` opponent ("random" or "minimax").
    Returns, per player, its games as (outcome, second), or with `lengths`
    (outcome, second, plies played)."""
    tasks: list[VersusTask] = []
    for values in players:
        for me in (0, 1):
            for k in range(games_each_colour):
                tasks.append((geometry, c, list(values), kind, depth, game_seed(seed, 2 * k + me), me))
    outcomes = runner.map_chunks(versus_task, tasks)
    per = 2 * games_each_colour
    timed = [[(o, t[6] == 1, plies)
              for (o, plies), t in zip(outcomes[p * per:(p + 1) * per], tasks[p * per:(p + 1) * per])]
             for p in range(len(players))]
    if lengths:
        return timed
    return [[(o, second) for o, second, _ in games] for games in timed]


def tallies(games: Sequence[Game]) -> tuple[GameTally, GameTally]:
    """(moving first, moving second) tallies of one player's games."""
    first, second = GameTally(), GameTally()
    for outcome, moved_second in games:
        (second if moved_second else first).count(outcome)
    return first, second
