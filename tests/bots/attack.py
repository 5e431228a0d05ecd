#!/usr/bin/env python3
"""A hostile student's bot: `attack.py KIND` plays random legal
columns and, at its second move, attacks its opponent, the judge, the
results or the machine, as the kinds below say. Whatever it manages or is
refused goes to stderr as `ATTACK KIND: ...` lines, which land in the
judge's transcript for the tests to read; $ATTACK_TARGET names a file it
goes after. Plain Python, no clinea import:
it stands for a student's program."""
import os
import signal
import sys
import time

from protocol import random_answer, run

KIND = sys.argv[1]
# what it knows of the victim's files or the results: from the test, as a student would guess them
TARGET = os.environ.get("ATTACK_TARGET", "")
VICTIM = "victim_bot.py"  # the honest opponent's program, wherever the test put it
TAG = os.environ.get("HOSTILE_TAG", "")


def say(text):
    sys.stderr.write(f"ATTACK {KIND}: {text}\n")
    sys.stderr.flush()


def command_line(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def same_run(pid):
    """Whether process `pid` belongs to this test's run (it carries the
    test's tag), so that an attack that works hurts no other test's judge."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as file:
            return f"HOSTILE_TAG={TAG}".encode() in file.read().split(b"\0")
    except OSError:
        return False


def pids_running(program):
    """Every process of this run this bot can see that runs `program` (as
    its executable or as the script of its interpreter)."""
    return [int(entry) for entry in os.listdir("/proc")
            if entry.isdigit() and int(entry) != os.getpid()
            and any(word.endswith(program) for word in command_line(entry).split()[:3]) and same_run(entry)]


def judges():
    """The judge among this bot's ancestors (a judge is not dumpable: its
    environment is not for others to read)."""
    found, pid = [], os.getppid()
    while pid > 1:
        if "clinea.judge" in command_line(pid):
            found.append(pid)
        try:
            with open(f"/proc/{pid}/stat") as file:
                pid = int(file.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            break
    return found


def signal_all(pids, signum):
    hit = []
    for pid in pids:
        try:
            os.kill(pid, signum)
            hit.append(pid)
        except OSError as error:
            say(f"kill {pid} refused: {error}")
    say(f"signal {signum} reached {hit}" if hit else "nothing to signal")


def write_into(pids, descriptor, data):
    for pid in pids:
        try:
            with open(f"/proc/{pid}/fd/{descriptor}", "wb", buffering=0) as file:
                file.write(data)
            say(f"wrote into {pid}'s fd {descriptor}")
        except OSError as error:
            say(f"write into {pid}'s fd {descriptor} refused: {error}")
    if not pids:
        say("found no target")


def steal_moves():
    for pid in pids_running(VICTIM):
        try:
            fd = os.open(f"/proc/{pid}/fd/0", os.O_RDONLY | os.O_NONBLOCK)
        except OSError as error:
            say(f"open {pid}'s stdin refused: {error}")
            continue
        say(f"reading {pid}'s stdin")
        if os.fork() == 0:  # a thief in the background, eating the victim's input
            while True:
                try:
                    os.read(fd, 4096)
                except BlockingIOError:
                    time.sleep(0.001)
        os.close(fd)
        return
    say("found no target")


def forge_results():
    """Appends a forged game to the judge's results file: the path from
    the judge's command line and working folder, else the one the test names."""
    paths = [TARGET] if TARGET else []
    for pid in judges():
        words = command_line(pid).split()
        if "--results" in words:
            name = words[words.index("--results") + 1]
            paths.append(name if name.startswith("/") else f"/proc/{pid}/cwd/{name}")
    forged = '{"id": "999999", "columns": 7, "rows": 6, "c": 4, "p": 21, "players": ["azul", "rojo"], ' \
             '"colours": ["azul", "rojo"], "opening": [], "moves": [0, 1, 0, 1, 0, 1, 0], "times": [], ' \
             '"winner": "azul", "reason": "connect", "forfeit": null}\n'
    for path in paths:
        try:
            with open(path, "a") as file:
                file.write(forged)
            say(f"forged a record into {path}")
        except OSError as error:
            say(f"forging {path} refused: {error}")


