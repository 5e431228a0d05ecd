"""The judge's command line end to end, through the course-named script
`judge/c_linea` as a course script would call it, with real player processes."""
import collections
import os
import signal
import subprocess
import sys
import time

import pytest
from judge_helpers import (
    BOTS,
    C_LINEA,
    WORK_DIR,
    bot,
    live_members,
    records,
    replay_transcript,
    run_judge,
    started_pids,
)

RANDOM = bot("random_bot.py")
PLAYERS_RANDOM = os.path.join(os.path.dirname(C_LINEA), "..", "players", "random")


def test_course_flags_run_unchanged(tmp_path):
    results = tmp_path / "r.jsonl"
    done = run_judge(["--blue_player", *RANDOM, "3", "--red_player", *RANDOM, "4",
                      "--columns", "5", "--rows", "4", "--c", "3", "--p", "8", "--first", "rojo",
                      "--iterations", "6", "--ui", "False", "--results", str(results), "--log-dir", str(tmp_path / "log")])
    assert done.returncode == 0, done.stderr
    games = records(results)
    assert len(games) == 6
    for game in games:
        assert (game["columns"], game["rows"], game["c"], game["p"]) == (5, 4, 3, 8)
        assert game["players"] == ["rojo", "azul"] and game["colours"] == ["rojo", "azul"]
        assert len(game["moves"]) <= 16
    assert "(azul): +" in done.stdout and "(rojo): +" in done.stdout and "LOS" in done.stdout
    # each player saw six legal games on its wire, told `vos`/`el` by --first rojo
    for name in ("azul", "rojo"):
        lines = (tmp_path / "log" / f"{name}.log").read_text().splitlines()
        assert replay_transcript(lines, 5, 4, 3, 8) == 6
        assert lines.count("> vos" if name == "rojo" else "> el") == 6
        wire = [line for line in lines if line[:2] in ("> ", "< ")]
        assert wire[-2:] == ["> salir", "< listo"]
    assert live_members(started_pids(tmp_path / "log")) == []


