"""Scoring players from game results: the seed's two fitness formulas, the
tallies the evaluations print, and the batches of games they come from.

A game is seen from one player as (outcome, second): outcome 1 win, 0 draw,
-1 loss; `second` True when that player moved second.
"""
from __future__ import annotations

import statistics
from collections.abc import Sequence

from clinea.core import Rules
from clinea.judge.report import Tally as JudgeTally
from clinea.training.games import greedy, opponent, play

WIN, DRAW, LOSS = 1, 0, -1
# fitness 2: loss / draw / win, and the bonus for having moved second
POINTS = {LOSS: 0, DRAW: 5, WIN: 10}
SECOND_BONUS = {LOSS: 1, DRAW: 2, WIN: 4}


def outcome_for(winner, me: int) -> int:
    """WIN, DRAW or LOSS for player `me` (0 first, 1 second) of a game won by `winner`."""
    if winner is None:
        return DRAW
    return WIN if winner == me else LOSS


def fitness_not_lost(games: Sequence[tuple[int, bool]]) -> float:
    """Fitness 1: the share of games not lost."""
    if not games:
        return 0.0
    return sum(outcome != LOSS for outcome, _ in games) / len(games)


def fitness_points(games: Sequence[tuple[int, bool]]) -> float:
    """Fitness 2: 0 / 5 / 10 for loss / draw / win, plus 1 / 2 / 4 when moving
    second, divided by the number of games."""
    if not games:
        return 0.0
    return sum(POINTS[o] + (SECOND_BONUS[o] if second else 0) for o, second in games) / len(games)


FITNESS = {1: fitness_not_lost, 2: fitness_points}

SPEED_BONUS = 4


def fitness_fast_wins(games: Sequence[tuple[int, bool, int]], max_plies: int) -> float:
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


class Tally(JudgeTally):
    """The judge's win/loss/draw tally, fed with training's outcomes."""

    def count(self, outcome: int) -> None:
        self.add(OUTCOME_NAMES[outcome])

    @classmethod
    def of(cls, games: Sequence[tuple[int, bool]]) -> Tally:
        """The tally of a list of (outcome, second)."""
        tally = cls()
        for outcome, _ in games:
            tally.count(outcome)
        return tally

    @property
    def margin(self) -> int:
        """wins - losses"""
        return self.wins - self.losses


def summary(values: Sequence[float]) -> dict:
    """best, worst, mean and median of a list of fitness values."""
    return {"best": max(values), "worst": min(values),
            "mean": statistics.fmean(values), "median": statistics.median(values)}


# ---------------------------------------------------------------- batches
# Top-level functions over plain data, so Runner can ship them to workers.

def round_robin_task(task: list) -> list:
    """[(geometry, c, population, i, j)] -> [(i, j, winner)]: i moves first."""
    out = []
    bots = {}
    for geometry, c, population, i, j in task:
        for k in (i, j):
            if k not in bots:
                bots[k] = greedy(population[k], c)
        out.append((i, j, play(bots[i], bots[j], geometry).winner))
    return out


def versus_task(task: list) -> list:
    """[(geometry, c, values, kind, depth, seed, me)] -> [(outcome for the
    greedy player, which moves first when me == 0, plies played)]."""
    out = []
    player, made_for = None, None
    for geometry, c, values, kind, depth, seed, me in task:
        if player is None or made_for != values:
            # compared with the vector given, not the player's own weights:
            # the report's parametrisation holds more than those
            player, made_for = greedy(values, c), values
        other = opponent(kind, seed, depth)
        pair = (player, other) if me == 0 else (other, player)
        result = play(*pair, geometry)
        out.append((outcome_for(result.winner, me), len(result.moves)))
    return out


def round_robin(population: Sequence[Sequence[float]], geometry: Rules, c: int, runner) -> list[list]:
    """Every ordered pair plays once (so every pair twice, once in each
    colour). Returns, per individual, its games as (outcome, second)."""
    population = [list(v) for v in population]
    n = len(population)
    tasks = [(geometry, c, population, i, j) for i in range(n) for j in range(n) if i != j]
    games = [[] for _ in range(n)]
    for i, j, winner in runner.map_chunks(round_robin_task, tasks):
        games[i].append((outcome_for(winner, 0), False))
        games[j].append((outcome_for(winner, 1), True))
    return games


def game_seed(seed: int, index: int) -> int:
    """The opponent's seed of game `index` of a batch: the same for every
    candidate, so they are compared on the same dice (common random numbers)."""
    return (seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9 + 1) % 2 ** 64


def versus(players: Sequence[Sequence[float]], geometry: Rules, c: int, kind: str,
           games_each_colour: int, seed: int, runner, depth: int = 4, lengths: bool = False) -> list[list]:
    """Each player plays `games_each_colour` games moving first and as many
    moving second against a fresh `kind` opponent ("random" or "minimax").
    Returns, per player, its games as (outcome, second), or with `lengths`
    (outcome, second, plies played)."""
    tasks = []
    for values in players:
        for me in (0, 1):
            for k in range(games_each_colour):
                tasks.append((geometry, c, list(values), kind, depth, game_seed(seed, 2 * k + me), me))
    outcomes = runner.map_chunks(versus_task, tasks)
    per = 2 * games_each_colour
    return [[(o, t[6] == 1, plies) if lengths else (o, t[6] == 1)
             for (o, plies), t in zip(outcomes[p * per:(p + 1) * per], tasks[p * per:(p + 1) * per])]
            for p in range(len(players))]


def tallies(games: Sequence[tuple[int, bool]]) -> tuple[Tally, Tally]:
    """(moving first, moving second) tallies of one player's games."""
    first, second = Tally(), Tally()
    for outcome, moved_second in games:
        (second if moved_second else first).count(outcome)
    return first, second
