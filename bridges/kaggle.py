"""Any clinea player as a Kaggle ConnectX agent.

    from kaggle_environments import evaluate, make
    from clinea.bridges.kaggle import as_agent

    env = make("connectx", configuration={"rows": 6, "columns": 7, "inarow": 4})
    env.run([as_agent("strong --time-per-move 0.5"), "negamax"])
    evaluate("connectx", [as_agent("greedy"), "random"], num_episodes=10)

ConnectX hands an agent the whole board at every move (`observation.board`,
row-major from the top row, 0 empty, 1/2 the players' marks) and
`configuration.rows/columns/inarow`; it has no token limit, so the game's
`p` is "enough to fill the board". The agent keeps the game it is in, so a
clinea bot sees the real move history (its `new_game` is called at every
new game) and a protocol program is told the opponent's moves one by one.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clinea.bridges.make_bot import PlayerSpec, make_bot
from clinea.core import Board
from clinea.players.bot import Bot
from clinea.players.game_follower import GameFollower


def field(record: Any, name: str) -> Any:
    """`record.name` or `record[name]`: Kaggle passes Structs (dicts with
    attributes), people testing by hand pass plain dicts."""
    return record[name] if isinstance(record, Mapping) else getattr(record, name)


def board_from_observation(observation: Any, configuration: Any) -> Board:
    """The position a ConnectX observation shows, with its side to move
    checked against `observation.mark`."""
    return Board.from_grid(list(field(observation, "board")), c=int(field(configuration, "inarow")),
                           columns=int(field(configuration, "columns")), mark=int(field(observation, "mark")))


def kaggle_board(board: Board) -> list[int]:
    """`board` in ConnectX's layout: row-major, top row first, marks 1 and 2."""
    return [cell for row in reversed(board.grid()) for cell in row]


class ConnectXAgent:
    """A clinea bot behind ConnectX's `agent(observation, configuration)`."""

    def __init__(self, player: PlayerSpec):
        self.bot: Bot = make_bot(player)
        self.follower = GameFollower(self.bot)

    def __call__(self, observation: Any, configuration: Any) -> int:
        return self.follower.move(board_from_observation(observation, configuration))


def as_agent(player: PlayerSpec) -> ConnectXAgent:
    """A ConnectX agent playing as `player`: a Bot, a `choose(board)`
    function, "NAME [OPTIONS]" of a registered player, "mybot.py", or a
    protocol program ("./myprogram ARGS" or a list of words). Use one agent
    object per seat: it remembers its game."""
    return ConnectXAgent(player)
