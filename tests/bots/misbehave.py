#!/usr/bin/env python3
"""One misbehaviour per run, chosen by name (`misbehave.py KIND`); it acts
at the bot's second move unless said otherwise, and plays random legal
columns before. The kinds are the table BEHAVIOURS below."""
import os
import signal
import subprocess
import sys
import time

from protocol import random_answer, run

KIND = sys.argv[1]


def write_raw(data: bytes):
    sys.stdout.flush()
    os.write(1, data)


def hang():
    while True:
        time.sleep(600)


def setsid_sleeper():
    # a new session (and, through setsid(1)'s own fork, an orphan)
    subprocess.Popen(["setsid", "sleep", "600"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)


def double_fork_daemon():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(600)
        os._exit(0)
    os.wait()


def clean_environment_daemon():
    # a double-forked daemon in a session of its own that drops its whole
    # environment, and with it the judge's mark; the tag goes in its command line
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execve(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)",
                                       "HOSTILE_TAG=" + os.environ.get("HOSTILE_TAG", "")], {})
        os._exit(0)
    os.wait()


def grandchild_holds_stdout():
    if os.fork() == 0:
        time.sleep(600)
        os._exit(0)
    os._exit(0)


def children_in_group():
    for _ in range(5):
        subprocess.Popen(["sleep", "600"])


def close_stdout():
    sys.stdout.flush()
    os.close(1)
    hang()


def ignore_sigterm_and_hang():
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    hang()


def stdout_flood():
    while True:
        os.write(1, b"3\n" * 65536)


def segfault():
    os.kill(os.getpid(), signal.SIGSEGV)


def stderr_then_crash():
    sys.stderr.write("Traceback (most recent call last):\nValueError: the bot's own bug\n")
    sys.exit(1)


# kind -> what to do at the second move: a line to answer, or an action
BEHAVIOURS = {
    "huge_integer": "9" * 5001,
    "nineteen_digits": "1" + "0" * 18,
    "negative": "-1",
    "unicode_digit": "\u0663",
    "two_numbers": "3 4",
    "listo": "listo",
    "binary": b"\xff\xfe\x00\x01\n",
    "long_line": b"7" * (10 * 1024 * 1024),
    "stdout_flood": stdout_flood,
    "exit_0": lambda: sys.exit(0),
    "segfault": segfault,
    "stderr_then_crash": stderr_then_crash,
    "close_stdout": close_stdout,
    "ignore_sigterm_and_hang": ignore_sigterm_and_hang,
    "grandchild_holds_stdout": grandchild_holds_stdout,
    "children_in_group_and_hang": lambda: (children_in_group(), hang()),
    "setsid_and_hang": lambda: (setsid_sleeper(), hang()),
    "double_fork_and_crash": lambda: (double_fork_daemon(), sys.exit(5)),
    "clean_environment_daemon_and_crash": lambda: (clean_environment_daemon(), sys.exit(5)),
    "late_answer": lambda: time.sleep(0.6),
    "unasked_answer": None,  # handled in answer(): an extra column after its move
}
# honest players with a quirk the judge must accept, not forfeit
ACCEPTED = {
    "plus_sign": lambda game: f"+{random_answer(game)}",
    "blanks_around": lambda game: f"  {random_answer(game)}  ",
    "crlf": lambda game: f"{random_answer(game)}\r",
    "setsid_every_move": lambda game: (setsid_sleeper(), double_fork_daemon(), random_answer(game))[-1],
    "clean_environment_daemon_every_move": lambda game: (clean_environment_daemon(), random_answer(game))[-1],
}


def answer(game):
    if KIND in ACCEPTED:
        return ACCEPTED[KIND](game)
    if game.mine == 0 and KIND == "slow_start":
        time.sleep(5)
    if game.mine != 1:
        return random_answer(game)
    if KIND == "unasked_answer":
        column = random_answer(game)
        return f"{column}\n{column}"
    action = BEHAVIOURS[KIND]
    if isinstance(action, str):
        return action
    if isinstance(action, bytes):
        write_raw(action)
        hang()
    action()
    return random_answer(game)  # late_answer: after its deadline


run(answer)
