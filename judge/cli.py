"""`clinea judge`: the course judge's command line (c_linea.py) and more.

Course scripts run unchanged: `--blue_player EXE [ARGS...]` (or
`--blue_player=EXE`) takes everything up to the next option this judge knows,
spelled out or abbreviated as argparse allows (or one quoted string, split
like a shell would, when the program's own options collide with the judge's).
An option given twice keeps the last, as in the course's parser.
"""
from __future__ import annotations

import argparse
import os
import random
import shlex
import shutil
import signal
import sys
import threading
from typing import Optional, Sequence

from clinea.core import MAX_SIDE, MAX_TOKENS
from clinea.judge.abbreviations import AmbiguousOption, resolve, spell_out
from clinea.judge.process import kill_all
from clinea.judge.referee import Clock, GameResult
from clinea.judge.report import summary
from clinea.judge.results import ResultLog
from clinea.judge.stats import Sprt
from clinea.judge.table import MatchStopped, Table, open_window
from clinea.judge.tournament import (GameSpec, Player, Runner, course_schedule, pairings, record,
                                     sprt_stop, tournament_schedule)
from clinea.players import registry
from clinea.progress import progress_bar

PROGRAM_OPTIONS = ("--blue_player", "--red_player", "--player")
DEFAULT_TIME_PER_MOVE = 30.0
# where the course judge writes its transcripts, relative to where it runs
COURSE_LOG_DIR = "log"
# a game lost by a bad move (illegal, garbage, crash, timeout) ends the run with this status
EXIT_FORFEIT = 1

EPILOG = """examples:
  clinea judge --blue_player players/random --red_player players/random --iterations 100
  clinea judge --blue_player players/strong time-per-move=0.2 --red_player players/random --iterations 10
  clinea judge --blue_player ./mybot --depth 3 --red_player players/random --first azul --ui true
  clinea judge --red_player players/strong --ui true   (you play azul: click a column, or type its digit)
  clinea judge --player a=players/random --player b="python3 bot.py --seed 2" \\
               --player c=players/random --iterations 20 --concurrency 2 --results run.jsonl
  clinea judge --resume run.jsonl          (continues a killed run, repeating no game)
A missing --blue_player or --red_player is a human: in the window with --ui, else typing
columns in the terminal. Without --iterations the match goes on until Ctrl-C, which prints
the tally. Transcripts go to ./log/player_communicator_<colour>.log, as the course's."""