def fake_tally():
    write_into(judges(), 1, b"azul: +1000 -0 =0 (1000/1000)\n")
    try:
        with open("/dev/tty", "w") as tty:
            tty.write("azul: +1000 -0 =0\n")
        say("wrote to the terminal")
    except OSError as error:
        say(f"terminal refused: {error}")


def tagged_sleeper():
    """A double-forked daemon in a session of its own, environment dropped,
    the tag in its command line so the test can look for it."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execve(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)",
                                       "HOSTILE_TAG=" + TAG], {})
        os._exit(0)
    os.wait()


def kill_watchdog_and_leave_daemon():
    signal_all(pids_running("reaper.py"), signal.SIGKILL)
    tagged_sleeper()
    say("daemon left")


def fork_bomb():
    children = 0
    try:
        for _ in range(100000):
            if os.fork() == 0:
                time.sleep(600)
                os._exit(0)
            children += 1
    except OSError as error:
        say(f"fork refused after {children} children: {error}")
        return
    say(f"forked {children} children unrefused")


def memory_hog():
    hoard = []
    try:
        while True:
            hoard.append(bytearray(64 << 20))
            hoard[-1][::4096] = b"x" * len(hoard[-1][::4096])  # touch every page
    except MemoryError:
        say(f"memory refused after {len(hoard) * 64} MB")


def fill_disk():
    chunk = b"x" * (1 << 20)
    for folder in (os.environ.get("TMPDIR", "/tmp"), "/tmp", os.getcwd(), os.path.expanduser("~"),
                   os.path.dirname(os.path.abspath(__file__))):
        written = 0
        path = os.path.join(folder, f"attack-fill-{TAG}")
        try:
            with open(path, "wb") as file:
                while written < (4 << 30):
                    file.write(chunk)
                    written += len(chunk)
            say(f"wrote {written >> 20} MB to {folder} unrefused")
        except OSError as error:
            say(f"{folder} refused after {written >> 20} MB: {error.strerror}")
        finally:
            try:
                os.unlink(path)
            except OSError:
                pass


def read_opponent_files():
    try:
        with open(TARGET, "rb") as file:
            say(f"read {len(file.read())} bytes of {TARGET}")
    except OSError as error:
        say(f"reading {TARGET} refused: {error.strerror}")


def open_network():
    import socket
    try:
        socket.create_connection(("127.0.0.1", int(TARGET or 9)), timeout=1).close()
        say("connected")
    except OSError as error:
        say(f"connection refused: {error}")


ATTACKS = {
    "kill_opponent": lambda: signal_all(pids_running(VICTIM), signal.SIGKILL),
    "stop_opponent": lambda: signal_all(pids_running(VICTIM), signal.SIGSTOP),
    "answer_for_opponent": lambda: write_into(pids_running(VICTIM), 1, b"99\n"),
    "tell_opponent_it_lost": lambda: write_into(pids_running(VICTIM), 0, b"perdiste\n"),
    "steal_opponent_moves": steal_moves,
    "kill_judge": lambda: signal_all(judges(), signal.SIGKILL),
    "interrupt_judge": lambda: signal_all(judges(), signal.SIGINT),
    "stop_judge": lambda: signal_all(judges(), signal.SIGSTOP),
    "fake_tally": fake_tally,
    "forge_results": forge_results,
    "kill_watchdog_and_leave_daemon": kill_watchdog_and_leave_daemon,
    "fork_bomb": fork_bomb,
    "memory_hog": memory_hog,
    "fill_disk": fill_disk,
    "read_opponent_files": read_opponent_files,
    "open_network": open_network,
    "daemon": lambda: (tagged_sleeper(), say("daemon left")),
}


def answer(game):
    if game.mine == 1:
        ATTACKS[KIND]()
    return random_answer(game)


if __name__ == "__main__":
    run(answer)
