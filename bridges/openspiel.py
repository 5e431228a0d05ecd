"""Any clinea player as an OpenSpiel bot, on `connect_four` of any size
and on clinea's own game with its token limit (`"clinea"`, registered by
`clinea.bridges.openspiel_game`).

    import pyspiel
    from clinea.bridges.openspiel import as_spiel_bot

    game = pyspiel.load_game("connect_four", {"columns": 7, "rows": 6, "x_in_row": 4})
    mcts = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 1000, 100, False, 0, False)
    returns = pyspiel.evaluate_bots(game.new_initial_state(), [as_spiel_bot("strong"), mcts], 0)

OpenSpiel's actions on connect_four are the 0-based columns and its state
keeps the move history, so positions convert exactly. connect_four has no
token limit: a game with fewer tokens than cells is played as "clinea".
"""
from __future__ import annotations

from typing import Any

from clinea.bridges import openspiel_game, require
from clinea.bridges.make_bot import PlayerSpec, make_bot
from clinea.core import Board, Rules
from clinea.players.game_follower import GameFollower

pyspiel: Any = require("pyspiel", "openspiel")  # OpenSpiel has no type information

GAME = "connect_four"


def rules_of(game: Any) -> Rules:
    """The rules of an OpenSpiel game a clinea bot plays: clinea's own
    (`clinea.bridges.openspiel_game`, token limit included) or
    connect_four (tokens enough to fill the board: it has no limit)."""
    name = game.get_type().short_name
    parameters = game.get_parameters()
    if name == openspiel_game.GAME:
        return openspiel_game.rules_from_parameters(parameters)
    if name != GAME:
        raise ValueError(f"a clinea bot plays {openspiel_game.GAME} or {GAME}, not {name!r}")
    return Rules(parameters["columns"], parameters["rows"], parameters["x_in_row"])


def board_from_state(state: Any) -> Board:
    """The clinea position of an OpenSpiel connect_four state."""
    return Board.from_moves(state.history(), *rules_of(state.get_game()))


def load_game(columns: int, rows: int, c: int) -> Any:
    """OpenSpiel's connect_four of that size (a token limit, if any, is not
    OpenSpiel's to know: pass Rules(...)[:3])."""
    return pyspiel.load_game(GAME, {"columns": columns, "rows": rows, "x_in_row": c})


def state_from_board(board: Board) -> Any:
    """OpenSpiel's state after the moves of `board`."""
    state = load_game(*board.rules[:3]).new_initial_state()
    for column in board.moves():
        state.apply_action(column)
    return state


class SpielBot(pyspiel.Bot):  # type: ignore[misc]  # OpenSpiel has no type information: its Bot is Any
    """A clinea bot playing through OpenSpiel's Bot interface."""

    def __init__(self, player: PlayerSpec) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = make_bot(player)
        self.follower = GameFollower(self.bot)

    def restart_at(self, state: Any) -> None:
        self.follower.forget()

    def step(self, state: Any) -> int:
        return self.follower.move(board_from_state(state))


def as_spiel_bot(player: PlayerSpec) -> SpielBot:
    """An OpenSpiel bot playing as `player`: a Bot, a `choose(board)`
    function, "NAME [OPTIONS]" of a registered player, "mybot.py", or a
    protocol program. One object per seat: it remembers its game."""
    return SpielBot(player)
