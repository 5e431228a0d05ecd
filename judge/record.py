"""A finished game as the results file keeps it: the typed record, and its
JSON form (one line per game), read back with every field checked so a
corrupt or foreign file is refused with the reason instead of misread."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

# the fields of a game line and the JSON types each must have
_FIELDS: dict[str, type | tuple[type, ...]] = {
    "id": str, "columns": int, "rows": int, "c": int, "p": int, "players": list, "colours": list,
    "opening": list, "moves": list, "times": list, "winner": (str, type(None)), "reason": str,
    "forfeit": (str, type(None))}


class End(enum.StrEnum):
    """How a game ended: by the rules (a connection, a draw) or by one kind
    of forfeit. The value is the word the results file and reports use."""
    CONNECT = "connect"
    DRAW = "draw"
    ILLEGAL = "illegal move"
    CRASH = "crash"
    TIMEOUT = "timeout"
    GARBAGE = "garbage"


@dataclass(frozen=True)
class GameRecord:
    """One game of a run. `players` are (first to move from the empty
    board, second); `winner` and `forfeit` are player names or None; `end`
    says how it ended and `detail` what happened in a forfeit ("column 9
    out of range 0..6"); `times[i]` is the thinking time of
    `moves[len(opening) + i]`, `cpu[i]` the CPU seconds its seat's processes
    used for it and `waited[i]` those they used while the seat waited to be
    told the move before (the opponent's turn; None where not measured,
    both empty for a game with no seat measured). The results file keeps
    `end` and `detail` as one "reason" ("connect", "draw", "KIND:
    detail"), as it always did."""
    id: str
    columns: int
    rows: int
    c: int
    p: int
    players: tuple[str, str]
    colours: tuple[str, str]
    opening: tuple[int, ...]
    moves: tuple[int, ...]
    times: tuple[float, ...]
    winner: str | None
    end: End
    detail: str
    forfeit: str | None
    cpu: tuple[float | None, ...] = ()
    waited: tuple[float | None, ...] = ()

    @property
    def reason(self) -> str:
        """The end in words, as the results file keeps it."""
        return f"{self.end}: {self.detail}" if self.detail else str(self.end)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "columns": self.columns, "rows": self.rows, "c": self.c, "p": self.p,
                "players": list(self.players), "colours": list(self.colours), "opening": list(self.opening),
                "moves": list(self.moves), "times": list(self.times), "winner": self.winner,
                "reason": self.reason, "forfeit": self.forfeit,
                **({"cpu": list(self.cpu), "waited": list(self.waited)} if self.cpu else {})}

    @classmethod
    def from_json(cls, data: object) -> GameRecord:
        """The record of a parsed JSON line; ValueError says what is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"a game record is a JSON object, not {type(data).__name__}")
        missing = [name for name in _FIELDS if name not in data]
        if missing:
            raise ValueError(f"a game record without {', '.join(missing)}")
        for name, kind in _FIELDS.items():
            if not isinstance(data[name], kind) or isinstance(data[name], bool):
                raise ValueError(f"{name!r} is {data[name]!r:.60}, of the wrong type")
        players, colours = tuple(data["players"]), tuple(data["colours"])
        if len(players) != 2 or not all(isinstance(name, str) for name in players):
            raise ValueError(f"'players' is {data['players']!r:.60}: expected two names")
        if len(colours) != 2 or not all(isinstance(name, str) for name in colours):
            raise ValueError(f"'colours' is {data['colours']!r:.60}: expected two colours")
        for name in ("winner", "forfeit"):
            if data[name] is not None and data[name] not in players:
                raise ValueError(f"{name!r} is {data[name]!r:.60}, not one of the players")
        for name in ("opening", "moves"):
            if not all(isinstance(col, int) and not isinstance(col, bool) for col in data[name]):
                raise ValueError(f"{name!r} holds something other than columns")
        if not all(isinstance(t, (int, float)) and not isinstance(t, bool) for t in data["times"]):
            raise ValueError("'times' holds something other than seconds")
        cpu = {name: _seconds_or_none(data, name) for name in _CPU_FIELDS}
        kind, _, detail = data["reason"].partition(": ")
        try:
            end = End(kind)
        except ValueError:
            raise ValueError(f"'reason' is {data['reason']!r:.60}: expected one of {', '.join(End)}") from None
        return cls(data["id"], data["columns"], data["rows"], data["c"], data["p"], players, colours,
                   tuple(data["opening"]), tuple(data["moves"]), tuple(float(t) for t in data["times"]),
                   data["winner"], end, detail, data["forfeit"], cpu["cpu"], cpu["waited"])


# the optional fields of the CPU a game's answers used (from clinea 45 on)
_CPU_FIELDS = ("cpu", "waited")


def _seconds_or_none(data: dict[str, Any], name: str) -> tuple[float | None, ...]:
    values = data.get(name, [])
    if not isinstance(values, list) or len(values) > len(data["times"]) or not all(
            value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)) for value in values):
        raise ValueError(f"{name!r} holds something other than seconds, one per move at most")
    return tuple(None if value is None else float(value) for value in values)
