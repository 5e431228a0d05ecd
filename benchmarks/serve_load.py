"""A bounded load on a real `clinea serve`: a course of a few students in a
temporary folder, its server on loopback (the league playing beside it),
then a fixed number of requests from a few threads at once, spread over the
sign-in page, /api/standings, /api/games?bot=ID and uploads of a small valid
bot (the `clinea new-bot` template); latency percentiles per endpoint, the
answers' status codes and the requests per second, then the server killed.
Uploads past the server's rate limit answer 429, counted as answers.
Exits 1 when a request got no answer or a 5xx.

example:
  .venv/bin/python benchmarks/serve_load.py --requests 300 --concurrency 8
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from serve_helpers import Course, api, running_server, upload  # noqa: E402  (the tests' real server on loopback)

from clinea.newbot import bot_script  # noqa: E402
from clinea.players.options import bounded_int  # noqa: E402

#: (endpoint, share of the requests): mostly reads, as a class watching its standings
MIX = (("GET /", 3), ("GET /api/standings", 4), ("GET /api/games", 2), ("POST /api/bots", 1))
PERCENTILES = (50, 90, 99)
NO_ANSWER = 0  # the status recorded for a request that got none (refused, reset, timed out)


def percentile(sorted_values: list[float], share: int) -> float:
    """The nearest-rank percentile of values sorted ascending."""
    rank = max(1, -(-share * len(sorted_values) // 100))
    return sorted_values[rank - 1]


def one_request(course: Course, kind: str, student: str, bots: dict[str, int]) -> tuple[str, int, float]:
    """(endpoint, status, seconds) of one request as `student`."""
    token = course.tokens[student]
    start = time.perf_counter()
    try:
        if kind == "GET /":
            status, _ = api(course, "GET", "/", None)
        elif kind == "GET /api/standings":
            status, _ = api(course, "GET", "/api/standings", token)
        elif kind == "GET /api/games":
            status, _ = api(course, "GET", f"/api/games?bot={bots[student]}", token)
        else:
            status, _ = upload(course, token, f"{student}.py", bot_script().encode())
    except OSError:
        status = NO_ANSWER
    return kind, status, time.perf_counter() - start


def schedule(requests: int, students: list[str]) -> list[tuple[str, str]]:
    """(endpoint, student) of each request: the mix's shares in turn, the students round robin."""
    kinds = [kind for kind, share in MIX for _ in range(share)]
    return [(kinds[index % len(kinds)], students[index % len(students)]) for index in range(requests)]


def report(results: list[tuple[str, int, float]], elapsed: float) -> None:
    print(f"{'endpoint':<20} {'requests':>8}  {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}  statuses")
    for kind, _ in MIX:
        times = sorted(seconds * 1000 for endpoint, _, seconds in results if endpoint == kind)
        if not times:
            continue
        statuses = Counter(status for endpoint, status, _ in results if endpoint == kind)
        figures = " ".join(f"{percentile(times, share):8.1f}" for share in PERCENTILES)
        shown = ", ".join(f"{status or 'no answer'} x{count}" for status, count in sorted(statuses.items()))
        print(f"{kind:<20} {len(times):>8}  {figures} {times[-1]:8.1f}  {shown}")
    print(f"all: {len(results)} requests in {elapsed:.2f} s, {len(results) / elapsed:.1f} requests/s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=bounded_int("--requests", 1, 100_000), default=300,
                        help="requests in all, 1..100000 (default 300)")
    parser.add_argument("--concurrency", type=bounded_int("--concurrency", 1, 64), default=8,
                        help="requests in flight at once, 1..64 (default 8)")
    parser.add_argument("--students", type=bounded_int("--students", 1, 500), default=5,
                        help="students in the course, each with a bot uploaded first, 1..500 (default 5)")
    args = parser.parse_args()
    students = [f"student{number}" for number in range(1, args.students + 1)]
    with tempfile.TemporaryDirectory(prefix="clinea-serve-load-") as scratch, \
            running_server(Path(scratch) / "course", students, time_per_move=0.05) as course:
        bots = {}
        for student in students:
            status, answer = upload(course, course.tokens[student], f"{student}.py", bot_script().encode())
            if status != 201:
                print(f"serve_load: the first upload of {student} answered {status}: {answer}", file=sys.stderr)
                return 1
            bots[student] = answer["id"]
        start = time.perf_counter()
        with ThreadPoolExecutor(args.concurrency) as pool:
            results = list(pool.map(lambda planned: one_request(course, *planned, bots),
                                    schedule(args.requests, students)))
        elapsed = time.perf_counter() - start
    report(results, elapsed)
    failed = sum(1 for _, status, _ in results if status == NO_ANSWER or status >= 500)
    if failed:
        print(f"serve_load: {failed} of {len(results)} requests got no answer or a 5xx", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
