"""The protocol driver: plays any Bot over stdin/stdout under a referee.

It keeps its own board from the moves it sees, so a bot only ever answers
`choose(board)`. Any malformed or out-of-turn line ends the program with
status 2 and one stderr line; end of input ends it quietly with status 0.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import IO, NoReturn

from clinea import protocol
from clinea.core import Board, Rules
from clinea.core.reply import BAD_ANSWER, WRITE_FAILED, reply
from clinea.core.wire import ColumnLines
from clinea.players.bot import Bot, FunctionBot
from clinea.players.options import bare_words_to_options, options_to_bare_words
from clinea.protocol import ProtocolError

EXIT_OK, EXIT_BOT_ERROR, EXIT_PROTOCOL_ERROR = 0, 1, 2
# The lines the C loop between moves reads itself: the protocol's own column lines.
COLUMN_LINES = ColumnLines(protocol.COLUMN_LINES)
# The moves between two lines that need the protocol's parser go through the
# C loop (clinea.core.reply); the tests turn it off to compare it with the
# Python path, which does the same line by line.
REPLY_IN_C = True


class _EndOfInput(Exception):
    """The judge closed our stdin: a quiet exit, not an error."""


class _RawLines:
    """Lines of a file descriptor, read in chunks with os.read: one system
    call a move and nothing on top (a text stream adds its decoder, newline
    translation and locks to every line). Undecodable bytes become U+FFFD,
    so binary garbage is a protocol error like any other bad line."""

    def __init__(self, fd: int):
        self.fd = fd
        self.buffer = bytearray()
        self.searched = 0  # no newline in buffer[:searched]: a long line is scanned once

    def readline(self) -> str:
        while True:
            end = self.buffer.find(b"\n", self.searched)
            if end >= 0:
                line = self.buffer[:end + 1].decode("utf-8", "replace")
                del self.buffer[:end + 1]
                self.searched = 0
                return line
            self.searched = len(self.buffer)
            chunk = os.read(self.fd, 65536)
            if not chunk:  # end of input: the last line, or "" as a text stream says it
                line = self.buffer.decode("utf-8", "replace")
                self.buffer.clear()
                self.searched = 0
                return line
            self.buffer += chunk


def _descriptor(stream: IO[str]) -> int | None:
    """`stream`'s file descriptor; None if it has none."""
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.StringIO and friends: no descriptor
        return None


def _raw_lines(stream: IO[str]) -> _RawLines | None:
    """`stream`'s lines through its file descriptor; None if it has none."""
    fd = _descriptor(stream)
    return None if fd is None else _RawLines(fd)


def _writer(stream: IO[str]) -> Callable[[str], None]:
    """Writes and flushes a line on `stream`: one os.write when it has a descriptor."""
    fd = _descriptor(stream)
    if fd is None:
        def write(text: str) -> None:
            stream.write(text)
            stream.flush()
        return write
    stream.flush()  # whatever was written through the stream comes first

    def write_fd(text: str) -> None:
        data = text.encode()
        while data:
            data = data[os.write(fd, data):]
    return write_fd


def _overrides(bot: Bot, method: str) -> Callable[..., None] | None:
    """`bot`'s `method` if its class overrides Bot's (which does nothing), else None."""
    return getattr(bot, method) if getattr(type(bot), method) is not getattr(Bot, method) else None


