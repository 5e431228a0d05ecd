"""A registered player under a referee's per-answer limit: told to think
within it unless its command line says otherwise (clinea judge
--time-per-move 0.1 --player a=strong used to forfeit every game thought
past the opening: strong thinks 1 s by default)."""
import json

import pytest
from judge_helpers import run_judge

from clinea.players import registry

THINKING = [name for name in ("strong", "alphabeta", "minimax") if name in registry.players()]


def told(words, seconds):
    command = registry.registered_command(words, seconds)
    return command[command.index("clinea.players") + 1:]


@pytest.mark.parametrize("name", THINKING)
def test_a_short_limit_is_passed_on_within_its_share(name):
    words = told([name], 0.1)
    assert words[:1] == [name] and words[1] == "--time-per-move"
    assert 0 < float(words[2]) <= registry.ANSWER_SHARE * 0.1 + 1e-9


@pytest.mark.parametrize("given", [["--time-per-move", "0.5"], ["--time-per-move=0.5"], ["time-per-move=0.5"],
                                   ["--time", "0.5"]])
def test_the_players_own_time_is_kept(given):
    assert told(["strong", *given], 0.1) == ["strong", *given]


def test_a_limit_above_the_players_default_changes_nothing():
    assert told(["strong"], 30.0) == ["strong"]
    assert told(["strong"], None) == ["strong"]
    assert told(["random"], 0.1) == ["random"]  # it has no time to be told


def test_a_tiny_limit_stays_in_the_players_range():
    assert float(told(["alphabeta"], 0.001)[2]) >= registry.MIN_BUDGET


def test_the_judges_short_limit_forfeits_no_game_of_a_thinking_player(tmp_path):
    # 8x7 has no book: strong thinks on every move, as on every board but 7x6
    results = tmp_path / "r.jsonl"
    run = run_judge(["--columns", "8", "--rows", "7", "--time-per-move", "0.15", "--player", "a=strong",
                     "--player", "b=alphabeta", "--iterations", "2", "--results", str(results)], timeout=300)
    games = [r for r in map(json.loads, results.read_text().splitlines()) if r.get("type") != "run"]
    assert len(games) == 2, run.stderr
    assert [g["forfeit"] for g in games] == [None, None], [g["reason"] for g in games]
