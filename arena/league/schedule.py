"""Which game a league plays next.

Every game is game k of a pairing a-b (names sorted), under the judge's
stable id `a|b|k` (clinea.judge.tournament.pairing_game): the results file
says which are done, so a restarted league plays each missing k once and
never one twice. In order of need:

1. calibration: every pair of baselines plays `calibration_games`, once
   in the folder's life, to fix the baselines' ratings;
2. rating: every bot plays `rating_games` against each baseline;
3. then every pairing with a bot in it, the one with the fewest games
   first, up to `max_games` a pairing.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable

from clinea.judge.tournament import GameSpec, pairing_game


def pairing_of(game_id: str) -> tuple[str, str, int] | None:
    """(a, b, k) of a league game id, None for any other id."""
    parts = game_id.split("|")
    if len(parts) != 3 or not parts[2].isdigit():
        return None
    return parts[0], parts[1], int(parts[2])



def pair_key(a: str, b: str) -> tuple[str, str]:
    """A pairing's key: its two names in order."""
    first, second = sorted((a, b))
    return first, second

class LeagueSchedule:
    """The games played and in flight, and the choice of the next one."""

    def __init__(self, baselines: Iterable[str], calibration_games: int, rating_games: int, max_games: int):
        self.baselines = sorted(baselines)
        self.calibration_games = calibration_games
        self.rating_games = rating_games
        self.max_games = max_games
        self.taken: dict[tuple[str, str], set[int]] = {}  # the k of games done or in flight
        self.done: dict[tuple[str, str], int] = {}
        self.bots: list[str] = []

    def finished(self, game_id: str) -> None:
        """A game is in the results file."""
        pairing = pairing_of(game_id)
        if pairing is not None:
            a, b, k = pairing
            self.taken.setdefault((a, b), set()).add(k)
            self.done[a, b] = self.done.get((a, b), 0) + 1

    def dropped(self, game_id: str) -> None:
        """A game in flight that will not count (a player was removed): its k is free again."""
        pairing = pairing_of(game_id)
        if pairing is not None:
            self.taken.get(pairing[:2], set()).discard(pairing[2])

    def games(self, a: str, b: str) -> int:
        """Games of the pairing done or in flight."""
        return len(self.taken.get(pair_key(a, b), ()))

    def calibrated(self) -> bool:
        """Every calibration game is in the results file."""
        return all(self.done.get(pair, 0) >= self.calibration_games
                   for pair in itertools.combinations(self.baselines, 2))

    def rated(self, bot: str) -> bool:
        """The bot has its rating games against every baseline in the results file."""
        return all(self.done.get(pair_key(bot, base), 0) >= self.rating_games for base in self.baselines)

    def next(self, calibrated: bool) -> GameSpec | None:
        """The next game to play (marked in flight), None when nothing is due."""
        if not calibrated:
            due = [(pair, self.calibration_games) for pair in itertools.combinations(self.baselines, 2)]
        else:
            due = [(pair_key(bot, base), self.rating_games) for bot in self.bots for base in self.baselines]
            if not any(self.games(*pair) < cap for pair, cap in due):
                due = [(pair_key(*pair), self.max_games)
                       for pair in itertools.combinations(self.bots + self.baselines, 2)
                       if pair[0] in self.bots or pair[1] in self.bots]
        open_pairs = [pair for pair, cap in due if self.games(*pair) < cap]
        if not open_pairs:
            return None
        a, b = min(open_pairs, key=lambda pair: (self.games(*pair), pair))
        taken = self.taken.setdefault((a, b), set())
        k = next(k for k in itertools.count() if k not in taken)
        taken.add(k)
        return pairing_game(a, b, k)