def boolean(option: str):
    """An argparse `type` for the course's true/false options."""
    def parse(text: str) -> bool:
        lowered = text.strip().lower()
        if lowered in ("1", "true", "yes", "si", "sí", "on", "t", "y"):
            return True
        if lowered in ("0", "false", "no", "off", "f", "n", ""):
            return False
        raise argparse.ArgumentTypeError(f"{option} {text!r}: expected true or false")
    return parse


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="clinea judge",
        description="Referee C en linea games between player programs (the course judge's protocol), "
                    "check every move, time every answer, and report the results.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        # split_programs spells abbreviations out first, reading them as the
        # course's parser would, where argparse would call some ambiguous
        allow_abbrev=False)
    course = parser.add_argument_group("the course judge's options (c_linea.py)")
    course.add_argument("--blue_player", nargs="*", metavar="EXE", help="program for azul, with its arguments (default: a human)")
    course.add_argument("--red_player", nargs="*", metavar="EXE", help="program for rojo, with its arguments (default: a human)")
    course.add_argument("--columns", type=int, default=7, help=f"1..{MAX_SIDE} (default 7)")
    course.add_argument("--rows", type=int, default=6, help=f"1..{MAX_SIDE} (default 6)")
    course.add_argument("--c", type=int, default=4, help=f"tokens in a row to win, 1..{MAX_TOKENS} (default 4)")
    course.add_argument("--p", type=int, default=21, help=f"tokens per player, 1..{MAX_TOKENS} (default 21)")
    course.add_argument("--first", choices=("azul", "rojo"), help="who moves first (default: drawn per game)")
    course.add_argument("--iterations", "--games", type=int, default=None, dest="games",
                        help="games of the match (default: until Ctrl-C, which prints the tally), "
                             "or per pairing in a tournament (default 1)")
    course.add_argument("--ui", type=boolean("--ui"), nargs="?", const=True, default=False, metavar="BOOL",
                        help="show each game in a window (pygame: pip install clinea[ui]), "
                             "or in the terminal without a display (default false)")
    course.add_argument("--q", type=boolean("--q"), nargs="?", const=True, default=False, metavar="BOOL",
                        help="quiet: no progress; the tally is still printed (default false)")
    more = parser.add_argument_group("beyond the course judge")
    more.add_argument("--player", nargs="*", action="append", metavar="NAME=EXE",
                      help="a named player program (repeat: 2 for a match, 3+ for a tournament); "
                           "EXE, or the whole word, may be a registered player (clinea play --list) (default: none)")
    more.add_argument("--schedule", choices=("round-robin", "gauntlet"), default="round-robin",
                      help="tournament pairings; gauntlet: the first --player against each other (default round-robin)")
    more.add_argument("--time-per-move", type=float, default=DEFAULT_TIME_PER_MOVE, metavar="S",
                      help=f"seconds per answer (default {DEFAULT_TIME_PER_MOVE:g}; 0 = no limit)")
    more.add_argument("--game-time", type=float, metavar="S", help="a game clock of S seconds per player (default: none)")
    more.add_argument("--increment", type=float, default=0.0, metavar="S", help="seconds added per move to the game clock (default 0)")
    more.add_argument("--grace", type=float, default=0.05, metavar="S",
                      help="margin added to every deadline for machine noise (default 0.05)")
    more.add_argument("--openings", type=int, default=0, metavar="K",
                      help="start from K random plies, each opening played twice with the sides swapped "
                           "(programs get them as 'vos|el PLY...', a clinea extension of the protocol; default 0)")
    more.add_argument("--seed", type=int, help="seed of openings and first players (default: random, logged)")
    more.add_argument("--concurrency", type=int, default=1, metavar="N", help="games played at once (default 1)")
    more.add_argument("--results", metavar="FILE", help="append every finished game to FILE (JSON lines) (default: none)")
    more.add_argument("--resume", metavar="FILE", help="continue the run logged in FILE (default: none)")
    more.add_argument("--log-dir", metavar="DIR",
                      help="keep a transcript per player in DIR, in clinea's format with stderr and timings "
                           f"(default: the course's transcripts in ./{COURSE_LOG_DIR}/ for a blue/red match)")
    more.add_argument("--sprt", nargs=4, type=float, metavar=("ELO0", "ELO1", "ALPHA", "BETA"),
                      help="two players: stop as soon as the SPRT decides, e.g. 0 10 0.05 0.05 (default: none)")
    more.add_argument("--quiet", action="store_true", help="the same as --q true (default: off)")
    return parser


def split_programs(argv: Sequence[str], parser: argparse.ArgumentParser) -> tuple[list[str], dict]:
    """Takes the program options out of argv: each takes the words up to the
    next option the judge knows. Returns the rest and {option: [words...]}."""
    known = [option for option in parser._option_string_actions if option.startswith("--")]

    def option_of(word: str):
        try:
            return resolve(word, known)
        except AmbiguousOption as error:
            parser.error(str(error))

    rest: list[str] = []
    programs: dict[str, list[list[str]]] = {}
    i = 0
    while i < len(argv):
        word = argv[i]
        option = option_of(word)
        if option in PROGRAM_OPTIONS:
            j = i + 1
            while j < len(argv) and option_of(argv[j]) is None:
                j += 1
            _, equals, value = word.partition("=")
            words = ([value] if equals else []) + list(argv[i + 1:j])
            if len(words) == 1 and any(ch.isspace() for ch in words[0]):
                words = split_quoted(option, words[0])
            programs.setdefault(option, []).append(words)
            i = j
        else:
            rest.append(spell_out(word, known))
            i += 1
    return rest, programs


