"""Time per move of every registered player, in-process games against random.

For each player in clinea.players.registry and each board (7x6 c=4, 9x8 c=5,
20x20 c=5) it plays --games games against the random player (alternating who
starts) and prints the median and maximum milliseconds per move of the player
(random's moves are not timed). Players are built from their own default
options plus OPTIONS below: strong gets --time-per-move 0.2 here. Each
(player, board) runs in a child process with a time limit, so a player that
cannot finish a move on a board (an exact one on 7x6) is stopped after
--timeout seconds: the moves it finished are reported, or "no move".
"""
import argparse
import multiprocessing
import queue as queue_module
import statistics
import time

from plots import time_panels

from clinea.core import Board
from clinea.players.driver import build_parser
from clinea.players.random_player import RandomBot
from clinea.players.registry import load, players

BOARDS = [("7x6 c=4", 7, 6, 4), ("9x8 c=5", 9, 8, 5), ("20x20 c=5", 20, 20, 5)]

# options that make a game take seconds rather than hours
OPTIONS: dict[str, list[str]] = {
    "strong": ["--time-per-move", "0.2"],
}


def time_moves(name: str, columns: int, rows: int, c: int, games: int, seed: int, report=None) -> list[float]:
    """Seconds per move of player `name` over `games` games against random;
    `report(seconds)` is called after each of its moves."""
    bot_class = load(name)
    bot = bot_class.from_args(build_parser(bot_class, name).parse_args(OPTIONS.get(name, [])))
    times = []
    for game in range(games):
        opponent = RandomBot(seed=seed + game)
        board = Board(columns, rows, c)
        side = game % 2
        bot.new_game(board.copy(), side)
        opponent.new_game(board.copy(), 1 - side)
        while not board.is_over():
            if board.side_to_move == side:
                start = time.perf_counter()
                col = bot.choose(board)
                times.append(time.perf_counter() - start)
                if report:
                    report(times[-1])
            else:
                col = opponent.choose(board)
            board.play(col)
    return times


def _child(queue, *args):
    time_moves(*args, report=queue.put)
    queue.put(None)


def measure(name: str, columns: int, rows: int, c: int, games: int, seed: int,
            timeout: float) -> tuple[list[float], bool]:
    """Move times from a child process, and whether it ran out of `timeout`
    seconds (then the moves it finished are kept and the child is stopped)."""
    queue = multiprocessing.Queue()
    child = multiprocessing.Process(target=_child, args=(queue, name, columns, rows, c, games, seed))
    child.start()
    deadline = time.monotonic() + timeout
    times = []
    timed_out = False
    try:
        while True:
            try:
                item = queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue_module.Empty:
                timed_out = True
                break
            if item is None:
                break
            times.append(item)
    finally:
        if timed_out:
            child.terminate()
        child.join()
    return times, timed_out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example:\n  python benchmarks/players.py --games 4 --players strong evaluator")
    parser.add_argument("--games", type=int, default=4, help="games per player and board (default 4)")
    parser.add_argument("--players", nargs="*", default=sorted(players()), help="default: every registered player")
    parser.add_argument("--timeout", type=float, default=30,
                        help="seconds per player and board (default 30): exact players cannot finish these boards")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", default="results/player-times.png", help="PNG of the time curves (default %(default)s)")
    args = parser.parse_args()
    panels = {label: {} for label, *_ in BOARDS}
    print(f"time per move against random, {args.games} games per board; "
          f"options: {OPTIONS or 'defaults'}")
    print(f"{'player':18} {'board':10} {'moves':>6} {'median ms':>10} {'max ms':>10}")
    for name in args.players:
        for label, columns, rows, c in BOARDS:
            times, timed_out = measure(name, columns, rows, c, args.games, args.seed, args.timeout)
            note = f"  (stopped after {args.timeout:g} s)" if timed_out else ""
            panels[label][name] = times  # empty: named in the plot as giving no move in time
            if not times:
                print(f"{name:18} {label:10} {'no move within ' + format(args.timeout, 'g') + ' s':>38}")
                continue
            print(f"{name:18} {label:10} {len(times):6d} {1000 * statistics.median(times):10.3f} "
                  f"{1000 * max(times):10.3f}{note}", flush=True)
    time_panels(args.plot, panels, f"time per move against random, {args.games} games per board", "time per move")

if __name__ == "__main__":
    main()
