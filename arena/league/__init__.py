"""The league: a folder of bots rated against fixed baselines while it runs
(`clinea league DIR`).

- `run`: the league itself (League), its command (main)
- `folder`: the folder, its league.toml (read_settings) and its bots
- `schedule`: which game is due next, and each game's id
- `standings`: the table, as text, JSON and the page's HTML section
"""
from clinea.arena.league.folder import LeagueError, Settings, read_settings
from clinea.arena.league.run import League, main

__all__ = ["League", "LeagueError", "Settings", "main", "read_settings"]
