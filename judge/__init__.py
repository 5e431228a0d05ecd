"""The judge: referees games between bots in process (training) and player
programs over the course protocol, with clocks, logs, statistics and
tournaments. `play_bots` is the in-process entry point; `play_game`
(clinea.judge.tournament) plays one game of a schedule, from its GameSpec
to its GameRecord, on seats a runner keeps open."""
from clinea.judge.record import End, GameRecord
from clinea.judge.referee import Clock, Forfeit, GameResult, Seat, play_bots, referee

__all__ = ["Clock", "End", "Forfeit", "GameRecord", "GameResult", "Seat", "play_bots", "referee"]
