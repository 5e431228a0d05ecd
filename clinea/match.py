"""`clinea match`: random against random, in process, with a tally."""
import argparse
import time

from clinea.core import simulate_random_games
from clinea.players.options import add_board_options, bounded_int, command_parser


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("clinea match", "Play random games in process through the Cython core and print who won.",
                            "example:\n  clinea match --games 100 --columns 7 --rows 6 --c 4")
    parser.add_argument("--games", type=bounded_int("--games", 0), default=100, help="games to play (default 100)")
    add_board_options(parser)
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        tally = simulate_random_games(args.columns, args.rows, args.c, args.p, args.games, args.seed)
    except ValueError as error:
        parser.error(str(error))
    elapsed = time.perf_counter() - start
    print(f"{args.games} games of random vs random on {args.columns}x{args.rows}, c={args.c}")
    print(f"  first player wins : {tally['first']}")
    print(f"  second player wins: {tally['second']}")
    print(f"  draws             : {tally['draws']}")
    print(f"  {elapsed:.3f} s, {args.games / max(elapsed, 1e-9):,.0f} games/s")
    return 0
