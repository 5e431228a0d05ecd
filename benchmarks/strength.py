"""Strength of `strong` against peers: a perfect 7x6 player and OpenSpiel's
C++ MCTS on the big boards. Games run in process, one move at a time; only
the figures are printed (no assertion: goals live here, not in the tests).

1. 7x6 against the exact solver (which plays a move keeping the exact score,
   fastest win, slowest loss), from each two-move opening with strong on
   either side, at --time-per-move seconds for strong: the count of games
   strong ends worse than the opening's value (solved by our solver), and a
   game from the empty board with strong moving first; strong's median and
   worst move time. Strong thinks on the opponent's time for as long as an
   opponent at equal time would take (--no-ponder: it does not).
2. Against OpenSpiel's MCTSBot (C++, random rollouts, its solver on,
   --simulations) on 9x8 c5, 10x9 c4, 14x12 c6 at equal work: each of
   strong's moves gets the median CPU time of MCTS's moves so far on that
   board (three calibration moves from the empty board, then the games'),
   and strong does not think on MCTS's time (--mcts-ponder: it does, and
   that CPU is counted to strong in the printed CPU ratio). Games come in
   pairs from the same random opening (--plies moves), colours swapped.
   W-D-L, score and its 95 % interval per board. --record FILE appends every
   game strong did not win (board, strong's side, the moves) as JSON lines,
   to replay the positions it went wrong in.
3. A time-odds ladder (--ladder T): strong at T s a move against strong at
   4T on paired openings of each board, no pondering.

Needs `open_spiel` (make bench-strength installs it into .venv).

example:
  python benchmarks/strength.py --openings 49 --games 20
  python benchmarks/strength.py --games 0            # 7x6 alone
  python benchmarks/strength.py --openings 4 --games 2 --simulations 1000
  python benchmarks/strength.py --openings 0 --boards 10x9c4 --record lost.jsonl
  python benchmarks/strength.py --openings 0 --boards 9x8c5 --simulations 100000 --games 40 --ladder 0
"""
from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import time

from tqdm import tqdm

from clinea.core import Board
from clinea.core.solver import Solver
from clinea.core.timeman import Limits
from clinea.judge.stats import estimate, score_from_elo
from clinea.players.strong_player import StrongBot

BIG_BOARDS = [(9, 8, 5), (10, 9, 4), (14, 12, 6)]


def result_for(board: Board, side: int) -> int:
    """1 win, 0 draw, -1 loss for `side` (0: the first player) of a finished game."""
    if board.winner is None:
        return 0
    return 1 if board.winner == side else -1


def play_against_perfect(opening: list[int], strong_side: int, time_per_move: float,
                         perfect: Solver, ponder: bool, move_times: list[float],
                         nodes: int = 0) -> tuple[int, int]:
    """(value for strong of the opening, result for strong) of one game;
    strong's seconds per move go to `move_times`.

    The perfect opponent's own search takes anything from microseconds to
    seconds, so it cannot stand for the opponent's clock: as in a match at
    equal time, strong ponders (when `ponder`) for `time_per_move` seconds
    after each of its moves, then stops, and only then is the opponent's
    move computed. With `nodes`, strong has that many nodes a move instead
    of a clock, and ponders as many: the same games on any machine, loaded
    or not."""
    board = Board.from_moves(opening)
    value = perfect.solve(board, weak=True)
    if board.side_to_move != strong_side:
        value = -value
    bot = StrongBot(time_per_move=3600.0, max_nodes=nodes) if nodes else StrongBot(time_per_move=time_per_move)
    bot.new_game(board.copy(), strong_side)
    while not board.is_over():
        if board.side_to_move == strong_side:
            start = time.perf_counter()
            board.play(bot.choose(board.copy()))
            move_times.append(time.perf_counter() - start)
            if ponder and not board.is_over():
                bot.ponder(board.copy())
                if nodes and bot.pondering is not None:
                    bot.pondering.join()  # until its nodes run out
                else:
                    time.sleep(time_per_move)
                bot.stop_pondering()
        else:
            board.play(perfect.play_value(board)[0])
    return value, result_for(board, strong_side)


def perfect_7x6(openings: int, time_per_move: float, ponder: bool, nodes: int) -> None:
    perfect = Solver()
    games = [([a, b], side) for a in range(7) for b in range(7) for side in (0, 1)][:2 * openings]
    losing = []
    move_times: list[float] = []
    for opening, side in tqdm(games, desc="7x6 vs perfect", unit="game"):
        value, result = play_against_perfect(opening, side, time_per_move, perfect, ponder, move_times, nodes)
        if result < value:
            losing.append((opening, side, value, result))
    budget = f"{nodes} nodes" if nodes else f"{time_per_move} s"
    print(f"7x6 vs the exact solver, {budget} a move, {'pondering' if ponder else 'no pondering'}: "
          f"{len(losing)} of {len(games)} games ended worse than the opening's exact value")
    for opening, side, value, result in losing:
        print(f"  opening {opening} strong {'first' if side == 0 else 'second'}: value {value}, result {result}")
    value, result = play_against_perfect([], 0, time_per_move, perfect, ponder, move_times, nodes)
    print(f"7x6 from the empty board, strong first: result {result} (value {value})")
    late = sum(t > time_per_move for t in move_times)
    if not nodes:
        print(f"strong's move times: median {statistics.median(move_times) * 1000:.1f} ms, "
              f"worst {max(move_times) * 1000:.1f} ms, {late} of {len(move_times)} over {time_per_move} s")