class _Session:
    def __init__(self, bot: Bot, stdin: IO[str], stdout: IO[str], transcript: IO[str] | None):
        self.bot = bot
        self.lines = _raw_lines(stdin)
        self.readline = self.lines.readline if self.lines is not None else stdin.readline
        self.write = _writer(stdout)
        self.transcript = transcript
        # the C loop works on the descriptors, and keeps no transcript
        out = _descriptor(stdout)
        # the descriptors of the C loop, None when it does not run
        self.replying = (self.lines, out) if REPLY_IN_C and self.lines is not None and out is not None \
            and transcript is None else None
        self.stop_pondering = _overrides(bot, "stop_pondering")
        self.ponder = _overrides(bot, "ponder")

    def receive(self) -> str:
        line = self.readline()
        if not line:
            raise _EndOfInput
        if self.transcript:
            self.transcript.write("> " + line)
        return line.rstrip("\r\n")

    def send(self, text: str) -> None:
        self.write(text)
        if self.transcript:
            self.transcript.write("< " + text)
            self.transcript.flush()

    def run(self) -> None:
        try:
            self._serve()
        finally:
            self.bot.stop_pondering()

    def _serve(self) -> None:
        while True:
            line = self.receive()
            if line.strip() == protocol.QUIT:
                self.send(protocol.QUIT_ACK + "\n")
                return
            self.play_game(protocol.parse_colours(line))

    def play_game(self, colours: tuple[str, str]) -> None:
        sizes = protocol.parse_sizes(self.receive())
        try:
            rules = Rules(*sizes)
        except ValueError as error:
            raise ProtocolError(" ".join(map(str, sizes)), f"a playable board ({error})") from None
        board = Board(*rules)
        line = self.receive()
        my_turn, opening = protocol.parse_first(line)
        try:
            board.play_moves(opening)
        except ValueError as error:
            raise ProtocolError(line, f"an opening playable on this board ({error})") from None
        if board.is_over():
            raise ProtocolError(line, "an opening that leaves the game open")
        # `me` counts from the empty board: 0 is whoever played the first ply
        me = board.side_to_move if my_turn else 1 - board.side_to_move
        self.bot.new_game(board.copy(), me)
        if my_turn:
            self.move(board)
        while True:
            if self.replying is not None and not self.replying[0].buffer:
                lines, out = self.replying
                status, given = reply(board, lines.fd, out, COLUMN_LINES, self.bot.choose,
                                      self.stop_pondering, self.ponder)
                if status == BAD_ANSWER:  # the Board refused it: move() says why, or plays an int-like answer
                    self.play_answer(board, given)
                    continue
                if status == WRITE_FAILED:
                    raise OSError(given, os.strerror(given))
                lines.buffer += given
            line = self.receive()
            self.bot.stop_pondering()
            message = protocol.parse_move_or_result(line)
            if isinstance(message, str):
                return  # a result word: the game is over, whatever our board says
            try:
                board.play(message)  # refused, the board is unchanged
            except ValueError:
                if board.is_over():
                    raise ProtocolError(str(message), "a result word: the game is over on this board") from None
                raise ProtocolError(str(message),
                                    f"a legal column for the opponent, one of {board.legal_columns()}") from None
            if not board.is_over():
                self.move(board)

    def move(self, board: Board) -> None:
        self.play_answer(board, self.bot.choose(board.copy()))

    def play_answer(self, board: Board, column: int) -> None:
        """Plays the bot's `column` on `board` and sends it; BotError if illegal."""
        try:
            board.play(column)
        except ValueError:  # the core's IllegalMove
            raise BotError(f"bot {self.bot.name!r} chose column {column!r}, legal are {board.legal_columns()}") \
                from None
        self.send(protocol.format_move(column))
        if not board.is_over():
            self.bot.ponder(board.copy())


class BotError(Exception):
    """The bot answered something it must not (an illegal column)."""


def serve(bot: Bot, stdin: IO[str] = sys.stdin, stdout: IO[str] = sys.stdout,
          stderr: IO[str] = sys.stderr, transcript: IO[str] | None = None,
          program: str = "player") -> int:
    """Plays the protocol until `salir` or end of input; returns the exit status."""
    try:
        _Session(bot, stdin, stdout, transcript).run()
    except (_EndOfInput, BrokenPipeError):
        return EXIT_OK
    except ProtocolError as error:
        stderr.write(f"{program}: protocol error: {error}\n")
        return EXIT_PROTOCOL_ERROR
    except BotError as error:
        stderr.write(f"{program}: {error}\n")
        return EXIT_BOT_ERROR
    return EXIT_OK


def _add_common_options(parser: argparse.ArgumentParser, reports: bool) -> None:
    if reports:
        parser.add_argument("--verbose", action="store_true",
                            help="report search figures on stderr after every move (default: off)")
    else:  # a bot with nothing to report has no --verbose, yet its options still say "not verbose"
        parser.set_defaults(verbose=False)
    parser.add_argument("--log", metavar="FILE",
                        help="append a transcript of every line to FILE (default: none)")


