"""The judge: referees games between bots in process (training) and player
programs over the course protocol, with clocks, logs, statistics and
tournaments. `play_bots` is the in-process entry point."""
from clinea.judge.referee import Clock, Forfeit, GameResult, Seat, play_bots, referee

__all__ = ["Clock", "Forfeit", "GameResult", "Seat", "play_bots", "referee"]
