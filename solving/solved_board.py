"""The value of one board's empty position, as the solved tables hold it:
who wins (or a draw) and the move on which a perfect game ends, each value
found twice (the exact search and, independently, the win/draw/loss one;
on tiny boards also the pure-Python brute force of clinea.solving.reference_solver).

A board may be split at a fixed depth: alpha-beta runs over the plies above
it here, and asks of each position `depth` plies in only what its window
needs (a Query: is the score at most low, at least high, or which between?),
which the solver answers in a probe or two where an exact score takes five
or six, and most positions are never asked at all (a refuted move needs one
reply). The questions are solved in process, or as Ray tasks by
clinea.solving.solved_ray, the siblings of a position at once once the
first is answered; each answer goes to a LeafStore (the checkpoint of
clinea.solving.solved_checkpoint) as soon as it is found, so a run stopped
inside a board asks again only what it had not answered. Scores follow
the solver's convention (`solver`): a win by the stone played after n stones
scores (max_moves + 1 - n) // 2 for its player, whichever position it is
seen from, so backing up is plain negation and needs no distance arithmetic.
"""
from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from clinea.core import Board, Rules
from clinea.core.solver import Solver, centre_first
from clinea.core.timeman import Limits
from clinea.solving.reference_solver import ReferenceSolver, TooManyPositions

#: the brute force runs on a board when it meets at most this many positions
#: (some 6 s of pure Python); past it the table says it did not run
BRUTE_FORCE_POSITIONS = 200_000
#: it is tried only on boards of at most this many cells or moves: larger
#: ones always ran past the budget (5x4: 6 s to find out), 4x4 and 7x6 with
#: p = 4 fit (4 to 5 s)
BRUTE_FORCE_CELLS = 16
BRUTE_FORCE_MOVES = 8
#: the transposition table of each solve: 2**N entries of 8 bytes
TABLE_LOG2 = 22


@dataclass(frozen=True)
class Query:
    """What the search above the split asks of one split position (0-based
    moves from the empty board): where its score for the side to move
    (weak: its sign) lies against alpha-beta's window (low, high)."""
    moves: tuple[int, ...]
    weak: bool
    low: int
    high: int


@dataclass(frozen=True)
class Answer:
    """What one solve proved of a Query's position: its score (weak: its
    sign) is in [low, high]; both None when the time ran out first."""
    low: int | None
    high: int | None
    nodes: int
    seconds: float


def score_limit(rules: Rules, weak: bool) -> int:
    """No score of the board is beyond +-this (a win by the first stone)."""
    return 1 if weak else (rules.max_moves + 1) // 2


def answered(solver: Solver, rules: Rules, query: Query, time_limit: float) -> Answer:
    """`solver`'s answer to `query` within `time_limit` seconds (0: none)."""
    start = time.monotonic()
    board = Board(*rules).play_moves(query.moves)
    r = solver.solve(board, weak=query.weak, limits=Limits(time=time_limit), window=(query.low, query.high))
    seconds, limit = time.monotonic() - start, score_limit(rules, query.weak)
    if r is None:
        return Answer(None, None, solver.nodes, seconds)
    low, high = (-limit, r) if r <= query.low else (r, limit) if r >= query.high else (r, r)
    return Answer(low, high, solver.nodes, seconds)


class LocalSolve:
    """solve_board's `solve` in this process: the queries one at a time (so
    each is asked with the window its elder siblings left), exact and
    win/draw/loss ones on two solvers with their own tables of 2**tt_log2
    entries (each made when first asked), so that neither search reuses a
    bound the other proved; each solver searches with `threads` threads
    sharing its table."""
    width = 1

    def __init__(self, tt_log2: int = TABLE_LOG2, threads: int = 1) -> None:
        self.tt_log2 = tt_log2
        self.threads = threads
        self.solvers: dict[bool, Solver] = {}

    def __call__(self, rules: Rules, queries: list[Query], time_limit: float) -> Iterator[tuple[Query, Answer]]:
        for query in queries:
            if query.weak not in self.solvers:
                self.solvers[query.weak] = Solver(self.tt_log2, threads=self.threads)
            yield query, answered(self.solvers[query.weak], rules, query, time_limit)


@functools.lru_cache(maxsize=1)
def process_solve(tt_log2: int, threads: int = 1) -> LocalSolve:
    """This process's LocalSolve, kept from one Ray task to the next: its
    tables keep what the earlier queries proved, as one LocalSolve's do for
    a run without Ray (positions under different split positions
    transpose)."""
    return LocalSolve(tt_log2, threads)


