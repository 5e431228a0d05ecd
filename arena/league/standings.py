"""A league's standings: every player's Elo with its 95 % interval (the
baselines anchored), its W/D/L, and the cross-table, as text and as the
HTML that heads the league's replay page."""
from __future__ import annotations

import html
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from clinea.arena.ratings import FitError, Rating, fit, pair_scores
from clinea.judge.record import GameRecord
from clinea.judge.report import Tally, points_of


@dataclass
class Row:
    """One player's line of the standings."""
    name: str
    kind: str                 # "baseline" or "bot"
    rating: Rating | None     # None: not placed yet (no game linking it to a baseline)
    rated: bool               # its rating games are all in
    tally: Tally = field(default_factory=Tally)
    forfeits: int = 0         # games it lost by a forfeit
    last_forfeit: str = ""    # the reason of the last one


@dataclass
class Standings:
    rows: list[Row]
    cross: dict[tuple[str, str], Tally]  # (row player, column player) -> the row player's W/D/L
    games: int
    note: str = ""
    distinct: int = 0  # games told apart by their players, colours, opening and moves: what the ratings count


def outcome(record: GameRecord, player: str) -> str:
    """"wins", "draws" or "losses": the count of `player`'s Tally the game adds to."""
    points = points_of(record, player)
    return "wins" if points == 1 else "losses" if points == 0 else "draws"


def standings(records: Iterable[GameRecord], baselines: Sequence[str], bots: Sequence[str],
              anchors: Mapping[str, float] | None, rated: Mapping[str, bool], prior_draws: float) -> Standings:
    """The standings of `baselines` and `bots` from the games among them
    (games of anyone else left out); `anchors` None while the baselines'
    ratings are still being measured."""
    present = set(baselines) | set(bots)
    cross: dict[tuple[str, str], Tally] = {}
    totals = {name: Tally() for name in present}
    results: list[tuple[str, str, float]] = []
    games = 0
    seen: set[tuple[Any, ...]] = set()
    forfeits: dict[str, list[str]] = {name: [] for name in present}
    for record in records:
        a, b = record.players
        if a not in present or b not in present:
            continue
        games += 1
        # deterministic bots play one game again and again: its copies are one game's evidence,
        # and counting them all would narrow the intervals as if they were independent
        same_game = (record.players, record.colours, record.opening, record.moves)
        if same_game not in seen:
            seen.add(same_game)
            results.append((a, b, points_of(record, a)))
        if record.forfeit in forfeits:
            forfeits[record.forfeit].append(f"{record.end}: {record.detail}" if record.detail else record.end)
        for me, other in ((a, b), (b, a)):
            kind = outcome(record, me)
            cross.setdefault((me, other), Tally()).add(kind)
            totals[me].add(kind)
    note = ""
    ratings: dict[str, Rating] = {}
    if anchors is None:
        note = "measuring the baselines' ratings (once, for this folder's life)"
    else:
        try:
            ratings = fit(pair_scores(results), {name: anchors[name] for name in baselines if name in anchors},
                          prior_draws)
        except FitError as error:
            note = f"no ratings: {error}"
    rows = [Row(name, "baseline", ratings.get(name), True, totals[name]) for name in baselines]
    rows += [Row(name, "bot", ratings.get(name), rated.get(name, False), totals[name]) for name in bots]
    for row in rows:
        lost = forfeits[row.name]
        row.forfeits, row.last_forfeit = len(lost), lost[-1] if lost else ""
    rows.sort(key=lambda row: (row.rating is None, -(row.rating.elo if row.rating else 0.0), row.name))
    return Standings(rows, cross, games, note, len(seen))


def elo_text(rating: Rating | None) -> tuple[str, str]:
    """(the Elo, its interval) as printed."""
    if rating is None:
        return "-", ""
    if rating.anchored:
        return f"{rating.elo:+.0f}", "anchor"
    return f"{rating.elo:+.0f}", f"[{rating.low:+.0f}, {rating.high:+.0f}]"


