"""Game analysis with the exact solver: every move of a game marked with the
value of the position before and after it, for the player who made it.

Values are the solver's scores for the side to move (> 0 a win, 0 a draw,
< 0 a loss; larger is a faster win) or, with `weak`, only 1 / 0 / -1. A
move keeps the value when the mover's result (win, draw or loss) is the
same after it as before; otherwise it threw a win or a draw away. A
position the solver cannot finish within the time limit has no value
(None), and the moves around it are not judged.
"""
from __future__ import annotations

from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from clinea.core import Board, Rules
from clinea.core.solver import Solver
from clinea.core.timeman import Limits

WIN, DRAW, LOSS = "win", "draw", "loss"


def outcome(value: int | None) -> str | None:
    """The result a value promises the side it is for."""
    if value is None:
        return None
    return WIN if value > 0 else LOSS if value < 0 else DRAW


def solver_notation(moves: Sequence[int], columns: int, rows: int, c: int, p: int) -> str:
    """A game's 0-based columns, as judge records keep them, in the
    solver's 1-based notation (the standard files', `clinea solve`'s):
    "4453", or "10,3,4" beyond 9 columns. Raises ValueError on a move the
    game does not allow."""
    return Board.from_moves(moves, columns, rows, c, p).to_string()


@dataclass
class MoveMark:
    ply: int                  # 1 for the first move of the game
    player: int               # 0 moved first from the empty board, 1 second
    column: int               # 0-based
    before: int | None     # the position's value for the mover, before the move
    after: int | None      # the same player's value once the move is made
    lost: str | None = None  # "win" or "draw" if the move threw that away

    @property
    def lost_faster(self) -> bool:
        """Whether a mover already lost made its loss come sooner: the
        opponent now wins with an earlier stone (exact values only; with
        weak ones every loss is -1)."""
        return self.before is not None and self.after is not None and self.before < 0 and self.after < self.before

    @property
    def kept(self) -> bool | None:
        """Whether the move kept the mover's result; None if unknown."""
        if self.before is None or self.after is None:
            return None
        return self.lost is None


@dataclass
class GameAnalysis:
    columns: int
    rows: int
    c: int
    p: int
    moves: list[int]
    marks: list[MoveMark] = field(default_factory=list)
    #: values along the game for the first player, position 0 (empty) to the end
    first_player_values: list[int | None] = field(default_factory=list)
    #: the ply after which the theoretical result stayed the game's final
    #: one (0: from the start), None if the last position's value is unknown
    decided_at: int | None = None

    def kept_counts(self, player: int) -> tuple[int, int]:
        """How many of `player`'s moves kept its result, and how many could
        be judged (both values known)."""
        judged = [mark.kept for mark in self.marks if mark.player == player and mark.kept is not None]
        return sum(judged), len(judged)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for mark, record in zip(self.marks, data["marks"]):
            record["kept"] = mark.kept
            record["lost_faster"] = mark.lost_faster
        return data


#: what `analyse` keeps of positions it solved, for the games after:
#: (rules, position key, weak) -> value, None where the time ran out
SolvedPositions = MutableMapping[tuple[Rules, int, bool], int | None]

#: the share of the time limit a position gets once `hurry_after` positions
#: after it ran out of time
HURRIED_SHARE = 1 / 16


def analyse(board_size: Rules, moves: Sequence[int], solver: Solver,
            time_limit: float = 1.0, weak: bool = False,
            progress: Callable[[], object] | None = None, *,
            cache: SolvedPositions | None = None, hurry_after: int = 0) -> GameAnalysis:
    """Marks every move of the game `moves` (0-based) played from the empty
    board of `board_size` (columns, rows, c, p). Positions are solved from
    the last to the first, so the later ones fill the solver's table for
    the earlier; each gets `time_limit` seconds (0: no limit). `progress` is
    called once per position solved.

    `cache` answers positions an earlier game reached (the openings of a
    run's games are few) and keeps this game's. With `hurry_after` n > 0,
    once n positions in a row ran out of time all the earlier ones, which
    have more of the game left to search, get only HURRIED_SHARE of the limit:
    enough for an opening book or a forced line, while many games of a big
    board would otherwise spend the whole limit on every move."""
    board = Board(*board_size).play_moves(moves)
    values: list[int | None] = [None] * (len(moves) + 1)  # for the side to move at each position
    unsolved_in_a_row = 0
    hurried = False
    for ply in range(len(moves), -1, -1):
        hurried = hurried or bool(hurry_after) and unsolved_in_a_row >= hurry_after
        key = (board.rules, board.key(), weak)
        if cache is not None and key in cache:
            values[ply] = cache[key]
        else:
            values[ply] = solver.solve(board, weak=weak,
                                       limits=Limits(time=time_limit * HURRIED_SHARE if hurried else time_limit))
            if cache is not None:
                cache[key] = values[ply]
        unsolved_in_a_row = unsolved_in_a_row + 1 if values[ply] is None else 0
        if ply:
            board.undo()
        if progress is not None:
            progress()
    game = GameAnalysis(*board_size, moves=list(moves))
    game.first_player_values = [None if v is None else (v if ply % 2 == 0 else -v) for ply, v in enumerate(values)]
    for ply, column in enumerate(moves):
        before, reached = values[ply], values[ply + 1]
        after = None if reached is None else -reached
        mark = MoveMark(ply + 1, ply % 2, column, before, after)
        if before is not None and after is not None and outcome(after) != outcome(before):
            if outcome(before) == WIN:
                mark.lost = WIN
            elif outcome(before) == DRAW and outcome(after) == LOSS:
                mark.lost = DRAW
            # a value can only fall: the mover picks one of the moves the
            # value is the best of; a rise would be a solver bug
            assert not (outcome(before) == LOSS or (outcome(before) == DRAW and outcome(after) == WIN)), mark
        game.marks.append(mark)
    game.decided_at = _decided_at(game.first_player_values)
    return game


def finishing_ply(value: int, stones: int, max_moves: int) -> int | None:
    """The ply whose stone wins the game under best play from a position of
    `stones` stones whose exact score for the side to move is `value` (the
    solver's, not weak): the game's n-th stone is ply n, so an odd ply is
    the first player's. None for a draw; `stones` itself for a finished
    game. `max_moves` is min(2p, columns * rows).

    A win by the stone played after n stones scores (max_moves + 1 - n) // 2,
    and that stone is the winner's: n has the parity of `stones` when the
    side to move wins, the other one when it loses."""
    if value == 0:
        return None
    placed_before = max_moves + 1 - 2 * abs(value)
    if (placed_before - stones - (value < 0)) % 2:
        placed_before -= 1
    return placed_before + 1


def _decided_at(first_player_values: list[int | None]) -> int | None:
    """The first position from which the first player's result was the
    final one all the way to the end; looking back stops at a position of
    unknown value (then the answer is "at the latest")."""
    final = outcome(first_player_values[-1])
    decided = None
    for ply in range(len(first_player_values) - 1, -1, -1):
        if first_player_values[ply] is None or outcome(first_player_values[ply]) != final:
            break
        decided = ply
    return decided
