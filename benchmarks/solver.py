"""The exact solver on the six standard 7x6 files: the table of the public
"Solving Connect Four" tutorial (accuracy, mean time, mean nodes, positions
per second), plus the median time, since machines here are shared and noisy.

One Solver (one transposition table) serves a whole file, as in `clinea
solve`; --reset clears it before every position instead. Test_L1_R3 is
sampled (every 1000/N-th position): its positions take seconds each.
"""
import argparse
import os
import statistics
import time
from pathlib import Path

from clinea.core import Board
from clinea.core.solver import DEFAULT_TT_LOG2, Solver
from plots import time_curves

FILES = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"]


def pons_dir() -> Path:
    if os.environ.get("CLINEA_PONS_DIR"):
        return Path(os.environ["CLINEA_PONS_DIR"])
    for parent in Path(__file__).resolve().parents[1:]:
        if (parent / "shared/data/pons").is_dir():
            return parent / "shared/data/pons"
    raise SystemExit("shared/data/pons not found beside the repository: set CLINEA_PONS_DIR")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     epilog="example:\n  python benchmarks/solver.py --l1r3-sample 10 --weak",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--l1r3-sample", type=int, default=10, help="positions of Test_L1_R3 to run (default 10)")
    parser.add_argument("--limit", type=int, default=1000, help="positions per file at most (default 1000)")
    parser.add_argument("--weak", action="store_true", help="win/draw/loss only (accuracy on the sign)")
    parser.add_argument("--reset", action="store_true", help="clear the table before every position")
    parser.add_argument("--tt-log2", type=int, default=DEFAULT_TT_LOG2, help=f"table size (default {DEFAULT_TT_LOG2})")
    parser.add_argument("--plot", default="results/solver-times.png", help="PNG of the time curves (default %(default)s)")
    args = parser.parse_args()
    curves = {}
    print(f"exact solver, {'weak' if args.weak else 'strong'}, table 2**{args.tt_log2} entries"
          f"{', reset per position' if args.reset else ''}")
    print(f"{'file':11} {'positions':>9} {'accuracy':>8} {'mean time':>11} {'median':>10} "
          f"{'mean nodes':>12} {'pos/s':>9} {'Mnodes/s':>8}")
    for name in FILES:
        lines = [line.split() for line in (pons_dir() / name).read_text().splitlines() if line]
        if name == "Test_L1_R3":
            step = max(1, len(lines) // max(1, args.l1r3_sample))
            lines = lines[::step][:args.l1r3_sample]
        lines = lines[:args.limit]
        solver = Solver(args.tt_log2)
        solver.solve(Board.from_string("4" * 6 + "3" * 6 + "5" * 6))  # allocates the table outside the timing
        times, nodes, right = [], [], 0
        for moves, score in lines:
            board = Board.from_string(moves)
            expected = int(score)
            if args.weak:
                expected = (expected > 0) - (expected < 0)
            if args.reset:
                solver.reset()
            start = time.perf_counter()
            result = solver.solve(board, weak=args.weak)
            times.append(time.perf_counter() - start)
            nodes.append(solver.nodes)
            right += result == expected
        mean = statistics.fmean(times)
        print(f"{name:11} {len(lines):9d} {right / len(lines):8.1%} {mean * 1e6:9.1f}us "
              f"{statistics.median(times) * 1e6:8.1f}us {statistics.fmean(nodes):12,.0f} "
              f"{1 / mean:9,.0f} {sum(nodes) / sum(times) / 1e6:8.2f}", flush=True)
        curves[name] = times
    time_curves(args.plot, curves, "exact solver on the standard 7x6 files", "time per position")


if __name__ == "__main__":
    main()