def test_python_dash_m_and_clinea_judge_are_the_same_command(tmp_path):
    clinea = os.path.join(os.path.dirname(sys.executable), "clinea")
    for command in ([sys.executable, "-m", "clinea.judge"], [clinea, "judge"]):
        # the real random player (players/random) against a test bot
        done = subprocess.run([*command, "--blue_player", PLAYERS_RANDOM, "--red_player", *RANDOM, "--iterations", "2",
                               "--first", "azul", "--quiet"], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("2 games")


@pytest.mark.parametrize("args,message", [
    (["--columns", "0"], "--columns 0 is out of range"),
    (["--rows", "-3"], "--rows -3 is out of range"),
    (["--c", "0"], "--c 0 is out of range"),
    (["--p", "0"], "--p 0 is out of range"),
    (["--first", "verde"], "invalid choice: 'verde'"),
    (["--ui", "maybe"], "--ui 'maybe'"),
    (["--concurrency", "0"], "--concurrency 0 is out of range"),
])
def test_bad_options_are_refused_before_any_game(tmp_path, args, message):
    results = tmp_path / "r.jsonl"
    done = run_judge(["--blue_player", *RANDOM, "--red_player", *RANDOM, "--results", str(results), *args])
    assert done.returncode == 2
    assert message in done.stderr
    assert not results.exists()


@pytest.mark.parametrize("program,message", [
    ("/no/such/program", "--blue_player '/no/such/program': no such program"),
    (os.path.join(BOTS, "protocol.py"), "not an executable file"),
    (BOTS, "not an executable file"),
])
def test_a_missing_or_non_executable_program_is_refused(tmp_path, program, message):
    done = run_judge(["--blue_player", program, "--red_player", *RANDOM])
    assert done.returncode == 2 and message in done.stderr


def test_a_missing_player_is_a_human_at_the_terminal(tmp_path):
    # the human (rojo) types garbage and a full column first: asked again, not forfeited
    # on 7x2 with c=3 nobody wins in a column, so the third 0 meets a full column
    typed = "x\n" + "".join(f"{col}\n" for col in [0, 0, 0] + list(range(7)) * 2)
    done = run_judge(["--blue_player", *RANDOM, "--first", "rojo", "--rows", "2", "--c", "3", "--iterations", "1",
                      "--results", str(tmp_path / "r.jsonl")],
                     input=typed)
    assert done.returncode == 0, done.stderr
    assert "column 0 is full" in done.stdout
    (game,) = records(tmp_path / "r.jsonl")
    assert game["players"] == ["rojo", "azul"] and game["reason"] in ("connect", "draw")
    assert game["moves"][0] == 0


def test_ui_draws_every_move_with_coloured_tokens(tmp_path):
    done = run_judge(["--blue_player", *RANDOM, "--red_player", *RANDOM, "--columns", "4", "--rows", "3", "--c", "3",
                      "--first", "azul", "--ui", "true", "--iterations", "1", "--results", str(tmp_path / "r.jsonl")],
                     env={**os.environ, "SDL_VIDEODRIVER": "no-such-driver"})
    assert done.returncode == 0, done.stderr
    (game,) = records(tmp_path / "r.jsonl")
    assert done.stdout.count(" plays ") == len(game["moves"])
    assert "azul (azul) plays" in done.stdout
    assert "0 1 2 3" in done.stdout


def test_round_robin_alternates_colours_and_first_move(tmp_path):
    results = tmp_path / "r.jsonl"
    done = run_judge(["--player", f"a={RANDOM[0]}", "--player", f"b={RANDOM[0]} 5", "--player", f"c={RANDOM[0]}", "9",
                      "--iterations", "4", "--openings", "2", "--seed", "3", "--concurrency", "2",
                      "--results", str(results), "--log-dir", str(tmp_path / "log")])
    assert done.returncode == 0, done.stderr
    games = records(results)
    by_pair = collections.defaultdict(list)
    for game in games:
        by_pair[tuple(sorted(game["players"]))].append(game)
    assert sorted(by_pair) == [("a", "b"), ("a", "c"), ("b", "c")]
    for pair, played in by_pair.items():
        assert len(played) == 4
        combos = {(g["players"][0], g["colours"][0]) for g in played}
        assert combos == {(p, c) for p in pair for c in ("azul", "rojo")}
        for game in played:
            assert len(game["opening"]) == 2 and game["moves"][:2] == game["opening"]
        openings = collections.Counter(tuple(g["opening"]) for g in played)
        assert sorted(openings.values()) == [2, 2] or list(openings.values()) == [4]
    assert "each pairing plays 4 = 2 x 2 games, alternating colours and first move" in done.stdout
    assert "ranking" in done.stdout
    assert live_members(started_pids(tmp_path / "log")) == []


def test_gauntlet_pairs_the_first_player_with_each_other(tmp_path):
    results = tmp_path / "r.jsonl"
    done = run_judge(["--player", f"hero={RANDOM[0]}", "--player", f"x={RANDOM[0]}", "--player", f"y={RANDOM[0]}",
                      "--schedule", "gauntlet", "--iterations", "2", "--results", str(results), "--quiet"])
    assert done.returncode == 0, done.stderr
    assert sorted(tuple(sorted(g["players"])) for g in records(results)) == [("hero", "x")] * 2 + [("hero", "y")] * 2


def test_sprt_stops_a_lopsided_match_early(tmp_path):
    results = tmp_path / "r.jsonl"
    done = run_judge(["--player", f"good={RANDOM[0]}", "--player", f"bad={bot('out_of_range.py')[0]}",
                      "--iterations", "200", "--sprt", "0", "100", "0.05", "0.05", "--results", str(results)])
    assert done.returncode == 1, done.stderr  # every game was a forfeit: as the course, a non-zero status
    games = records(results)
    assert 0 < len(games) < 200
    assert all(g["winner"] == "good" for g in games)
    assert "H1 accepted" in done.stdout


def test_sprt_without_iterations_plays_until_it_decides(tmp_path):
    """Two --player options and --sprt, no --iterations: the test decides
    when the match ends, not a default of one game left "undecided"."""
    results = tmp_path / "r.jsonl"
    done = run_judge(["--player", f"good={RANDOM[0]}", "--player", f"bad={bot('out_of_range.py')[0]}",
                      "--sprt", "0", "100", "0.05", "0.05", "--results", str(results)])
    assert len(records(results)) > 1, done.stdout
    assert "H1 accepted" in done.stdout, done.stdout


def test_killing_the_judge_and_resuming_loses_and_repeats_no_game(tmp_path):
    results = tmp_path / "r.jsonl"
    total = 300
    judge = subprocess.Popen([C_LINEA, "--blue_player", *RANDOM, "--red_player", *RANDOM, "--iterations", str(total),
                              "--openings", "2", "--seed", "11", "--results", str(results), "--quiet"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=WORK_DIR.name)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if results.exists() and results.read_text().count("\n") > 30:
            break
        time.sleep(0.01)
    judge.send_signal(signal.SIGKILL)
    judge.wait()
    before = results.read_text()
    kept = [line for line in before.splitlines(keepends=True) if line.endswith("\n")]
    assert 30 <= len(kept) - 1 < total, "the run should have been cut in the middle"

    done = run_judge(["--resume", str(results), "--quiet"])
    assert done.returncode == 0, done.stderr
    after = results.read_text()
    assert after.startswith("".join(kept))  # nothing finished was lost or rewritten
    games = records(results)
    assert sorted(int(g["id"]) for g in games) == list(range(total))
    assert done.stdout.startswith(f"{total} games")

    # the same seed replays the same schedule: a fresh run has the same openings per id
    fresh = tmp_path / "fresh.jsonl"
    run_judge(["--blue_player", *RANDOM, "--red_player", *RANDOM, "--iterations", "20",
               "--openings", "2", "--seed", "11", "--results", str(fresh), "--quiet"])
    openings = {g["id"]: (g["opening"], g["players"]) for g in games}
    for game in records(fresh):
        assert (game["opening"], game["players"]) == openings[game["id"]]


def test_sigterm_ends_the_run_and_every_player(tmp_path):
    log_dir = tmp_path / "log"
    judge = subprocess.Popen([C_LINEA, "--blue_player", *bot("hang.py"), "--red_player", *RANDOM,
                              "--iterations", "50", "--time-per-move", "30", "--concurrency", "2",
                              "--log-dir", str(log_dir), "--quiet"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    # wait until both hang.py processes hang, each with its forked child
    while time.monotonic() < deadline:
        if log_dir.exists() and len(started_pids(log_dir)) == 4 and len(live_members(started_pids(log_dir))) >= 6:
            break
        time.sleep(0.02)
    groups = started_pids(log_dir)
    assert len(groups) == 4
    judge.send_signal(signal.SIGTERM)
    assert judge.wait(timeout=20) == 128 + signal.SIGTERM
    assert live_members(groups) == []


def test_a_slow_players_transcript_is_written_while_it_thinks(tmp_path):
    # the transcript is written a game at a time, but a player that keeps
    # the judge waiting has its lines on file within a moment
    log_dir = tmp_path / "log"
    judge = subprocess.Popen([C_LINEA, "--blue_player", *bot("hang.py"), "--red_player", *RANDOM, "--first", "azul",
                              "--iterations", "1", "--time-per-move", "60", "--log-dir", str(log_dir), "--quiet"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        sent: list[str] = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(sent) < 4:  # colours, size, vos, then rojo's first column
            if (log_dir / "azul.log").exists():
                sent = [line for line in (log_dir / "azul.log").read_text().splitlines() if line.startswith("> ")]
            time.sleep(0.05)
        assert len(sent) == 4 and sent[2] == "> vos" and sent[3][2:].isdigit()
        assert judge.poll() is None, "the game should still be waiting for the hanging player"
    finally:
        judge.send_signal(signal.SIGTERM)
        judge.wait(timeout=20)
