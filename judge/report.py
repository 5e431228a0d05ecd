"""The end-of-run summary, computed from the game records alone (so a resumed
run reports on every game of the log): per player W/L/D by colour and by
move order, forfeits by reason, time per move; Elo with its interval and LOS
for a match; a cross-table and a ranking for a tournament."""
from __future__ import annotations

import collections
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from clinea.judge.record import GameRecord
from clinea.judge.stats import (
    PAIR_SCORES,
    Estimate,
    NormalisedElo,
    Sprt,
    SprtDecision,
    estimate,
    pair_bin,
    pentanomial_estimate,
)
from clinea.protocol import COLOURS


@dataclass
class Tally:
    wins: int = 0
    losses: int = 0
    draws: int = 0

    def add(self, outcome: str) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    def __str__(self) -> str:
        return f"+{self.wins} -{self.losses} ={self.draws}"


@dataclass
class MoveTimes:
    """Thinking times, streamed: count, sum and maximum."""
    count: int = 0
    total: float = 0.0
    longest: float = 0.0

    def add(self, seconds: Sequence[float]) -> None:
        """Adds a game's times of one player (a move's cost here was most
        of the judge's Python per game once the moves were relayed in C)."""
        if seconds:
            self.count += len(seconds)
            self.total += sum(seconds)
            self.longest = max(self.longest, max(seconds))


@dataclass
class PlayerStats:
    total: Tally = field(default_factory=Tally)
    by_colour: dict[str, Tally] = field(default_factory=lambda: collections.defaultdict(Tally))
    by_order: dict[str, Tally] = field(default_factory=lambda: collections.defaultdict(Tally))
    forfeits: collections.Counter[str] = field(default_factory=collections.Counter)
    # the full reason of the last forfeit of each kind: the summary says why
    forfeit_reasons: dict[str, str] = field(default_factory=dict)
    times: MoveTimes = field(default_factory=MoveTimes)
    # the CPU its processes used for its answers, and while it waited for
    # its opponent's (the moves whose CPU was measured)
    cpu: MoveTimes = field(default_factory=MoveTimes)
    waited: MoveTimes = field(default_factory=MoveTimes)
    against: dict[str, Tally] = field(default_factory=lambda: collections.defaultdict(Tally))


def pair_key(game_id: str) -> str | None:
    """The pair a game belongs to when games are paired: the schedules
    number a pairing's games k = 0, 1, ... at the end of the id, and games
    2j and 2j+1 share an opening with the colours swapped."""
    head, bar, number = game_id.rpartition("|")
    if not number.isdigit():
        return None
    return f"{head}{bar}{int(number) // 2}"


class Standings:
    """The statistics of a run, added to game by game: memory does not grow
    with the number of games (a paired game waits for its partner, so the
    games in flight and those a stop left alone are held)."""

    def __init__(self, paired: bool = False):
        self.games = 0
        self.players: dict[str, PlayerStats] = collections.defaultdict(PlayerStats)
        self.paired = paired
        # (player, opponent) with player < opponent -> pentanomial counts for player
        self.pairs: dict[tuple[str, str], list[int]] = {}
        self.waiting: dict[str, GameRecord] = {}

    def add(self, rec: GameRecord) -> None:
        self.games += 1
        if self.paired:
            self.add_to_pair(rec)
        for index, name in enumerate(rec.players):
            stats = self.players[name]
            if rec.winner is None:
                outcome = "draws"
            else:
                outcome = "wins" if rec.winner == name else "losses"
            stats.total.add(outcome)
            stats.by_colour[rec.colours[index]].add(outcome)
            stats.by_order["first" if index == 0 else "second"].add(outcome)
            stats.against[rec.players[1 - index]].add(outcome)
            if rec.forfeit == name:
                stats.forfeits[rec.end] += 1
                stats.forfeit_reasons[rec.end] = rec.reason
            # times[i] belongs to ply len(opening) + i; the first player owns the even plies
            own = slice((index - len(rec.opening)) % 2, None, 2)
            stats.times.add(rec.times[own])
            if rec.cpu:
                stats.cpu.add([t for t in rec.cpu[own] if t is not None])
                stats.waited.add([t for t in rec.waited[own] if t is not None])

    def add_to_pair(self, rec: GameRecord) -> None:
        """Counts a pair once both its games are in: same opening, the
        players' order swapped; only complete pairs count (an interrupted run's last
        games, or a game whose partner never came, stay out)."""
        key = pair_key(rec.id)
        if key is None:
            return
        partner = self.waiting.pop(key, None)
        if partner is None:
            self.waiting[key] = rec
            return
        if partner.players != tuple(reversed(rec.players)) or partner.opening != rec.opening:
            return
        player, opponent = sorted(rec.players)
        counts = self.pairs.setdefault((player, opponent), [0] * len(PAIR_SCORES))
        counts[pair_bin(points_of(partner, player), points_of(rec, player))] += 1

    def pentanomial(self, player: str, opponent: str) -> tuple[int, ...]:
        """Counts of `player`'s pairs against `opponent` scoring 0, 1/2, 1,
        3/2 and 2 points."""
        first, second = sorted((player, opponent))
        counts = self.pairs.get((first, second), [0] * len(PAIR_SCORES))
        return tuple(counts) if player < opponent else tuple(reversed(counts))

    def tally(self, player: str, opponent: str) -> Tally:
        return self.players[player].against[opponent]