def split_quoted(option: str, text: str) -> list[str]:
    """One quoted program line, split as a shell would; for --player the
    name stays glued to the program: "a=python3 bot.py" -> a=python3 bot.py."""
    if option == "--player" and "=" in text:
        name, command = text.split("=", 1)
        words = shlex.split(command)
        return [f"{name}={words[0]}"] + words[1:] if words else [text]
    return shlex.split(text)


def check_program(parser: argparse.ArgumentParser, option: str, words: list[str]) -> list[str]:
    """The command that starts a seat's program. Besides a program, EXE may
    be a registered player's name (`strong`, or one a package registers):
    it runs as `clinea play NAME` with this judge's Python."""
    if not words:
        parser.error(f"{option}: no program given")
    exe = words[0]
    if os.sep not in exe and exe in registry.players():
        return [sys.executable, "-m", "clinea.players", *words]
    path = exe if os.sep in exe else shutil.which(exe)
    if path is None or not os.path.exists(path):
        parser.error(f"{option} {exe!r}: no such program")
    if os.path.isdir(path) or not os.access(path, os.X_OK):
        parser.error(f"{option} {exe!r}: not an executable file")
    return words


def build_players(parser, programs: dict) -> tuple[list[Player], bool]:
    """The players, and whether this is a course-style blue/red match."""
    named = programs.get("--player", [])
    if named and ("--blue_player" in programs or "--red_player" in programs):
        parser.error("use either --blue_player/--red_player or --player, not both")
    if not named:
        players = []
        for option, name in (("--blue_player", "azul"), ("--red_player", "rojo")):
            given = programs.get(option)
            # given twice, the last one counts, as in the course's parser
            command = check_program(parser, option, given[-1]) if given else None
            players.append(Player(name, command))
        return players, True
    players = []
    for words in named:
        if words and "=" not in words[0] and words[0] in registry.players():
            words = [f"{words[0]}={words[0]}", *words[1:]]  # --player strong: named after itself
        if not words or "=" not in words[0] or words[0].startswith("="):
            parser.error(f"--player {' '.join(words)!r}: expected NAME=EXE [ARGS...] or a registered player")
        name, exe = words[0].split("=", 1)
        if name in (p.name for p in players):
            parser.error(f"--player {name!r}: the name is used twice")
        players.append(Player(name, check_program(parser, f"--player {name}", [exe] + words[1:])))
    if len(players) < 2:
        parser.error(f"--player given {len(players)} time(s): a match needs at least 2 players")
    return players, False


def check_ranges(parser, args) -> None:
    for option, value, low, high in (("--columns", args.columns, 1, MAX_SIDE), ("--rows", args.rows, 1, MAX_SIDE),
                                     ("--c", args.c, 1, MAX_TOKENS), ("--p", args.p, 1, MAX_TOKENS)):
        if not low <= value <= high:
            parser.error(f"{option} {value} is out of range: allowed {low}..{high}")
    if args.games is not None and args.games < 1:
        parser.error(f"--iterations {args.games} is out of range: allowed 1 or more (none: until stopped)")
    if args.openings < 0:
        parser.error(f"--openings {args.openings} is out of range: allowed 0 or more")
    if args.concurrency < 1:
        parser.error(f"--concurrency {args.concurrency} is out of range: allowed 1 or more")
    for option, value in (("--time-per-move", args.time_per_move), ("--game-time", args.game_time),
                          ("--increment", args.increment), ("--grace", args.grace)):
        if value is not None and value < 0:
            parser.error(f"{option} {value:g} is out of range: allowed 0 or more")
    if args.openings >= min(args.columns * args.rows, 2 * args.p):
        parser.error(f"--openings {args.openings} is out of range: allowed 0..{min(args.columns * args.rows, 2 * args.p) - 1}")
    if args.sprt:
        elo0, elo1, alpha, beta = args.sprt
        if not (0 < alpha < 1 and 0 < beta < 1) or elo0 == elo1:
            parser.error(f"--sprt {' '.join(f'{x:g}' for x in args.sprt)}: need ELO0 != ELO1 and 0 < ALPHA, BETA < 1")


