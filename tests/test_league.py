"""`clinea league DIR` end to end, with real processes: a bot dropped into
the folder gets rated against the baselines, removing it stops its games,
and a league killed with SIGKILL resumes with no game lost or played twice.
Tiny board and budgets keep it to tens of seconds."""
import json
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

from clinea.arena.league.folder import LeagueError, read_settings
from clinea.arena.league.schedule import LeagueSchedule, pairing_of
from clinea.judge.results import ResultLog

# 5x4, three in a row: games of a few plies; cheap baselines at two depths
CONFIG = """
[game]
columns = 5
rows = 4
c = 3
p = 10
time_per_move = 5.0

[league]
concurrency = 2
poll = 0.2
calibration_games = 2
rating_games = 2
max_games = 1000
refresh = 0.5
solve_time = 0.01
replays = 50

[baselines]
random = "random --seed 1"
greedy = "greedy"
evaluator-1 = "evaluator --depth 1"
evaluator-2 = "evaluator --depth 2"
strong = "strong --time-per-move 0.01"

[players]
ev3 = "evaluator --depth 3"
"""

# a dropped-in bot: wins when it can, else the leftmost legal column, slowly
# enough that removing it catches it in the middle of a game
BOT = """from clinea.players import run
import time

def choose(board):
    time.sleep(0.02)
    for col in board.legal_columns():
        if board.is_winning_move(col):
            return col
    return board.legal_columns()[0]

if __name__ == "__main__":
    raise SystemExit(run(choose))
"""

WAIT = 240  # a bound on every wait, so a broken league fails instead of hanging the suite


def start(folder):
    return subprocess.Popen([sys.executable, "-m", "clinea", "league", str(folder)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def standings(folder):
    try:
        with open(folder / "standings.json") as file:
            return json.load(file)
    except (OSError, ValueError):  # not written yet
        return None


def wait_for(check, league, what):
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        assert league.poll() is None, f"the league exited while waiting for {what}: {league.communicate()[1]}"
        time.sleep(0.2)
    league.kill()
    pytest.fail(f"no {what} in {WAIT} s: {league.communicate()[1]}")


def lines(folder):
    """The results file's game lines, as written (a torn last line left out)."""
    with open(folder / ".league" / "results.jsonl", "rb") as file:
        return [line for line in file.read().split(b"\n")[1:] if line]


def ids(raw_lines):
    return [json.loads(line)["id"] for line in raw_lines]


def player_row(folder, name):
    table = standings(folder)
    return next((row for row in table["players"] if row["name"] == name), None) if table else None


@pytest.fixture
def folder(tmp_path):
    """A league folder with the tiny settings, no bot in it yet."""
    folder = tmp_path / "league"
    folder.mkdir()
    (folder / "league.toml").write_text(CONFIG)
    return folder


def test_a_dropped_bot_is_rated_removed_and_the_league_survives_sigkill(folder):
    league = start(folder)
    try:
        wait_for(lambda: (standings(folder) or {}).get("anchored"), league, "anchored baselines")
        anchors = json.loads((folder / ".league" / "anchors.json").read_text())
        assert set(anchors) == {"random", "greedy", "evaluator-1", "evaluator-2", "strong"}
        assert anchors["random"] == 0.0

        (folder / "mybot.py").write_text(BOT)
        row = wait_for(lambda: (lambda r: r if r and r["rated"] else None)(player_row(folder, "mybot")),
                       league, "rating of mybot")
        assert row["elo"] is not None and row["low"] < row["elo"] < row["high"]
        assert row["games"] >= 5 * 2
        text = (folder / "standings.txt").read_text()
        assert "mybot" in text and "cross-table" in text and "anchor" in text
        # the page follows (it is valued in a thread of its own)
        page = wait_for(lambda: (lambda page: page if 'data-player="mybot" data-status="rated"' in page else None)(
            (folder / "standings.html").read_text()), league, "mybot rated on the page")
        assert 'http-equiv="refresh"' in page and 'id="cross-table"' in page
        shown = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)[1])
        assert 0 < len(shown["games"]) <= 50  # the latest `replays` games

        (folder / "mybot.py").unlink()
        wait_for(lambda: player_row(folder, "mybot") is None, league, "mybot leaving the standings")
        mine_at_removal = sum("mybot" in json.loads(line)["players"] for line in lines(folder))
        before = len(lines(folder))
        wait_for(lambda: len(lines(folder)) >= before + 6, league, "more games without mybot")
        recorded = [json.loads(line) for line in lines(folder)]
        assert sum("mybot" in record["players"] for record in recorded) == mine_at_removal
        # its game in flight when it left was stopped, not written as its crash
        assert not [r for r in recorded if r["forfeit"] == "mybot"]

        league.send_signal(signal.SIGKILL)
        league.wait(timeout=30)
        kept = lines(folder)
        # as if killed between the last calibration game and writing the anchors down
        (folder / ".league" / "anchors.json").unlink()
        league = start(folder)
        wait_for(lambda: len(lines(folder)) >= len(kept) + 6, league, "games after the restart")
        # a registered player leaves when league.toml no longer names it
        (folder / "league.toml").write_text(CONFIG.replace('ev3 = "evaluator --depth 3"', ""))
        wait_for(lambda: player_row(folder, "ev3") is None, league, "ev3 leaving the standings")
        league.send_signal(signal.SIGTERM)
        assert league.wait(timeout=60) == 0, league.communicate()[1]
        assert json.loads((folder / ".league" / "anchors.json").read_text()) == anchors  # the same games, the same fit
    finally:
        if league.poll() is None:
            league.kill()
            league.wait()
    after = lines(folder)
    # no game lost: the file before the kill is the start of the file after
    # it (a torn last line excepted); none played twice
    whole = [line for line in kept if line.endswith(b"}")]
    assert after[:len(whole)] == whole
    assert len(set(ids(after))) == len(after)
    # every line the judge's sealed reader accepts
    log = ResultLog(str(folder / ".league" / "results.jsonl"))
    log.close()
    assert not log.refused and len(log.done) == len(after)


