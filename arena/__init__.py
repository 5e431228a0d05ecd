"""The arena: what happens after games are played.

- `league`: `clinea league DIR`, a folder of bots rated while it runs
- `ratings`: Elo with 95 % intervals fitted on fixed anchors
- `view`: `clinea view`, the HTML replay page of a results file
- `analysis`, `analyze`: every move valued by the solver, `clinea analyze`
- `judge_command`: `clinea judge`, the judge's command with `--view`

It stands on the judge, the players, the core and the solving room; one
imports a module of it by name (`from clinea.arena.view import write_view`).
"""
__all__ = ["analysis", "analyze", "judge_command", "league", "ratings", "view"]