def solve_queries(rules: Rules, queries: Sequence[Query], time_limit: float,
                  tt_log2: int = TABLE_LOG2, threads: int = 1) -> list[Answer]:
    """process_solve's answers all at once: a top-level function, Ray ships it as a task."""
    return [answer for _, answer in process_solve(tt_log2, threads)(rules, list(queries), time_limit)]


class Solve(Protocol):
    """How a board's queries are answered: (query, answer) pairs, each as
    soon as it is found, in any order (LocalSolve; RaySolver on a cluster);
    `width`: how many it answers at once."""
    width: int

    def __call__(self, rules: Rules, queries: list[Query], time_limit: float) -> Iterable[tuple[Query, Answer]]:
        ...


class LeafStore(Protocol):
    """Where a board's answers are kept while it is solved
    (clinea.solving.solved_checkpoint.Checkpoint)."""

    def solved(self, leaves: list[list[int]], time_limit: float) -> list[tuple[Query, Answer]]:
        """The answers found before that a run with `time_limit` reuses
        (`leaves`: the positions at the split and above it)."""

    def record(self, query: Query, answer: Answer) -> None:
        """Keeps one answer, found just now."""


def split_positions(rules: Rules, depth: int) -> list[list[int]]:
    """The positions `depth` plies from the empty board whose game is not
    over, once each (transpositions merged), as 0-based move lists."""
    found: dict[int, list[int]] = {}

    def walk(board: Board, moves: list[int], left: int) -> None:
        if left == 0:
            found.setdefault(board.key(), list(moves))
            return
        columns = board.legal_columns()
        # a win at once decides the position: nothing below it is needed
        if board.moves_played + 1 >= board.max_moves or any(board.is_winning_move(col) for col in columns):
            return
        for col in columns:
            board.play(col)
            moves.append(col)
            walk(board, moves, left - 1)
            moves.pop()
            board.undo()

    walk(Board(*rules), [], depth)
    return list(found.values())


def mirror_key(rules: Rules, moves: Iterable[int]) -> int:
    """The key of the mirror image of the position `moves` reach."""
    return Board(*rules).play_moves([rules.columns - 1 - col for col in moves]).key()


def split_leaves(rules: Rules, moves_of: list[list[int]]) -> dict[int, tuple[int, ...]]:
    """Each split position's key, mapped to the moves of the position that
    stands for it and its mirror image (which score alike): of the two,
    the one of the lesser key. Half the questions on a symmetric board."""
    by_key = {Board(*rules).play_moves(moves).key(): tuple(moves) for moves in moves_of}
    return {key: by_key[min(key, mirror_key(rules, moves))] for key, moves in by_key.items()}


class Knowledge:
    """What the answers so far prove of each split position, per scale: the
    interval its score is in (the intersection of every answer's), and the
    queries that ran out of time (not asked again in this run)."""

    def __init__(self) -> None:
        self.bounds: dict[tuple[tuple[int, ...], bool], tuple[int, int]] = {}
        self.out_of_time: set[Query] = set()
        self.answers = 0
        self.nodes = 0
        self.seconds = 0.0

    def add(self, query: Query, answer: Answer) -> None:
        self.answers += 1
        self.nodes += answer.nodes
        self.seconds += answer.seconds
        if answer.low is None or answer.high is None:
            self.out_of_time.add(query)
            return
        low, high = self.bounds.get((query.moves, query.weak), (answer.low, answer.high))
        self.bounds[query.moves, query.weak] = (max(low, answer.low), min(high, answer.high))

    def settles(self, query: Query) -> bool:
        """Whether the answers so far answer `query`, or it ran out of time."""
        return self.score(query) is not None or query in self.out_of_time

    def score(self, query: Query) -> int | None:
        """The query's answer in alpha-beta's sense (fail-soft), None if unknown."""
        low, high = self.bounds.get((query.moves, query.weak), (query.low, query.high))
        if high <= query.low:
            return high
        return low if low >= query.high or low == high else None


