"""A finished game as the results file keeps it: the typed record, and its
JSON form (one line per game), read back with every field checked so a
corrupt or foreign file is refused with the reason instead of misread."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

# the fields of a game line and the JSON types each must have
_FIELDS: dict[str, type | tuple[type, ...]] = {"id": str, "columns": int, "rows": int, "c": int, "p": int, "players": list, "colours": list,
           "opening": list, "moves": list, "times": list, "winner": (str, type(None)), "reason": str,
           "forfeit": (str, type(None))}


@dataclass(frozen=True)
class GameRecord:
    """One game of a run. `players` are (first to move from the empty
    board, second); `winner` and `forfeit` are player names or None;
    `reason` is "connect", "draw" or "KIND: detail" for a forfeit;
    `times[i]` is the thinking time of `moves[len(opening) + i]`."""
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
    reason: str
    forfeit: str | None

    @property
    def kind(self) -> str:
        """The reason without its details ("connect", "draw", "crash", ...)."""
        return self.reason.split(":", 1)[0]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

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
        return cls(data["id"], data["columns"], data["rows"], data["c"], data["p"], players, colours,
                   tuple(data["opening"]), tuple(data["moves"]), tuple(float(t) for t in data["times"]),
                   data["winner"], data["reason"], data["forfeit"])