def points_of(rec: GameRecord, player: str) -> float:
    """The points `player` got from the game."""
    return 0.5 if rec.winner is None else float(rec.winner == player)


def collect(records: Iterable[GameRecord], paired: bool = False) -> Standings:
    standings = Standings(paired)
    for rec in records:
        standings.add(rec)
    return standings


def format_elo(est: Estimate) -> str:
    def show(x: float) -> str:
        return f"{x:+.0f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")
    los = "n/a" if est.los is None else f"{100 * est.los:.1f} %"
    return f"Elo {show(est.elo)} [{show(est.low)}, {show(est.high)}] (95 %), LOS {los}"


def player_lines(name: str, stats: PlayerStats) -> list[str]:
    lines = [f"{name}: {stats.total} ({stats.total.points:g}/{stats.total.games})"]  # name: as shown
    lines.append("  by colour: " + ", ".join(f"{c} {stats.by_colour[c]}" for c in sorted(stats.by_colour)))
    lines.append("  by order : " + ", ".join(f"{o} {stats.by_order[o]}" for o in ("first", "second") if o in stats.by_order))
    if stats.forfeits:
        lines.append("  forfeits : " + ", ".join(f"{kind} {n}" for kind, n in stats.forfeits.most_common()))
        for kind, _ in stats.forfeits.most_common():
            lines.append(f"    last {kind}: {quote_reason(stats.forfeit_reasons[kind])}")
    if stats.times.count:
        mean = stats.times.total / stats.times.count
        lines.append(f"  time/move: mean {1000 * mean:.1f} ms, max {1000 * stats.times.longest:.1f} ms")
    if stats.cpu.count:
        mean = stats.cpu.total / stats.cpu.count
        lines.append(f"  cpu/move : mean {1000 * mean:.1f} ms, max {1000 * stats.cpu.longest:.1f} ms "
                     "(all its processes)")
    if stats.waited.total > max(WAITED_NOTICE, WAITED_SHARE * stats.cpu.total):
        lines.append(f"  used {stats.waited.total:.3f} s of CPU while its opponent thought ({stats.waited.count} "
                     f"moves): it pondered (--ponder), or its processes ran while they should have been stopped")
    return lines


# A player is named for the CPU it used while its opponent thought past
# this many seconds and this share of the CPU of its own answers: with
# ponder off a seat uses none but in the millisecond before its stop
# (clinea.core.relay's STOP_AFTER), where only many processes add up.
WAITED_NOTICE = 0.05
WAITED_SHARE = 0.05


def quote_reason(reason: str, limit: int = 300) -> str:
    """A forfeit's reason on one line of bounded length."""
    flat = " ".join(reason.split())
    return flat if len(flat) <= limit else flat[:limit] + "..."


def seat_labels(commands: Mapping[str, Sequence[str] | None]) -> dict[str, str]:
    """How the course match's seats, named by colour in its results and
    logs (`azul`, `rojo`), are shown: the program's name with the colour
    beside it (`./mybot.py` -> `mybot (azul)`, a registered `strong` ->
    `strong (rojo)`). Players with names of their own keep them."""
    def program(command: Sequence[str] | None) -> str:
        if command is None:
            return "human"
        if list(command[1:3]) == ["-m", "clinea.players"] and len(command) > 3:
            return command[3]
        return os.path.splitext(os.path.basename(command[0]))[0]
    return {name: f"{program(command)} ({name})" for name, command in commands.items() if name in COLOURS}