def parse(argv: Sequence[str], resumed: bool = False):
    parser = build_parser()
    rest, programs = split_programs(argv, parser)
    args = parser.parse_args(rest)
    if args.resume and not resumed:
        log_header = ResultLog.peek_header(args.resume)
        if log_header is not None and not programs:
            # the stored options are the run: same players, sizes, seed, schedule
            return parse(log_header["argv"] + ["--resume", args.resume], resumed=True)
    check_ranges(parser, args)
    players, course = build_players(parser, programs)
    if args.sprt and len(players) != 2:
        parser.error(f"--sprt needs exactly 2 players, got {len(players)}")
    if args.seed is None:
        args.seed = random.randrange(2**31)
    stored = [w for w in argv]
    if "--seed" not in stored:
        stored += ["--seed", str(args.seed)]
    return parser, args, players, course, strip_run_options(stored)


def strip_run_options(argv: list[str]) -> list[str]:
    """The argv that defines the run, without where it is logged."""
    out = []
    skip = False
    for word in argv:
        if skip:
            skip = False
            continue
        if word in ("--resume", "--results"):
            skip = True
            continue
        if word.startswith(("--resume=", "--results=")):
            continue
        out.append(word)
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if threading.current_thread() is threading.main_thread():
        # SIGTERM unwinds like Ctrl-C, so the players are killed on the way out
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    try:
        return run(argv)
    except KeyboardInterrupt:  # before the match or after its tally
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        kill_all()


def run(argv: list[str]) -> int:
    parser, args, players, course, run_argv = parse(argv)
    size = (args.columns, args.rows, args.c, args.p)
    names = [p.name for p in players]
    if course:
        specs = course_schedule(names[0], names[1], args.games, args.first, args.seed, size, args.openings)
    else:
        specs = tournament_schedule(names, args.schedule, args.games or 1, args.seed, size, args.openings)

    path = args.resume or args.results
    log = ResultLog(path) if path else None
    records: list[dict] = []
    if log is not None:
        if log.header is None:
            log.write_header({"argv": run_argv})
        records = [r for r in log.records]
        done = log.done()
        specs = (spec for spec in specs if spec.id not in done)

    humans = any(p.command is None for p in players)
    quiet = args.quiet or args.q
    sprt = Sprt(*args.sprt) if args.sprt else None

    def clock_factory() -> Clock:
        return Clock(per_move=args.time_per_move or None, game=args.game_time,
                     increment=args.increment, grace=args.grace)

    table = Table(size, open_window(size) if args.ui else None) if args.ui or humans else None
    course_logs = COURSE_LOG_DIR if course and not args.log_dir else None
    runner = Runner(players, size, clock_factory, 1 if table else args.concurrency, args.log_dir,
                    table.human if table else None, table.view if table else None, course_logs)
    # the number of games in all, None for the course's endless match
    total = args.games if course else len(pairings(names, args.schedule)) * (args.games or 1)
    bar = None if quiet or table else progress_bar(total, len(records), "game")

    def on_result(spec: GameSpec, result: GameResult) -> None:
        rec = record(spec, size, result)
        # the file first: a Ctrl-C between the two leaves the game on file,
        # where --resume finds it, rather than only in the printed tally
        if log is not None:
            log.append(rec)
        records.append(rec)
        if bar is not None:
            bar.update(1)
        if table:
            table.result(spec, rec)
        if sprt is not None and sprt_stop(sprt, names[0], records):
            runner.stop.set()

    status, why = 0, None
    try:
        if not (sprt is not None and sprt_stop(sprt, names[0], records)):
            runner.run(specs, on_result)
    except KeyboardInterrupt:
        status, why = 130, "interrupted: the tally of the finished games follows"
    except MatchStopped as stop:
        why = f"stopped: {stop}"
    finally:
        if bar is not None:
            bar.close()
        if log is not None:
            log.close()
        if table:
            table.close()
    if why:
        print(why, file=sys.stderr, flush=True)  # after the bar, which would overwrite it
    print(summary(records, names, None if course else args.games or 1, sprt))
    if status == 0 and any(rec["forfeit"] is not None for rec in records):
        status = EXIT_FORFEIT
    return status
