"""The exact solver on the six standard 7x6 files: the table of the public
"Solving Connect Four" tutorial (accuracy, mean time, mean nodes, positions
per second), plus the median time, since machines here are shared and noisy.

One Solver (one transposition table) serves a whole file, as in `clinea
solve`; --reset clears it before every position instead. Without the
opening book (--no-book) Test_L1_R3 is sampled (every 1000/N-th position):
its positions then take seconds each.

--against CMD runs another solver on the same positions, on the same
machine, and prints its table and the ratio of mean times. CMD reads one
position per line on stdin (1-based digits, as in the files) and prints, in
order, one line per position: "<moves> <score> [<nodes> [<microseconds>]]",
the format of `clinea solve --nodes --time`. Without the microseconds column
its time is the wall time of the whole run divided by the positions
(process start-up included: marked "wall").

--fhourstones adds Fhourstones' three benchmark positions, solved from
scratch in both modes, beside the nodes Fhourstones searches (issue 27:
a smaller tree).

--move-search times the search strong makes for a move once it knows
the score (play_value given it): the nodes of the root's search for a
column keeping it, weak on the won and drawn positions, exact on every
one (the nodes are the same run to run: compare builds by them).

--empty-board solves the game itself, the empty 7x6 board without the
book, exact and weak, on each number of threads given (default 1 and 2):
wall and CPU seconds (all threads'), nodes, nodes per CPU second.

The references, each run as it ships, by its own timer and counter (issue
47; docs/SOLVER.md says how to build them in a folder of their own):
--pons PROGRAM is Pascal Pons' solver with the benchmark main of its part
13 (it resets its table, then times `solve` in microseconds, per position),
run in an empty folder (no opening book) on the same positions of the
files; it implies --reset and --no-book, so clinea's table is emptied
before every position too (by a new salt: Solver.reset), outside the
timer, as Pons' is. --steininger
PROGRAM... are builds of Christophe Steininger's c4 (its board, threads and
mode, strong or weak, are compiled in: one build each), each solving its
empty board once, by its own clock, then clinea the same board with the
same threads and mode, with a table of --tt-log2 and again of c4's size.
--fhourstones-program PROGRAM is John Tromp's Fhourstones, fed its three
positions (or those of --fhourstones): its nodes and CPU milliseconds
beside clinea's. Each prints the ratio to ours. --rounds N runs each file
N times, clinea and the reference (--pons, --against) in turn, and gives
the median ratios.
"""
from __future__ import annotations

import argparse
import math
import os
import re
import shlex
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from plots import time_curves

from clinea.core import Board
from clinea.core.solver import (
    BUILD_COMPILER,
    BUILD_PROFILE_GUIDED,
    DEFAULT_TT_LOG2,
    MAX_THREADS,
    MAX_TT_LOG2,
    MIN_TT_LOG2,
    Solver,
    popcnt_search,
)
from clinea.players.options import bounded_int
from clinea.solving.solved_tables import board_size

FILES = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"]

HEADER = (f"{'file':11} {'positions':>9} {'accuracy':>8} {'mean time':>11} {'median':>10} "
          f"{'mean nodes':>12} {'pos/s':>9} {'Mnodes/s':>8}")


#: Fhourstones' three benchmark positions (1-based digits; the first player
#: to move in each) and the nodes Fhourstones 3.1 is reported to search for
#: them: it solves win/draw/loss only, from scratch, ordering its moves by
#: a history heuristic
FHOURSTONES = {"45461667": 51_596, "35333571": 8_716_732, "13333111": 169_704_432}

FHOURSTONES_HEADER = (f"{'position':10} {'mode':5} {'score':>5} {'nodes':>13} {'CPU':>8} {'Mnodes/s':>8} "
                      f"{'Fhourstones':>13} {'ours/theirs':>11}")
FHOURSTONES_MEASURED_HEADER = FHOURSTONES_HEADER + f" {'its CPU':>8} {'CPU theirs/ours':>15}"

# the standard files, kept with the tests (tests/data/pons/README.md says
# where they come from and what the scores mean)
DEFAULT_DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "pons"


