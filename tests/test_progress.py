"""Progress in a log file: a plain line now and then, never a bar redrawn
with carriage returns (which a file keeps as one endless line)."""
import io

from judge_helpers import bot, run_judge

from clinea.progress import PlainProgress, progress_bar


def test_a_file_gets_a_plain_line_at_every_tenth():
    stream = io.StringIO()
    bar = progress_bar(250, unit="game", desc="match", stream=stream)
    assert isinstance(bar, PlainProgress)
    for _ in range(250):
        bar.update(1)
    bar.close()
    lines = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue()
    assert [line.split(" in ")[0] for line in lines] == [
        f"match: {n}/250 games ({100 * n / 250:.0f}%)" for n in range(25, 251, 25)]


def test_an_endless_job_counts_without_a_total():
    stream = io.StringIO()
    bar = PlainProgress(None, 0, "game", "", stream)
    bar.last -= 60  # as if the last line were a minute old
    bar.update(3)
    assert stream.getvalue().startswith("3 games in ")


def test_news_inside_a_long_step_gets_a_line_now_and_then():
    # a board of solved-tables takes hours: what it has answered so far is news
    stream = io.StringIO()
    bar = PlainProgress(3, 0, "board", "t", stream)
    bar.set_postfix(board="8x6")
    assert stream.getvalue() == ""  # the last line is fresh
    bar.last -= 60
    bar.set_postfix(board="8x6", answers=5)
    line = stream.getvalue()
    assert line.startswith("t: 0/3 boards (0%) in ") and line.endswith(", board 8x6 answers 5\n")


def test_the_judge_writes_plain_progress_lines_to_a_log_file(tmp_path):
    done = run_judge(["--blue_player", *bot("random_bot.py"), "--red_player", *bot("random_bot.py"),
                      "--iterations", "40", "--columns", "4", "--rows", "4", "--c", "3"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stderr
    lines = done.stderr.splitlines()
    assert lines[0].startswith("sandbox: ") and lines[-1].startswith("40/40 games (100%) in ")
    assert len(lines) == 1 + 10
