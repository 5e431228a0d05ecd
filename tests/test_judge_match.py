"""The judge's Match without its command line: what a run counts, keeps,
stops on and reports, played by a scripted runner (the process seats have
tests of their own)."""
from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Iterable

import pytest

from clinea.judge.match import Match
from clinea.judge.record import End, GameRecord
from clinea.judge.report import Standings
from clinea.judge.results import ResultLog, read_records
from clinea.judge.stats import Sprt
from clinea.judge.tournament import GameSpec


def spec(k: int, first: str = "a", second: str = "b") -> GameSpec:
    return GameSpec(f"{first}|{second}|{k}", first, second, ("azul", "rojo"))


def won_by_first(game: GameSpec) -> GameRecord:
    return GameRecord(game.id, 7, 6, 4, 21, (game.first, game.second), game.colours, (), (3, 4, 3, 4, 3, 4, 3),
                      (0.0,) * 7, game.first, End.CONNECT, "", None)


class ScriptedRunner:
    """Plays each spec as `play` says, until told to stop; `during(k)` runs
    before the k-th game (0-based)."""

    def __init__(self, play: Callable[[GameSpec], GameRecord] = won_by_first,
                 during: Callable[[int], None] = lambda k: None) -> None:
        self.stop = threading.Event()
        self.play = play
        self.during = during
        self.played: list[str] = []

    def run(self, specs: Iterable[GameSpec], on_record: Callable[[GameRecord], None]) -> None:
        for k, game in enumerate(specs):
            if self.stop.is_set():
                return
            self.during(k)
            self.played.append(game.id)
            on_record(self.play(game))


def test_every_game_is_kept_then_counted_and_shown(tmp_path):
    path = str(tmp_path / "run.jsonl")
    standings = Standings()
    match = Match(ScriptedRunner(), [spec(k) for k in range(5)], standings, ResultLog(path, standings.add),
                  header={"argv": ["--player", "a=x", "--player", "b=y"]})
    shown: list[str] = []
    match.hooks.append(lambda record: shown.append(record.id))
    end = match.play()
    assert end.decision is end.stopped is end.unwritable is None and not end.interrupted
    assert shown == [f"a|b|{k}" for k in range(5)]
    assert [record.id for record in read_records(path)] == shown
    assert standings.games == 5 and standings.tally("a", "b").wins == 5
    assert "a" in match.summary(["a", "b"], 5)


def test_a_resumed_match_plays_only_the_games_its_file_lacks(tmp_path):
    path = str(tmp_path / "run.jsonl")
    first = Standings()
    Match(ScriptedRunner(), [spec(k) for k in range(3)], first, ResultLog(path, first.add),
          header={"argv": []}).play()
    again = Standings()
    runner = ScriptedRunner()
    Match(runner, [spec(k) for k in range(6)], again, ResultLog(path, again.add)).play()
    assert runner.played == [f"a|b|{k}" for k in range(3, 6)]
    assert again.games == 6 and len(list(read_records(path))) == 6


def test_the_sprt_stops_the_match_at_its_decision():
    runner = ScriptedRunner()
    match = Match(runner, [spec(k) for k in range(1000)], Standings(), sprt=Sprt(0, 5, 0.05, 0.05),
                  pair=("a", "b"))
    end = match.play()
    assert end.decision is not None and end.decision.verdict == "H1"
    assert runner.stop.is_set() and 0 < len(runner.played) < 1000
    assert match.standings.games == len(runner.played)


def test_an_sprt_without_its_pair_is_refused():
    with pytest.raises(ValueError, match="pair"):
        Match(ScriptedRunner(), [], Standings(), sprt=Sprt())


def test_an_interrupt_counts_the_games_told_their_result_and_not_the_ones_it_killed():
    match: Match

    def play(game: GameSpec) -> GameRecord:
        record = won_by_first(game)
        if game.id.endswith("|3"):  # killed by the interrupt: a crash, no result
            return dataclasses.replace(record, winner="b", end=End.CRASH, detail="end of output", forfeit="a")
        return record

    runner = ScriptedRunner(play, during=lambda k: match.interrupt() if k == 3 else None)
    match = Match(runner, [spec(k) for k in range(10)], Standings())
    end = match.play()
    assert end.interrupted and runner.played == [f"a|b|{k}" for k in range(4)]
    assert match.standings.games == 3 and match.forfeits == 0


def test_a_results_file_that_cannot_be_written_stops_the_match_and_leaves_that_game_uncounted(tmp_path,
                                                                                              monkeypatch):
    path = str(tmp_path / "run.jsonl")
    standings = Standings()
    log = ResultLog(path, standings.add)
    writes = 0
    real_append = ResultLog.append

    def append(self: ResultLog, record: GameRecord) -> None:
        nonlocal writes
        writes += 1
        if writes == 3:
            raise OSError(28, "No space left on device")
        real_append(self, record)

    monkeypatch.setattr(ResultLog, "append", append)
    runner = ScriptedRunner()
    end = Match(runner, [spec(k) for k in range(10)], standings, log, header={"argv": []}).play()
    assert end.unwritable is not None and end.unwritable.errno == 28
    assert runner.played == [f"a|b|{k}" for k in range(3)]
    assert standings.games == 2 and len(list(read_records(path))) == 2
