"""The one game loop of the judge: in-process bots and player processes are
refereed by the same code, over a "seat" that hides what sits at the table.

A seat answers three things: `start` (a new game begins), `ask` (your move;
here is the opponent's last column) and `tell` (the game is over, with the
course judge's result word).  The loop checks every answer with the core's
Board rules, so an illegal move never reaches the opponent.
"""
from __future__ import annotations

import numbers
import time
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from clinea.core import Board
from clinea.core.fastgame import ILLEGAL_BY_FIRST, play_cbots
from clinea.judge.record import End
from clinea.players.bot import Bot, CoreBot
from clinea.protocol import COLOURS
from clinea.protocol import DRAW as DRAWN
from clinea.protocol import LOSS as LOST
from clinea.protocol import WIN as WON

CONNECT, DRAW, ILLEGAL, CRASH, TIMEOUT, GARBAGE = End
FORFEITS = (ILLEGAL, CRASH, TIMEOUT, GARBAGE)


class Forfeit(Exception):
    """Raised by a seat when its player cannot go on: `kind` is one of
    FORFEITS, the message says what happened."""

    def __init__(self, kind: End, detail: str = ""):
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind
        self.detail = detail


@dataclass
class GameResult:
    """What a refereed game produced.

    `winner` is 0 (the player who moved first from the empty board), 1 or
    None for a draw; `end` says how it ended and `detail` what happened in a
    forfeit ("column 9 out of range 0..6"); `moves` are 0-based columns
    including the opening; `times[i]` is the thinking time in seconds of
    `moves[len(opening) + i]`, `cpu[i]` the CPU seconds its seat used for
    it and those it used while it waited to be told the move before
    (None: not measured, see Seat.answer_cpu); `forfeit` is the offender's
    index or None.
    """
    winner: int | None
    end: End
    moves: list[int]
    times: list[float]
    opening: int = 0
    forfeit: int | None = None
    detail: str = ""
    cpu: list[tuple[float | None, float | None]] = field(default_factory=list)

    @property
    def reason(self) -> str:
        """The end in words, as the results file keeps it: "connect", "draw",
        "illegal move: column 9 out of range 0..6"."""
        return f"{self.end}: {self.detail}" if self.detail else str(self.end)

    @classmethod
    def forfeited(cls, side: int, error: Forfeit, moves: list[int], times: list[float], opening: int,
                  cpu: list[tuple[float | None, float | None]] | None = None) -> GameResult:
        return cls(1 - side, error.kind, moves, times, opening, side, error.detail, cpu or [])


@dataclass(frozen=True)
class TimeControl:
    """One player's game clock: `game` seconds, `increment` added per move."""
    game: float
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """SECONDS[+INC], e.g. 60+0.5; raises ValueError naming the bad value."""
        game, _, increment = text.partition("+")
        try:
            control = cls(float(game), float(increment) if increment else 0.0)
        except ValueError:
            raise ValueError(f"{text!r}: expected SECONDS[+INC], e.g. 60+0.5") from None
        if not (0 < control.game < float("inf") and 0 <= control.increment < float("inf")):
            raise ValueError(f"{text!r}: allowed SECONDS > 0 and INC >= 0")
        return control

    def __str__(self) -> str:
        return f"{self.game:g}+{self.increment:g}"


@dataclass
class Clock:
    """Time allowed per move and, optionally, a game clock with increment.

    `per_move` None means no per-move limit; `game` None means no game clock.
    `controls` gives a side (first, second) a game clock of its own in place
    of `game` and `increment`.
    `grace` is added to every deadline for scheduling noise, so an honest bot
    near its limit is not forfeited by the machine's load."""
    per_move: float | None = None
    game: float | None = None
    increment: float = 0.0
    grace: float = 0.05
    left: list[float | None] = field(default_factory=list)
    controls: tuple[TimeControl | None, TimeControl | None] = (None, None)

    @property
    def timed(self) -> bool:
        return self.per_move is not None or self.game is not None or any(self.controls)

    def reset(self) -> None:
        games = [control.game if control else self.game for control in self.controls]
        self.left = games if any(game is not None for game in games) else []

    def allowed(self, side: int) -> float | None:
        """Seconds `side` may think now, grace included; None = unlimited."""
        limits = [x for x in (self.per_move, self.left[side] if self.left else None) if x is not None]
        return min(limits) + self.grace if limits else None

    def spend(self, side: int, seconds: float) -> None:
        left = self.left[side] if self.left else None
        if left is not None:
            control = self.controls[side]
            self.left[side] = left + (control.increment if control else self.increment) - seconds


