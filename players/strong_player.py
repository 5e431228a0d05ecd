"""strong: our best player. An exact solve when one fits in its time,
otherwise, on the boards of up to 64 bits and past 192, iterative-deepening
alpha-beta with a transposition table, move ordering and a threat-based
evaluation, and on the wide boards between (9x8, 10x9, 14x12...) a Monte
Carlo tree search with solver backups (clinea.core.mcts), within
--time-per-move seconds. With two cores it also thinks on the opponent's
time (pondering): where the bitboard solver runs, it solves the replies;
on the wide boards, the Monte Carlo search goes on below its move."""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import threading
import time
from collections.abc import Sequence

from clinea.core import Board, Rules
from clinea.core.evaluate import FEATURES, STRONG_WEIGHTS
from clinea.core.mcts import Mcts
from clinea.core.search import MATE_SCORE, WIN_SCORE, Search
from clinea.core.solver import Solver, centre_first
from clinea.core.timeman import (
    PRECISE_TIME_FRACTION,
    TIME_FRACTION,
    Limits,
    SearchResult,
    TimeManager,
    waited_per_run,
)
from clinea.players.bot import Bot
from clinea.players.driver import main_for
from clinea.players.options import bounded_int
from clinea.players.strong_lines import STANDARD, LinesLookup, StrongLines
from clinea.players.win_race import WinRace

# The measurements behind these values: docs/TUNING.md.
#: remaining moves under which the exact solve goes first, by representation
SOLVE_REMAINING_BITBOARD = 30
SOLVE_REMAINING_WIDE = 32
SOLVE_REMAINING_GENERIC = 12
#: remaining moves under which, on the wide boards, the solver checks the Monte Carlo search's move
CHECK_REMAINING_WIDE = 48
#: the Monte Carlo search's share of a move its move is checked in
CHECKED_MCTS_SHARE = 0.5
#: the solve's share of a move, without and with the 7x6 book
SOLVE_SHARE = 0.5
SOLVE_SHARE_WITH_BOOK = 0.9
#: nodes for a value that costs nothing to know (the book, the table)
PEEK_NODES = 200
#: the most of a move's node limit a peek before its solve takes
PEEK_SHARE = 0.1
#: how many of our moves ahead thinking on spare time goes
THINK_AHEAD_MOVES = 3
#: past 64 bits, iterations start later in the move (each costs several times the last)
BIG_BOARD_START_SHARE = 0.7
#: the Monte Carlo search's limit on the opponent's time: the opponent's answer stops it first
PONDER_SECONDS = 3600.0
#: the share of a move it waits for the game's set-up before playing without it
SET_UP_WAIT_SHARE = 0.5
#: the interpreter's switch interval while the set-up runs beside a move
SET_UP_SWITCH_SECONDS = 0.0002
#: how often pondering, waiting for the set-up, sees whether it was stopped
PONDER_POLL_SECONDS = 0.001
#: the share of a move's lateness (the longest stall the machine put into it) the next move keeps in reserve
LATENESS_DECAY = 0.9


def describe(score: int | None) -> str:
    """A search score as text: proven wins and losses say in how many plies."""
    if score is None:
        return "none"
    if score > MATE_SCORE:
        return f"win in {WIN_SCORE - score}"
    if score < -MATE_SCORE:
        return f"loss in {WIN_SCORE + score}"
    return str(score)


class _SwitchInterval:
    """The interpreter's switch interval, short while any strong in this
    process sets a game up (several may: training, in-process seats): the
    first to start saves Python's, the last to end puts it back."""

    lock = threading.Lock()
    set_ups = 0
    saved = 0.0

    @classmethod
    def shorten(cls) -> None:
        with cls.lock:
            if cls.set_ups == 0:
                cls.saved = sys.getswitchinterval()
                sys.setswitchinterval(SET_UP_SWITCH_SECONDS)
            cls.set_ups += 1

    @classmethod
    def restore(cls) -> None:
        with cls.lock:
            cls.set_ups -= 1
            if cls.set_ups == 0:
                sys.setswitchinterval(cls.saved)


def usable_cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0))


def no_core_to_spare() -> bool:
    """Whether the machine's load average is as many runnable tasks as
    this process's cores: a second thread of ours would wait for a core."""
    return os.getloadavg()[0] >= usable_cores()


