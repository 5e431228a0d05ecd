"""openspiel_mcts: OpenSpiel's Monte Carlo tree search (its C++ MCTSBot
with random rollouts) as a clinea player, to test against under any judge.

    clinea play openspiel_mcts --simulations 2000 --rollouts 2 --solve
    clinea judge --blue_player players/openspiel_mcts --red_player players/strong --iterations 10

Needs OpenSpiel (`pip install 'clinea[openspiel]'`). OpenSpiel's
connect_four has no token limit: on a game with fewer tokens than cells the
search plans as if the board could fill.
"""
from __future__ import annotations

import argparse
from typing import Any

from clinea.core import Board, Rules
from clinea.players.bot import Bot
from clinea.players.driver import main_for


class OpenSpielMCTSBot(Bot):
    """OpenSpiel's MCTS: UCT over random rollouts, optionally solving (MCTS-Solver)."""

    name = "openspiel_mcts"

    def __init__(self, simulations: int = 1000, rollouts: int = 1, uct_c: float = 2.0, solve: bool = False,
                 seed: int = 0, max_memory_mb: int = 100, time_per_move: float = 0.0):
        for option, value, low, high in (("simulations", simulations, 1, 10**9), ("rollouts", rollouts, 1, 10**6),
                                         ("max-memory-mb", max_memory_mb, 1, 10**6)):
            if not low <= value <= high:
                raise ValueError(f"{option}={value} is out of range: allowed {low}..{high}")
        if not uct_c > 0:
            raise ValueError(f"uct-c={uct_c} is out of range: allowed more than 0")
        if not 0 <= time_per_move <= 3600:
            raise ValueError(f"time-per-move={time_per_move} is out of range: allowed 0 (no limit)..3600 seconds")
        if not 0 <= seed < 2**31:
            raise ValueError(f"seed={seed} is out of range: allowed 0..{2**31 - 1}")
        # imported here, not at the top, so that `clinea play --list` and
        # `--help` work without the extra
        from clinea.bridges import openspiel

        self.openspiel = openspiel
        self.pyspiel = openspiel.pyspiel
        self.settings = (simulations, rollouts, uct_c, solve, seed, max_memory_mb, time_per_move)
        self.mcts: Any = None  # OpenSpiel's MCTSBot, for the rules of `game_rules`
        self.game_rules: Rules | None = None

    def new_game(self, board: Board, me: int) -> None:
        if board.rules != self.game_rules:  # a search tied to one game: rebuilt when the rules change
            simulations, rollouts, uct_c, solve, seed, memory, seconds = self.settings
            game = self.openspiel.load_game(*board.rules[:3])
            evaluator = self.pyspiel.RandomRolloutEvaluator(rollouts, seed)
            self.mcts = self.pyspiel.MCTSBot(game, evaluator, uct_c, simulations, memory, solve, seed, False,
                                             self.pyspiel.ChildSelectionPolicy.UCT, seconds or -1.0)
            self.game_rules = board.rules

    def choose(self, board: Board) -> int:
        if self.mcts is None or self.game_rules != board.rules:
            self.new_game(board, board.side_to_move)
        column: int = self.mcts.step(self.openspiel.state_from_board(board))
        return column

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--simulations", type=int, default=1000,
                            help="tree searches per move, 1..10^9 (default 1000)")
        parser.add_argument("--rollouts", type=int, default=1,
                            help="random games played to value a new leaf, 1..10^6 (default 1)")
        parser.add_argument("--uct-c", type=float, default=2.0, help="UCT exploration constant, > 0 (default 2)")
        parser.add_argument("--solve", action="store_true",
                            help="back up proven wins and losses (MCTS-Solver) (default: off)")
        parser.add_argument("--seed", type=int, default=0, help="random seed, 0..2^31-1 (default 0)")
        parser.add_argument("--max-memory-mb", type=int, default=100, help="memory for the tree (default 100)")
        parser.add_argument("--time-per-move", type=float, default=0.0, metavar="SECONDS",
                            help="stop searching after this long, 0 for no limit (default 0: --simulations decides)")

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> OpenSpielMCTSBot:
        try:
            return cls(args.simulations, args.rollouts, args.uct_c, args.solve, args.seed, args.max_memory_mb,
                       args.time_per_move)
        except ImportError as error:  # the missing extra: one line, not a trace
            raise ValueError(str(error)) from None


def main(argv: list[str] | None = None) -> int:
    return main_for(OpenSpielMCTSBot, argv)