def mcts_bot(pyspiel, game, simulations: int, seed: int):
    """OpenSpiel's C++ MCTS with random rollouts and its solver on (a proven
    win or loss in the tree is played as such)."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 1000, True, seed, False)


def paired_openings(columns: int, rows: int, c: int, pairs: int, plies: int, seed: int) -> list[list[int]]:
    """`pairs` openings of `plies` random moves that leave the game open,
    each to be played twice, with the colours swapped."""
    rng = random.Random(seed)
    openings = []
    while len(openings) < pairs:
        board = Board(columns, rows, c)
        for _ in range(plies):
            board.play(rng.choice(board.legal_columns()))
        if not board.is_over():
            openings.append(board.moves())
    return openings


def calibrate(pyspiel, game, simulations: int, seed: int, samples: int = 3) -> list[float]:
    """CPU seconds of `samples` MCTS moves from the empty board."""
    times = []
    for i in range(samples):
        state = game.new_initial_state()
        bot = mcts_bot(pyspiel, game, simulations, seed + i)
        start = time.thread_time()
        bot.step(state)
        times.append(time.thread_time() - start)
    return times


def play_against_mcts(pyspiel, game, columns: int, rows: int, c: int, opening: list[int], strong_side: int,
                      mcts_cpu: list[float], strong_cpu: list[float], simulations: int,
                      seed: int, ponder: bool) -> tuple[int, list[int]]:
    """(result for strong, the moves) of one game from `opening`.

    Equal work, not only equal time: each of strong's moves gets the median
    CPU time of MCTS's moves so far on this board (its calibration moves and
    the games'; the clock's 1 ms floor at least), measured on the thread
    MCTS runs in. Without `ponder` strong thinks only on its own turns, so
    its CPU is its thinking; with `ponder` it also thinks while MCTS does,
    and that CPU (the process's less MCTS's) is counted to strong as well.
    Each game appends MCTS's CPU seconds per move and strong's (thinking
    and pondering over its moves) to the two lists."""
    board = Board.from_moves(opening, columns, rows, c)
    state = game.new_initial_state()
    for col in opening:
        state.apply_action(col)
    bot = StrongBot(time_per_move=max(statistics.median(mcts_cpu), 0.001), ponder=ponder)
    bot.new_game(board.copy(), strong_side)
    opponent = mcts_bot(pyspiel, game, simulations, seed)
    process_start, mcts_spent, strong_moves = time.process_time(), 0.0, 0
    while not board.is_over():
        if board.side_to_move == strong_side:
            bot.limits = Limits(time=max(statistics.median(mcts_cpu), 0.001))
            col = bot.choose(board.copy())
            strong_moves += 1
        else:
            start = time.thread_time()
            col = opponent.step(state)
            spent = time.thread_time() - start
            mcts_cpu.append(spent)
            mcts_spent += spent
            bot.stop_pondering()
        board.play(col)
        state.apply_action(col)
        if ponder and board.side_to_move != strong_side and not board.is_over():
            bot.ponder(board.copy())
    bot.stop_pondering()
    if strong_moves:
        strong_cpu.append((time.process_time() - process_start - mcts_spent) / strong_moves)
    return result_for(board, strong_side), board.moves()


def interval(tally: dict[int, int]) -> str:
    found = estimate(tally[1], tally[-1], tally[0])
    low, high = score_from_elo(found.low), score_from_elo(found.high)
    return f"W-D-L {tally[1]}-{tally[0]}-{tally[-1]}, score {found.score:.1%} [{low:.1%}, {high:.1%}]"


def against_mcts(boards: list[tuple[int, int, int]], games: int, simulations: int, seed: int,
                 record: str | None, ponder: bool, plies: int) -> None:
    import pyspiel
    for columns, rows, c in boards:
        game = pyspiel.load_game("connect_four", {"columns": columns, "rows": rows, "x_in_row": c})
        mcts_cpu = calibrate(pyspiel, game, simulations, seed)
        strong_cpu: list[float] = []
        tally = {1: 0, 0: 0, -1: 0}
        openings = paired_openings(columns, rows, c, (games + 1) // 2, plies, seed)
        schedule = [(opening, side) for opening in openings for side in (0, 1)][:games]
        for i, (opening, side) in enumerate(tqdm(schedule, desc=f"{columns}x{rows} c{c} vs MCTS", unit="game")):
            result, moves = play_against_mcts(pyspiel, game, columns, rows, c, opening, side, mcts_cpu,
                                              strong_cpu, simulations, seed + i, ponder)
            tally[result] += 1
            if record and result < 1:
                with open(record, "a") as out:
                    out.write(json.dumps({"board": [columns, rows, c], "strong": side, "result": result,
                                          "simulations": simulations,
                                          "seconds": statistics.median(mcts_cpu), "moves": moves}) + "\n")
        strong_median = statistics.median(strong_cpu) if strong_cpu else float("nan")
        mcts_median = statistics.median(mcts_cpu)
        print(f"{columns}x{rows} c{c} vs MCTS {simulations} simulations (solver on), {len(schedule)} games from "
              f"{len(openings)} paired {plies}-ply openings, strong given MCTS's running median CPU a move "
              f"({'pondering counted to strong' if ponder else 'no pondering'}; CPU per move: MCTS "
              f"{mcts_median:.3f} s, strong {strong_median:.3f} s, ratio {strong_median / mcts_median:.2f}): "
              f"{interval(tally)}")


def time_odds(boards: list[tuple[int, int, int]], seconds: float, odds: float, pairs: int, plies: int,
              seed: int) -> None:
    """strong at `seconds` a move against strong at `odds` times as much, on
    paired openings, no pondering: how much its strength still grows with
    time (a score near 50 % means more time buys nothing)."""
    for columns, rows, c in boards:
        tally = {1: 0, 0: 0, -1: 0}
        openings = paired_openings(columns, rows, c, pairs, plies, seed)
        for opening in tqdm(openings, desc=f"{columns}x{rows} c{c} time odds", unit="pair"):
            for short_side in (0, 1):
                board = Board.from_moves(opening, columns, rows, c)
                bots = {short_side: StrongBot(time_per_move=seconds, ponder=False),
                        1 - short_side: StrongBot(time_per_move=seconds * odds, ponder=False)}
                for side, bot in bots.items():
                    bot.new_game(board.copy(), side)
                while not board.is_over():
                    board.play(bots[board.side_to_move].choose(board.copy()))
                tally[result_for(board, short_side)] += 1
        print(f"{columns}x{rows} c{c} time odds: strong at {seconds:g} s against strong at {seconds * odds:g} s, "
              f"{2 * len(openings)} games from {len(openings)} paired {plies}-ply openings: {interval(tally)} "
              f"for the shorter clock")


def board_spec(text: str) -> tuple[int, int, int]:
    """'10x9c4' to (10, 9, 4)."""
    found = re.fullmatch(r"(\d+)x(\d+)c(\d+)", text.replace(" ", ""))
    if not found:
        raise argparse.ArgumentTypeError(f"board {text!r}: expected COLUMNSxROWScC, as 10x9c4")
    return tuple(map(int, found.groups()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__[__doc__.index("example:"):],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--openings", type=int, default=49, help="two-move openings on 7x6, 0..49 (default 49)")
    parser.add_argument("--time-per-move", type=float, default=0.05,
                        help="strong's seconds a move on 7x6 (default 0.05)")
    parser.add_argument("--games", type=int, default=20, help="games per big board against MCTS (default 20)")
    parser.add_argument("--simulations", type=int, default=10000, help="MCTS simulations a move (default 10000)")
    parser.add_argument("--nodes-per-move", type=int, default=0, metavar="N",
                        help="on 7x6, N nodes a move (and as many pondering) instead of the clock: the same "
                             "games loaded or not (default 0: the clock)")
    parser.add_argument("--no-ponder", action="store_true",
                        help="strong does not think on the opponent's time (default: it does, as in a match "
                             "on two cores or more)")
    parser.add_argument("--boards", type=board_spec, nargs="+", default=BIG_BOARDS, metavar="BOARD",
                        help="big boards against MCTS, as 10x9c4 (default 9x8c5 10x9c4 14x12c6)")
    parser.add_argument("--record", metavar="FILE",
                        help="append the games against MCTS strong did not win to FILE, one JSON line each")
    parser.add_argument("--mcts-ponder", action="store_true",
                        help="against MCTS, strong thinks on MCTS's time too, its CPU counted (default: not)")
    parser.add_argument("--plies", type=int, default=2,
                        help="random moves of each paired opening on the big boards (default 2)")
    parser.add_argument("--ladder", type=float, nargs="?", const=0.05, default=0.05, metavar="T",
                        help="the time-odds ladder: strong at T s a move against strong at 4T on --boards "
                             "(default 0.05; 0: none)")
    parser.add_argument("--ladder-pairs", type=int, default=10,
                        help="paired openings of the ladder per board (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.openings:
        perfect_7x6(args.openings, args.time_per_move, not args.no_ponder, args.nodes_per_move)
    if args.games:
        against_mcts(args.boards, args.games, args.simulations, args.seed, args.record, args.mcts_ponder,
                     args.plies)
    if args.ladder:
        time_odds(args.boards, args.ladder, 4.0, args.ladder_pairs, args.plies, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
