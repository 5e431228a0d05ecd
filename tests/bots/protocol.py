"""A minimal protocol player for the judge's tests, with hooks for
misbehaving. Plain Python, no clinea import: it stands for a student's
program. `run(answer)` plays games until `salir`; `answer(game)` returns the
line to print for the game's next move (game.heights, game.columns,
game.rows, game.mine = moves this player made in the game so far)."""
import random
import sys


class Game:
    def __init__(self, columns, rows, seed):
        self.columns, self.rows = columns, rows
        self.heights = [0] * columns
        self.mine = 0
        self.rng = random.Random(seed)

    def play(self, col):
        self.heights[col] += 1

    def random_legal(self):
        return self.rng.choice([c for c in range(self.columns) if self.heights[c] < self.rows])

    def a_full_column(self):
        full = [c for c in range(self.columns) if self.heights[c] >= self.rows]
        return full[0] if full else None


def readline():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.strip()


def run(answer, seed=1, after_result=None):
    games = 0
    while True:
        line = readline()
        if line == "salir":
            print("listo", flush=True)
            return
        # `line` held the colours, which are irrelevant to a test bot
        columns, rows, _c, _p = map(int, readline().split()[:4])
        start = readline().split()
        game = Game(columns, rows, seed + games)
        games += 1
        for col in start[1:]:  # the judge's opening extension
            game.play(int(col))
        my_turn = start[0] == "vos"
        while True:
            if my_turn:
                text = answer(game)
                game.mine += 1
                try:
                    game.play(int(str(text).split()[0]))
                except (ValueError, IndexError):
                    pass
                sys.stdout.write(f"{text}\n")
                sys.stdout.flush()
            line = readline()
            if line in ("ganaste", "perdiste", "empataron", "empataste"):
                if after_result:
                    after_result(line)
                break
            game.play(int(line))
            my_turn = True


def random_answer(game):
    return game.random_legal()
