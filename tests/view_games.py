"""Results files for the replay page's tests, played in process through the
judge's own referee (clinea.judge.play_bots, in its C loop for random
players) and written as `clinea judge --results` writes them: a run header,
then one sealed record per game."""
import json
from pathlib import Path

from clinea.core import Board, Rules
from clinea.judge.referee import play_bots
from clinea.judge.results import ResultLog
from clinea.judge.tournament import GameSpec, record
from clinea.players.bot import Bot
from clinea.training.games import FastRandomBot


class OffTheBoard(Bot):
    """Plays one column past the right edge on its `at`-th move."""

    def __init__(self, at: int):
        self.at = at
        self.played = 0

    def new_game(self, board: Board, me: int) -> None:
        self.played = 0

    def choose(self, board: Board) -> int:
        self.played += 1
        return board.columns if self.played == self.at else board.legal_columns()[0]


def write_results(path: Path, size: Rules, games: int, seed: int = 1, forfeit: bool = False) -> list[dict]:
    """`games` games between two random players (colours and first move
    alternating, as the judge's tournaments do), and with `forfeit` one more
    lost by a move off the board. Returns the records as JSON."""
    log = ResultLog(str(path))
    log.write_header({"argv": ["--player", "a=random", "--player", "b=random"]})
    bots = {"a": FastRandomBot(seed), "b": FastRandomBot(seed + 1)}
    specs = [GameSpec(f"a|b|{k}", *(("a", "b") if k % 2 == 0 else ("b", "a")),
                      ("azul", "rojo") if k % 4 < 2 else ("rojo", "azul")) for k in range(games)]
    for spec in specs:
        log.append(record(spec, size, play_bots(bots[spec.first], bots[spec.second], *size)))
    if forfeit:
        spec = GameSpec("a|c|0", "a", "c", ("azul", "rojo"))
        log.append(record(spec, size, play_bots(FastRandomBot(seed), OffTheBoard(3), *size, in_core=False)))
    log.close()
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]
