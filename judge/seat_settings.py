"""What a run's header keeps so that any of its games can be replayed to
one seat (`clinea replay`): the folder the judge ran in, each player's
command as the judge started it, the clock and each seat's limits.

The run's argv alone is not enough: a relative program path means
something only in the run's folder, a registered name (`strong`) becomes
a command of the Python that ran the judge, and the limits a run did not
spell out are defaults of that clinea. So the judge writes the values in
force beside the argv, under "seats", sealed with the rest of the header.
A header of an older clinea has no "seats": its argv is parsed again, in
the current folder, with today's defaults (`from_header`).
"""
from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from clinea.judge.referee import Clock, TimeControl
from clinea.judge.report import seat_labels
from clinea.judge.sandbox import SeatLimits

if TYPE_CHECKING:  # the tournament imports this module
    from clinea.judge.tournament import Player

# the key of the block in the run header
KEY = "seats"


@dataclass(frozen=True)
class SeatSettings:
    """How the run started and timed its seats. `commands` maps a player's
    name to its argv (None for a human); `controls` a player's own game
    clock (--tc) as SECONDS+INC; `startup_grace` the extra seconds of a
    fresh process's first answer."""
    cwd: str
    commands: dict[str, list[str] | None]
    time_per_move: float | None
    game_time: float | None
    increment: float
    grace: float
    startup_grace: float
    sandbox: str
    limits: SeatLimits
    controls: dict[str, str] = field(default_factory=dict)
    ponder: bool = False

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> SeatSettings:
        """The settings of a header's block; ValueError names what is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"{KEY!r} is {data!r:.60}, not an object")
        try:
            limits = SeatLimits(**data["limits"])
            settings = cls(**{**data, "limits": limits})
        except (TypeError, KeyError) as error:
            raise ValueError(f"{KEY!r} is not what this clinea writes ({error})") from None
        if not isinstance(settings.commands, dict) or not all(
                command is None or (isinstance(command, list) and command and all(isinstance(w, str) for w in command))
                for command in settings.commands.values()):
            raise ValueError(f"{KEY!r}: 'commands' is {settings.commands!r:.60}, not programs by name")
        return settings

    def program(self, name: str) -> list[str]:
        """The command `name` was started with; ValueError for a human seat."""
        command = self.commands[name]
        if command is None:
            raise ValueError(f"{name} played at the terminal: there is no program to replay")
        return command

    def clock(self, first: str, second: str) -> Clock:
        """The clock of a game between `first` (who moved first) and `second`."""
        clock = Clock(per_move=self.time_per_move, game=self.game_time, increment=self.increment, grace=self.grace)
        first_control, second_control = (TimeControl.parse(self.controls[name]) if name in self.controls else None
                                         for name in (first, second))
        clock.controls = (first_control, second_control)
        return clock

    def describe(self) -> str:
        """The clock in words, as the replay states it."""
        parts = [f"time per move {self.time_per_move:g} s" if self.time_per_move else "no time per move"]
        if self.game_time:
            parts.append(f"game clock {self.game_time:g}+{self.increment:g} s")
        parts += [f"{name}'s clock {control}" for name, control in self.controls.items()]
        parts.append(f"grace {self.grace:g} s, first answer of a fresh process +{self.startup_grace:g} s")
        return ", ".join(parts)


def recorded(args: argparse.Namespace, players: Sequence[Player], limits: SeatLimits,
             startup_grace: float) -> SeatSettings:
    """The settings of a run the judge parsed (`args`, `players`) and
    confined with `limits`."""
    return SeatSettings(os.getcwd(), {player.name: player.command for player in players},
                        args.time_per_move or None, args.game_time, args.increment, args.grace, startup_grace,
                        args.sandbox, limits,
                        {player.name: str(player.time_control) for player in players if player.time_control},
                        args.ponder)


def from_header(header: dict[str, Any]) -> SeatSettings:
    """The settings a run header keeps; for a header of an older clinea,
    those its argv gives today. ValueError names what is wrong; an argv
    this judge refuses (a program that is gone) exits as the judge does.
    (A league's header names its folder: clinea.arena.commands reads it.)"""
    if KEY in header:
        return SeatSettings.from_json(header[KEY])
    from clinea.judge.cli import run_settings  # the judge's parser: only for old files

    return run_settings(header["argv"])


def shown_names(header: dict[str, Any]) -> dict[str, str]:
    """The course match's seats (named by colour in its file) as the
    judge's tally shows them, from the commands the header keeps; none
    from a header without them (an older clinea's, a league's)."""
    try:
        return seat_labels(SeatSettings.from_json(header[KEY]).commands)
    except (KeyError, ValueError):
        return {}