def quick_move(board: Board) -> int:
    """A move without a search, for a move that comes before the search is
    ready: a win, else the most central move after which the opponent
    cannot win at once (the block of its win, or a move not under its
    winning cell), else the most central."""
    legal = [col for col in centre_first(board.columns) if board.can_play(col)]
    for col in legal:
        if board.is_winning_move(col):
            return col
    board = board.copy()
    for col in legal:
        board.play(col)
        safe = board.is_over() or not any(board.is_winning_move(reply) for reply in board.legal_columns())
        board.undo()
        if safe:
            return col
    return legal[0]


class StrongBot(Bot):
    """Exact solve when it fits, else Monte Carlo (wide boards) or alpha-beta, timed."""

    name = "strong"
    reports = True
    example_options = ("--time-per-move", "0.2")

    def __init__(self, time_per_move: float = 1.0, weights: Sequence[float] = STRONG_WEIGHTS, tt_log2: int = 20,
                 solve: bool = True, max_nodes: int = 0, ponder: bool | None = None,
                 race: bool | None = None) -> None:
        """`ponder`: think on the opponent's time; None (the default) does
        where this process may run on two cores or more, so that the thinking
        never takes the opponent's only core. `race`: on 7x6, look for a
        winning column beside the proof of a drawing one (players.win_race);
        None (the default) does on two cores or more while one is spare."""
        if not 0.001 <= time_per_move <= 3600:
            raise ValueError(f"time-per-move={time_per_move} is out of range: allowed 0.001..3600 seconds")
        self.limits = Limits(time=time_per_move, nodes=max_nodes)
        self.search = Search(weights, tt_log2)
        self.mcts: Mcts | None = None
        # the solver's table (2**22 words, 32 MB) is allocated on first use;
        # on 7x6 its opening book makes a solve worth trying from the first move
        self.solver = Solver(22) if solve else None
        # its own lines on 7x6 (see _stored_lines)
        self.lines: LinesLookup | None = None
        self.last: SearchResult | None = None
        self.last_clock: TimeManager | None = None  # the last move's account of its time
        self.ponders = ponder if ponder is not None else usable_cores() >= 2
        self.ponders_by_default = ponder is None
        self.races = solve and (race if race is not None else usable_cores() >= 2)
        self.races_by_default = race is None
        self.win_race = WinRace()
        self.pondering: threading.Thread | None = None
        self.pondering_stopped = threading.Event()
        # the game's set-up, in a thread beside the first move (see new_game):
        # the alpha-beta table is ready first, the solver when the thread ends
        self.setting_up: threading.Thread | None = None
        self.search_ready = threading.Event()
        self.search_ready.set()
        self.lines_ready = threading.Event()  # the lines are loaded (or not read in this game)
        self.lines_ready.set()
        self.lines_error: OSError | ValueError | None = None  # why the set-up could not load them
        self.set_up_rules: Rules | None = None  # the rules the last set-up was for
        # when the request for our first move came (with the opening), if ours is the first move
        self.first_request: float | None = None
        # when the opponent's move stopped our thinking on its time: the request for our next move
        self.stopped_pondering: float | None = None
        # the longest stall the machine lately put into a move (see LATENESS_DECAY); before
        # the first, how long this thread waited for a core each time it ran, starting up
        self.lateness = waited_per_run()
        # the position our last proven move left (its moves) and our win /
        # draw / loss value there: whatever the opponent replies, we keep at
        # least that, which the solver then need not prove again
        self.kept: tuple[list[int], int] | None = None
        # whether the solver's last win / draw / loss search at the root was
        # proving a draw (the fallback of a move it did not finish)
        self.proving_draw = False

    @property
    def exact_solver(self) -> Solver:
        """The solver, where the caller knows strong runs with one."""
        if self.solver is None:
            raise RuntimeError("strong runs without its solver here")
        return self.solver

    @property
    def time_per_move(self) -> float:
        return self.limits.time

    def new_game(self, board: Board, me: int) -> None:
        # The game's set-up (the tables, on 7x6 the book and the lines: 0.1 s
        # on a quiet machine, seconds on a loaded one) runs in a thread: when
        # we move first, the judge's clock already runs (our first move's
        # starts here, not when choose is called), and when we move second,
        # the opponent's move must be read as soon as it comes. A move that
        # comes before the set-up ends plays without what is not ready.
        started = time.monotonic()
        self.stop_pondering()
        self.kept = None
        self.first_request = started if board.side_to_move == me else None
        self.stopped_pondering = None
        if board.rules == self.set_up_rules:
            return  # set up for these rules already, or being set up
        self._finish_set_up()
        self.set_up_rules = board.rules
        self.search_ready.clear()
        self.lines_ready.clear()
        self.setting_up = threading.Thread(target=self._set_up, args=(board.copy(),), daemon=True)
        _SwitchInterval.shorten()
        self.setting_up.start()

    def _set_up(self, board: Board) -> None:
        # the lines first (3-6 ms): they decide the standard game's first
        # moves, which come before the book and the tables are ready (0.1 s)
        try:
            try:
                if self._reads_lines(board):
                    self._stored_lines()
            except (OSError, ValueError) as error:
                # raised by the move that reads them, as one clear line, and
                # the set-up goes on
                self.lines_error = error
            finally:
                self.lines_ready.set()
            try:
                self.search.prepare(board)
            finally:
                self.search_ready.set()
            if self.solver is not None:
                self.solver.prepare(board)
                if self.races and self.solver.uses_book:
                    self.win_race.prepare(board)
        finally:
            _SwitchInterval.restore()

    def ready(self, wait: float | None = None) -> bool:
        """Whether the game's set-up (tables, book, lines) is done, waiting
        for it `wait` seconds at most (None: to the end): for callers that
        time moves in the middle of a game, where it is long done."""
        return self._finish_set_up(wait)

    def _finish_set_up(self, wait: float | None = None) -> bool:
        """Whether the game's set-up is done, waiting for it `wait` seconds
        at most (None: to the end)."""
        if self.setting_up is not None:
            self.setting_up.join(wait)
            if not self.setting_up.is_alive():
                self.setting_up = None
        return self.setting_up is None

    def _set_up_patience(self, clock: TimeManager, share: float = SET_UP_WAIT_SHARE) -> float | None:
        """How long a move waits for the game's set-up: `share` of its budget
        less its reserve for the machine's stalls on a clock (the wait
        itself ends late on a loaded machine); with a node limit to the end,
        so that the moves stay the same from run to run."""
        if not clock.budget:
            return None
        return max(0.0, share * (clock.budget - clock.lateness) - clock.elapsed())

    def _solve_near(self, board: Board) -> tuple[bool, bool]:
        """(whether `board` is near enough to the end for the solver, whether its game may be the book's)."""
        remaining = board.max_moves - board.moves_played
        limit = (SOLVE_REMAINING_BITBOARD if board.is_bitboard
                 else SOLVE_REMAINING_WIDE if board.is_wide else SOLVE_REMAINING_GENERIC)
        return remaining <= limit, board.rules == STANDARD

    def _solve_worth_trying(self, board: Board, wait: float | None = 0.0) -> bool:
        """Whether to try the solver on `board`: near the end, or on the
        game of the opening book; never before the game's set-up is done
        (waited for `wait` seconds, see `_finish_set_up`)."""
        near, standard = self._solve_near(board)
        if self.solver is None or not (near or standard) or not self._finish_set_up(wait):
            return False
        self.solver.prepare(board)  # a no-op after new_game, unless the game changed
        return near or self.exact_solver.uses_book

    def ponder(self, board: Board) -> None:
        """Thinks on the opponent's time, in a thread, until it answers. On
        the bitboard path, where the solver runs (it releases the GIL): for
        each reply, the opponent's best first, the move keeping our value
        (win / draw / loss) after it; what it proves stays in the solver's
        table, where the next move finds it. On the wide boards: the Monte
        Carlo search goes on from the position our move left (its
        simulations run without the GIL), and the next move starts from the
        subtree of the opponent's reply."""
        self.stop_pondering()
        if not self.ponders or board.is_over() or self._machine_busy():
            return
        if board.is_wide:
            # until stopped, or with a node limit per move, as many simulations
            limits = Limits(nodes=self.limits.nodes) if self.limits.nodes else Limits(time=PONDER_SECONDS)
            self.pondering = threading.Thread(target=self._monte_carlo().search, args=(board, limits), daemon=True)
        elif board.is_bitboard and self.solver is not None and any(self._solve_near(board)):
            self.pondering = threading.Thread(target=self._ponder, args=(board,), daemon=True)
        else:
            return
        self.pondering.start()

    def _machine_busy(self) -> bool:
        """Whether pondering, where it is the default, should wait: timed,
        on a machine with no core to spare (a load average of as many
        runnable tasks as our cores). There the thinking thread, once told
        to stop, waits for a core before it can, and the next move waits
        for it: at load 16 on 2 cores, 90 ms of a 0.05 s move."""
        return self.ponders_by_default and not self.limits.nodes and no_core_to_spare()

    def _ponder(self, board: Board) -> None:
        # after the game's set-up (a first move may come before its end), unless stopped first
        while not self._finish_set_up(PONDER_POLL_SECONDS):
            if self.pondering_stopped.is_set():
                return
        if not self._solve_worth_trying(board):
            return
        # with a node limit per move, the opponent's move is worth as many
        # nodes (what makes pondering measurable without a clock)
        self._think_on(board, TimeManager(Limits(nodes=self.limits.nodes)))

    def _think_on(self, board: Board, clock: TimeManager) -> None:
        """Proves, until `clock` runs out (or the solver is stopped), a move
        keeping our value after each reply to `board` (our move just
        played), the opponent's likeliest replies first; then, as long as
        that was quick, the same one move further along each line that
        keeps the opponent's value: near the 7x6 book the replies take
        little and the hard solves are a move or two away. What is proved
        stays in the solver's table for the moves to come."""
        floor = self._value_at(board.moves())
        board = board.copy()
        for depth in range(1, THINK_AHEAD_MOVES + 1):
            if not self._solve_replies(board, floor, depth, clock):
                return

    def _solve_replies(self, board: Board, floor: int | None, depth: int, clock: TimeManager) -> bool:
        """`_think_on` to `depth` moves of ours after `board`; False once the
        budget ran out (or the solver was stopped)."""
        replies: list[tuple[int, int, int]] = []
        for col in centre_first(board.columns):
            if board.can_play(col) and not board.is_winning_move(col):
                if clock.exhausted():
                    return False
                board.play(col)
                ours = self._peek(board, clock)
                board.undo()
                replies.append((1 if ours is None else ours, len(replies), col))
        for ours, _, col in sorted(replies):
            if depth > 1 and floor is not None and ours > floor:
                continue  # a mistake of the opponent's: not worth looking beyond
            if clock.exhausted():
                return False
            board.play(col)
            try:
                limits = clock.share()
                done = self.exact_solver.play_value(board, weak=True, limits=limits,
                                              at_least=floor)
                clock.nodes += self.exact_solver.nodes
                if done is None:
                    return False
                move, value = done
                if depth > 1 and move is not None:
                    board.play(move)
                    try:
                        if not board.is_over() and not self._solve_replies(board, value, depth - 1, clock):
                            return False
                    finally:
                        board.undo()
            finally:
                board.undo()
        return True

    def _peek(self, board: Board, clock: TimeManager, share: float = 1.0) -> int | None:
        """The win / draw / loss value of `board` if it costs next to nothing
        (the book, the table), booked on `clock`, taking at most `share` of
        the nodes it has left; else None."""
        nodes = min(PEEK_NODES, max(1, int(share * clock.nodes_left()))) if clock.limits.nodes else PEEK_NODES
        value = self.exact_solver.solve(board, weak=True, limits=Limits(nodes=nodes))
        clock.nodes += self.exact_solver.nodes
        return value

    def _value_at(self, moves: list[int]) -> int | None:
        """Our proven value (1, 0, -1) in the position of `moves` if our last
        proven move left it, else None."""
        if self.kept is not None and self.kept[0] == moves:
            return self.kept[1]
        return None

    def stop_pondering(self) -> None:
        """Stops the thinking on the opponent's time, if any: the driver calls
        this as soon as a line comes, so the next move's clock starts here
        (a thinking thread on a busy machine takes a while to stop)."""
        if self.pondering is not None:
            self.stopped_pondering = time.monotonic()
            searches = [search for search in (self.solver, self.mcts) if search is not None]
            self.pondering_stopped.set()
            for search in searches:
                search.stop()
            self.pondering.join()
            for search in searches:
                search.resume()
            self.pondering_stopped.clear()
            self.pondering = None

    def _try_solve(self, board: Board, clock: TimeManager, share: float) -> SearchResult | None:
        """A move that keeps the position's exact value, or None when the
        position is too far from the end or the time ran out. The win /
        draw / loss value comes first (on 7x6 a book lookup and one search
        for a move reaching it; after a reply to our proven move, only a
        move keeping at least what that move kept); the exact distance only
        while time remains, so a slow exact solve never costs the value."""
        weak = self._weak_solve(board, clock, share)
        if not weak.proven:
            return None
        if not clock.exhausted():
            exact = clock.spent(self.exact_solver.search(board, clock.share(share)))
            if exact.proven:
                return exact
        if weak.move is None:
            return None  # lost against perfect play: the search's move gives the opponent most chances to err
        return weak

    def _weak_solve(self, board: Board, clock: TimeManager, share: float) -> SearchResult:
        """The win / draw / loss move, within `share` of the move. After a
        reply to our proven win, only a column keeping it. On 7x6 with the
        book, where the value is not known at once (at the book's ply, in
        the table), a column keeping at least a draw first, then a winning
        one: a drawn position's value costs the proof that no column wins,
        several times what its drawing column costs (670,000 nodes against
        55,000 in a position of Test_L1_R2, more than 0.05 s gives), so a
        move cut short there still keeps the draw, and one cut short before
        the draw leaves the columns it proved losing (the solver's
        `refuted`)."""
        solver = self.exact_solver
        value = self._value_at(board.moves()[:-1])
        if solver.uses_book and (value is None or value < 1):
            value = self._peek(board, clock, PEEK_SHARE)
            if value is None:
                return self._draw_then_win(board, clock, share)
        self.proving_draw = value == 0
        return clock.spent(solver.search(board, clock.share(share), weak=True,
                                         at_least=value if value is not None and value >= 0 else None))

    def _draw_then_win(self, board: Board, clock: TimeManager, share: float) -> SearchResult:
        """A column keeping at least a draw within `share` of the move, then,
        with the rest of the move (its fallback, the heuristic search, is
        not needed once a draw is kept), a winning column. With a core to
        spare (see `race`), the search for a winning column runs beside the
        draw's proof from the start, on a solver of its own: the move then
        takes the longer of the two proofs, not both."""
        solver = self.exact_solver
        self.proving_draw = True
        if self._racing():
            return self._draw_beside_win(board, clock, share)
        draw = clock.spent(solver.reach(board, 0, weak=True, limits=clock.share(share)))
        if not draw.proven:
            return draw
        if draw.move is None:
            return dataclasses.replace(draw, score=-1)  # every column loses
        self.proving_draw = False
        win = clock.spent(solver.reach(board, 1, weak=True, limits=clock.share()))
        return win if win.move is not None else draw

    def _racing(self) -> bool:
        """Whether the search for a winning column runs beside the draw's
        proof: on two cores or more, by default on a machine with a core
        to spare (as pondering), and never with a node limit per move,
        which two searches at once could not share reproducibly."""
        return self.races and not self.limits.nodes and not (self.races_by_default and no_core_to_spare())

    def _draw_beside_win(self, board: Board, clock: TimeManager, share: float) -> SearchResult:
        """_draw_then_win with the win's search in `self.win_race`: a win
        found first ends the draw's proof; a draw proved first waits for
        the win's search until the move's time is up."""
        solver = self.exact_solver
        proving = True
        guard = threading.Lock()

        def end_the_draw_proof() -> None:
            # only while it runs: a stop after it would end the next search
            with guard:
                if proving:
                    solver.stop()

        self.win_race.start(board, clock.share(), on_win=end_the_draw_proof)
        draw = clock.spent(solver.reach(board, 0, weak=True, limits=clock.share(share)))
        with guard:
            proving = False
            solver.resume()  # (a win found first stopped it)
        if draw.proven and draw.move is None:
            self.win_race.stop()  # every column loses: there is no win to wait for
        win = self.win_race.wait(clock.left() if clock.budget else None)
        if win is not None:
            clock.spent(win)
            if win.proven and win.move is not None:
                self.proving_draw = False
                return win
        if draw.proven and draw.move is None:
            return dataclasses.replace(draw, score=-1)  # every column loses
        return draw

    def _reads_lines(self, board: Board) -> bool:
        """Whether strong plays `board`'s game from its own lines: the game the
        solver's opening book covers."""
        return self.solver is not None and board.rules == STANDARD

    def _stored_lines(self) -> LinesLookup | None:
        """Our own lines (clinea.players.strong_lines), loaded once: at the
        set-up of the game the book covers (see _reads_lines)."""
        if self.lines is None:
            self.lines = StrongLines.load()
        return self.lines

    def _from_lines(self, board: Board, wait: float | None) -> SearchResult | None:
        """The move our own lines store for `board`, proven to keep its win or
        draw; None off the lines, or when they are not loaded after `wait`
        seconds (None: until they are)."""
        if not self._reads_lines(board) or not self.lines_ready.wait(wait):
            return None
        if self.lines_error is not None:
            raise self.lines_error
        lines = self.lines
        stored = lines.lookup(board) if lines is not None else None
        if stored is None:
            return None
        move, value = stored
        return SearchResult(move, value, proven=True, weak=True, source="solver")

    def choose(self, board: Board) -> int:
        # the Monte Carlo search stops on time: on the wide boards strong can
        # use nearly all of it (at 0.8 it used 68 % of MCTS's time)
        self.stop_pondering()
        asked = self.first_request if self.first_request is not None else self.stopped_pondering
        clock = TimeManager(self.limits, PRECISE_TIME_FRACTION if board.is_wide else TIME_FRACTION,
                            start=asked, lateness=self.lateness)
        self.first_request = self.stopped_pondering = None
        solving = False
        # the lines, loaded first, are worth most of the move's time: a move
        # on them is proven, the quick move before the set-up is not (after
        # the opening 1 or 5 its centre move gives up the win)
        found = self._from_lines(board, self._set_up_patience(clock, SOLVE_SHARE_WITH_BOOK))
        if found is None:
            solving = self._solve_worth_trying(board, self._set_up_patience(clock))
            if solving:
                found = self._try_solve(board, clock, SOLVE_SHARE_WITH_BOOK if self.exact_solver.uses_book else SOLVE_SHARE)
        if found is None:
            if board.is_wide:
                found = self._monte_carlo_move(board, clock, check=not solving)
            elif not self.search_ready.is_set():
                # the set-up is still clearing the alpha-beta table (a new game's rules)
                found = SearchResult(quick_move(board), None, source="quick")
            elif board.is_bitboard:
                found = clock.spent(self.search.think(board, clock.share()))
            else:
                found = clock.spent(self.search.think(board, clock.share(), start_share=BIG_BOARD_START_SHARE,
                                                      keep_partial=True))
            trying = self.exact_solver.trying if solving else None
            if trying is not None and (self.proving_draw or found.move in self.exact_solver.refuted):
                # The solve ran out of time on column `trying`, the first in
                # its order after those it proved below its target. Proving a
                # draw, those were proved to lose, which is quick: the column
                # left is likelier to hold the draw than the heuristic
                # search's on the rest of the move. Proving a win, a column
                # not yet proved may still lose: the heuristic search's move
                # stands unless it is one of those proved not to win.
                found.move = trying
        self.kept = None
        if found.source == "solver" and found.proven and found.move is not None and found.score is not None:
            self.kept = (board.moves() + [found.move], (found.score > 0) - (found.score < 0))
            if not clock.reached(SOLVE_SHARE_WITH_BOOK) and self._finish_set_up(0):
                # (the solver thinks ahead once set up: a lines move may come before)
                self._think_ahead(board, found.move, clock)
        # the move's figures on a copy: the searches' own stay in the move's account
        found = dataclasses.replace(found, nodes=clock.nodes, time=clock.elapsed())
        if clock.budget:
            self.lateness = clock.next_lateness(LATENESS_DECAY, found.time)
        self.last = found
        self.last_clock = clock
        if self.verbose:
            self._report(found)
        if found.move is None:
            raise ValueError("the game is over: there is no move to choose")
        return found.move

    def _monte_carlo_move(self, board: Board, clock: TimeManager, check: bool) -> SearchResult:
        """The Monte Carlo search's move. Within CHECK_REMAINING_WIDE moves
        of the end, unless the solver was tried on the position already
        (`check`), the search has half the move and the solver the rest:
        the search's moves, most visited first, until one is not proved to
        lose. Random playouts miss deep losses the solver proves at once:
        in a lost 9x8 c5 game, the search's move at ply 38 took the solver
        0.34 s to prove lost, the position 29 s to prove won."""
        mcts = self._monte_carlo()
        check = (check and self.solver is not None and board.max_moves - board.moves_played <= CHECK_REMAINING_WIDE
                 and self._finish_set_up(self._set_up_patience(clock)))
        found = clock.spent(mcts.search(board, clock.share(CHECKED_MCTS_SHARE if check else 1.0)))
        if not check or found.proven:
            return found
        self.exact_solver.prepare(board)
        after = board.copy()
        drawing: SearchResult | None = None  # the first move proved to draw; a later one may win
        for col, *_ in sorted((child for child in mcts.root_children() if child[3] != -1), key=lambda child: -child[1]):
            if clock.exhausted():
                break
            after.play(col)
            reply = clock.spent(self.exact_solver.search(after, clock.share(), weak=True))
            after.undo()
            if not reply.proven or reply.score is None:
                # out of time: a proved draw, else this move, not proved to lose
                return drawing or dataclasses.replace(found, move=col)
            if reply.score < 0:
                return SearchResult(col, 1, proven=True, weak=True, source="solver")
            if reply.score == 0 and drawing is None:
                drawing = SearchResult(col, 0, proven=True, weak=True, source="solver")
        return drawing or found  # (every move checked loses, or no time was left to check one)

    def _monte_carlo(self) -> Mcts:
        """The Monte Carlo search, its arena (40 MB) allocated on first use;
        it keeps its tree from move to move."""
        if self.mcts is None:
            self.mcts = Mcts()
        return self.mcts

    def _think_ahead(self, board: Board, move: int, clock: TimeManager) -> None:
        """Spends what a quick proven move left of its time on the replies to
        it: the move after the 7x6 book is the one whose solve does not fit
        in one move's time, and the book's moves take none."""
        board = board.copy()
        board.play(move)
        if not board.is_over():
            self._think_on(board, clock)

    def _report(self, found: SearchResult) -> None:
        nps = found.nodes / found.time if found.time > 0 else 0.0
        if found.source == "solver":
            what = f"{'weak' if found.weak else 'exact'} solve score {found.score}"
        elif found.source == "mcts":
            what = f"mcts score {found.score}" + (" (exact)" if found.proven else "")
        elif found.source == "quick":
            what = "quick move (the set-up not ready)"
        else:
            what = f"depth {found.depth} score {describe(found.score)}" + (" (exact)" if found.proven else "")
        print(f"strong: {what} nodes {found.nodes} nps {nps:,.0f} time {found.time:.3f}s",
              file=sys.stderr, flush=True)

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--time-per-move", type=float, default=1.0, metavar="SECONDS",
                            help="thinking time per move, 0.001..3600, kept with a safety margin (default 1)")
        parser.add_argument("--evaluation-weights", type=int, nargs=len(FEATURES), metavar="W",
                            default=list(STRONG_WEIGHTS),
                            help="integer weights of " + ", ".join(FEATURES)
                            + f" (default {' '.join(map(str, STRONG_WEIGHTS))})")
        parser.add_argument("--tt-log2", type=bounded_int("--tt-log2", 0, 30), default=20,
                            help="transposition table of 2**N entries of 16 bytes, 0..30 (default 20)")
        parser.add_argument("--no-solve", action="store_true", help="never try the exact solver (default: try it near the end, and on 7x6 always)")
        parser.add_argument("--no-ponder", action="store_true",
                            help="never think on the opponent's time (default: with two cores or more, in a second "
                                 "thread until the opponent answers, where the solver runs it solves the opponent's "
                                 "replies, and on the wide boards the Monte Carlo search goes on)")
        parser.add_argument("--no-race", action="store_true",
                            help="on 7x6, never look for a winning column on a second core beside the proof of a "
                                 "drawing one (default: with two cores or more, while one is spare)")

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> StrongBot:
        return cls(args.time_per_move, args.evaluation_weights, args.tt_log2, not args.no_solve,
                   ponder=False if args.no_ponder else None, race=False if args.no_race else None)


def main(argv: list[str] | None = None) -> int:
    return main_for(StrongBot, argv)
