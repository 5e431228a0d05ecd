"""`clinea judge` (and `python -m clinea.judge`): the referee's command,
clinea.judge.cli, with what the judge cannot import from below it: the
replay page `--view` writes at the end of a run (clinea.arena.view).
"""
from __future__ import annotations

from collections.abc import Sequence

from clinea.judge import cli


def write_page(path: str, quiet: bool) -> str:
    """`--view`: the replay page of the results file at `path`, written
    beside it; the line that says where, or why there is none."""
    from clinea.arena.view import ViewError, write_view  # the solver's page: only when asked for

    try:
        return f"replays: {write_view(path, quiet=quiet)}"
    except ViewError as error:
        return f"--view: {error}"


def main(argv: Sequence[str] | None = None) -> int:
    return cli.main(argv, write_page)