class Seat:
    """Someone at the table. Subclasses speak to a bot or a process."""

    name = "seat"
    #: False for a human at the terminal, who is never out of time
    timed = True
    #: extra seconds for the next answer only (a program that just started
    #: is loading its interpreter, which is not thinking time)
    startup = 0.0

    def start(self, board: Board, me: int, colour: str) -> None:
        """A game begins on `board` (after any opening); `me` is 0 if this
        seat made the first ply from the empty board. Raises Forfeit."""

    def ask(self, board: Board, last: int | None, timeout: float | None) -> object:
        """This seat's answer for `board`, where the opponent just played
        `last` (None at the first move of the seat). Raises Forfeit."""
        raise NotImplementedError

    def resume(self) -> None:
        """The seat is about to be told the opponent's move: a seat stopped
        while the opponent thought runs again (before its clock starts)."""

    @property
    def answer_cpu(self) -> tuple[float | None, float | None]:
        """The CPU seconds of the seat's last answer, and those it used
        while it waited to be asked it (None: not measured)."""
        return None, None

    def answer(self, timeout: float | None, elapsed: float) -> object:
        """The answer to the question `relay_moves` asked `elapsed` seconds
        ago, read and judged as `ask` does. Raises Forfeit."""
        raise NotImplementedError

    def relay_moves(self, opponent: Seat, board: Board, last: int | None,
                    allowed: tuple[float | None, float | None],
                    times: list[float], cpu: list[tuple[float | None, float | None]]) -> tuple[int, bool, float] | None:
        """Plays the moves of this seat (the first player) and `opponent` on
        `board` without the referee, while they need no judgement: what
        two player programs do through clinea.core.relay. `last` is the
        column the side to move was not told yet; `allowed` the time each
        may take; the moves' times go to `times`, their CPU to `cpu` (as
        Seat.answer_cpu says it). Returns None when it
        cannot (the default), else (played, asked, elapsed): `asked` says
        the side to move was asked `elapsed` seconds ago, for `answer`."""
        return None

    def tell(self, word: str) -> None:
        """The game ended: `word` is ganaste, perdiste or empataron."""

    def forfeited(self) -> None:
        """This seat lost by forfeit: a process seat kills its player here
        and starts a fresh one for the next game."""


class BotSeat(Seat):
    """A Bot in this process. A bot that raises forfeits with a crash; a
    timeout can only be noticed afterwards, since a Python call cannot be
    interrupted."""

    def __init__(self, bot: Bot):
        self.bot = bot
        self.name = getattr(bot, "name", "bot")

    def start(self, board: Board, me: int, colour: str) -> None:
        try:
            self.bot.new_game(board.copy(), me)
        except Exception as error:  # the bot's bug is its loss, not the judge's
            raise Forfeit(CRASH, f"{type(error).__name__}: {error} (in new_game)") from error

    def ask(self, board: Board, last: int | None, timeout: float | None) -> object:
        try:
            return self.bot.choose(board.copy())
        except Exception as error:
            raise Forfeit(CRASH, f"{type(error).__name__}: {error}") from error


def check_answer(board: Board, answer: object) -> int:
    """The column `answer` names if it is a legal move on `board`; raises
    Forfeit (garbage or illegal move) otherwise, with the reason."""
    if type(answer) is not int:  # numpy integers are columns (training bots return them); bool is not
        if isinstance(answer, bool) or not isinstance(answer, numbers.Integral):
            raise Forfeit(GARBAGE, f"{answer!r} is not a column")
        answer = int(answer)
    if not 0 <= answer < board.columns:
        raise Forfeit(ILLEGAL, f"column {answer} out of range 0..{board.columns - 1}")
    if not board.can_play(answer):
        raise Forfeit(ILLEGAL, f"column {answer} is full")
    return answer


