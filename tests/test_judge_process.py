"""End to end with real player processes: every hostile bot loses with the
right reason, its process group is gone, it is restarted for the next game,
the honest opponent is told it won and never sees an illegal move."""
import pytest
from judge_helpers import bot, live_members, records, replay_transcript, started_pids, transcript

from clinea.judge.cli import EXIT_FORFEIT, main
from clinea.judge.player_process import STDERR_LOG_LIMIT

CASES = [
    # bot, its arguments, size, extra judge options, expected reason prefix
    ("crash.py", [], (7, 6, 4), [], "crash: end of output, exit status 3 (crash.py: crashing on purpose)"),
    ("hang.py", [], (7, 6, 4), ["--time-per-move", "0.3"], "timeout: no answer within 0.350 s"),
    ("sleepy.py", ["5"], (7, 6, 4), ["--time-per-move", "0.2"], "timeout: no answer within 0.250 s"),
    ("garbage.py", ["tres"], (7, 6, 4), [], "garbage: got 'tres', expected a column (an integer)"),
    ("garbage.py", ["3.0"], (7, 6, 4), [], "garbage: got '3.0', expected a column (an integer)"),
    ("garbage.py", [""], (7, 6, 4), [], "garbage: got '', expected a column (an integer), not an empty line"),
    ("full_column.py", [], (3, 2, 3), [], "illegal move: column 0 is full"),
    ("out_of_range.py", [], (7, 6, 4), [], "illegal move: column 7 out of range 0..6"),
    ("extra_lines.py", [], (7, 6, 4), [], "garbage: unexpected output"),
]


def play(tmp_path, blue, red, size, extra, games):
    results, log_dir = tmp_path / "results.jsonl", tmp_path / "log"
    columns, rows, c = size
    argv = ["--blue_player", *blue, "--red_player", *red, "--columns", str(columns), "--rows", str(rows),
            "--c", str(c), "--iterations", str(games), "--seed", "7", "--quiet",
            "--results", str(results), "--log-dir", str(log_dir), *extra]
    status = main(argv)
    games = records(results)
    # as the course judge: a bad move makes the run's exit status non-zero
    assert status == (EXIT_FORFEIT if any(game["forfeit"] for game in games) else 0)
    return games, log_dir


@pytest.mark.parametrize("name,args,size,extra,reason", CASES, ids=[f"{c[0]}{c[1]}" for c in CASES])
def test_a_hostile_bot_forfeits_and_the_match_goes_on(tmp_path, name, args, size, extra, reason):
    games, log_dir = play(tmp_path, bot(name, *args), bot("random_bot.py"), size, extra, games=2)
    assert len(games) == 2
    for game in games:
        assert (game["forfeit"], game["winner"]) == ("azul", "rojo")
        assert game["reason"].startswith(reason), game["reason"]
    # a fresh process for each game of the offender, one process for the honest player
    assert len(started_pids(log_dir)) == 3
    honest = transcript(log_dir, "rojo")
    assert sum(line.startswith("# started pid") for line in honest) == 1
    assert honest.count("> ganaste") == 2
    assert replay_transcript(honest, *size, 21) == 2
    assert live_members(started_pids(log_dir)) == []


def test_a_bot_flooding_stderr_is_neither_blocked_nor_forfeited_and_its_log_is_capped(tmp_path):
    games, log_dir = play(tmp_path, bot("flood_stderr.py"), bot("random_bot.py"), (7, 6, 4), [], games=3)
    assert [g["reason"] for g in games if g["reason"] not in ("connect", "draw")] == []
    flood = transcript(log_dir, "azul")
    # 64 kB of 1 kB lines per game are kept, and the rest is counted, not written
    assert sum(line.startswith("! xxx") for line in flood) == 3 * STDERR_LOG_LIMIT // 1024
    assert sum(line.endswith("more bytes of stderr not logged]") for line in flood) == 3
    assert replay_transcript(flood, 7, 6, 4, 21) == 3
    assert live_members(started_pids(log_dir)) == []


def test_output_after_the_result_forfeits_the_next_game_and_spares_the_opponent(tmp_path):
    # chatty's stray line is found either as the next game starts (after the
    # opponent was told `vos` and sent its first move) or in place of its first
    # answer: a garbage forfeit of the next game in both cases, then a restart
    games, log_dir = play(tmp_path, bot("random_bot.py"), bot("chatty.py"), (7, 6, 4), ["--first", "azul"], games=6)
    for index, game in enumerate(games):
        if index % 2 == 0:
            assert game["reason"] in ("connect", "draw")
        else:
            assert (game["forfeit"], game["winner"]) == ("rojo", "azul")
            assert game["reason"].startswith("garbage: ") and "gg (" in game["reason"]
    honest = transcript(log_dir, "azul")
    assert sum(line.startswith("# started pid") for line in honest) == 1
    assert replay_transcript(honest, 7, 6, 4, 21) == 6
    assert live_members(started_pids(log_dir)) == []


def test_the_orphans_a_sweep_takes_are_those_of_no_seat_still_playing():
    # Orphans land on the judge (a subreaper). One carrying the mark of a
    # seat still playing is that seat's (a bot's own daemon); one with no
    # mark at all, a bot's that dropped its environment, is nobody's.
    import os
    import subprocess
    import sys
    import time

    from clinea.judge import reaper

    assert reaper.become_subreaper()
    since = reaper.start_time()

    def children():
        return {pid for pid, ppid, *_ in reaper._processes() if ppid == os.getpid()}

    others = frozenset(children())  # this test process's own, if any (an in-process judge's watchdog)
    live_mark = f"{reaper.MARK}=still-playing"
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)"]

    def orphan(environment):
        # the middle process exits at once: its child is re-parented here
        middle = subprocess.Popen([sys.executable, "-c", f"import subprocess; subprocess.Popen({sleeper!r}, "
                                   f"env={environment!r}, start_new_session=True)"], env={})
        middle.wait()

    orphan({reaper.MARK: "still-playing"})
    orphan({})
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        adopted = children() - others
        if len(adopted) >= 2:
            break
        time.sleep(0.02)
    try:
        kept = {pid for pid in adopted if live_mark.encode() in reaper._environment(pid)}
        assert len(kept) == 1 and len(adopted) == 2
        living, _ = reaper.targets(None, "no-such-seat",
                                   adopted=reaper.Adopted(since, others, frozenset([live_mark.encode()])))
        assert living == adopted - kept
        # what the judge started itself is not an orphan
        living, _ = reaper.targets(None, "no-such-seat", adopted=reaper.Adopted(since, others | adopted, frozenset()))
        assert living == set()
    finally:
        reaper.kill_all(None, "no-such-seat", adopted=reaper.Adopted(since, others, frozenset()))
    assert not children() & adopted
