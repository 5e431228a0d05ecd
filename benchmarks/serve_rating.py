"""How long a student waits: a real `clinea serve` on loopback, its league
playing, and uploads of the `clinea new-bot` template one after another;
for each, the seconds from the upload's answer to its smoke verdict and to
its first rating (the issue asks for a rating within 60 s on a 2-core
machine), then the median and the maximum. Each upload comes while the
league is busy with the earlier ones' games, as in a class.

example:
  .venv/bin/python benchmarks/serve_rating.py --students 4 --time-per-move 1
  .venv/bin/python benchmarks/serve_rating.py --students 4 --time-per-move 1 --think 0.9   (bots that use their clock)
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from serve_helpers import api, running_server, upload  # noqa: E402  (the tests' real server on loopback)

from clinea.newbot import bot_script  # noqa: E402
from clinea.players.options import bounded_float, bounded_int  # noqa: E402

POLL = 0.25  # seconds between looks at the bot
GIVE_UP = 600.0  # seconds after which an upload counts as never rated


def thinking_bot(seconds: float) -> str:
    """A bot that takes `seconds` over every move, then plays at random."""
    return ("import random, time\n\n\ndef choose(board):\n"
            f"    time.sleep({seconds!r})\n    return random.choice(board.legal_columns())\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=bounded_int("--students", 1, 100), default=4,
                        help="uploads, one student each, 1..100 (default 4)")
    parser.add_argument("--time-per-move", type=bounded_float("--time-per-move", 0.01, 60), default=1.0,
                        help="the course's seconds a move, 0.01..60 (default 1, clinea serve init's)")
    parser.add_argument("--think", type=bounded_float("--think", 0, 60), default=0.0,
                        help="seconds each uploaded bot sleeps a move, as one that uses its clock (default 0: "
                             "the template answers at once)")
    args = parser.parse_args()
    script = thinking_bot(args.think) if args.think else bot_script()
    students = [f"student{number}" for number in range(1, args.students + 1)]
    waits: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory(prefix="clinea-serve-rating-") as scratch, \
            running_server(Path(scratch) / "course", students, time_per_move=args.time_per_move) as course:
        print(f"{'student':<12} {'verdict':>8} {'after s':>8} {'rated after s':>14}")
        for student in students:
            token = course.tokens[student]
            status, answer = upload(course, token, f"{student}.py", script.encode())
            if status != 201:
                print(f"serve_rating: the upload of {student} answered {status}: {answer}", file=sys.stderr)
                return 1
            start = time.monotonic()
            verdict_after = rated_after = None
            verdict = "checking"
            while rated_after is None and time.monotonic() - start < GIVE_UP:
                if verdict_after is None:
                    verdict = api(course, "GET", f"/api/bots/{answer['id']}", token)[1]["verdict"]
                    if verdict != "checking":
                        verdict_after = time.monotonic() - start
                    if verdict == "failed":
                        break
                _, standings = api(course, "GET", "/api/standings", token)
                if any(row["id"] == answer["id"] and row["rating"] is not None for row in standings["bots"]):
                    rated_after = time.monotonic() - start
                time.sleep(POLL)
            if verdict_after is None or rated_after is None:
                print(f"serve_rating: {student}'s bot was {verdict} and not rated within {GIVE_UP:g} s",
                      file=sys.stderr)
                return 1
            waits.append((verdict_after, rated_after))
            print(f"{student:<12} {verdict:>8} {verdict_after:8.1f} {rated_after:14.1f}")
    for what, values in (("verdict", [w[0] for w in waits]), ("rated", [w[1] for w in waits])):
        print(f"{what}: median {statistics.median(values):.1f} s, max {max(values):.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