def referee(seats: Sequence[Seat], board: Board, opening: Sequence[int] = (),
            clock: Clock | None = None, colours: Sequence[str] = COLOURS,
            on_move: Callable[[Board], object] | None = None) -> GameResult:
    """Plays one game between `seats[0]` (first from the empty board) and
    `seats[1]` on the empty `board`, which it plays on. `colours[i]` is the
    colour name of seat i. `on_move(board)` is called after every move (the
    terminal view uses it). Every seat is told the outcome, except a
    forfeiting one, which is told `forfeited()` instead."""
    for col in opening:
        board.play(col)
    clock = clock or Clock()
    clock.reset()
    limited = clock.timed  # skip the clock when there is none
    times: list[float] = []
    cpu: list[tuple[float | None, float | None]] = []
    perf = time.perf_counter

    def forfeit(side: int, error: Forfeit, opponent_started: bool = True) -> GameResult:
        seats[side].forfeited()
        if opponent_started:
            seats[1 - side].tell(WON)
        return GameResult.forfeited(side, error, board.moves(), times, len(opening), cpu)

    for me in (0, 1):
        try:
            seats[me].start(board, me, colours[me])
        except Forfeit as error:
            # seat 1 has not heard of this game if seat 0 failed to start it
            return forfeit(me, error, opponent_started=me == 1)
    last: int | None = None
    # no relay with a game clock (the allowance changes every move) or a view to update
    relaying = on_move is None and not clock.left
    while not board.is_over():
        asked = None
        if relaying:
            allowances = [clock.allowed(side) if limited and seats[side].timed else None for side in (0, 1)]
            relayed = seats[0].relay_moves(seats[1], board, last, (allowances[0], allowances[1]), times, cpu)
            if relayed is None:
                relaying = False
            else:
                played, was_asked, elapsed = relayed
                if played:
                    last = board.moves()[-1]
                if board.is_over():
                    break
                if was_asked:
                    asked = elapsed
        side = board.moves_played & 1
        seat = seats[side]
        allowed = clock.allowed(side) if limited and seat.timed else None
        # a fresh process's first answer: up to `startup` of it is loading, not thinking
        loading = seat.startup
        if allowed is not None and loading:
            allowed += loading
        if asked is None:
            seat.resume()
        start = perf()
        try:
            if asked is None:
                answer = seat.ask(board, last, allowed)
            else:
                start -= asked
                answer = seat.answer(allowed, asked)
            spent = perf() - start
            if allowed is not None and spent > allowed:
                raise Forfeit(TIMEOUT, f"{spent:.3f} s > {allowed:.3f} s")
            # a plain int goes straight to the core, which checks the move; when
            # it refuses, the board is unchanged and check_answer names the
            # offence in the judge's words
            column = answer if type(answer) is int else check_answer(board, answer)
            try:
                board.play(column)
            except ValueError:
                check_answer(board, column)
                raise  # the core and check_answer disagree: a judge bug, not a forfeit
        except Forfeit as error:
            return forfeit(side, error)
        if clock.left:
            clock.spend(side, max(0.0, spent - loading))
        times.append(spent)
        cpu.append(seat.answer_cpu)
        last = column
        if on_move is not None:
            on_move(board)
    winner = board.winner
    if winner is None:
        seats[0].tell(DRAWN)
        seats[1].tell(DRAWN)
        return GameResult(None, DRAW, board.moves(), times, len(opening), cpu=cpu)
    seats[winner].tell(WON)
    seats[1 - winner].tell(LOST)
    return GameResult(winner, CONNECT, board.moves(), times, len(opening), cpu=cpu)


def play_bots(first: Bot, second: Bot, columns: int, rows: int, c: int, p: int,
              opening: Sequence[int] = (), clock: Clock | None = None,
              in_core: bool = True) -> GameResult:
    """One in-process game: `first` is player 0 (plays first from the empty
    board; the `opening` plies are played for both sides before the bots take
    over), `second` is player 1. Each bot gets `new_game(board, me)` and then
    `choose(board)` on copies; a bad answer or an exception loses the game.

    When both bots run in C (they expose `core_for(board)`, as greedy,
    randomized minimax and the fast random bot do), no clock is set and
    `in_core` allows it, the whole game runs in the core's C loop under the
    same Board rules and gives the same result: training plays hundreds of
    thousands of games through here, and this loop's Python per move would
    double their cost."""
    board = Board(columns, rows, c, p)
    if in_core and clock is None and isinstance(first, CoreBot) and isinstance(second, CoreBot):
        return _play_in_core((first, second), board, opening)
    return referee((BotSeat(first), BotSeat(second)), board, opening, clock)


def _play_in_core(bots: tuple[CoreBot, CoreBot], board: Board, opening: Sequence[int]) -> GameResult:
    board.play_moves(opening)
    to_move = board.side_to_move
    times = array("d", bytes(8 * (board.max_moves - board.moves_played)))
    outcome, column = play_cbots(bots[to_move].core_for(board), bots[1 - to_move].core_for(board), board, times)
    moves = board.moves()
    spent = times[:len(moves) - len(opening)].tolist()  # as the referee: no time for a forfeited move
    if outcome == -1:
        return GameResult(None, DRAW, moves, spent, len(opening))
    if outcome in (0, 1):
        return GameResult(outcome, CONNECT, moves, spent, len(opening))
    side = to_move if outcome == ILLEGAL_BY_FIRST else 1 - to_move
    try:
        check_answer(board, column)
    except Forfeit as error:
        return GameResult.forfeited(side, error, moves, spent, len(opening))
    raise AssertionError(f"the in-C loop refused column {column}, which the referee accepts")
