"""`clinea judge`: the course judge's command line (c_linea.py) and more.

Course scripts run unchanged: `--blue_player EXE [ARGS...]` (or
`--blue_player=EXE`) takes everything up to the next option this judge knows,
spelled out or abbreviated as argparse allows (or one quoted string, split
like a shell would, when the program's own options collide with the judge's;
one word that is the path of an executable file stays whole, blanks and all).
A judge option right after a program that may take it is refused as
ambiguous. An option given twice keeps the last, as in the course's parser.
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
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from clinea import protocol
from clinea.core import Rules
from clinea.judge import reaper, seat_settings
from clinea.judge.abbreviations import COURSE_OPTIONS, AmbiguousOption, resolve, spell_out
from clinea.judge.match import Match, MatchEnd
from clinea.judge.openings import ORDERS, OpeningsError, read_openings
from clinea.judge.player_process import kill_all
from clinea.judge.process_seat import STARTUP_GRACE
from clinea.judge.referee import Clock, TimeControl
from clinea.judge.report import Standings, seat_labels
from clinea.judge.results import ResultLog, ResultsError, check_writable, key_path, read_header
from clinea.judge.sandbox import MODES, Sandbox, SandboxError, SeatLimits
from clinea.judge.seat_settings import SeatSettings
from clinea.judge.stats import MODELS, Sprt
from clinea.judge.table import Table, open_window
from clinea.judge.tournament import GameSpec, Player, Runner, course_schedule, pairings, tournament_schedule
from clinea.players import registry
from clinea.players.options import add_board_options, bounded_float, bounded_int, named_option, option_actions
from clinea.progress import progress_bar
from clinea.ray_cluster import LOCAL

if TYPE_CHECKING:  # Ray is an extra: its runner is imported when --ray asks for it
    from clinea.judge.ray_backend import RayRunner

PROGRAM_OPTIONS = ("--blue_player", "--red_player", "--player")
DEFAULT_TIME_PER_MOVE = 30.0
# where the course judge writes its transcripts, relative to where it runs
COURSE_LOG_DIR = "log"
# Long options of clinea's own players that the judge would take for itself
# (--log as an abbreviation of --log-dir): after a program of a student's,
# which may well have them too, they are refused as ambiguous.
# tests/test_judge_course_command_line.py keeps this list true.
PLAYER_OPTIONS = ("--log", "--seed", "--time-per-move")
# a game lost by a bad move (illegal, garbage, crash, timeout) ends the run with this status
EXIT_FORFEIT = 1
# the results file could not be written (a full disk): the run stopped (sysexits' EX_IOERR)
EXIT_RESULTS_UNWRITABLE = 74
# a step on Ray failed (a node lost, Ray short of memory): the run stopped (sysexits' EX_UNAVAILABLE)
EXIT_RAY_FAILED = 69
#: `--view`: writes the replay page of a results file (path, quiet) and
#: returns the line saying where, or why not; the page lives above the judge
#: (clinea.arena.judge_command hands it in)
PageWriter = Callable[[str, bool], str]

EPILOG = """examples:
  clinea judge --blue_player players/random --red_player players/random --iterations 100
  clinea judge --blue_player players/strong time-per-move=0.2 --red_player players/random --iterations 10
  clinea judge --blue_player ./mybot --depth 3 --red_player players/random --first azul --ui true
  clinea judge --red_player players/strong --ui true   (you play azul: click a column, or type its digit)
  clinea judge --player a=players/random --player b="python3 bot.py --seed 2" \\
               --player c=players/random --iterations 20 --concurrency 2 --results run.jsonl
  clinea judge --resume run.jsonl          (continues a killed run, repeating no game)
  clinea judge --player new=players/strong --player old=players/greedy --openings-file book.txt \\
               --sprt 0 2 0.05 0.05 model=pentanomial --tc new=10+0.1 --tc old=10+0.1
                                           (game pairs from a file until the pentanomial SPRT decides)
  clinea judge --player a=players/greedy --player b=players/strong --iterations 100 --ray
                                           (on a local Ray; --ray HOST:PORT joins a cluster)