def searched(rules: Rules, depth: int, weak: bool, leaves: dict[int, tuple[int, ...]],
             ask: Callable[[list[Query]], list[int | None]], width: int,
             known: Callable[[Query], int | None] = lambda query: None) -> int | None:
    """The empty board's score (weak: its sign) by alpha-beta (fail-soft)
    over the `depth` plies above the split positions (`leaves`, by key:
    these and every position above them), whose queries `ask` answers,
    `width` siblings at once after the first (Young Brothers Wait), but for
    those `known` answers already (each taken in turn, so that it may cut
    the rest off; above the split too, where a run split fewer plies in
    answered them); None when an unknown answer was needed. Two plies
    above the split, once a position's first move is searched, the first
    query under each of its other moves goes out in one batch: the moves
    refuted by their first reply (most of them) are refuted together, not
    one after another with the other workers idle. Past a position's first
    move, a move is asked only whether it beats the best so far (a null
    window, which the solver settles in one probe: principal variation
    search), and again in the whole window if it does."""
    limit = score_limit(rules, weak)
    order = centre_first(rules.columns)

    def moves_or_value(board: Board) -> tuple[list[int], int | None]:
        """The position's columns, best first (of a symmetric one, such as
        the empty board, one of each move and its mirror image, which score
        alike), and its score if the game decides it at once."""
        n = board.moves_played
        columns = [col for col in order if board.can_play(col)]
        if any(board.is_winning_move(col) for col in columns):
            return columns, 1 if weak else (board.max_moves + 1 - n) // 2  # and split_positions went no deeper
        if mirror_key(rules, board.moves()) == board.key():
            columns = [col for col in columns if col <= rules.columns - 1 - col]
        return columns, 0 if n + 1 >= board.max_moves else None

    def leaf_query(board: Board, col: int, alpha: int, beta: int) -> Query:
        board.play(col)
        moves = leaves[board.key()]
        board.undo()
        return Query(moves, weak, -beta, -alpha)

    def first_queries(board: Board, columns: list[int], alpha: int) -> list[Query]:
        """The query each of `columns` asks first under its null window (alpha,
        alpha + 1), one ply above the split (value's first batch there)."""
        queries = []
        for col in columns:
            board.play(col)
            replies, decided = moves_or_value(board)
            if decided is None and known(Query(leaves[board.key()], weak, -alpha - 1, -alpha)) is None:
                queries.append(leaf_query(board, replies[0], -alpha - 1, -alpha))
            board.undo()
        return queries

    def scores(board: Board, left: int, batch: list[int], alpha: int, beta: int) -> list[int | None]:
        """The scores of `batch`'s moves (fail-soft, for the side to move) in
        the window (alpha, beta): several at once only one ply above the
        split, where they are one ask; higher up, one move searched whole."""
        if left == 1:
            return [None if r is None else -r for r in ask([leaf_query(board, col, alpha, beta) for col in batch])]
        [col] = batch
        board.play(col)
        r = value(board, left - 1, -beta, -alpha)
        board.undo()
        return [None if r is None else -r]

    def value(board: Board, left: int, alpha: int, beta: int) -> int | None:
        if left == 0:  # depth 0: the empty board is the split position
            return ask([Query(leaves[board.key()], weak, alpha, beta)])[0]
        columns, decided = moves_or_value(board)
        if decided is not None:
            return decided
        # answered when the board was split fewer plies in (a run resumed deeper)
        if (found := known(Query(leaves[board.key()], weak, alpha, beta))) is not None:
            return found
        best: int | None = None
        first_replies_pending = left == 2 and width > 1  # to go out in one batch after the first move
        while columns:
            high, floor = (beta if best is None else alpha + 1), alpha
            take = width if best is not None and left == 1 else 1
            if left == 1 and known(leaf_query(board, columns[0], alpha, high)) is not None:
                take = 1
            batch, columns = columns[:take], columns[take:]
            if best is not None and first_replies_pending:
                first_replies_pending = False
                ask(first_queries(board, batch + columns, alpha))
            for col, score in zip(batch, scores(board, left, batch, alpha, high)):
                if score is not None and floor < score < beta and high < beta:
                    score = scores(board, left, [col], max(alpha, score), beta)[0]
                if score is None:
                    return None
                best = score if best is None else max(best, score)
                alpha = max(alpha, score)
                if score >= beta:
                    return score
        return best

    return value(Board(*rules), depth, -limit, limit)


def brute_force(rules: Rules, max_positions: int = BRUTE_FORCE_POSITIONS) -> int | None:
    """The empty board's exact score by the pure-Python reference, or None
    when it would meet more than `max_positions` positions."""
    try:
        return ReferenceSolver(*rules, max_positions=max_positions).solve([])
    except TooManyPositions:
        return None


