"""A small referee for the tests: drives a real player process through the
wire protocol against a random opponent simulated here, checking every column
the player sends with the plain reference rules. Independent of judge/ on
purpose, so that the players are tested against the protocol document rather
than against our own judge."""
from __future__ import annotations

import os
import queue
import random
import signal
import subprocess
import threading
from dataclasses import dataclass, field

from reference_rules import ReferenceGame

HANG_GUARD = 30.0  # seconds: only to turn a hang into a failure, never a speed check


class PlayerProcess:
    def __init__(self, argv: list[str]):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1,
                                     start_new_session=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def receive(self) -> str:
        try:
            line = self.lines.get(timeout=HANG_GUARD)
        except queue.Empty:
            raise AssertionError("player did not answer") from None
        assert line is not None, "player closed its output: " + self.stderr_text()
        assert line.endswith("\n"), f"unterminated line {line!r}"
        return line[:-1]

    def stderr_text(self) -> str:
        self.kill()
        return self.proc.stderr.read()

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


@dataclass
class GameSpec:
    columns: int
    rows: int
    c: int
    p: int
    player_first: bool  # with an opening: the player moves first after it
    moves_left: int | None = None  # start from a random opening leaving this many moves


def random_opening(spec: GameSpec, rng: random.Random) -> list[int]:
    """Random plies that leave the game open with `spec.moves_left` moves to go
    (sent as `vos|el PLY...`, our judge's opening extension)."""
    max_moves = min(2 * spec.p, spec.columns * spec.rows)
    plies = max(0, max_moves - spec.moves_left) if spec.moves_left is not None else 0
    while True:
        game = ReferenceGame(spec.columns, spec.rows, spec.c, spec.p)
        opening = []
        while len(opening) < plies and not game.over():
            # random plies would end a long opening by chance: skip winning ones
            quiet = [col for col in game.legal() if not _completes_line(game, col)]
            if not quiet:
                break
            opening.append(rng.choice(quiet))
            game.play(opening[-1])
        if len(opening) == plies and not game.over():
            return opening


def _completes_line(game: ReferenceGame, col: int) -> bool:
    """Whether the side to move makes c in a row by playing `col`."""
    row = game.grid[col].index(0)
    stone = game.moves % 2 + 1
    for dcol, drow in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            x, y = col + sign * dcol, row + sign * drow
            while 0 <= x < game.columns and 0 <= y < game.rows and game.grid[x][y] == stone:
                run += 1
                x, y = x + sign * dcol, y + sign * drow
        if run >= game.c:
            return True
    return False


@dataclass
class MatchReport:
    results: list[str] = field(default_factory=list)  # "win"/"loss"/"draw" for the player
    games: list[list[int]] = field(default_factory=list)
    exit_code: int | None = None
    stderr: str = ""


def play_match(argv: list[str], games: list[GameSpec], seed: int = 0) -> MatchReport:
    """Plays `games` with one player process, then `salir`; every protocol rule
    the player breaks fails an assertion."""
    rng = random.Random(seed)
    report = MatchReport()
    player = PlayerProcess(argv)
    try:
        for number, spec in enumerate(games):
            colours = ("azul", "rojo") if number % 2 == 0 else ("rojo", "azul")
            player.send(" ".join(colours))
            player.send(f"{spec.columns} {spec.rows} {spec.c} {spec.p}")
            opening = random_opening(spec, rng)
            player.send(" ".join(["vos" if spec.player_first else "el", *map(str, opening)]))
            game = ReferenceGame(spec.columns, spec.rows, spec.c, spec.p)
            for column in opening:
                game.play(column)
            # `me` counts from the empty board, like the players' own
            me = game.moves % 2 if spec.player_first else 1 - game.moves % 2
            while not game.over():
                if game.moves % 2 == me:
                    answer = player.receive()
                    assert answer.lstrip("-").isdigit(), f"not a column: {answer!r}"
                    assert int(answer) in game.legal(), f"illegal column {answer} in {game.legal()}"
                    game.play(int(answer))
                else:
                    column = rng.choice(game.legal())
                    game.play(column)
                    if not game.over():
                        player.send(str(column))
            if game.winner is None:
                # both spellings must be accepted
                player.send("empataron" if number % 2 == 0 else "empataste")
                report.results.append("draw")
            elif game.winner == me:
                player.send("ganaste")
                report.results.append("win")
            else:
                player.send("perdiste")
                report.results.append("loss")
            report.games.append(game)
        player.send("salir")
        assert player.receive() == "listo"
        report.exit_code = player.proc.wait(timeout=HANG_GUARD)
        assert player.lines.get(timeout=HANG_GUARD) is None, "output after listo"
        report.stderr = player.proc.stderr.read()
    finally:
        player.kill()
    return report
