"""Players: the bot API, the protocol driver and the shipped bots.

Write a bot in a few lines::

    from clinea.players import run

    def choose(board):
        return board.legal_columns()[0]

    run(choose)
"""
from clinea.players.bot import Bot, FunctionBot
from clinea.players.driver import main_for, run, serve

__all__ = ["Bot", "FunctionBot", "main_for", "run", "serve"]