@dataclass(frozen=True)
class BoardValue:
    """A board's row in a solved table. Scores are for the first player;
    the seconds and nodes are its solves', summed over every run that
    answered one (on Ray the seconds are CPU, not wall time)."""
    rules: Rules
    exact: int | None
    weak: int | None
    brute: int | None
    seconds: float
    nodes: int
    time_limit: float

    @property
    def outcome(self) -> str:
        """'first', 'second' or 'draw' (the first player's result), 'unknown'."""
        sign = self.weak if self.exact is None else self.exact
        if sign is None:
            return "unknown"
        return "first" if sign > 0 else "second" if sign < 0 else "draw"

    @property
    def end_move(self) -> int | None:
        """The move (1-based) on which a perfect game ends, None if unknown."""
        return None if self.exact is None else end_move(self.rules.max_moves, self.exact)

    def disagreements(self) -> list[str]:
        """What the second methods say against the exact value (empty: none)."""
        found = []
        if self.exact is not None and self.weak is not None and sign_of(self.exact) != self.weak:
            found.append(f"exact {self.exact} but win/draw/loss {self.weak}")
        if self.brute is not None and self.exact is not None and self.brute != self.exact:
            found.append(f"exact {self.exact} but brute force {self.brute}")
        if self.brute is not None and self.weak is not None and sign_of(self.brute) != self.weak:
            found.append(f"brute force {self.brute} but win/draw/loss {self.weak}")
        return found

    def check(self) -> str:
        """The checks' summary for the table: which methods agree, or how not."""
        problems = self.disagreements()
        if problems:
            return "MISMATCH: " + "; ".join(problems)
        if self.exact is None:
            return "win/draw/loss only (exact out of time)" if self.weak is not None else "out of time"
        methods = ["exact"] + (["win/draw/loss"] if self.weak is not None else []) + \
                  (["brute force"] if self.brute is not None else [])
        return " = ".join(methods) if len(methods) > 1 else "exact only (win/draw/loss out of time)"


def sign_of(score: int) -> int:
    return (score > 0) - (score < 0)


def end_move(max_moves: int, score: int) -> int:
    """The 1-based move ending a perfect game whose exact score, for the first
    player, is `score`: the winner's k-th stone scores S + 1 - k, S its most
    stones ((max_moves + 1) // 2 first, max_moves // 2 second); a draw ends
    when the tokens run out or the board is full."""
    if score > 0:
        return 2 * ((max_moves + 1) // 2 + 1 - score) - 1
    if score < 0:
        return 2 * (max_moves // 2 + 1 + score)
    return max_moves


def solve_board(rules: Rules, time_limit: float, depth: int = 0, solve: Solve | None = None,
                brute_positions: int = BRUTE_FORCE_POSITIONS, store: LeafStore | None = None,
                report: Callable[[int, int], None] | None = None) -> BoardValue:
    """The board's value: alpha-beta over its first `depth` plies, whose
    split positions' queries `solve` answers (in process by default;
    clinea.solving.solved_ray's on a cluster) but for those the answers in
    `store` settle already; the brute force run when the board is tiny
    enough. `report` hears of each answer: how many so far, and their nodes.
    The store may hold answers about positions fewer plies in (a board
    begun with a shallower split): they settle those positions here."""
    solve = solve or LocalSolve()
    # the positions above the split too: a run resumed deeper keeps what was answered of them
    moves_of = [moves for above in range(depth + 1) for moves in split_positions(rules, above)]
    leaves = split_leaves(rules, moves_of)
    known = Knowledge()
    for query, answer in store.solved(moves_of, time_limit) if store else ():
        known.add(replace(query, moves=leaves[Board(*rules).play_moves(query.moves).key()]), answer)

    def ask(queries: list[Query]) -> list[int | None]:
        todo = list(dict.fromkeys(query for query in queries if not known.settles(query)))
        for query, answer in solve(rules, todo, time_limit) if todo else ():
            known.add(query, answer)
            if store:
                store.record(query, answer)
            if report:
                report(known.answers, known.nodes)
        return [known.score(query) for query in queries]

    exact = searched(rules, depth, False, leaves, ask, solve.width, known.score)
    weak = searched(rules, depth, True, leaves, ask, solve.width, known.score)
    tiny = rules.cells <= BRUTE_FORCE_CELLS or rules.max_moves <= BRUTE_FORCE_MOVES
    start = time.monotonic()
    brute = brute_force(rules, brute_positions) if brute_positions and tiny else None
    # the solves' time, as the nodes, summed over every run that answered (on Ray: CPU, not wall time)
    return BoardValue(rules, exact, weak, brute, known.seconds + time.monotonic() - start, known.nodes, time_limit)


def longer_limit(time_limit: float, recorded: float) -> bool:
    """Whether `time_limit` (0: none) gives a solve longer than `recorded`,
    the limit a value was left unknown under: only then is it tried again."""
    return recorded != 0 and (time_limit == 0 or time_limit > recorded)


def boards_up_to(c: int, max_sum: int) -> Iterable[Rules]:
    """Every board with columns + rows <= max_sum (both at least 1), the
    smallest first, so a table's quick boards come before its slow ones."""
    sizes = [(w, h) for w in range(1, max_sum) for h in range(1, max_sum + 1 - w)]
    for w, h in sorted(sizes, key=lambda size: (size[0] * size[1], size)):
        yield Rules(w, h, c)
