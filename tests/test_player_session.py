"""How the judge starts a player, as a scheduler and a terminal see it: in
the judge's session, so in its scheduling group where autogroup is on (a
group per player made every move a hand-over between groups, slow on a
machine with more runnable tasks than cores), yet without the judge's
controlling terminal, sandboxed or not."""
import fcntl
import os
import re
import subprocess
import termios

import pytest
from judge_helpers import C_LINEA, bot


def autogroup(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/autogroup") as file:
            return file.read().split()[0]
    except OSError:
        return "none"


def take_the_terminal() -> None:
    """In the judge's process, after setsid: stdin (a pty) becomes its controlling terminal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


@pytest.mark.parametrize("sandbox", ["off", "auto"])
def test_players_share_the_judges_session_and_scheduling_group_but_not_its_terminal(tmp_path, sandbox):
    terminal, judges_end = os.openpty()
    logs = tmp_path / "logs"
    try:
        judge = subprocess.Popen([C_LINEA, "--blue_player", *bot("session.py"), "--red_player", *bot("session.py"),
                                  "--iterations", "2", "--log-dir", str(logs), "--sandbox", sandbox],
                                 stdin=judges_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 cwd=tmp_path, start_new_session=True, preexec_fn=take_the_terminal)
        group = autogroup(judge.pid)
        out, err = judge.communicate(timeout=60)
    finally:
        os.close(terminal)
        os.close(judges_end)
    assert judge.returncode == 0, err
    said = [re.search(r"session=(\d+) autogroup=(\S+) terminal=(\w+)", (logs / name).read_text())
            for name in sorted(os.listdir(logs))]
    assert len(said) == 2 and all(said), said
    for found in said:
        session, their_group, their_terminal = found.groups()
        assert their_terminal == "no"  # the judge has one: the pty
        assert their_group == group
        if sandbox == "off":  # in its own PID namespace a sandboxed player cannot name the judge's session
            assert int(session) == judge.pid