def status(row: Row) -> str:
    if row.forfeits and row.forfeits == row.tally.games:
        return f"forfeits every game ({row.last_forfeit})"
    state = "baseline" if row.kind == "baseline" else "rated" if row.rated else "rating..."
    return f"{state}, {row.forfeits} forfeits (last: {row.last_forfeit})" if row.forfeits else state


def wdl(tally: Tally | None) -> str:
    return "" if tally is None or not tally.games else f"{tally.wins}-{tally.draws}-{tally.losses}"


def games_line(table: Standings) -> str:
    """The games played, and how many of them are distinct (the ratings count those)."""
    line = f"{table.games} games"
    if table.distinct < table.games:
        line += f" ({table.distinct} distinct: the ratings count a game repeated move for move once)"
    return line + (f"; {table.note}" if table.note else "")


def text(table: Standings, title: str) -> str:
    """The standings as plain text: the ranking, then the cross-table."""
    lines = [title, games_line(table), ""]
    header = ["#", "player", "Elo", "95 %", "games", "W-D-L", "score", "status"]
    body = []
    for rank, row in enumerate(table.rows, 1):
        elo, interval = elo_text(row.rating)
        score = f"{100 * row.tally.points / row.tally.games:.0f} %" if row.tally.games else "-"
        body.append([str(rank), row.name, elo, interval, str(row.tally.games), wdl(row.tally) or "-", score,
                     status(row)])
    lines += aligned([header, *body])
    names = [row.name for row in table.rows]
    lines += ["", "cross-table: W-D-L of the row's player against the column's", ""]
    lines += aligned([["", *names], *([name, *(wdl(table.cross.get((name, other))) or ("x" if name == other else "-")
                                               for other in names)] for name in names)])
    return "\n".join(lines) + "\n"


def aligned(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]


def html_section(table: Standings, title: str) -> str:
    """The standings as an HTML section (static: the page's policy lets no other script run)."""
    esc = html.escape
    out = [f'<section class="card standings"><h2>{esc(title)}</h2>',
           f"<p>{esc(games_line(table))}</p>",
           '<table id="standings"><thead><tr><th class="num">#</th><th>player</th><th class="num">Elo</th>'
           '<th>95 % interval</th><th class="num">games</th><th>W-D-L</th><th>status</th></tr></thead><tbody>']
    for rank, row in enumerate(table.rows, 1):
        elo, interval = elo_text(row.rating)
        out.append(f'<tr data-player="{esc(row.name)}" data-status="{esc(status(row))}"><td class="num">{rank}</td>'
                   f"<td>{esc(row.name)}</td><td class=\"num\">{esc(elo)}</td><td>{esc(interval)}</td>"
                   f'<td class="num">{row.tally.games}</td><td>{esc(wdl(row.tally) or "-")}</td>'
                   f"<td>{esc(status(row))}</td></tr>")
    out.append("</tbody></table>")
    names = [row.name for row in table.rows]
    out.append('<table id="cross-table"><caption>W-D-L of the row\'s player against the column\'s</caption>'
               "<thead><tr><th></th>" + "".join(f"<th>{esc(name)}</th>" for name in names) + "</tr></thead><tbody>")
    for name in names:
        cells = "".join(f"<td>{esc(wdl(table.cross.get((name, other))) or ('x' if name == other else '-'))}</td>"
                        for other in names)
        out.append(f"<tr><th>{esc(name)}</th>{cells}</tr>")
    out.append("</tbody></table></section>")
    return "\n".join(out)


def finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def json_rows(table: Standings) -> list[dict[str, Any]]:
    """The standings as JSON-ready data (standings.json: for scripts and tests)."""
    return [{"name": row.name, "kind": row.kind, "rated": row.rated, "games": row.tally.games,
             "wins": row.tally.wins, "draws": row.tally.draws, "losses": row.tally.losses,
             "elo": finite(row.rating.elo) if row.rating else None,
             "low": finite(row.rating.low) if row.rating else None,
             "high": finite(row.rating.high) if row.rating else None} for row in table.rows]
