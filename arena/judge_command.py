"""The judge's commands with what the judge cannot import from below it:
`clinea judge` (and `python -m clinea.judge`), clinea.judge.cli with the
replay page `--view` writes at the end of a run (clinea.arena.view); and
`clinea replay`, clinea.judge.replay with the seat settings of a league's
games (clinea.arena.league).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clinea.judge import cli, seat_settings
from clinea.judge import replay as replay_seat
from clinea.judge.seat_settings import SeatSettings


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


def settings_of(header: dict[str, Any]) -> SeatSettings:
    """A run header's seat settings; a league's header (["league",
    FOLDER]) names its folder, whose league.toml and bots give them."""
    if seat_settings.KEY not in header and isinstance(header.get("league"), dict) and len(header["argv"]) == 2:
        from clinea.arena.league.folder import replay_settings

        try:
            return replay_settings(header["argv"][1])
        except OSError as error:
            raise ValueError(f"its league folder {header['argv'][1]}: {error}") from None
    return seat_settings.from_header(header)


def replay(argv: Sequence[str] | None = None) -> int:
    return replay_seat.main(argv, settings_of)
