"""Exact values: what the solver proves, beyond one position.

- `solve`: `clinea solve`, the exact score of positions read one per line
- `solved_tables`, `solved_board`, `solved_ray`: `clinea solved-tables`, the
  value of every board's empty position (docs/solved/), on Ray if asked
- `reference_solver`: a plain negamax the fast solver is checked against
- `book_check`: `clinea check-book`, the shipped opening book against the solver
- `signature`: `clinea signature`, one number naming every search's tree

It stands on the core, the players and training's parallel helpers; one
imports a module of it by name (`from clinea.solving.solve import position`).
"""
__all__ = ["book_check", "reference_solver", "signature", "solve", "solved_board", "solved_ray", "solved_tables"]
