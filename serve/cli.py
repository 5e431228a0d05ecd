"""`clinea serve init DIR --students students.csv` and `clinea serve run DIR`."""
from __future__ import annotations

import argparse
import signal
import socket
import sys
from pathlib import Path

from clinea.judge import reaper
from clinea.judge.player_process import kill_all
from clinea.players.options import add_board_options, bounded_float, bounded_int, command_parser
from clinea.ray_cluster import RayFailure
from clinea.serve.course import Course, CourseError, CourseSettings, init_course

EXTRA = "clinea serve needs the serve extra: pip install 'clinea[serve]'"

EPILOG = """A course in five commands:
  clinea serve init course --students students.csv   (tokens.csv: one token a student; the teacher's is printed)
  clinea serve run course --host 0.0.0.0 --port 8000  (students sign in at http://HOST:8000/ with their token)
  curl -H "Authorization: Bearer TOKEN" -F file=@mybot.py http://HOST:8000/api/bots   (or the upload page)
  (the teacher, at /teacher: close the submissions, run the final round robin)
  curl -H ... http://HOST:8000/teacher/grades.csv     (or the page's link: grades.csv)

students.csv: a header row with a `name` column, one student a line (other columns,
such as email, are kept). Every upload is first checked by a sandboxed game against
random, then rated in the league (Elo, random at 0) against random, greedy and the
field; the games go on while the server runs, and a server killed any way resumes
where it was.

Grades (grades.csv): linear in the Elo between the random baseline's (grade 0) and the
best student's (--grade-max), clipped, to one decimal; from the final round robin once
it has run, else from the live league; a student without a bot that passed its check
gets 0.

examples:
  clinea serve init course --students students.csv --columns 7 --rows 6 --time-per-move 0.5
  clinea serve run course --port 8000
  clinea serve run course --ray auto                  (the games on a Ray cluster)"""


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("clinea serve", "The course's tournament as a web service: students upload bots, "
                            "a league rates them live, the teacher exports the grades.", EPILOG)
    commands = parser.add_subparsers(dest="action", metavar="ACTION")
    init = commands.add_parser("init", help="create a course folder: the store, the tokens, the rules",
                               description="Create a course in DIR (new or empty).", epilog=EPILOG,
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    init.add_argument("folder", metavar="DIR", type=Path, help="the course's folder (new or empty)")
    init.add_argument("--students", metavar="CSV", type=Path, required=True,
                      help="the students: a CSV with a header row and a `name` column (required: no default)")
    add_board_options(init, p_default=21, what="the course's board")
    init.add_argument("--time-per-move", type=bounded_float("--time-per-move", 0.01, 60, "a number of seconds"),
                      default=1.0, metavar="SECONDS", help="seconds a move, 0.01..60 (default 1)")
    init.add_argument("--grade-max", type=bounded_float("--grade-max", 1, 1000), default=10.0,
                      help="the grade of the best student's bot, 1..1000 (default 10); see the grading rule below")
    run = commands.add_parser("run", help="serve a course: pages, API and the league",
                              description="Serve the course in DIR.", epilog=EPILOG,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("folder", metavar="DIR", type=Path, help="a folder made by clinea serve init")
    run.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    run.add_argument("--port", type=bounded_int("--port", 0, 65535), default=8000,
                     help="the port, 0..65535, 0 for any free one (default 8000)")
    run.add_argument("--concurrency", type=bounded_int("--concurrency", 1, 64), default=2,
                     help="games played at once, 1..64 (default 2)")
    run.add_argument("--ray", metavar="ADDRESS", help="play the games on Ray (the judge's Ray backend): auto, "
                     "HOST:PORT, or local (pip install 'clinea[ray]'; default: on this machine)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.action is None:
        parser.error("ACTION is required: init or run")
    if args.action == "init":
        settings = CourseSettings(args.columns, args.rows, args.c, args.p, args.time_per_move, args.grade_max)
        try:
            teacher = init_course(args.folder, args.students, settings)
        except CourseError as error:
            print(f"clinea serve init: {error}", file=sys.stderr)
            return 2
        print(f"clinea serve init: the course is in {args.folder}; the students' tokens in "
              f"{args.folder / 'tokens.csv'}; the teacher's token (also in {args.folder / 'teacher-token'}):",
              file=sys.stderr)
        print(teacher)
        return 0
    return serve(args)


def serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from clinea.serve.app import build_app
    except ImportError:
        print(f"clinea serve run: {EXTRA}", file=sys.stderr)
        return 2
    from clinea.judge.sandbox import SandboxError
    from clinea.serve.league import CourseLeague

    try:
        course = Course(args.folder)
    except (CourseError, OSError) as error:
        print(f"clinea serve run: {error}", file=sys.stderr)
        return 2
    try:
        listening = listen(args.host, args.port)
    except OSError as error:
        print(f"clinea serve run: cannot listen on {args.host}:{args.port}: {error.strerror or error}", file=sys.stderr)
        return 2
    reaper.become_undumpable()
    # imported now, before any league thread forks a seat: its import registers
    # fork hooks (a lock taken before fork, released after), and registered at
    # shutdown while a thread was forking, the release came without the take
    # ("Exception ignored ... release unlocked lock" on Ctrl-C)
    import concurrent.futures.thread  # noqa: F401
    try:
        league = CourseLeague(course, args.concurrency, args.ray)
    except SandboxError as error:
        print(f"clinea serve run: the students' bots run only in sandboxed seats: {error}", file=sys.stderr)
        return 2
    print(league.sandbox.describe(), file=sys.stderr)
    host, port = listening.getsockname()[:2]
    print(f"clinea serve run: the course {args.folder} at http://{host}:{port}/", file=sys.stderr, flush=True)
    app = build_app(course, league)
    try:
        league.start()
    except RayFailure as failure:
        print(f"clinea serve run: {failure}", file=sys.stderr)
        return 2
    # uvicorn stops on SIGINT and SIGTERM, then raises the signal again with the
    # handlers it found: those must let the league close its seats, or SIGTERM's
    # default kills the process (and Ctrl-C's KeyboardInterrupt cuts the close
    # short) while league threads are starting seats
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda number, frame: None)
    try:
        uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[listening])
    finally:
        league.close()
        kill_all()
    return 0


#: connections waiting to be accepted, as uvicorn's default
BACKLOG = 2048


def listen(host: str, port: int) -> socket.socket:
    """The server's socket, listening before anything starts: a port in use
    is one line, --port 0's port is known to print, and a client that
    connects before uvicorn has started waits in the backlog."""
    family, kind, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    listening = socket.socket(family, kind)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind(address)
        listening.listen(BACKLOG)
    except OSError:
        listening.close()
        raise
    return listening