def _apply_common_options(bot: Bot, args: argparse.Namespace) -> Bot:
    """Gives `bot` the options every player program has (the parser of
    `build_parser` declared them): the one place a program and an
    in-process bot are set up alike. `--log` is the driver's, not the bot's."""
    bot.verbose = args.verbose
    return bot


def _start(bot: Bot, args: argparse.Namespace, program: str) -> int:
    _apply_common_options(bot, args)
    if args.log:
        with open(args.log, "a", encoding="utf-8") as transcript:
            return serve(bot, transcript=transcript, program=program)
    return serve(bot, program=program)


def launcher(bot_class: type[Bot], program: str) -> str:
    """How a judge starts this player: players/NAME for a built-in one."""
    from clinea.players.registry import BUILTIN

    built_in = BUILTIN.get(bot_class.name) == f"{bot_class.__module__}:{bot_class.__qualname__}"
    return f"players/{bot_class.name}" if built_in else program


def _examples(command: str, options: list[str]) -> str:
    """The help's one example heading: the options as bare words, which pass
    the course judge's parser (it refuses words starting with -) and ours."""
    bare = " ".join([command, *options_to_bare_words(options)])
    dashed = " ".join([command, *options])
    return ("examples (every option is also a bare word, NAME=VALUE, or NAME for a switch,\n"
            "which passes any judge's command line, the course judge's too):\n"
            f"  clinea judge --blue_player {bare} --red_player players/random --iterations 10\n"
            f"  python2 c_linea.py --blue_player {bare} --red_player players/random --iterations 10\n"
            f"  clinea judge --player a=\"{dashed}\" --player b=players/random --iterations 10")


def build_parser(bot_class: type[Bot], program: str, command: str | None = None,
                 bot_options: bool = True) -> argparse.ArgumentParser:
    """The player's command line; `bot_options` False leaves out the bot's own
    options, for a bot that is already built (they could change nothing)."""
    summary = (bot_class.__doc__ or "A clinea player.").strip().splitlines()[0]
    parser = argparse.ArgumentParser(
        prog=program,
        description=summary + " Speaks the referee protocol on stdin/stdout.",
        epilog=_examples(command or launcher(bot_class, program),
                         list(bot_class.example_options) if bot_options else []),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_common_options(parser, bot_class.reports)
    if bot_options:
        bot_class.add_arguments(parser)
    return parser


def _parse(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    words = sys.argv[1:] if argv is None else argv
    return parser.parse_args(bare_words_to_options(list(words), parser))


def main_for(bot_class: type[Bot], argv: list[str] | None = None, program: str | None = None) -> int:
    """Entry point of a player program: options, then the protocol on stdin/stdout."""
    program = program or f"clinea-{bot_class.name}"
    parser = build_parser(bot_class, program)
    args = _parse(parser, argv)
    try:
        bot = bot_class.from_args(args)
    except ValueError as error:  # options that are fine alone but not together, or out of range
        parser.error(str(error))
    return _start(bot, args, program)


class _OptionError(ValueError):
    pass


def bot_from_options(bot_class: type[Bot], argv: list[str], program: str | None = None) -> Bot:
    """The bot its player program would run with the options `argv`, for
    code that plays bots in process; bad options raise ValueError (with
    the message the program would print) instead of exiting."""
    parser = build_parser(bot_class, program or f"clinea-{bot_class.name}")

    def refuse(message: str) -> NoReturn:
        raise _OptionError(f"{parser.prog}: {message}")

    parser.error = refuse  # type: ignore[method-assign]  # argparse offers no other way to make its errors exceptions
    args = parser.parse_args(argv)
    return _apply_common_options(bot_class.from_args(args), args)


def run(choose: Callable[[Board], int] | Bot, argv: list[str] | None = None) -> int:
    """Makes a complete player of a function `choose(board) -> column` or a Bot:
    the one call a drop-in script needs (see players/example_bot.py)."""
    bot = choose if isinstance(choose, Bot) else FunctionBot(choose, getattr(choose, "__name__", "bot"))
    program = sys.argv[0]
    parser = build_parser(type(bot), program, command=program, bot_options=False)
    parser.description = "A clinea drop-in bot. Speaks the referee protocol on stdin/stdout."
    return _start(bot, _parse(parser, argv), program)
