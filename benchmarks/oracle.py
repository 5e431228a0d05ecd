"""How often strong's move throws value away, judged by the exact solver.

On the big boards no opponent is perfect, so a match says little about a
single move; an exact label says everything. This benchmark keeps sets of
positions from real games labelled by the exact solver (the win / draw /
loss value of every column) and asks strong, at match budgets, for its move
in each: a move whose value is below the position's value gave a win up (a
won position, a move that does not win) or a draw up (a drawn position, a
move that loses). Only figures are printed; the goals (none given up on
7x6 at 0.05 s, at most 1 % on 9x8 c5 and 14x12 c6 at 1 s) are read from
them, never asserted.

The sets:
- `benchmarks/oracle/9x8c5.txt` and `14x12c6.txt`, made by `--make` (the
  header of each file says how): games of strong against itself at a short
  budget, with random moves mixed in so that both sides err, and from each
  game the positions from its end backwards, as far back as the solver
  labels every column within a node budget. A position where every move
  has the same value cannot be got wrong and is not kept.
- the six standard 7x6 files (`tests/data/pons/`), labelled here with the
  solver and its opening book, which take milliseconds a position.

Each position is given to a fresh strong (its tables empty, no pondering)
whose game set-up (tables, book, lines) is done before its clock starts,
as in the middle of a match: nothing of earlier moves' work is left. On
7x6 it looks for a win beside the draw's proof on a second core as it
does by default (players/win_race.py); `--no-race` measures it on one.

examples:
  python benchmarks/oracle.py                               # every set, 0.1 s and 1 s (7x6: 0.05 s)
  python benchmarks/oracle.py --sets 9x8c5 --budgets 0.1 --sample 100
  python benchmarks/oracle.py --make 9x8c5 --positions 500 --seed 1
  python benchmarks/oracle.py --sets 7x6 --sample 200 --misses   # and the positions it got wrong
  python benchmarks/oracle.py --sets 7x6 --no-race               # strong on one core
  python benchmarks/oracle.py --summary docs/strength-oracle.json  # for strength.py --report --oracle
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import random
import shlex
import statistics
import sys
import time
from dataclasses import dataclass

from tqdm import tqdm

from clinea.core import Board, Rules
from clinea.core.solver import Solver
from clinea.core.timeman import Limits
from clinea.players.strong_player import StrongBot

HERE = os.path.dirname(os.path.abspath(__file__))
SETS_DIR = os.path.join(HERE, "oracle")
PONS_DIR = os.path.join(os.path.dirname(HERE), "tests", "data", "pons")
BIG_SETS = {"9x8c5": Rules(9, 8, 5, 36), "14x12c6": Rules(14, 12, 6, 84)}
STANDARD_FILES = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"]
#: one character per column: the value for the side to move of playing it
MARK = {1: "+", 0: "=", -1: "-", None: "."}
VALUE = {mark: value for value, mark in MARK.items()}


@dataclass
class Labelled:
    moves: list[int]
    values: list[int | None]  # per column, for the side to move; None: not playable

    @property
    def best(self) -> int:
        return max(value for value in self.values if value is not None)


def read_set(path: str, rules: Rules) -> list[Labelled]:
    """A labelled set: `#` header lines, then `COLUMNS VALUES` per position
    (0-based columns separated by commas, one value mark per column)."""
    labelled = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip() or line.startswith("#"):
                continue
            moves_text, marks = line.split()
            moves = [int(col) for col in moves_text.split(",")] if moves_text != "-" else []
            if len(marks) != rules.columns or any(mark not in VALUE for mark in marks):
                raise ValueError(f"{path}:{number}: {marks!r} is not {rules.columns} value marks")
            labelled.append(Labelled(moves, [VALUE[mark] for mark in marks]))
    return labelled


def label(solver: Solver, board: Board, max_nodes: int) -> list[int | None] | None:
    """The weak value of every column, or None if the budget ran out."""
    return solver.analyze(board, weak=True, limits=Limits(nodes=max_nodes))


def standard_set(name: str, solver: Solver, sample: int, rng: random.Random) -> list[Labelled]:
    """Positions of a standard 7x6 file, labelled now (the book makes it quick)."""
    with open(os.path.join(PONS_DIR, name), encoding="utf-8") as lines:
        texts = [line.split()[0] for line in lines if line.strip()]
    if sample:
        texts = rng.sample(texts, min(sample, len(texts)))
    found = []
    for text in texts:
        board = Board.from_string(text)
        values = label(solver, board, 0)
        if values is None:  # pragma: no cover - no budget was given
            raise AssertionError(f"{text}: the solver gave up without a budget")
        found.append(Labelled(board.moves(), values))
    return found


def self_play(rules: Rules, rng: random.Random, seconds: float, noise: float) -> list[int]:
    """One game of strong against itself at `seconds` a move, with the first
    six moves and a `noise` share of the rest random, so that both sides
    make mistakes worth labelling."""
    board = Board(*rules)
    bots = [StrongBot(time_per_move=seconds, ponder=False) for _ in (0, 1)]
    for side, bot in enumerate(bots):
        bot.new_game(board.copy(), side)
    while not board.is_over():
        if board.moves_played < 6 or rng.random() < noise:
            board.play(rng.choice(board.legal_columns()))
        else:
            board.play(bots[board.side_to_move].choose(board.copy()))
    return board.moves()


def make_set(name: str, positions: int, seed: int, max_nodes: int, seconds: float, noise: float,
             folder: str = SETS_DIR) -> None:
    """Writes FOLDER/NAME.txt: `positions` labelled positions where the
    columns' values differ. Each position is appended as soon as it is
    labelled, and a run continues the file it finds (with a seed of its
    own): an interrupted run loses nothing."""
    rules = BIG_SETS[name]
    path = os.path.join(folder, name + ".txt")
    os.makedirs(folder, exist_ok=True)
    kept = {Board.from_moves(position.moves, *rules).key() for position in read_set(path, rules)} \
        if os.path.exists(path) else set()
    rng = random.Random(f"{seed}-{len(kept)}")
    solver = Solver(22)
    games = 0
    started = time.process_time()
    with open(path, "a", encoding="utf-8") as out:
        if not kept:
            out.write(f"# {rules.columns}x{rules.rows} c{rules.c} p{rules.p}: positions labelled by the exact solver\n"
                      f"# made by: python benchmarks/oracle.py --make {name} --positions {positions} --seed {seed} "
                      f"--label-nodes {max_nodes} --self-play {seconds} --noise {noise} (a run continues the file)\n"
                      f"# from games of strong against itself at {seconds} s a move, the first six moves and a "
                      f"{noise:.0%} share of the rest random; positions from each game's end backwards while the "
                      f"solver labels every column within {max_nodes} nodes; only positions whose columns differ "
                      "in value\n"
                      "# a line: the moves (0-based columns) and, per column, the value of playing it for the side "
                      "to move (+ win, = draw, - loss, . not playable)\n")
        bar = tqdm(total=positions, initial=min(len(kept), positions), desc=f"labelling {name}", unit="position")
        while len(kept) < positions:
            moves = self_play(rules, rng, seconds, noise)
            games += 1
            for length in range(len(moves) - 1, 0, -1):
                board = Board.from_moves(moves[:length], *rules)
                if board.key() in kept:
                    continue
                values = label(solver, board, max_nodes)
                if values is None:
                    break  # earlier positions are harder still
                if len({value for value in values if value is not None}) > 1 and len(kept) < positions:
                    kept.add(board.key())
                    out.write(f"{','.join(map(str, board.moves()))} {''.join(MARK[value] for value in values)}\n")
                    out.flush()
                    bar.update()
        bar.close()
    print(f"{path}: {len(kept)} positions ({games} games this run, {time.process_time() - started:.0f} s CPU)")


@dataclass
class Verdicts:
    positions: int = 0
    wins_given_up: int = 0
    draws_given_up: int = 0
    won: int = 0
    drawn: int = 0

    def __add__(self, other: Verdicts) -> Verdicts:
        return Verdicts(*(a + b for a, b in zip(dataclasses.astuple(self), dataclasses.astuple(other))))

    @property
    def given_up(self) -> int:
        return self.wins_given_up + self.draws_given_up


def wilson_upper(failures: int, trials: int, z: float = 1.96) -> float:
    """Upper end of the 95 % Wilson interval of a share."""
    if trials == 0:
        return 1.0
    share = failures / trials
    centre = share + z * z / (2 * trials)
    spread = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    return (centre + spread) / (1 + z * z / trials)


def judge_strong(labelled: list[Labelled], rules: Rules, seconds: float, desc: str,
                 misses: list[str] | None = None, race: bool | None = None) -> tuple[Verdicts, list[float]]:
    """Strong's move in every position, held against its label; each position
    where it loses value is added to `misses` as its moves, its labels and
    strong's column (the line --make writes, plus the column). `race`:
    StrongBot's (None: its default, on two cores with one spare)."""
    verdicts = Verdicts()
    times = []
    for position in tqdm(labelled, desc=desc, unit="position", leave=False):
        board = Board.from_moves(position.moves, *rules)
        bot = StrongBot(time_per_move=seconds, ponder=False, race=race)
        bot.new_game(Board(*rules), 0)  # the set-up for these rules, before the clock
        bot.ready()
        start = time.perf_counter()
        bot.new_game(board.copy(), board.side_to_move)  # set up already: its clock starts here
        col = bot.choose(board.copy())
        times.append(time.perf_counter() - start)
        value, best = position.values[col], position.best
        if value is None:
            raise AssertionError(f"strong played column {col}, which is not playable in {position.moves}")
        verdicts.positions += 1
        verdicts.won += best == 1
        verdicts.drawn += best == 0
        if value < best:
            if misses is not None:
                labels = "".join(MARK[v] for v in position.values)
                misses.append(f"{','.join(map(str, position.moves))} {labels} played {col}")
            if best == 1:
                verdicts.wins_given_up += 1
            else:
                verdicts.draws_given_up += 1
    return verdicts, times


