"""The player driver's CPU per move, alone: clinea's Python random player
(players/random) plays N games of 7x6 against this script, which answers
with random legal columns over the pipes as a judge does, one line at a
time; the player's CPU (its rusage) less its start-up, per move it made.
Nothing of a judge is measured: only what a move costs the player.

The script takes --think seconds (busy) before each answer, as the
opponent and the judge do in a game: the player then waits for every line,
as in a game, and its sleep and wake-up in read() count. Without it the
figure depends on whether the player is faster than this script: a slower
one finds each line already there and never sleeps (measured: 0.01 against
0.84 sleeps a move), which would flatter the slower.

--against DIR measures the clinea checkout in DIR (built with make) the
same way, interleaved run for run, and prints the ratio of each pair's
CPU per move (median of the pairs).

example:
  python benchmarks/driver.py --games 2000 --repeats 5
  python benchmarks/driver.py --against /tmp/clinea-616b026
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import time

from clinea.core import Board

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZE = (7, 6, 4, 21)
# The measured processes cache their bytecode as Python does by default (see benchmarks/judge.py).
ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def cpu_seconds(usage) -> float:
    return usage.ru_utime + usage.ru_stime


class Lines:
    """The player's stdout as lines, read with os.read."""

    def __init__(self, fd: int):
        self.fd, self.buffer = fd, b""

    def next(self) -> bytes:
        while b"\n" not in self.buffer:
            chunk = os.read(self.fd, 4096)
            if not chunk:
                raise EOFError("the player closed its output")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line


def think(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def play_games(player: str, games: int, seed: int, thinking: float = 0.0) -> tuple[float, int]:
    """(CPU seconds of the player, moves it made) over `games` games, this
    side thinking `thinking` seconds before each line it sends."""
    rng = random.Random(seed)
    process = subprocess.Popen([player], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=ENVIRONMENT,
                               cwd=os.sep)  # not a checkout: `python -m` must find the installed clinea
    to_player, lines = process.stdin.fileno(), Lines(process.stdout.fileno())
    moves = 0
    for game in range(games):
        board = Board(*SIZE)
        me = game % 2  # the player moves first in even games
        os.write(to_player, f"{'azul rojo' if me == 0 else 'rojo azul'}\n{' '.join(map(str, SIZE))}\n"
                            f"{'vos' if me == 0 else 'el'}\n".encode())
        while True:
            if board.side_to_move == me:
                board.play(int(lines.next()))
                moves += 1
            else:
                column = rng.choice(board.legal_columns())
                board.play(column)
            if board.is_over():
                winner = board.winner
                word = "empataron" if winner is None else ("ganaste" if winner == me else "perdiste")
                os.write(to_player, f"{word}\n".encode())
                break
            if board.side_to_move == me:
                think(thinking)
                os.write(to_player, f"{column}\n".encode())
    os.write(to_player, b"salir\n")
    if lines.next() != b"listo":
        sys.exit(f"{player}: no 'listo' after 'salir'")
    process.stdin.close()
    _, status, usage = os.wait4(process.pid, 0)
    process.stdout.close()
    if status != 0:
        sys.exit(f"{player} exited with status {os.waitstatus_to_exitcode(status)}")
    return cpu_seconds(usage), moves


def startup_cpu(player: str) -> float:
    """CPU seconds of starting the player and telling it `salir` at once."""
    process = subprocess.Popen([player], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, env=ENVIRONMENT, cwd=os.sep)
    process.stdin.write(b"salir\n")
    process.stdin.close()
    _, _, usage = os.wait4(process.pid, 0)
    return cpu_seconds(usage)


def per_move_us(player: str, games: int, seed: int, thinking: float) -> float:
    """Microseconds of player CPU per move, its start-up (median of three) apart."""
    played, moves = play_games(player, games, seed, thinking)
    start = statistics.median(startup_cpu(player) for _ in range(3))
    return 1e6 * (played - start) / moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="games a run (default 2000)")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each checkout (default 5)")
    parser.add_argument("--think", type=float, default=50e-6, metavar="S",
                        help="seconds this script thinks before each line it sends (default 50e-6)")
    parser.add_argument("--against", metavar="DIR", help="another clinea checkout to compare with (default: none)")
    args = parser.parse_args()
    for name in ("games", "repeats"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} {getattr(args, name)}: must be at least 1")
    if not 0 <= args.think <= 1:
        parser.error(f"--think {args.think}: must be between 0 and 1 second")
    players = {"this": os.path.join(REPO, "players", "random")}
    if args.against:
        players["against"] = os.path.join(os.path.abspath(args.against), "players", "random")
        if not os.access(players["against"], os.X_OK):
            parser.error(f"--against {args.against}: no {players['against']}; run make there first")
    runs: dict[str, list[float]] = {name: [] for name in players}
    for repeat in range(args.repeats):
        # who goes first alternates: neither gets the machine's better moments by its place
        for name, player in list(players.items())[::1 if repeat % 2 == 0 else -1]:
            runs[name].append(per_move_us(player, args.games, repeat, args.think))
    this = runs["this"]
    print(f"player driver, random player on 7x6, {args.games} games a run, the other side thinking "
          f"{1e6 * args.think:.0f} us a move; CPU per move (start-up apart), "
          f"median of {args.repeats} runs: {statistics.median(this):.1f} us (min {min(this):.1f}, max {max(this):.1f})")
    if args.against:
        theirs = runs["against"]
        print(f"  --against: {statistics.median(theirs):.1f} us (min {min(theirs):.1f}, max {max(theirs):.1f}); "
              f"this / --against x{statistics.median(a / b for a, b in zip(this, theirs)):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