A missing --blue_player or --red_player is a human: in the window with --ui, else typing
columns in the terminal. Without --iterations the match goes on until Ctrl-C, which prints
the tally. Transcripts go to ./log/player_communicator_<colour>.log, as the course's."""


def boolean(option: str) -> Callable[[str], bool]:
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
    add_board_options(course, p_default=21)
    course.add_argument("--first", choices=("azul", "rojo"), help="who moves first (default: drawn per game)")
    course.add_argument("--iterations", "--games", type=bounded_int("--iterations", 1), default=None, dest="games",
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
    more.add_argument("--time-per-move", type=seconds("--time-per-move"), default=DEFAULT_TIME_PER_MOVE, metavar="S",
                      help=f"seconds per answer (default {DEFAULT_TIME_PER_MOVE:g}; 0 = no limit)")
    more.add_argument("--game-time", type=seconds("--game-time"), metavar="S", help="a game clock of S seconds per player (default: none)")
    more.add_argument("--increment", type=seconds("--increment"), default=0.0, metavar="S", help="seconds added per move to the game clock (default 0)")
    more.add_argument("--grace", type=seconds("--grace"), default=0.05, metavar="S",
                      help="margin added to every deadline for machine noise (default 0.05)")
    more.add_argument("--openings", type=bounded_int("--openings", 0), default=0, metavar="K",
                      help="start from K random plies, each opening played twice with the sides swapped "
                           "(programs get them as 'vos|el PLY...', a clinea extension of the protocol; default 0)")
    more.add_argument("--openings-file", metavar="FILE",
                      help="openings from FILE, one a line in 1-based columns (4453; 10 4 11 on wide boards), "
                           "each played twice with the sides swapped (default: none)")
    more.add_argument("--openings-order", choices=ORDERS, default="sequential",
                      help="the file's openings in its order, or shuffled by --seed (default sequential)")
    more.add_argument("--tc", action="append", default=[], metavar="NAME=SECONDS[+INC]",
                      help="a game clock for one player (repeat per player), e.g. --tc a=10+0.1; "
                           "--time-per-move still caps every answer (default: --game-time for all)")
    more.add_argument("--seed", type=int, help="seed of openings and first players (default: random, logged)")
    more.add_argument("--concurrency", type=bounded_int("--concurrency", 1), metavar="N",
                      help="games played at once (default 1; with --ray, the cluster's CPUs)")
    more.add_argument("--ray", nargs="?", const=LOCAL, metavar="ADDRESS",
                      help="play the games on Ray (pip install 'clinea[ray]'): a new local Ray without "
                           "ADDRESS, else the cluster there (auto, HOST:PORT). Player programs must exist "
                           "at the same path, relative to this directory, on every node (or the job ships "
                           "it: ray job submit --working-dir .); every node tries them before the first game "
                           "(default: no Ray, local processes)")
    more.add_argument("--results", metavar="FILE", help="append every finished game to FILE (JSON lines) (default: none)")
    more.add_argument("--resume", metavar="FILE", help="continue the run logged in FILE (default: none)")
    more.add_argument("--view", action="store_true",
                      help="at the end, write the run's games as an HTML replay page beside the results file "
                           "(run.jsonl -> run.html, as `clinea view run.jsonl` does) (default: off)")
    more.add_argument("--log-dir", metavar="DIR",
                      help="keep a transcript per player in DIR, in clinea's format with stderr and timings "
                           f"(default: the course's transcripts in ./{COURSE_LOG_DIR}/ for a blue/red match)")
    more.add_argument("--sprt", nargs="+", metavar="ELO0 ELO1 ALPHA BETA [model=pentanomial|trinomial]",
                      help="two players: stop as soon as the SPRT decides, e.g. 0 10 0.05 0.05; pentanomial (the default "
                           "with paired openings) counts game pairs, ELO0/ELO1 in normalised Elo as fastchess; "
                           "trinomial (the default otherwise) counts games, in logistic Elo (default: none)")
    more.add_argument("--sandbox", choices=MODES, default="auto",
                      help="confine every seat with bubblewrap: auto (when it works here), strict (refuse to "
                           "play without it), off (limits only, for speed tests) (default: auto)")
    more.add_argument("--ponder", action="store_true",
                      help="let both seats think on the other's time, as cutechess and fastchess allow, each with an "
                           "equal CPU share however many processes it starts (default: ponder off, as CCRL and TCEC "
                           "play: while one seat thinks, every process of the other is stopped, and resumed when it "
                           "is told the move; the tally names a seat that used CPU while its opponent thought)")
    more.add_argument("--same-core", choices=("auto", "off"), default="auto",
                      help="auto: each game's judge thread and players share one CPU while the players answer "
                           "within 5 ms (a wake-up across CPUs costs more than a fast player's move; a player that "
                           "thinks or ponders gets every CPU back at once); off: the scheduler places them "
                           "(default: auto)")
    more.add_argument("--seat-limits", type=seat_limits, default=SeatLimits(), metavar="NAME=VALUE,...",
                      help=f"what one seat may use, e.g. memory=2G,processes=64,cpu=600 (default: {SeatLimits().describe()}; "
                           "cpu: what the run's clock allows)")
    more.add_argument("--quiet", action="store_true", help="the same as --q true (default: off)")
    return parser


def split_programs(argv: Sequence[str], parser: argparse.ArgumentParser) -> tuple[list[str], dict[str, list[list[str]]]]:
    """Takes the program options out of argv: each takes the words up to the
    next option the judge knows. Returns the rest and {option: [words...]}."""
    known = [option for option in option_actions(parser) if option.startswith("--")]

    def option_of(word: str) -> str | None:
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
            if len(words) == 1 and any(ch.isspace() for ch in words[0]) and not names_a_program(option, words[0]):
                try:
                    words = split_quoted(option, words[0])
                except ValueError as error:  # shlex: "No closing quotation"
                    parser.error(f"{option} {protocol.quote(words[0])}: {str(error).lower()} (an unbalanced quote?)")
            if words and j < len(argv):
                check_unambiguous(parser, option, words, list(argv[j:]))
            programs.setdefault(option, []).append(words)
            i = j
        else:
            rest.append(spell_out(word, known))
            i += 1
    return rest, programs


def program_word(option: str, word: str) -> str:
    """The program of a program option's first word (`a=players/strong` -> `players/strong`)."""
    return word.split("=", 1)[1] if option == "--player" and "=" in word else word


def names_a_program(option: str, word: str) -> bool:
    """Whether one word is the path of an executable file, blanks and all,
    as the course's judge runs it (Popen([player] + params)); else a word
    with blanks is a quoted command line."""
    path = program_word(option, word)
    return os.path.isfile(path) and os.access(path, os.X_OK)


def check_unambiguous(parser: argparse.ArgumentParser, option: str, words: list[str], after: list[str]) -> None:
    """Refuses a judge option right after a program that takes an option of
    that name itself (`--blue_player players/strong --time-per-move 0.5`),
    or may (a program of the student's, and an option clinea's players
    have): the course's parser refuses any option there, and taking it for
    the judge left the program at its default. A course option, or one the
    clinea player named has not, is the judge's."""
    actions = option_actions(parser)
    judge_option = resolve(after[0], actions)
    if judge_option is None:  # not an option of the judge's: the caller split the program there on one
        return
    if judge_option in COURSE_OPTIONS or judge_option in PROGRAM_OPTIONS or judge_option in ("--help", "--games"):
        return
    options = registry.program_options(program_word(option, words[0]), words[1:])
    own = named_option(after[0], options if options is not None else PLAYER_OPTIONS)
    if own is None:
        return
    takes_value = actions[judge_option].nargs != 0
    _, equals, value = after[0].partition("=")
    shown = [after[0]]
    if not equals and takes_value and len(after) > 1:
        shown.append(after[1])
        value = after[1]
    for_program = f'quote the program ({option} "{" ".join(words + shown)}")'
    if options is not None:
        bare = own[2:] + (f"={value}" if options[own] else "")
        for_program = f"write it as a bare word ({option} {' '.join(words)} {bare}) or " + for_program
    whose = "the program's option too" if options is not None else "maybe the program's too (clinea's players have it)"
    parser.error(f"{option} {' '.join(words + shown)}: {after[0].split('=', 1)[0]} is the judge's {judge_option} "
                 f"and {whose}; for the program, {for_program}; for the judge, give it before {option}")


def split_quoted(option: str, text: str) -> list[str]:
    """One quoted program line, split as a shell would; for --player the
    name stays glued to the program: "a=python3 bot.py" -> a=python3 bot.py."""
    if option == "--player" and "=" in text:
        name, command = text.split("=", 1)
        words = shlex.split(command)
        return [f"{name}={words[0]}"] + words[1:] if words else [text]
    return shlex.split(text)


def seat_limits(text: str) -> SeatLimits:
    """An argparse `type` for --seat-limits."""
    try:
        return SeatLimits.parse(text)
    except SandboxError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def launcher_hint(option: str, exe: str) -> str:
    """How to get players/NAME of a built-in player that make has not
    written (its extra was not installed yet), and that the name works alone."""
    name = os.path.basename(exe)
    if name not in registry.BUILTIN:
        return ""
    extra = registry.missing_extra(name)
    install = f"{registry.install_command(extra)}, then " if extra else ""
    return f"; {install}make writes it (or give the name alone: {option} {name})"


def check_program(parser: argparse.ArgumentParser, option: str, words: list[str], answer_seconds: float) -> list[str]:
    """The command that starts a seat's program. Besides a program, EXE may
    be a registered player's name (`strong`, or one a package registers):
    it runs as `clinea play NAME` with this judge's Python, told to answer
    within `answer_seconds` (the judge's --time-per-move)."""
    if not words:
        parser.error(f"{option}: no program given")
    exe = words[0]
    registered = registry.registered_command(words, answer_seconds)
    if registered:
        return registered
    path = exe if os.sep in exe else shutil.which(exe)
    if path is None and os.path.isfile(exe):  # a shell, too, runs a program of this folder only as ./NAME
        parser.error(f"{option} {exe!r}: no such program on PATH; did you mean ./{exe}?")
    if path is None or not os.path.exists(path):
        parser.error(f"{option} {exe!r}: no such program{launcher_hint(option, exe)}")
    if os.path.isdir(path) or not os.access(path, os.X_OK):
        parser.error(f"{option} {exe!r}: not an executable file")
    return words


def build_players(parser: argparse.ArgumentParser, programs: dict[str, list[list[str]]],
                  answer_seconds: float) -> tuple[list[Player], bool]:
    """The players, and whether this is a course-style blue/red match."""
    named = programs.get("--player", [])
    if named and ("--blue_player" in programs or "--red_player" in programs):
        parser.error("use either --blue_player/--red_player or --player, not both")
    if not named:
        players = []
        for option, name in (("--blue_player", "azul"), ("--red_player", "rojo")):
            given = programs.get(option)
            # given twice, the last one counts, as in the course's parser
            command = check_program(parser, option, given[-1], answer_seconds) if given else None
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
        players.append(Player(name, check_program(parser, f"--player {name}", [exe] + words[1:], answer_seconds)))
    if len(players) < 2:
        parser.error(f"--player given {len(players)} time(s): a match needs at least 2 players")
    return players, False


def seconds(option: str) -> Callable[[str], float]:
    """A duration option's type: seconds, 0 or more."""
    return bounded_float(option, 0.0, what="a number of seconds")


def check_ranges(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    # each value's own range is checked as it is parsed (clinea.players.options); these depend on others
    if args.openings >= min(args.columns * args.rows, 2 * args.p):
        parser.error(f"--openings {args.openings} is out of range: allowed 0..{min(args.columns * args.rows, 2 * args.p) - 1}")
    if args.openings and args.openings_file:
        parser.error("use either --openings K or --openings-file FILE, not both")
    if args.openings_file:
        try:
            args.book = read_openings(args.openings_file, Rules(args.columns, args.rows, args.c, args.p))
        except OpeningsError as error:
            parser.error(f"--openings-file {error}")
    args.sprt, args.sprt_model = parse_sprt(parser, args.sprt)


def parse_sprt(parser: argparse.ArgumentParser, words: list[str] | None) -> tuple[list[float] | None, str | None]:
    """--sprt ELO0 ELO1 ALPHA BETA [model=NAME]: the four numbers and the model asked for."""
    if not words:
        return None, None
    model = None
    if len(words) == 5 and words[4].startswith("model="):
        model = words[4].split("=", 1)[1]
        if model not in MODELS:
            parser.error(f"--sprt {words[4]!r}: allowed model={' or model='.join(MODELS)}")
        words = words[:4]
    try:
        numbers = [float(word) for word in words]
    except ValueError:
        numbers = []
    if len(numbers) != 4:
        parser.error(f"--sprt {' '.join(words)!r}: expected ELO0 ELO1 ALPHA BETA [model=pentanomial|trinomial]")
    elo0, elo1, alpha, beta = numbers
    if not (0 < alpha < 1 and 0 < beta < 1) or elo0 == elo1:
        parser.error(f"--sprt {' '.join(f'{x:g}' for x in numbers)}: need ELO0 != ELO1 and 0 < ALPHA, BETA < 1")
    return numbers, model


def time_controls(parser: argparse.ArgumentParser, args: argparse.Namespace, players: list[Player]) -> None:
    """Gives each player named by a --tc its own game clock."""
    by_name = {player.name: player for player in players}
    for text in args.tc:
        name, equals, control = text.partition("=")
        if not equals or name not in by_name:
            parser.error(f"--tc {text!r}: expected NAME=SECONDS[+INC] with NAME one of {', '.join(by_name)}")
        try:
            by_name[name].time_control = TimeControl.parse(control)
        except ValueError as error:
            parser.error(f"--tc {name}={error}")


Parsed = tuple[argparse.ArgumentParser, argparse.Namespace, list[Player], bool, list[str]]
"""What `parse` makes of a command line: the parser, the options, the
players, whether it is a course-style match, and the argv to store."""


def parse(argv: Sequence[str], resumed: bool = False) -> Parsed:
    parser = build_parser()
    rest, programs = split_programs(argv, parser)
    args = parser.parse_args(rest)
    header = None
    if args.resume and args.results:
        parser.error("use either --resume FILE or --results FILE, not both")
    path = args.resume or args.results
    if path:
        try:
            check_writable(path)
            header = read_header(path)
        except ResultsError as error:
            parser.error(f"{'--resume' if args.resume else '--results'} {error}")
    if args.resume and header is None:
        parser.error(f"--resume {args.resume}: missing or empty, there is no run to resume")
    if header is not None and args.resume and not resumed and not programs:
        # the stored options are the run: same players, sizes, seed, schedule
        # (options given now come after them: any that changes the run is refused below)
        return parse(header["argv"] + list(argv), resumed=True)
    check_ranges(parser, args)
    players, course = build_players(parser, programs, args.time_per_move)
    if args.ray is not None and (args.ui or any(p.command is None for p in players)):
        parser.error("--ray plays programs only: give every player a program, without --ui")
    if args.sprt and len(players) != 2:
        parser.error(f"--sprt needs exactly 2 players, got {len(players)}")
    # a pair: one opening, the first move swapped (which --first forbids)
    args.paired = bool(args.openings or args.openings_file) and not (course and args.first)
    if args.sprt_model == "pentanomial" and not args.paired:
        parser.error("--sprt model=pentanomial counts game pairs: give --openings K or --openings-file FILE"
                     + (", without --first" if args.first else ""))
    args.sprt_model = args.sprt_model or ("pentanomial" if args.paired else "trinomial")
    time_controls(parser, args, players)
    if args.resume and any(player.command is None for player in players):
        parser.error(f"--resume {args.resume}: the stored run has no player programs, nothing to resume")
    stored = list(argv)
    if args.seed is None:
        # continuing a file: its seed, so the schedule (and the game ids) are the same
        stored_seed = header and settings_of(parse(header["argv"], resumed=True)[1:3]).get("seed")
        args.seed = stored_seed if stored_seed is not None else random.randrange(2**31)
        stored += ["--seed", str(args.seed)]
    if header is not None:
        stored_settings = settings_of(parse(header["argv"], resumed=True)[1:3])
        differences = [f"{name}: {stored_settings.get(name)!r} in the file, {value!r} now"
                       for name, value in settings_of((args, players)).items() if stored_settings.get(name) != value]
        if differences:
            parser.error(f"{path} holds another run ({'; '.join(differences)}): "
                         "give another --results file, or --resume it alone")
    return parser, args, players, course, strip_run_options(stored)


def settings_of(parsed: tuple[argparse.Namespace, list[Player]]) -> dict[str, Any]:
    """What makes a run that run: two runs with the same settings play the
    same games under the same ids, their seats isolated and bounded alike."""
    args, players = parsed
    return {"players": [(p.name, p.command) for p in players],
            "board": [args.columns, args.rows, args.c, args.p],
            "iterations": args.games, "first": args.first, "schedule": args.schedule,
            "openings": args.openings, "seed": args.seed, "time-per-move": args.time_per_move,
            "game-time": args.game_time, "increment": args.increment, "grace": args.grace, "sprt": args.sprt,
            "sprt-model": args.sprt_model if args.sprt else None, "openings-file": args.openings_file,
            "openings-order": args.openings_order, "tc": {p.name: str(p.time_control) for p in players if p.time_control},
            "sandbox": args.sandbox, "seat-limits": args.seat_limits.describe(), "ponder": args.ponder}


def strip_run_options(argv: list[str]) -> list[str]:
    """The argv that defines the run, without where it is logged or played."""
    out = []
    skip = False
    for i, word in enumerate(argv):
        if skip:
            skip = False
            continue
        if word in ("--resume", "--results") or (word == "--ray" and ray_address_follows(argv, i)):
            skip = True
            continue
        if word == "--ray" or word.startswith(("--resume=", "--results=", "--ray=")):
            continue
        out.append(word)
    return out


def ray_address_follows(argv: Sequence[str], i: int) -> bool:
    """Whether the word after `--ray` at argv[i] is its ADDRESS."""
    return i + 1 < len(argv) and not argv[i + 1].startswith("-")


def main(argv: Sequence[str] | None = None, write_page: PageWriter | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    reaper.become_undumpable()  # a bot outside a sandbox reaches no descriptor of the judge's
    if threading.current_thread() is threading.main_thread():
        # SIGTERM unwinds like Ctrl-C, so the players are killed on the way out
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    try:
        return run(argv, write_page)
    except KeyboardInterrupt:  # before the match or after its tally
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        kill_all()


def seat_game_time(args: argparse.Namespace, control: TimeControl | None, moves: int) -> float | None:
    """The seconds a seat's clock lets it think in one game of `moves` moves
    each: its own game clock (--tc), else the run's, else the time per move;
    None when unlimited."""
    if control is None and args.game_time:
        control = TimeControl(args.game_time, args.increment)
    if control is not None:
        return control.game + moves * (control.increment + float(args.grace))
    if args.time_per_move:
        return moves * (float(args.time_per_move) + float(args.grace))
    return None


def run_limits(args: argparse.Namespace, players: list[Player], rules: Rules, games: int | None) -> SeatLimits:
    """What one seat of the run may use: --seat-limits, with a CPU backstop
    of what the run's clock lets a seat's games take."""
    seat_times = [seat_game_time(args, player.time_control, rules.p) for player in players]
    bounded = [seconds for seconds in seat_times if seconds is not None]
    per_game = max(bounded) if len(bounded) == len(seat_times) else None  # the longest clock bounds every seat
    if per_game is not None:
        per_game += STARTUP_GRACE
    limits: SeatLimits = args.seat_limits.for_run(per_game, games)
    return limits


def total_games(args: argparse.Namespace, names: list[str], course: bool) -> int | None:
    """The number of games of the run in all, None for the course's endless match."""
    if course:
        return args.games if args.games is None else int(args.games)
    per_pairing = games_per_pairing(args)
    return None if per_pairing is None else len(pairings(names, args.schedule)) * per_pairing


def games_per_pairing(args: argparse.Namespace) -> int | None:
    """A tournament's --iterations, else one game a pairing; with --sprt,
    None: the match goes on until the test decides (or Ctrl-C)."""
    return args.games or (None if args.sprt else 1)


def confinement(parser: argparse.ArgumentParser, args: argparse.Namespace, limits: SeatLimits, hidden: list[str | None]) -> Sandbox:
    """The run's seat sandbox (clinea.judge.sandbox): the results file and
    the logs out of every seat's sight, each seat within `limits`."""
    try:
        return Sandbox(args.sandbox, limits, tuple(os.path.abspath(path) for path in hidden if path), args.ponder)
    except SandboxError as error:
        parser.error(str(error))


def run_settings(argv: list[str]) -> SeatSettings:
    """The seat settings of a run from its argv alone (a results file of an
    older clinea, whose header keeps nothing else), with today's defaults."""
    _, args, players, course, _ = parse(argv, resumed=True)
    rules = Rules(args.columns, args.rows, args.c, args.p)
    limits = run_limits(args, players, rules, total_games(args, [p.name for p in players], course))
    return seat_settings.recorded(args, players, limits, STARTUP_GRACE)


def schedule(args: argparse.Namespace, names: list[str], rules: Rules, course: bool) -> Iterator[GameSpec]:
    """The run's games, made as they are played."""
    book = getattr(args, "book", None)
    if course:
        return course_schedule(names[0], names[1], args.games, args.first, args.seed, rules, args.openings,
                               book, args.openings_order)
    return tournament_schedule(names, args.schedule, games_per_pairing(args), args.seed, rules, args.openings,
                               book, args.openings_order)


def open_results(parser: argparse.ArgumentParser, args: argparse.Namespace, path: str | None,
                 standings: Standings) -> ResultLog | None:
    """The results file, its games already counted in `standings`."""
    if args.view and not path:
        parser.error("--view needs --results FILE (or --resume FILE): the page shows the games of that file")
    if not path:
        return None
    try:
        return ResultLog(path, standings.add)
    except (ResultsError, OSError) as error:
        parser.error(f"{'--resume' if args.resume else '--results'} {error}")


def sprt_of(args: argparse.Namespace) -> Sprt | None:
    if not args.sprt:
        return None
    elo0, elo1, alpha, beta = (float(value) for value in args.sprt)
    return Sprt(elo0, elo1, alpha, beta, args.sprt_model)


def make_runner(args: argparse.Namespace, players: list[Player], rules: Rules, table: Table | None,
                course_logs: str | None, sandbox: Sandbox) -> Runner | RayRunner:
    """Who plays the games: local workers, or tables on Ray with --ray."""
    def clock_factory() -> Clock:
        return Clock(per_move=args.time_per_move or None, game=args.game_time,
                     increment=args.increment, grace=args.grace)

    if args.ray is not None:
        from clinea.judge.ray_backend import RayRunner
        return RayRunner(args.ray, players, rules, clock_factory, args.concurrency, args.log_dir, sandbox)
    # a human's game is not a fast one, and a bot pondering on a human's time keeps every CPU
    return Runner(players, rules, clock_factory, 1 if table else args.concurrency or 1, args.log_dir,
                  table.human if table else None, table.view if table else None, course_logs, sandbox,
                  same_core=args.same_core == "auto" and table is None)


def watch(match: Match, args: argparse.Namespace, table: Table | None, sandbox: Sandbox, total: int | None,
          programs: bool) -> Callable[[MatchEnd], None]:
    """The run's header on stderr, its progress bar or window as the
    match's hooks; returns what closes them."""
    quiet = args.quiet or args.q
    if programs and not (quiet or table):  # the run's header, above its progress bar
        print(sandbox.describe(), file=sys.stderr, flush=True)
    bar = None if quiet or table else progress_bar(total, match.standings.games, "game")
    if bar is not None:
        match.hooks.append(lambda record: bar.update(1))
    if table is not None:
        match.hooks.append(table.result)

    def close(end: MatchEnd) -> None:
        if bar is not None:
            bar.close()
        if table is not None:
            table.close(keep=end.stopped is None and not end.interrupted)
    return close


def finish(match: Match, end: MatchEnd, args: argparse.Namespace, names: list[str], course: bool,
           sandbox: Sandbox, path: str | None, programs: bool, players: list[Player],
           write_page: PageWriter | None) -> int:
    """The summary, what stopped the run if anything, and the exit status."""
    games = match.standings.games
    if end.stopped:
        print(end.stopped, file=sys.stderr, flush=True)  # after the bar, which would overwrite it
    print(match.summary(names, None if course else games_per_pairing(args), seat_labels({p.name: p.command for p in players}) if course else None))
    if programs:
        print(sandbox.describe())
    if end.ray_failure is not None:
        kept = (f"its {games} finished games are in {path}: clinea judge --resume {path} plays the rest, "
                "with --ray or without" if path else "give --results FILE to keep a run's games and resume it")
        print(f"clinea judge: the run on Ray stopped: {end.ray_failure}; {kept}", file=sys.stderr)
        return EXIT_RAY_FAILED
    if end.unwritable is not None:
        print(f"clinea judge: cannot write to {path} ({end.unwritable.strerror or end.unwritable}): stopped after "
              f"{games} games, all of them in the file; make room, then clinea judge --resume {path} "
              "plays the rest", file=sys.stderr)
        return EXIT_RESULTS_UNWRITABLE
    if end.interrupted:
        kept = f"they are in {path}" if path else "no --results file keeps them"
        print(f"interrupted after {games} finished games: {kept}", file=sys.stderr)
        return 130
    if args.view and path and write_page:
        print(write_page(path, args.quiet or args.q), file=sys.stderr)
    return EXIT_FORFEIT if match.forfeits else 0


def run(argv: list[str], write_page: PageWriter | None = None) -> int:
    """`clinea judge`: parses, wires a Match and reports how it ended."""
    parser, args, players, course, run_argv = parse(argv)
    if args.view and write_page is None:
        parser.error("--view: this entry point writes no replay page; clinea judge does")
    rules = Rules(args.columns, args.rows, args.c, args.p)
    names = [player.name for player in players]
    path = args.resume or args.results
    standings = Standings(paired=args.paired)
    log = open_results(parser, args, path, standings)
    humans = any(player.command is None for player in players)
    programs = not all(player.command is None for player in players)
    table = Table(rules, open_window(rules) if args.ui else None) if args.ui or humans else None
    course_logs = COURSE_LOG_DIR if course and not args.log_dir else None
    total = total_games(args, names, course)
    limits = run_limits(args, players, rules, total)
    sandbox = confinement(parser, args, limits, [path, path and key_path(path), args.log_dir, course_logs])
    # what a replay of one of its games needs beside the argv (clinea.judge.seat_settings)
    header = {"argv": run_argv, seat_settings.KEY: seat_settings.recorded(args, players, limits, STARTUP_GRACE).to_json()}
    match = Match(make_runner(args, players, rules, table, course_logs, sandbox), schedule(args, names, rules, course),
                  standings, log, sprt_of(args), (names[0], names[1]) if args.sprt else None, header,
                  catch_interrupt=not humans)
    end = match.play(sandbox, watch(match, args, table, sandbox, total, programs))
    return finish(match, end, args, names, course, sandbox, path, programs, players, write_page)
