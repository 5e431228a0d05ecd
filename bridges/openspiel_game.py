"""C en linea as an OpenSpiel game, token limit included.

    import pyspiel
    import clinea.bridges.openspiel_game  # registers "clinea"

    game = pyspiel.load_game("clinea", {"columns": 9, "rows": 8, "c": 5, "p": 30})
    state = game.new_initial_state()

OpenSpiel's own connect_four has no token limit; this game is clinea's one
Board behind OpenSpiel's Python-game interface, so OpenSpiel's algorithms
(MCTS, evaluate_bots, its random-simulation checks) play C en linea as the
judge does. Parameters: columns, rows, c, and p (tokens each; 0, the
default, means enough to fill the board). Actions are the 0-based columns;
the observation tensor is (2, rows, columns): the observing player's stones,
then the opponent's, row 0 at the top.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from clinea.bridges import require
from clinea.core import Board, Rules
from clinea.core.observation import planes

pyspiel = require("pyspiel", "openspiel")
# OpenSpiel ships no types: its base classes are Any to a type checker
SpielGame: Any = pyspiel.Game
SpielState: Any = pyspiel.State

GAME = "clinea"
DEFAULT_PARAMETERS = {"columns": 7, "rows": 6, "c": 4, "p": 0}


def rules_from_parameters(parameters: dict[str, int]) -> Rules:
    """The Rules of the game's parameters (p = 0: enough to fill the board);
    ValueError names a value out of range."""
    merged = {**DEFAULT_PARAMETERS, **parameters}
    unknown = set(merged) - set(DEFAULT_PARAMETERS)
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(sorted(unknown))}: allowed {', '.join(DEFAULT_PARAMETERS)}")
    return Rules(merged["columns"], merged["rows"], merged["c"], merged["p"] or None)


GAME_TYPE = pyspiel.GameType(
    short_name=GAME,
    long_name="C en linea (columns x rows, c in a row, p tokens each)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMETERS,
)


class ClineaGame(SpielGame):
    """The game of the parameters (see the module)."""

    def __init__(self, params: dict[str, int] | None = None) -> None:
        self.rules = rules_from_parameters(params or {})
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.columns,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.rules.max_moves,
        )
        super().__init__(GAME_TYPE, info, params or {})

    def new_initial_state(self) -> ClineaState:
        return ClineaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> BoardObserver:
        """The one observer of a perfect-information game: the whole board."""
        if params:
            raise ValueError(f"the clinea observer takes no parameters, got {params!r}")
        return BoardObserver(self.rules)


class ClineaState(SpielState):
    """A position: a clinea Board plus OpenSpiel's bookkeeping."""

    def __init__(self, game: ClineaGame) -> None:
        super().__init__(game)
        self.board = Board(*game.rules)

    def current_player(self) -> int:
        if self.board.is_over():
            terminal: int = pyspiel.PlayerId.TERMINAL
            return terminal
        return self.board.side_to_move

    def _legal_actions(self, player: int) -> list[int]:
        return self.board.legal_columns()

    def _apply_action(self, action: int) -> None:
        self.board.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return f"{'xo'[player]}{action}"

    def is_terminal(self) -> bool:
        return self.board.is_over()

    def returns(self) -> list[float]:
        winner = self.board.winner
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def __str__(self) -> str:
        return self.board.render(color=False)


class BoardObserver:
    """The board for either player: `tensor` holds their stones then the
    opponent's, (2, rows, columns); the string is the text board."""

    def __init__(self, rules: Rules):
        self.tensor = np.zeros(2 * rules.rows * rules.columns, np.float32)
        self.dict = {"observation": self.tensor.reshape(2, rules.rows, rules.columns)}

    def set_from(self, state: ClineaState, player: int) -> None:
        self.dict["observation"][...] = np.moveaxis(planes(state.board, player), 2, 0)

    def string_from(self, state: ClineaState, player: int) -> str:
        return f"{state.board.to_string()}\n{state}"


pyspiel.register_game(GAME_TYPE, ClineaGame)