def test_the_schedule_rates_new_bots_first_and_never_reuses_an_id():
    schedule = LeagueSchedule(["a", "b", "c"], calibration_games=2, rating_games=1, max_games=3)
    calibration = [schedule.next(calibrated=False) for _ in range(6)]
    assert {tuple(sorted((s.first, s.second))) for s in calibration} == {("a", "b"), ("a", "c"), ("b", "c")}
    assert schedule.next(calibrated=False) is None
    for spec in calibration:
        schedule.finished(spec.id)
    assert schedule.calibrated()
    schedule.bots = ["x", "y"]
    first = [schedule.next(calibrated=True) for _ in range(6)]
    assert all("a" in (s.first, s.second) or "b" in (s.first, s.second) or "c" in (s.first, s.second) for s in first)
    assert {frozenset((s.first, s.second)) for s in first} == {frozenset(p) for p in
                                                                 (("x", "a"), ("x", "b"), ("x", "c"),
                                                                  ("y", "a"), ("y", "b"), ("y", "c"))}
    schedule.dropped(first[0].id)
    again = schedule.next(calibrated=True)
    assert again.id == first[0].id  # a stopped game's id is played again, not skipped
    rest = []
    while (spec := schedule.next(calibrated=True)) is not None:
        rest.append(spec)
    every = [s.id for s in calibration + first[1:] + [again] + rest]
    assert len(every) == len(set(every))
    assert all(pairing_of(game_id)[2] < 3 for game_id in every)