def summary(standings: Standings, names: Sequence[str], games_per_pairing: int | None = None,
            sprt: Sprt | None = None, decision: SprtDecision | None = None,
            labels: Mapping[str, str] | None = None) -> str:
    """The text printed at the end of a run. An SPRT `decision` stands as
    taken: games that were still being played then count in the tallies,
    and are reported apart, but do not undo it. `labels`: how a player is
    shown, where its name is not the program's (the course's match names
    its seats by colour: `mybot (azul)`)."""
    players = standings.players
    shown = dict(labels or {})
    lines = [f"{standings.games} games"]
    for name in names:
        lines.extend(player_lines(shown.get(name, name), players[name]))
    if len(names) == 2:
        a, b = names
        tally = players[a].against[b]
        est = estimate(tally.wins, tally.losses, tally.draws)
        if est:
            lines.append(f"{shown.get(a, a)} vs {shown.get(b, b)}: {tally}, {format_elo(est)}")
        if standings.paired:
            lines.append(pentanomial_line(shown.get(a, a), standings.pentanomial(a, b)))
        if sprt is not None:
            lines.append(sprt_line(sprt, tally, standings.pentanomial(a, b), decision, standings.games))
    else:
        lines.extend(cross_table(players, names, games_per_pairing))
    return "\n".join(lines)


def pentanomial_line(player: str, counts: tuple[int, ...]) -> str:
    """The pairs' counts (fastchess's Ptnml(0-2)) with the normalised Elo."""
    line = f"{player} pairs: {sum(counts)}, pentanomial (0-2) [{', '.join(map(str, counts))}]"
    est = pentanomial_estimate(counts)
    return line + (f", {format_nelo(est)}" if est else "")


def format_nelo(est: NormalisedElo) -> str:
    if not math.isfinite(est.margin):  # every pair scored alike
        shown = f"{est.nelo:+.2f}" if math.isfinite(est.nelo) else ("+inf" if est.nelo > 0 else "-inf")
        return f"nElo {shown} (no spread)"
    return f"nElo {est.nelo:+.2f} +/- {est.margin:.2f} (95 %)"


def sprt_line(sprt: Sprt, tally: Tally, pairs: tuple[int, ...], decision: SprtDecision | None, games: int) -> str:
    if sprt.model == "pentanomial":
        head = (f"SPRT pentanomial nelo0={sprt.elo0:g} nelo1={sprt.elo1:g} alpha={sprt.alpha:g} "
                f"beta={sprt.beta:g}: ")
        now = sprt.pairs_llr(pairs)
    else:
        head = f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} beta={sprt.beta:g}: "
        now = sprt.llr(tally.wins, tally.losses, tally.draws)
    bounds = f"in [{sprt.lower:.3f}, {sprt.upper:.3f}]"
    if decision is None:
        return head + f"LLR {now:.3f} {bounds} -> undecided"
    taken_on = (f"{sum(decision.pairs)} pairs [{', '.join(map(str, decision.pairs))}]" if decision.pairs is not None
                else f"+{decision.wins} -{decision.losses} ={decision.draws}")
    line = head + f"LLR {decision.llr:.3f} {bounds} -> {decision.verdict} accepted after {decision.games} games ({taken_on})"
    if games > decision.games:
        line += f"; {games - decision.games} more game(s) were in flight then: in the tallies, not in the test"
    return line


def cross_table(players: dict[str, PlayerStats], names: Sequence[str], games: int | None) -> list[str]:
    lines = []
    if games:
        lines.append(f"each pairing plays {games} = {games // 2} x 2 games, alternating colours and first move")
    width = max(len(n) for n in names) + 2
    lines.append(" " * width + "".join(n[:10].rjust(12) for n in names) + "   points")
    for name in names:
        cells = []
        for other in names:
            t = players[name].against.get(other)
            cells.append("-".rjust(12) if other == name or t is None else f"{t.points:g}/{t.games}".rjust(12))
        lines.append(name.ljust(width) + "".join(cells) + f"   {players[name].total.points:g}")
    lines.append("ranking (Elo against the field, 95 % interval):")
    ranked = sorted(names, key=lambda n: -players[n].total.points / max(1, players[n].total.games))
    for place, name in enumerate(ranked, 1):
        t = players[name].total
        est = estimate(t.wins, t.losses, t.draws)
        lines.append(f"  {place}. {name}: {t}" + (f", {format_elo(est)}" if est else ""))
    return lines
