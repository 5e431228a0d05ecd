"""The seat sandbox (clinea.judge.sandbox) apart from any attack: its
limits' syntax, its three modes with and without bubblewrap, what a seat
sees of the machine, and that a run leaves no cgroup behind."""
import errno
import os
import subprocess
import sys
import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st
from judge_helpers import C_LINEA, REPO, bot

from clinea.judge import sandbox as sandbox_module
from clinea.judge.sandbox import Sandbox, SandboxError, SeatLimits, size_in_bytes


@given(st.sampled_from(sorted(SeatLimits.RANGES)), st.data())
def test_a_limit_in_range_parses_to_its_value_and_one_outside_is_refused_naming_the_range(name, data):
    low, high = SeatLimits.RANGES[name]
    value = data.draw(st.integers(low, high))
    assert getattr(SeatLimits.parse(f"{name.replace('_', '-')}={value}"), name) == value
    outside = data.draw(st.one_of(st.integers(0, low - 1), st.integers(high + 1, high * 2)))
    with pytest.raises(SandboxError, match=f"out of range: allowed {low}..{high}"):
        SeatLimits.parse(f"{name}={outside}")


@pytest.mark.parametrize("text,value", [("512M", 512 << 20), ("2G", 2 << 30), ("2GiB", 2 << 30), ("64k", 64 << 10),
                                        ("1048576", 1 << 20), ("1.5G", 3 << 29)])
def test_sizes_take_binary_units(text, value):
    assert size_in_bytes(text) == value


@pytest.mark.parametrize("text,message", [("memory=lots", "not a number"), ("disk=1G", "choose among"),
                                          ("processes=2", "out of range")])
def test_bad_limits_name_what_is_wrong(text, message):
    with pytest.raises(SandboxError, match=message):
        SeatLimits.parse(text)


def test_the_cpu_backstop_covers_every_game_of_the_run_at_its_clock():
    limits = SeatLimits()
    assert limits.for_run(10.0, 100).cpu == 2 * 10 * 100 + 60
    assert limits.for_run(None, 100).cpu is None and limits.for_run(10.0, None).cpu is None
    assert SeatLimits(cpu=5).for_run(10.0, 100).cpu == 5  # given, it stays


@pytest.fixture
def no_bubblewrap(monkeypatch):
    monkeypatch.setattr(sandbox_module.shutil, "which", lambda name: None)
    sandbox_module.bubblewrap_problem.cache_clear()
    yield
    sandbox_module.bubblewrap_problem.cache_clear()


def test_strict_refuses_to_play_without_bubblewrap_and_auto_says_what_is_not_isolated(no_bubblewrap):
    with pytest.raises(SandboxError, match="strict: bwrap is not installed"):
        Sandbox("strict")
    auto = Sandbox("auto")
    assert not auto.isolated
    assert "sandbox: unavailable, bwrap is not installed" in auto.describe()
    assert "NOT isolated" in auto.describe() and "NOT isolated" in Sandbox("off").describe()


def test_the_judge_refuses_strict_without_bubblewrap(tmp_path):
    # a PATH with python3 (the bots' #! line) but no bwrap
    (tmp_path / "python3").symlink_to(sys.executable)
    done = subprocess.run([sys.executable, "-m", "clinea.judge", "--blue_player", *bot("random_bot.py"),
                           "--red_player", *bot("random_bot.py"), "--iterations", "1", "--sandbox", "strict"],
                          capture_output=True, text=True, timeout=60,
                          cwd=tmp_path, env=dict(os.environ, PATH=str(tmp_path)))
    assert done.returncode == 2 and "bwrap is not installed" in done.stderr, done.stderr