def report(name: str, seconds: float, verdicts: Verdicts, times: list[float]) -> dict[str, object]:
    """Prints a set's line; returns it as --summary keeps it."""
    share = verdicts.given_up / verdicts.positions if verdicts.positions else 0.0
    print(f"{name:10} {seconds:6g} s  {verdicts.positions:5} positions ({verdicts.won} won, {verdicts.drawn} drawn): "
          f"{verdicts.given_up} lose value = {share:6.2%} (95 % upper {wilson_upper(verdicts.given_up, verdicts.positions):.2%}; "
          f"{verdicts.wins_given_up} wins and {verdicts.draws_given_up} draws given up); "
          f"time median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms", flush=True)
    return {"set": name, "seconds": seconds, **dataclasses.asdict(verdicts), "given_up": verdicts.given_up,
            "share": share, "upper": wilson_upper(verdicts.given_up, verdicts.positions),
            "median_ms": statistics.median(times) * 1000, "max_ms": max(times) * 1000}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", nargs="+", default=["7x6", *BIG_SETS], choices=["7x6", *BIG_SETS],
                        help="the labelled sets to judge strong on (default: all)")
    parser.add_argument("--budgets", nargs="+", type=float, default=[0.1, 1.0],
                        help="strong's seconds a move on the big boards (default: 0.1 1)")
    parser.add_argument("--budget-7x6", type=float, default=0.05, help="strong's seconds a move on 7x6 (default: 0.05)")
    parser.add_argument("--sample", type=int, default=0,
                        help="judge a random sample of this many positions per set or file (default: all)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample and of --make (default: 1)")
    parser.add_argument("--make", choices=list(BIG_SETS), help="(re)make this labelled set instead")
    parser.add_argument("--folder", default=SETS_DIR, help="where the labelled sets are (default: benchmarks/oracle)")
    parser.add_argument("--positions", type=int, default=500, help="--make: positions to label (default: 500)")
    parser.add_argument("--label-nodes", type=int, default=20_000_000,
                        help="--make: the solver's node budget for a position's labels (default: 20000000)")
    parser.add_argument("--self-play", type=float, default=0.02,
                        help="--make: strong's seconds a move in the games (default: 0.02)")
    parser.add_argument("--noise", type=float, default=0.1, help="--make: share of random moves (default: 0.1)")
    parser.add_argument("--no-race", action="store_true",
                        help="strong without its second core's search for a win beside the draw's proof (7x6; "
                             "default: as strong's, on two cores or more while one is spare)")
    parser.add_argument("--summary", metavar="FILE.json",
                        help="also write the figures, the machine, the command and the commit to FILE.json "
                             "(benchmarks/strength.py --oracle puts them in its report)")
    parser.add_argument("--misses", action="store_true",
                        help="print every position where strong loses value: moves, labels, strong's column")
    args = parser.parse_args(argv)
    misses: list[str] | None = [] if args.misses else None
    if args.make:
        make_set(args.make, args.positions, args.seed, args.label_nodes, args.self_play, args.noise, args.folder)
        return 0
    rng = random.Random(args.seed)
    race = False if args.no_race else None
    print(f"strong's moves against the exact solver's labels (loadavg {os.getloadavg()[0]:.1f}, "
          f"{os.cpu_count()} CPUs{', --no-race' if args.no_race else ''})")
    rows = []
    if "7x6" in args.sets:
        solver = Solver()
        total, all_times = Verdicts(), []
        for name in STANDARD_FILES:
            labelled = standard_set(name, solver, args.sample, rng)
            verdicts, times = judge_strong(labelled, Rules(7, 6, 4, 21), args.budget_7x6, name, misses, race)
            rows.append(report(name, args.budget_7x6, verdicts, times))
            total = total + verdicts
            all_times += times
        rows.append(report("7x6", args.budget_7x6, total, all_times))
    for name in (name for name in args.sets if name in BIG_SETS):
        labelled = read_set(os.path.join(args.folder, name + ".txt"), BIG_SETS[name])
        if args.sample:
            labelled = rng.sample(labelled, min(args.sample, len(labelled)))
        for seconds in args.budgets:
            verdicts, times = judge_strong(labelled, BIG_SETS[name], seconds, f"{name} {seconds:g} s", misses,
                                           race)
            rows.append(report(name, seconds, verdicts, times))
    if args.summary:
        from strength import git_commit, machine
        with open(args.summary, "w", encoding="utf-8") as out:
            json.dump({"command": shlex.join(["python", "benchmarks/oracle.py", *sys.argv[1:]]),
                       "commit": git_commit(args.summary), "machine": machine(), "race": not args.no_race, "rows": rows},
                      out, indent=1)
    for line in misses or []:
        print("missed:", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