def test_settings_name_the_bad_value_and_the_allowed_range(tmp_path):
    (tmp_path / "league.toml").write_text("[game]\ncolumns = 0\n")
    with pytest.raises(LeagueError, match=r"columns 0 is out of range: allowed 1\.\.128"):
        read_settings(str(tmp_path))
    (tmp_path / "league.toml").write_text("[league]\nspeed = 3\n")
    with pytest.raises(LeagueError, match="'speed' is unknown"):
        read_settings(str(tmp_path))
    (tmp_path / "league.toml").write_text('[players]\nx = "no-such-player"\n')
    with pytest.raises(LeagueError, match="expected a registered player"):
        read_settings(str(tmp_path))


def test_a_league_refuses_a_folder_played_under_other_settings(folder):
    league = start(folder)
    try:
        wait_for(lambda: (folder / ".league" / "results.jsonl").exists() and lines(folder), league, "a game")
    finally:
        league.send_signal(signal.SIGTERM)
        league.wait(timeout=60)
    (folder / "league.toml").write_text(CONFIG.replace("columns = 5", "columns = 6"))
    done = subprocess.run([sys.executable, "-m", "clinea", "league", str(folder)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert "board: [5, 4, 3, 10] before, [6, 4, 3, 10] now" in done.stderr


def test_help_has_an_example():
    done = subprocess.run([sys.executable, "-m", "clinea", "league", "--help"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and "examples:" in done.stdout and "clinea league" in done.stdout


def test_the_example_config_is_a_valid_config(tmp_path):
    done = subprocess.run([sys.executable, "-m", "clinea", "league", "--example-config"], capture_output=True,
                          text=True, timeout=60)
    (tmp_path / "league.toml").write_text(done.stdout)
    assert read_settings(str(tmp_path)).columns == 7
    shutil.rmtree(tmp_path)


def game(k: int, first: str, second: str, moves: tuple[int, ...], winner: str | None, forfeit: str | None = None,
         detail: str = ""):
    from clinea.judge.record import GameRecord
    end = "crash" if forfeit else "connect" if winner else "draw"
    return GameRecord(f"{first}|{second}|{k}", 7, 6, 4, 21, (first, second), ("azul", "rojo"), (), moves,
                      tuple(0.0 for _ in moves), winner, end, detail, forfeit)


ANCHORS = {"random": 0.0, "greedy": 400.0}


def mybot_row(records):
    from clinea.arena.league.standings import standings
    table = standings(records, ["random", "greedy"], ["mybot"], ANCHORS, {"mybot": True}, 1.0)
    return next(row for row in table.rows if row.name == "mybot"), table


def test_a_game_replayed_by_deterministic_bots_counts_once_in_the_ratings():
    """Two deterministic bots play the same game every time: a hundred
    copies are one game's evidence, so the interval does not narrow."""
    distinct = [game(0, "mybot", "random", (3, 0, 3, 0, 3, 0, 3), "mybot"),
                game(1, "random", "mybot", (0, 3, 0, 3, 1, 3, 1, 3), "mybot"),
                game(2, "greedy", "mybot", (3, 0, 3, 0, 3, 0, 3), "greedy"),
                game(3, "mybot", "greedy", (0, 3, 0, 3, 1, 3, 1, 3), "greedy")]
    once, _ = mybot_row(distinct)
    repeated, table = mybot_row([g for _ in range(100) for g in distinct])
    assert (repeated.rating.low, repeated.rating.high) == pytest.approx((once.rating.low, once.rating.high))
    assert repeated.tally.games == 400  # the W-D-L still counts every game played
    from clinea.arena.league.standings import text
    assert "4 distinct" in text(table, "league")


def test_a_bot_that_forfeits_every_game_says_so_in_the_standings():
    from clinea.arena.league.standings import status, text
    lost = [game(k, "mybot", "random", (3,), "random", forfeit="mybot",
                 detail="cannot start 'mybot.py': Exec format error") for k in range(6)]
    row, table = mybot_row(lost)
    assert "forfeit" in status(row) and "Exec format error" in status(row)
    assert "forfeit" in text(table, "league")
