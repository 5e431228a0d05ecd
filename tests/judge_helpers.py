"""Shared by the judge's end-to-end tests: where the test bots are, how to
run the judge, and how to prove no player process outlived it."""
import json
import os
import re
import subprocess
import tempfile
import time

from reference_rules import ReferenceGame

HERE = os.path.dirname(os.path.abspath(__file__))
BOTS = os.path.join(HERE, "bots")
REPO = os.path.dirname(HERE)
C_LINEA = os.path.join(REPO, "judge", "c_linea")
# the judge writes the course's transcripts in ./log: tests run it from here,
# never from the repository
WORK_DIR = tempfile.TemporaryDirectory(prefix="clinea-judge-")


def bot(name: str, *args: str) -> list[str]:
    return [os.path.join(BOTS, name), *args]


def run_judge(args, timeout=60, **kwargs) -> subprocess.CompletedProcess:
    """The judge as users run it: a separate process through the course-named script."""
    kwargs.setdefault("cwd", WORK_DIR.name)
    return subprocess.run([C_LINEA, *args], capture_output=True, text=True, timeout=timeout, **kwargs)


def records(path) -> list[dict]:
    with open(path) as file:
        return [r for r in map(json.loads, file) if r.get("type") != "run"]


def started_pids(log_dir) -> set[int]:
    """Every player process the judge started, from its transcripts."""
    pids = set()
    for name in os.listdir(log_dir):
        with open(os.path.join(log_dir, name)) as file:
            pids.update(int(m) for m in re.findall(r"^# started pid (\d+)", file.read(), re.M))
    return pids


def processes(read: str = None):
    """(pid, state, process group, contents of /proc/PID/READ or None) of
    every process now, zombies included; a process that ends meanwhile is left out."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as file:
                fields = file.read().rsplit(")", 1)[1].split()
            extra = None
            if read:
                with open(f"/proc/{entry}/{read}", "rb") as file:
                    extra = file.read()
        except OSError:
            continue
        yield int(entry), fields[0], int(fields[2]), extra


def live_members(groups: set[int]) -> list[int]:
    """Processes still running (zombies aside) in any of the process groups."""
    return [pid for pid, state, pgrp, _ in processes() if pgrp in groups and state != "Z"]


def transcript(log_dir, name) -> list[str]:
    with open(os.path.join(log_dir, f"{name}.log")) as file:
        return file.read().splitlines()


def replay_transcript(lines, columns, rows, c, p) -> int:
    """Replays every game a player saw (`> ` judge lines, `< ` its answers)
    in the rules reference, failing on any illegal column; returns the
    number of games. Proves no illegal move reached this player."""
    games = 0
    game = None
    wire = [line[2:] for line in lines if line[:2] in ("> ", "< ")]
    i = 0
    while i < len(wire):
        word = wire[i]
        if word in ("azul rojo", "rojo azul"):
            games += 1
            game = ReferenceGame(columns, rows, c, p)
            for col in wire[i + 2].split()[1:]:
                game.play(int(col))
            i += 3
            continue
        if word.lstrip("-").isdigit() and game is not None:
            col = int(word)
            assert col in game.legal(), f"illegal column {col} on the wire: {wire[max(0, i - 6):i + 1]}"
            game.play(col)
        i += 1
    return games


def tagged_processes(tag: str) -> list[int]:
    """Living processes whose environment carries `HOSTILE_TAG=tag`: every
    process a test's judge started, wherever it went (setsid, double fork);
    or, for one that dropped its environment, whose command line does."""
    wanted = f"HOSTILE_TAG={tag}".encode()
    return sorted({pid for read in ("environ", "cmdline") for pid, state, _, words in processes(read)
                   if state != "Z" and wanted in words.split(b"\0")})


def sigkill_and_wait_for_the_tagged(judge: subprocess.Popen, tag: str, seconds: float = 10.0) -> list[int]:
    """SIGKILLs a judge, then waits for the processes tagged `tag` (its
    players and what they started) to die; returns those still living."""
    judge.kill()
    judge.wait()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and tagged_processes(tag):
        time.sleep(0.05)
    return tagged_processes(tag)


def wait_until(check, timeout: float, what: str, every: float = 0.2):
    """Polls `check()` until it returns something true, and returns it;
    fails naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(every)
    raise AssertionError(f"{what}: not within {timeout:g} s")
