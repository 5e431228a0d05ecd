"""Stopping `clinea train` from outside: Ctrl-C (to the whole terminal
group, as a terminal sends it) or SIGTERM, with one job or two, ends the
run at once, leaves no worker, and writes the best weights so far; an
--out that cannot be written is refused before the run."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from judge_helpers import processes

CLINEA = os.path.join(os.path.dirname(sys.executable), "clinea")


def workers_of(group: int) -> list[int]:
    """The pool workers still running in the process group."""
    return [pid for pid, state, pgrp, command in processes("cmdline")
            if pgrp == group and state != "Z" and b"spawn_main" in command]


@pytest.mark.parametrize("jobs,how", [("1", signal.SIGINT), ("2", signal.SIGINT), ("2", signal.SIGTERM)])
def test_an_interrupted_run_writes_the_best_so_far_and_leaves_no_worker(tmp_path, jobs, how):
    out = tmp_path / "run"
    run = subprocess.Popen([CLINEA, "train", "genetic", "--population", "12", "--generations", "100000",
                            "--jobs", jobs, "--quiet", "--out", str(out), "--seed", "1"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        csv = tmp_path / "run.csv"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not csv.exists() or csv.read_text().count("\n") < 3):
            time.sleep(0.05)
        if how == signal.SIGINT:
            os.killpg(run.pid, how)  # the terminal signals the whole group, workers included
        else:
            run.send_signal(how)
        _, err = run.communicate(timeout=15)
    finally:
        run.kill()
    assert run.returncode == 128 + how, err  # 130 for SIGINT, 143 for SIGTERM, as a shell reports them
    assert "Traceback" not in err and "writing the best so far" in err
    weights = json.loads((tmp_path / "run.json").read_text())
    rows = csv.read_text().splitlines()
    assert weights["info"]["iterations"] == len(rows) - 1 >= 2 and weights["info"]["interrupted"]
    assert (tmp_path / "run.png").stat().st_size > 0
    assert workers_of(run.pid) == []


@pytest.mark.parametrize("out,message", [("missing/run", "no such directory"), (".", "cannot write")])
def test_an_unwritable_out_is_refused_before_the_run(tmp_path, out, message):
    if out == ".":
        (tmp_path / "run.png").mkdir()  # a directory where the PNG would go
        out = "run"
    done = subprocess.run([CLINEA, "train", "genetic", "--generations", "1000", "--quiet", "--out", out],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "run.csv").exists()


def test_a_ctrl_c_while_a_row_is_recorded_leaves_the_csv_and_the_count_agreeing(tmp_path):
    """The race behind a rare failure of the test above: Ctrl-C between
    counting a row and writing it left the JSON's iteration count one ahead
    of the CSV. The signal here arrives exactly there."""
    from clinea.training.report import Budget, Recorder

    path = tmp_path / "run.csv"
    recorder = Recorder(path, Budget(10, None), quiet=True)
    stats = {"best": 1.0, "worst": 0.0, "mean": 0.5, "median": 0.5}
    recorder.record(1, stats, best=([0.1], 1.0))
    writer = recorder._writer

    class InterruptedWriter:
        def writerow(self, row):
            os.kill(os.getpid(), signal.SIGINT)  # Python raises at its next instruction
            time.sleep(0.01)
            return writer.writerow(row)

    recorder._writer = InterruptedWriter()
    with pytest.raises(KeyboardInterrupt):
        recorder.record(2, stats, best=([0.2], 2.0))
    recorder.close()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    rows = path.read_text().splitlines()[1:]
    assert len(rows) == len(recorder.rows) == 2 and recorder.best == ([0.2], 2.0)


def test_ctrl_c_while_the_workers_start_prints_no_traceback():
    # a worker spawned by --jobs takes a while to start (it imports clinea
    # afresh); with one worker doing all the work, a run reached its third
    # generation while the other was still starting, and the terminal's
    # Ctrl-C printed that worker's KeyboardInterrupt traceback
    script = ("import os, signal, sys, time\n"
              "from clinea.training.parallel import ProcessPool\n"
              "runner = ProcessPool(2)\n"
              "try:\n"
              "    os.killpg(0, signal.SIGINT)\n"
              "    time.sleep(5)\n"
              "except KeyboardInterrupt:\n"
              "    time.sleep(1)  # the workers' own start-up, had they taken the signal\n"
              "    runner.terminate()\n"
              "    sys.exit(130)\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                         start_new_session=True)
    assert run.returncode == 130, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