def test_a_run_says_its_isolation_at_the_start_and_in_the_summary(tmp_path):
    done = subprocess.run([C_LINEA, "--blue_player", *bot("random_bot.py"), "--red_player", *bot("random_bot.py"),
                           "--iterations", "2"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    line = "sandbox: bubblewrap (own PID, user, network and IPC namespaces; read-only files)"
    assert line in done.stderr.splitlines()[0] and line in done.stdout


def test_a_seat_sees_its_own_processes_only_and_its_own_program_folder(tmp_path):
    sandbox = Sandbox("strict")
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "weights.json").write_text("mine\n")
    probe = folder / "probe.sh"
    probe.write_text("#!/bin/sh\nls /proc | grep -c '^[0-9]'; cat \"$(dirname \"$0\")/weights.json\"; "
                     "touch \"$(dirname \"$0\")/x\" 2>/dev/null || echo read-only; touch \"$TMPDIR/x\" && echo scratch\n")
    probe.chmod(0o755)
    launch = sandbox.launch([str(probe)], str(tmp_path))
    given_r, given_w = os.pipe()
    taken_r, taken_w = os.pipe()
    status_r, status_w = os.pipe()
    process = subprocess.Popen(launch.argv(given_r, taken_w, status_w), pass_fds=(given_r, taken_w, status_w),
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, preexec_fn=launch.before_exec)
    for fd in (given_r, taken_w, status_w, given_w, status_r):
        os.close(fd)
    with os.fdopen(taken_r) as out:
        lines = out.read().split()
    process.wait(10)
    launch.release()
    # the end of the run removes the seat's cgroup, its last processes
    # gone: left (its processes still dying at the release, on a busy
    # machine), it kept this process's run folders for later tests
    sandbox.close()
    assert launch.cgroup is None or not any(os.path.exists(folder) for folder in launch.cgroup.folders)
    # bwrap's init, the shell and its ls (and grep, racing): never the machine's hundred
    assert int(lines[0]) <= 4 and lines[1:] == ["mine", "read-only", "scratch"]


def test_a_long_run_keeps_no_record_of_the_seats_it_removed():
    # the league's server makes a seat per player per game for days: each
    # seat's cgroup was kept in a list until the server stopped
    sandbox = Sandbox("auto")
    try:
        for _ in range(5):
            launch = sandbox.launch(["true"], None)
            subprocess.run(["true"], preexec_fn=launch.before_exec, timeout=30)  # a process in the seat's cgroup
            launch.release()
        assert "pids" in sandbox.cgroups.kinds, "this machine delegates no pids cgroup to the judge"
        assert len(sandbox.cgroups.made) <= 1
    finally:
        sandbox.close()


def test_the_end_of_a_run_waits_for_its_seats_last_processes_to_leave_their_cgroups():
    # a clean-clone CI left a run's cgroups behind: the seats' processes,
    # killed with their namespace's init, were still dying when the judge
    # removed the folders (a cgroup with processes stays)
    cgroups = sandbox_module.Cgroups(f"clinea-{os.getpid()}")
    assert "pids" in cgroups.kinds, "this machine delegates no pids cgroup to the judge"
    seat = cgroups.seat("slow-to-die", SeatLimits())
    assert seat is not None
    dying = subprocess.Popen(["sleep", "0.3"], preexec_fn=seat.enter)
    reaper = threading.Thread(target=dying.wait)  # reaped as it exits, as the seat's init does
    reaper.start()
    cgroups.remove()
    reaper.join()
    assert [folder for folder in [*seat.folders, *cgroups.bases.values()] if os.path.exists(folder)] == []


def test_a_run_leaves_no_cgroup_behind(tmp_path):
    roots = [root for root in ("/sys/fs/cgroup/pids", "/sys/fs/cgroup") if os.path.isdir(root)]
    judge = subprocess.Popen([C_LINEA, "--blue_player", *bot("misbehave.py", "setsid_every_move"), "--red_player",
                              *bot("random_bot.py"), "--iterations", "2", "--concurrency", "2"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    out, err = judge.communicate(timeout=60)
    assert judge.returncode == 0 and "(processes: cgroup)" in out, err
    # the run's cgroups are named after the judge's process (c_linea execs it)
    ours = f"clinea-{judge.pid}"
    assert [path for root in roots for path, _, _ in os.walk(root) if os.path.basename(path) == ours] == []


def run_cgroups(pid: int) -> list[str]:
    """The cgroup folders of the judge run whose process is `pid`."""
    roots = [root for root in ("/sys/fs/cgroup/pids", "/sys/fs/cgroup") if os.path.isdir(root)]
    return [path for root in roots for path, _, _ in os.walk(root) if os.path.basename(path) == f"clinea-{pid}"]


def test_the_cgroups_of_a_killed_judge_go_with_the_next_run(tmp_path):
    judge = subprocess.Popen([C_LINEA, "--blue_player", *bot("sleepy.py", "0.5"), "--red_player",
                              *bot("random_bot.py"), "--iterations", "100"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    deadline = time.monotonic() + 30
    while not run_cgroups(judge.pid) and judge.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    left = run_cgroups(judge.pid)
    judge.kill()
    judge.wait(10)
    if not left:  # cgroups not delegated here: the seats' processes are bounded another way
        assert judge.returncode == -9
        return
    time.sleep(0.5)  # its seats die with it (parent-death signal), leaving the folders empty
    assert run_cgroups(judge.pid) == left  # nobody was left to remove them
    after = subprocess.run([C_LINEA, "--blue_player", *bot("random_bot.py"), "--red_player", *bot("random_bot.py"),
                            "--iterations", "1"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert after.returncode == 0, after.stderr
    assert run_cgroups(judge.pid) == []


def test_a_dead_judges_cgroups_under_this_runs_own_pid_go_too():
    # pids come round again (pid_max is 32768 here): a judge killed earlier
    # may have left `clinea-<pid>` for the pid a new run now has. That folder
    # is not the new run's (it made none yet): it goes like any dead judge's,
    # or the run would leave it behind, seats and all. A fresh process plays
    # the new run, the folder named after it made before its Cgroups.
    assert sandbox_module._controller_folder("pids") is not None, "CI runs as root, where pids cgroups are delegated"
    script = """
import os
from clinea.judge import sandbox
name = f"clinea-{os.getpid()}"
stale_seat = os.path.join(sandbox._controller_folder("pids"), name, "seat-7")
os.makedirs(stale_seat)
cgroups = sandbox.Cgroups(name)
print(os.path.exists(stale_seat))
cgroups.remove()
"""
    assert in_fresh_process(script) == "False"


def test_what_is_left_in_a_dead_judges_cgroups_is_killed_and_the_cgroups_go():
    # a clean-clone CI kept a killed judge's cgroups after the next run: the
    # judge died while a seat's bwrap was starting, and bwrap's child, still
    # waiting for its parent to set up the namespace (before its own
    # parent-death signal is set), waits forever, alone in the seat's
    # cgroup. Whatever is still in a dead judge's cgroups is the judge's
    # (nobody else can enter them): the next run kills it.
    assert sandbox_module._controller_folder("pids") is not None, "CI runs as root, where pids cgroups are delegated"
    gone = subprocess.Popen(["true"])
    gone.wait()
    name = f"clinea-{gone.pid}"
    controllers = [sandbox_module._controller_folder(controller) for controller in ("pids", "memory")]
    seat = sandbox_module.SeatCgroup([os.path.join(folder, name, "seat-1") for folder in controllers if folder])
    for folder in seat.folders:
        os.makedirs(folder)
    left_behind = subprocess.Popen(["sleep", "600"], preexec_fn=seat.enter, start_new_session=True)
    try:
        script = "import os\nfrom clinea.judge import sandbox\nsandbox.Cgroups(f'clinea-{os.getpid()}').remove()\nprint('run')\n"
        assert in_fresh_process(script) == "run"
        assert left_behind.wait(10) == -9
        assert run_cgroups(gone.pid) == []
    finally:
        left_behind.kill()
        left_behind.wait()
        seat.remove(wait=1)
        for folder in seat.folders:
            try:
                os.rmdir(os.path.dirname(folder))
            except OSError:
                pass


def in_fresh_process(script: str) -> str:
    """What `script`, run in a fresh Python process, prints; that process
    must leave no run folder behind."""
    done = subprocess.run([sys.executable, "-c", script + "print(os.getpid())\n"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    printed, pid = done.stdout.rsplit(maxsplit=1)
    assert run_cgroups(int(pid)) == []
    return printed


def test_two_runs_of_one_process_under_one_name_keep_each_others_folder():
    # a process may hold two Cgroups of the same name (a league's matches in
    # one judge process): the first one done must leave the folder the other
    # still makes seats in, and a third must not take it for a dead judge's
    assert sandbox_module._controller_folder("pids") is not None, "CI runs as root, where pids cgroups are delegated"
    script = """
import os
from clinea.judge import sandbox
from clinea.judge.sandbox import SeatLimits
name = f"clinea-{os.getpid()}"
first, second = sandbox.Cgroups(name), sandbox.Cgroups(name)
first.remove()
seat = second.seat("seat-1", SeatLimits())
third = sandbox.Cgroups(name)
print(seat is not None and all(os.path.isdir(folder) for folder in seat.folders))
for cgroups in (second, third):
    cgroups.remove()
"""
    assert in_fresh_process(script) == "True"


def test_the_judge_is_not_dumpable():
    code = ("import ctypes; from clinea.judge.reaper import become_undumpable; become_undumpable(); "
            "print(ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))")  # PR_GET_DUMPABLE
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "0"


def test_a_judge_under_lower_hard_limits_still_starts_its_seats(tmp_path):
    # the seats' limits above the judge's own hard limits are capped, not an error at start
    done = subprocess.run(["prlimit", "--nofile=200:200", "--as=8589934592:8589934592", C_LINEA,
                           "--blue_player", *bot("random_bot.py"), "--red_player", *bot("random_bot.py"),
                           "--iterations", "2", "--seat-limits", "open_files=1000"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0 and "2 games" in done.stdout, done.stderr


def start_through(starter, command, env, cwd):
    """What a seat's starter (`starter` + its arguments) does with `command`:
    (the errno it reports, or "" if the exec went well; what the program
    wrote to the stdout it was given, told `ping` on its stdin)."""
    given, to_seat = os.pipe()
    from_seat, taken = os.pipe()
    status, status_end = os.pipe()
    seat = subprocess.Popen([*starter, str(given), str(taken), str(status_end), "0", *command],
                            pass_fds=(given, taken, status_end), stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    for fd in (given, taken, status_end):
        os.close(fd)
    try:
        os.write(to_seat, b"ping\n")
    except BrokenPipeError:  # it did not start, or did not read
        pass
    os.close(to_seat)
    with os.fdopen(status, "rb") as said, os.fdopen(from_seat, "rb") as out:
        reported = said.read(64).decode()
        answer = out.read(4096)
    seat.wait(timeout=30)
    return reported, answer


def test_the_compiled_seat_starter_does_what_the_python_one_does(tmp_path):
    # the build makes judge/seat_exec (make, CI): without it every seat pays a Python start-up
    assert os.access(sandbox_module.SEAT_EXEC_PROGRAM, os.X_OK), sandbox_module.SEAT_EXEC_PROGRAM
    echo = tmp_path / "echo_back"
    echo.write_text("#!/bin/sh\nread line\necho \"got $line\"\n")
    echo.chmod(0o755)
    no_shebang = tmp_path / "no_shebang"
    no_shebang.write_text("echo this is no program\n")
    no_shebang.chmod(0o755)
    not_executable = tmp_path / "not_executable"
    not_executable.write_text("#!/bin/sh\necho never\n")
    hidden, later = tmp_path / "hidden", tmp_path / "later"
    hidden.mkdir()
    later.mkdir()
    (hidden / "echo_back").write_text("#!/bin/sh\necho never\n")  # found first, not executable
    (later / "echo_back").write_text(echo.read_text())
    (later / "echo_back").chmod(0o755)
    path = f"{hidden}:{later}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    cases = [[str(echo)], ["/no/such/program"], ["no-such-program-anywhere"], [str(no_shebang)],
             [str(not_executable)], [str(tmp_path)], ["echo_back"], ["./echo_back"], ["true"]]
    python = [sys.executable, "-S", "-c", sandbox_module.SEAT_EXEC]
    compiled = [sandbox_module.SEAT_EXEC_PROGRAM]
    for paths in (path, f"{hidden}:{os.environ.get('PATH', '/usr/bin:/bin')}"):
        env = dict(os.environ, PATH=paths)
        for command in cases:
            expected = start_through(python, command, env, tmp_path)
            assert start_through(compiled, command, env, tmp_path) == expected, (paths, command, expected)
    # the cases tell the outcomes apart: runs, not found, no #! line, not executable
    env = dict(os.environ, PATH=path)
    assert start_through(compiled, [str(echo)], env, tmp_path) == ("", b"got ping\n")
    assert start_through(compiled, ["echo_back"], env, tmp_path) == ("", b"got ping\n")
    assert [start_through(compiled, command, env, tmp_path)[0] for command in cases[1:5]] == \
        [str(errno.ENOENT), str(errno.ENOENT), str(errno.ENOEXEC), str(errno.EACCES)]


def new_bot(path) -> None:
    subprocess.run([sys.executable, "-m", "clinea", "new-bot", str(path)], check=True, capture_output=True)


def test_a_bot_in_the_checkouts_root_does_not_hide_the_judge_from_the_other_seat(tmp_path):
    """`clinea new-bot mybot.py` in the checkout, then a game against a
    built-in player: the bot's folder holds the judge's own files (its
    seat starter, .venv, clinea's code), which every seat needs."""
    mine = os.path.join(REPO, f"test_root_bot_{os.getpid()}.py")
    new_bot(mine)
    try:
        done = subprocess.run([C_LINEA, "--blue_player", mine, "--red_player", os.path.join(REPO, "players", "random"),
                               "--iterations", "2", "--log-dir", str(tmp_path)],
                              capture_output=True, text=True, timeout=60, cwd=tmp_path)
    finally:
        os.remove(mine)
    assert done.returncode == 0 and "forfeits" not in done.stdout, done.stdout


def test_a_player_reached_through_a_link_in_anothers_folder_still_starts(tmp_path):
    """A working folder holding a bot and a link to the players (as a
    student's folder with `players -> ~/clinea/players`): the bot's folder
    is hidden from the other seat, whose program is named through the link."""
    (tmp_path / "players").symlink_to(os.path.join(REPO, "players"))
    new_bot(tmp_path / "mybot.py")
    done = subprocess.run([C_LINEA, "--blue_player", "./mybot.py", "--red_player", "players/random",
                           "--iterations", "2"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0 and "forfeits" not in done.stdout, done.stdout