@dataclass
class Run:
    """One solver's results on one file, position by position."""
    times: list[float] = field(default_factory=list)
    nodes: list[int | None] = field(default_factory=list)
    right: int = 0
    wall: bool = False  # times are the whole run's wall time spread evenly

    def row(self, name: str) -> str:
        mean = statistics.fmean(self.times)
        if None in self.nodes:
            nodes, rate = f"{'?':>12}", f"{'?':>8}"
        else:
            nodes = f"{statistics.fmean(self.nodes):12,.0f}"
            rate = f"{sum(self.nodes) / sum(self.times) / 1e6:8.2f}"
        return (f"{name:11} {len(self.times):9d} {self.right / len(self.times):8.1%} {mean * 1e6:9.1f}us "
                f"{statistics.median(self.times) * 1e6:8.1f}us {nodes} {1 / mean:9,.0f} {rate}"
                + (" (wall)" if self.wall else ""))


def positions(name: str, args: argparse.Namespace) -> list[tuple[str, int]]:
    lines = [line.split() for line in (args.data / name).read_text().splitlines() if line]
    if name == "Test_L1_R3":
        step = max(1, len(lines) // max(1, args.l1r3_sample))
        lines = lines[::step][:args.l1r3_sample]
    lines = lines[:args.limit]
    return [(moves, sign(int(score)) if args.weak else int(score)) for moves, score in lines]


def bitboard_size(text: str) -> tuple[int, int]:
    """`clinea solved-tables`' COLUMNSxROWS, on a board of at most 64 bits
    (a row above each column) where 4 in a row fits."""
    columns, rows = board_size(text)
    if not (columns >= 4 or rows >= 4) or columns * (rows + 1) > 64:
        raise argparse.ArgumentTypeError(f"{text!r} is out of range: allowed boards where 4 in a row fits and "
                                         "columns x (rows + 1) is at most 64")
    return columns, rows


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def run_ours(cases: list[tuple[str, int]], args: argparse.Namespace) -> Run:
    solver = Solver(args.tt_log2, book=not args.no_book)
    solver.prepare(Board())
    run = Run()
    for moves, expected in cases:
        board = Board.from_string(moves)
        if args.reset:
            solver.reset()
        start = time.perf_counter()
        result = solver.solve(board, weak=args.weak)
        run.times.append(time.perf_counter() - start)
        run.nodes.append(solver.nodes)
        run.right += result == expected
    return run


def run_fhourstones(moves: list[str], tt_log2: int, program: str | None) -> None:
    """Each position solved exact and weak, as Fhourstones does, from
    scratch: no opening book (Fhourstones has none), a fresh table each
    (allocated before the clock starts), CPU seconds of the solve alone;
    beside Fhourstones' nodes, run by `program` (its own counter and CPU
    clock) or as reported for 3.1."""
    measured = fhourstones_work(program, moves) if program else {}
    print("\nFhourstones' positions: no opening book, a fresh table per solve"
          + (f"; Fhourstones run: {program} (it solves win/draw/loss only)" if program else ""))
    print(FHOURSTONES_MEASURED_HEADER if program else FHOURSTONES_HEADER)
    for position in moves:
        for weak in (False, True):
            solver = Solver(tt_log2, book=False)
            solver.prepare(Board())
            start = time.process_time()
            score = solver.solve(Board.from_string(position), weak=weak)
            cpu = time.process_time() - start
            value, theirs, their_cpu = measured.get(position, (None, FHOURSTONES.get(position), None))
            reference = f"{theirs:13,} {solver.nodes / theirs:11.2f}" if theirs else f"{'?':>13} {'?':>11}"
            if their_cpu is not None:
                reference += f" {their_cpu:7.3f}s {their_cpu / max(cpu, 1e-9):15.2f}"
                reference += "" if value == sign(score) else "  SCORES DIFFER"
            print(f"{position:10} {'weak' if weak else 'exact':5} {score:5d} {solver.nodes:13,} {cpu:7.2f}s "
                  f"{solver.nodes / max(cpu, 1e-9) / 1e6:8.2f} {reference}", flush=True)


def run_empty_board(thread_counts: list[int], size: tuple[int, int], tt_log2: int) -> None:
    """The empty board from scratch (c = 4), as `echo '' | clinea solve
    --no-book [--weak] --threads N` does it: a fresh table per solve."""
    columns, rows = size
    print(f"\nthe empty {columns}x{rows} board: no opening book, a fresh table per solve")
    print(f"{'threads':>7} {'mode':5} {'score':>5} {'nodes':>15} {'wall':>8} {'CPU':>8} {'Mnodes/CPU s':>12}")
    for threads in thread_counts:
        for weak in (False, True):
            score, nodes, wall, cpu = solve_empty(size, threads, weak, tt_log2)
            print(f"{threads:7d} {'weak' if weak else 'exact':5} {score:5d} {nodes:15,} {wall:7.1f}s "
                  f"{cpu:7.1f}s {nodes / max(cpu, 1e-9) / 1e6:12.2f}", flush=True)


def solve_empty(size: tuple[int, int], threads: int, weak: bool, tt_log2: int) -> tuple[int, int, float, float]:
    """The empty board from scratch: score, nodes, wall and CPU seconds."""
    solver = Solver(tt_log2, book=False, threads=threads)
    solver.prepare(Board(*size))
    wall, cpu = time.perf_counter(), time.process_time()
    score = solver.solve(Board(*size), weak=weak)
    return score, solver.nodes, time.perf_counter() - wall, time.process_time() - cpu


def run_move_search(args: argparse.Namespace) -> None:
    """play_value on the positions of the files, the score given (strong
    knows it from the book, or from its own last move): the root's move
    search alone, weak (the won and drawn positions: in a lost one any
    move keeps the loss) and exact (every position), a fresh table each."""
    print("\nthe move search (play_value, the score given; weak: won and drawn positions), a fresh table each")
    print(f"{'file':11} {'mode':5} {'positions':>9} {'nodes':>13} {'p99':>10} {'max':>10} {'CPU':>8}")
    solver = Solver(args.tt_log2, book=not args.no_book)
    for name in args.files:
        for weak in (True, False):
            counts, cpu = [], 0.0
            for moves, score in positions(name, args):
                value = sign(score) if weak else score
                if value < 0 and weak:
                    continue  # a weak loss: any move keeps it
                board = Board.from_string(moves)
                solver.reset()
                solver.prepare(board)
                start = time.process_time()
                solver.play_value(board, weak=weak, at_least=value)
                cpu += time.process_time() - start
                counts.append(solver.nodes)
            if counts:
                ordered = sorted(counts)
                print(f"{name:11} {'weak' if weak else 'exact':5} {len(counts):9d} {sum(counts):13,} "
                      f"{ordered[int(0.99 * (len(ordered) - 1))]:10,} {ordered[-1]:10,} {cpu:7.2f}s", flush=True)


def run_reference(command: str, cases: list[tuple[str, int]], weak: bool, option: str = "--against",
                  cwd: str | None = None) -> Run:
    """Feeds every position to `command` at once and reads its answers."""
    start = time.perf_counter()
    done = subprocess.run(shlex.split(command), input="".join(moves + "\n" for moves, _ in cases),
                          capture_output=True, text=True, cwd=cwd)
    elapsed = time.perf_counter() - start
    answers = done.stdout.splitlines()
    if done.returncode != 0 or len(answers) != len(cases):
        last = (done.stderr.strip().splitlines() or ["no stderr"])[-1]
        raise SystemExit(f"{option} {command!r}: exit status {done.returncode}, {len(answers)} answer lines "
                         f"for {len(cases)} positions ({last})")
    run = Run()
    for lineno, ((moves, expected), answer) in enumerate(zip(cases, answers), 1):
        fields = answer.split()
        try:
            if len(fields) < 2:
                raise ValueError("no score")
            if fields[0] != moves:
                raise ValueError(f"answers {fields[0]!r}, expected {moves!r}")
            score = int(fields[1])
            run.nodes.append(int(fields[2]) if len(fields) > 2 else None)
            if len(fields) > 3:
                run.times.append(float(fields[3]) * 1e-6)
        except ValueError as error:
            raise SystemExit(f"{option} {command!r}: answer line {lineno} {answer!r} is not "
                             f"'<moves> <score> [<nodes> [<microseconds>]]': {error}") from None
        run.right += (sign(score) if weak else score) == expected
    if len(run.times) != len(cases):
        run.times = [elapsed / len(cases)] * len(cases)
        run.wall = True
    return run


STEININGER_BOARD = re.compile(r"Using a (\d+) x (\d+) board.*, and (\d+) threads")
STEININGER_TABLE = re.compile(r"a ([\d.]+) GB table")
STEININGER_SCORE = re.compile(r"Final (strong|weak) score is (-?\d+)")
STEININGER_TIME = re.compile(r"Time to solve\s*=\s*([\d.]+) s")
STEININGER_NODES = re.compile(r"Total\s*=\s*([\d,]+)")
FHOURSTONES_POSITION = re.compile(r"Solving \d+-ply position after (\d*) \. \. \.")
FHOURSTONES_SCORE = re.compile(r"score = (\d) \((.)\)")
FHOURSTONES_WORK = re.compile(r"(\d+) pos / (\d+) msec")
#: Fhourstones' score digits: 1 a loss, 3 a draw, 5 a win for the side to move
FHOURSTONES_VALUE = {"1": -1, "3": 0, "5": 1}


def reference_output(option: str, program: str, stdin: str = "", cwd: str | None = None) -> str:
    """What `program` prints; one line naming it when it fails. The C
    locale: the references print their numbers by it (no thousands marks)."""
    try:
        done = subprocess.run(shlex.split(program), input=stdin, capture_output=True, text=True, cwd=cwd,
                              env={**os.environ, "LC_ALL": "C"})
    except OSError as error:
        raise SystemExit(f"{option} {program!r}: cannot run it ({error.strerror})") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no stderr"])[-1]
        raise SystemExit(f"{option} {program!r}: exit status {done.returncode} ({last})")
    return done.stdout


def matched(pattern: re.Pattern[str], text: str, option: str, program: str) -> re.Match[str]:
    found = pattern.search(text)
    if not found:
        raise SystemExit(f"{option} {program!r}: its output has no line matching {pattern.pattern!r}: "
                         "not the program this option runs?")
    return found


def run_pons(program: str, files: list[str], args: argparse.Namespace, ours: dict[str, Run]) -> dict[str, Run]:
    """Pons' benchmark main on the same positions, in an empty folder: it
    finds no 7x6.book there, so it searches, as ours does, without a book."""
    with tempfile.TemporaryDirectory() as empty:
        command = shlex.join([os.path.abspath(program), *(["-w"] if args.weak else [])])
        return compare_files(f"Pons ({program}, its timer, table reset per position, no book)", files, ours,
                      lambda cases: run_reference(command, cases, args.weak, "--pons", cwd=empty), args)


def compare_files(title: str, files: list[str], ours: dict[str, Run],
                  run_theirs: Callable[[list[tuple[str, int]]], Run], args: argparse.Namespace) -> dict[str, Run]:
    """Theirs on each file, then the ratios of the mean and median times to
    ours. With --rounds N each file is run N times, ours again just before
    theirs in every round after the first (the two interleaved, so that a
    slow spell of the machine falls on both), and the ratios are the
    medians over the rounds, each round's beside them; `ours` keeps the
    last round's runs."""
    print(f"\n{title}")
    print(HEADER)
    theirs: dict[str, Run] = {}
    means: dict[str, list[float]] = {}
    medians: dict[str, list[float]] = {}
    for name in files:
        cases = positions(name, args)
        means[name], medians[name] = [], []
        for round_number in range(args.rounds):
            if round_number:
                ours[name] = run_ours(cases, args)
            theirs[name] = run_theirs(cases)
            means[name].append(statistics.fmean(theirs[name].times) / statistics.fmean(ours[name].times))
            medians[name].append(statistics.median(theirs[name].times) / statistics.median(ours[name].times))
        print(theirs[name].row(name), flush=True)
    rounds = f", median of {args.rounds} rounds" if args.rounds > 1 else ""
    print(f"\n{'file':11} {'mean time, theirs / ours':>25} {'median, theirs / ours':>22}{rounds}")
    for name in files:
        each = f"  rounds: {' '.join(f'{ratio:.2f}' for ratio in means[name])}" if args.rounds > 1 else ""
        print(f"{name:11} {statistics.median(means[name]):25.2f} {statistics.median(medians[name]):22.2f}{each}")
    return theirs


def run_steininger(programs: list[str], tt_log2: int) -> None:
    """Each build of c4 solves its empty board (its board, threads, mode
    and table read from what it prints), then ours the same board, threads
    and mode, with our table of `tt_log2` and again with one of c4's size
    (eight-byte entries on both sides): wall seconds by each one's own
    clock, nodes."""
    print("\nSteininger's c4 on its empty board (its own clock), then clinea on the same: no book, a fresh table "
          "of our default size, then of c4's")
    print(f"{'board':5} {'threads':>7} {'mode':5} {'score':>11} {'nodes, theirs':>15} {'ours':>15} "
          f"{'wall, theirs':>12} {'ours':>8} {'theirs / ours':>13} {'our table':>9}")
    for program in programs:
        text = reference_output("--steininger", program)
        board = matched(STEININGER_BOARD, text, "--steininger", program)
        score = matched(STEININGER_SCORE, text, "--steininger", program)
        seconds = float(matched(STEININGER_TIME, text, "--steininger", program)[1])
        nodes = int(matched(STEININGER_NODES, text, "--steininger", program)[1].replace(",", ""))
        their_log2 = round(math.log2(float(matched(STEININGER_TABLE, text, "--steininger", program)[1]) * 2**30 / 8))
        size, threads, weak = (int(board[1]), int(board[2])), int(board[3]), score[1] == "weak"
        for log2 in dict.fromkeys([tt_log2, their_log2]):
            our_score, our_nodes, wall, _ = solve_empty(size, threads, weak, log2)
            print(f"{size[0]}x{size[1]:<3} {threads:7d} {'weak' if weak else 'exact':5} {score[2]:>5}/{our_score:<5} "
                  f"{nodes:15,} {our_nodes:15,} {seconds:11.2f}s {wall:7.2f}s {seconds / max(wall, 1e-9):13.2f} "
                  f"{f'2**{log2}':>9}" + ("" if int(score[2]) == our_score else "  SCORES DIFFER"), flush=True)


def fhourstones_work(program: str, moves: list[str]) -> dict[str, tuple[int, int, float]]:
    """Fhourstones on `moves` (one position a line, as its `inputs`): per
    position its value for the side to move, nodes and CPU seconds."""
    text = reference_output("--fhourstones-program", program, "".join(line + "\n" for line in moves))
    blocks = re.split(r"\n(?=Solving )", text)[1:]
    work = {}
    for block in blocks:
        position = matched(FHOURSTONES_POSITION, block, "--fhourstones-program", program)[1]
        score = matched(FHOURSTONES_SCORE, block, "--fhourstones-program", program)[1]
        nodes, msec = matched(FHOURSTONES_WORK, block, "--fhourstones-program", program).groups()
        work[position] = (FHOURSTONES_VALUE.get(score, 9), int(nodes), int(msec) / 1000)
    if sorted(work) != sorted(moves):
        raise SystemExit(f"--fhourstones-program {program!r}: answered {len(work)} of {len(moves)} positions")
    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     epilog="examples:\n  python benchmarks/solver.py --l1r3-sample 10 --weak\n"
                                            "  python benchmarks/solver.py --files Test_L3_R1 --fhourstones\n"
                                            "  python benchmarks/solver.py --files Test_L3_R1 --empty-board 1 2\n"
                                            "  python benchmarks/solver.py --files Test_L2_R2 Test_L1_R2 --move-search\n"
                                            "  python benchmarks/solver.py --files Test_L2_R2 --against "
                                            "\"./c4solver-adapter\"\n"
                                            "  python benchmarks/solver.py --pons ~/refs/pons-bench/c4solver "
                                            "--rounds 3 --fhourstones-program ~/refs/fhourstones/SearchGame "
                                            "--steininger ~/refs/c4-t1-strong/out/optimise/c4",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--l1r3-sample", type=int, default=None,
                        help="positions of Test_L1_R3 to run (default: all with the opening book, 10 without)")
    parser.add_argument("--limit", type=int, default=1000, help="positions per file at most (default 1000)")
    parser.add_argument("--files", nargs="+", choices=FILES, default=FILES, metavar="FILE",
                        help=f"which standard files (default all: {' '.join(FILES)})")
    parser.add_argument("--weak", action="store_true", help="win/draw/loss only (accuracy on the sign)")
    parser.add_argument("--reset", action="store_true", help="empty the table before every position (Solver.reset)")
    parser.add_argument("--no-book", action="store_true", help="search to the end, without the opening book")
    parser.add_argument("--tt-log2", type=bounded_int("--tt-log2", MIN_TT_LOG2, MAX_TT_LOG2), default=DEFAULT_TT_LOG2,
                        help=f"table size: 2**N entries, {MIN_TT_LOG2}..{MAX_TT_LOG2} (default {DEFAULT_TT_LOG2})")
    parser.add_argument("--fhourstones", nargs="*", metavar="MOVES",
                        help="also solve Fhourstones' benchmark positions (or these, 1-based digits), "
                             f"exact and weak, from scratch (default positions: {' '.join(FHOURSTONES)})")
    parser.add_argument("--empty-board", nargs="*", type=bounded_int("--empty-board", 1, MAX_THREADS),
                        metavar="THREADS",
                        help="also solve the empty 7x6 board without the book, exact and weak, on each of these "
                             f"numbers of threads, 1..{MAX_THREADS} (default when given alone: 1 2)")
    parser.add_argument("--empty-size", type=bitboard_size, default=(7, 6), metavar="COLUMNSxROWS",
                        help="the board of --empty-board (default 7x6)")
    parser.add_argument("--move-search", action="store_true",
                        help="also time play_value's move search, the score given (weak: won and drawn positions)")
    parser.add_argument("--against", metavar="CMD", help="another solver to run on the same positions (see above)")
    parser.add_argument("--pons", metavar="PROGRAM",
                        help="Pons' solver built with its part-13 benchmark main (see above; implies --reset --no-book)")
    parser.add_argument("--steininger", nargs="+", metavar="PROGRAM",
                        help="builds of Steininger's c4, each solving its empty board (see above)")
    parser.add_argument("--fhourstones-program", metavar="PROGRAM",
                        help="Fhourstones' SearchGame, run on Fhourstones' positions (implies --fhourstones)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="with --against or --pons, run each file this many times, ours and theirs in turn, "
                             "and give the median ratios (default 1)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help="folder holding the standard files (default: the repository's tests/data/pons)")
    parser.add_argument("--plot", default="results/solver-times.png", help="PNG of the time curves (default %(default)s)")
    args = parser.parse_args()
    if args.pons:
        args.reset = args.no_book = True  # Pons' conditions, on both sides
    if args.fhourstones_program and args.fhourstones is None:
        args.fhourstones = []
    for option, program in [("--pons", args.pons), ("--fhourstones-program", args.fhourstones_program),
                            *(("--steininger", program) for program in args.steininger or [])]:
        if program and not os.access(shlex.split(program)[0], os.X_OK):
            parser.error(f"{option} {program}: no program there (build it first: docs/SOLVER.md)")
    uses_book = not args.no_book
    if args.l1r3_sample is None:
        args.l1r3_sample = 1000 if uses_book else 10
    missing = [name for name in args.files if not (args.data / name).is_file()]
    if missing:
        parser.error(f"--data {args.data}: no {', '.join(missing)} there")
    for name, value, low in (("--l1r3-sample", args.l1r3_sample, 1), ("--limit", args.limit, 1),
                             ("--rounds", args.rounds, 1)):
        if value < low:
            parser.error(f"{name} {value} is out of range: allowed {low} or more")
    print(f"exact solver, {'weak' if args.weak else 'strong'}, table 2**{args.tt_log2} entries, "
          f"{'opening book at 12 stones' if uses_book else 'no opening book'}"
          f"{', reset per position' if args.reset else ''}, "
          f"{'the POPCNT copy of the search' if popcnt_search() else 'the baseline copy of the search (no POPCNT)'}, "
          f"built by {BUILD_COMPILER}{' from its profile' if BUILD_PROFILE_GUIDED else ' without a profile'}")
    ours: dict[str, Run] = {}
    references: dict[str, dict[str, Run]] = {}
    print(HEADER)
    for name in args.files:
        cases = positions(name, args)
        ours[name] = run_ours(cases, args)
        print(ours[name].row(name), flush=True)
    if args.against:
        references["against"] = compare_files(f"against: {args.against}", args.files, ours,
                                              lambda cases: run_reference(args.against, cases, args.weak), args)
    if args.pons:
        references["Pons"] = run_pons(args.pons, args.files, args, ours)
    if args.move_search:
        run_move_search(args)
    if args.fhourstones is not None:
        run_fhourstones(args.fhourstones or list(FHOURSTONES), args.tt_log2, args.fhourstones_program)
    if args.steininger:
        run_steininger(args.steininger, args.tt_log2)
    if args.empty_board is not None:
        run_empty_board(args.empty_board or [1, 2], args.empty_size, args.tt_log2)
    curves = {name: run.times for name, run in ours.items()}
    for label, runs in references.items():
        curves.update({f"{name} ({label})": run.times for name, run in runs.items()})
    time_curves(args.plot, curves, "exact solver on the standard 7x6 files", "time per position")


if __name__ == "__main__":
    main()
