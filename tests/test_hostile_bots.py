"""The hostile suite: every kind of misbehaving player program (see
tests/bots/misbehave.py) loses each game with the right reason, the tally
says so, the honest opponent never sees an illegal move, and no process the
bot started is left, wherever it went (own session, double fork)."""
import os
import subprocess
import time
import uuid

import pytest
from judge_helpers import (
    C_LINEA,
    bot,
    records,
    replay_transcript,
    sigkill_and_wait_for_the_tagged,
    tagged_processes,
    transcript,
)

from clinea.judge.cli import EXIT_FORFEIT, main

TIMED = ["--time-per-move", "0.3"]
FORFEITS = [
    # kind, judge options, what the reason starts with
    ("huge_integer", [], "garbage: got '9999"),
    ("nineteen_digits", [], "garbage: got '1000000000000000000', expected a column (an integer) of at most 18"),
    ("negative", [], "illegal move: column -1 out of range 0..6"),
    ("unicode_digit", [], "garbage: got '\u0663', expected a column"),
    ("two_numbers", [], "garbage: got '3 4', expected a column"),
    ("listo", [], "garbage: got 'listo', expected a column"),
    ("binary", [], "garbage: got '\ufffd\ufffd\\x00\\x01'"),
    ("long_line", [], "garbage: a line longer than 4096 bytes"),
    ("stdout_flood", [], "garbage: unexpected output '3\\n3\\n"),
    ("unasked_answer", [], "garbage: unexpected output"),
    ("exit_0", [], "crash: end of output, exit status 0"),
    ("segfault", [], "crash: end of output, exit status -11"),
    ("stderr_then_crash", [], "crash: end of output, exit status 1 (ValueError: the bot's own bug)"),
    ("double_fork_and_crash", [], "crash: end of output, exit status 5"),
    # its daemon carries no mark of the judge's: it is found as an orphan the judge adopted
    ("clean_environment_daemon_and_crash", [], "crash: end of output, exit status 5"),
    ("close_stdout", [], "crash: end of output"),
    ("ignore_sigterm_and_hang", TIMED, "timeout: no answer within 0.350 s"),
    # the bot exited; its child holding stdout must not make the judge wait for the clock
    ("grandchild_holds_stdout", [], "crash: end of output, exit status 0"),
    ("children_in_group_and_hang", TIMED, "timeout: no answer within 0.350 s"),
    ("setsid_and_hang", TIMED, "timeout: no answer within 0.350 s"),
    ("late_answer", TIMED, "timeout: no answer within 0.350 s"),
    ("slow_start", TIMED, "timeout: no answer within 2.350 s"),
]
ACCEPTED = ["plus_sign", "blanks_around", "crlf", "setsid_every_move", "clean_environment_daemon_every_move"]


def judge(tmp_path, monkeypatch, capsys, offender, extra, games=2, seen=2):
    """Plays `games` games of `offender` (azul, first) against an honest bot,
    which must have seen `seen` of them, legal move by legal move."""
    tag = uuid.uuid4().hex
    monkeypatch.setenv("HOSTILE_TAG", tag)
    results, log_dir = tmp_path / "r.jsonl", tmp_path / "log"
    status = main(["--blue_player", *offender, "--red_player", *bot("random_bot.py"), "--first", "azul",
                   "--iterations", str(games), "--seed", "3", "--quiet", "--results", str(results),
                   "--log-dir", str(log_dir), *extra])
    # as the course judge's, the run fails when a game had a bad move
    assert status == (EXIT_FORFEIT if any(game["forfeit"] for game in records(results)) else 0)
    assert tagged_processes(tag) == [], "a process the judge started outlived the run"
    honest = transcript(log_dir, "rojo")
    assert replay_transcript(honest, 7, 6, 4, 21) == seen
    return records(results), capsys.readouterr().out


@pytest.mark.parametrize("kind,extra,reason", FORFEITS, ids=[case[0] for case in FORFEITS])
def test_a_misbehaving_bot_forfeits_every_game_and_leaves_nothing(tmp_path, monkeypatch, capsys, kind, extra, reason):
    games, out = judge(tmp_path, monkeypatch, capsys, bot("misbehave.py", kind), extra)
    for game in games:
        assert (game["forfeit"], game["winner"]) == ("azul", "rojo")
        assert game["reason"].startswith(reason), game["reason"]
        assert len(game["reason"]) < 400  # a 10 MB line is quoted, not copied
    assert "(azul): +0 -2 =0" in out and "(rojo): +2 -0 =0" in out
    kind_word = reason.split(":")[0]
    assert f"forfeits : {kind_word} 2" in out and f"last {kind_word}: {reason}" in out


@pytest.mark.parametrize("kind", ACCEPTED)
def test_an_odd_but_honest_answer_is_accepted(tmp_path, monkeypatch, capsys, kind):
    games, out = judge(tmp_path, monkeypatch, capsys, bot("misbehave.py", kind), [])
    assert [game["reason"] for game in games] == ["connect" if g["winner"] else "draw" for g in games]
    assert "forfeits" not in out


def test_a_bot_without_a_shebang_is_named_as_such_in_the_summary(tmp_path, monkeypatch, capsys):
    # it cannot start as the first player, so the honest one never hears of the games
    games, out = judge(tmp_path, monkeypatch, capsys, bot("no_shebang.py"), [], seen=0)
    for game in games:
        assert game["reason"].startswith("crash: cannot start") and "has no #! line?" in game["reason"]
    assert "has no #! line?" in out


def settled_count(tag, at_least, seconds=30):
    """The number of tagged processes once it has stayed the same for half a
    second and reached `at_least`."""
    deadline = time.monotonic() + seconds
    count, since = -1, time.monotonic()
    while time.monotonic() < deadline:
        now = len(tagged_processes(tag))
        if now != count:
            count, since = now, time.monotonic()
        elif count >= at_least and time.monotonic() - since > 0.5:
            break
        time.sleep(0.05)
    return count


@pytest.mark.parametrize("sandbox", ["off", "auto"])
@pytest.mark.parametrize("concurrency", ["1", "2"])
def test_sigkill_of_the_judge_takes_every_player_and_what_they_started_down(tmp_path, concurrency, sandbox):
    tag = uuid.uuid4().hex
    log_dir = tmp_path / "log"
    judge = subprocess.Popen([C_LINEA, "--blue_player", *bot("misbehave.py", "children_in_group_and_hang"),
                              "--red_player", *bot("misbehave.py", "setsid_every_move"), "--first", "azul",
                              "--iterations", "4", "--time-per-move", "60", "--concurrency", concurrency,
                              "--log-dir", str(log_dir), "--quiet", "--sandbox", sandbox],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=dict(os.environ, HOSTILE_TAG=tag))
    try:
        # per worker: the two players, red's setsid sleeper and double-forked
        # daemon (orphans in sessions of their own), blue's 5 sleepers in its
        # group as it hangs at its second move; and the judge and its watchdog
        # (a double fork's short-lived middle process can add one for a moment:
        # wait for the count to settle rather than for it to reach the number);
        # in a sandbox, each seat's bwrap and the init of its namespace beside
        # them, and no watchdog: what a seat starts dies with its namespace
        expected = 9 * int(concurrency) + 2
        if sandbox == "off":
            assert settled_count(tag, expected) == expected
        else:
            expected += 4 * int(concurrency) - 1
            assert settled_count(tag, expected) == expected
        assert sigkill_and_wait_for_the_tagged(judge, tag) == []
    finally:
        judge.kill()  # only if the test failed before it did so
        judge.wait()
