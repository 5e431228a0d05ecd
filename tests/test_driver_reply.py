"""The player driver's moves in C (clinea.core.reply) against its plain
Python path: the same judge lines, valid or not, one per read as a judge
sends them or several at once, give the same output, the same stderr and
the same exit status either way."""
import random
import socket

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_protocol_driver import conversation, sizes

from clinea.players import FunctionBot, driver, serve


class Descriptor:
    """A stream that is only a file descriptor, as the driver uses stdin and stdout."""

    def __init__(self, fd: int):
        self.fd = fd

    def fileno(self) -> int:
        return self.fd

    def flush(self) -> None:
        pass


class Errors:
    def __init__(self):
        self.text = ""

    def write(self, text: str) -> None:
        self.text += text


class Column(int):
    """An int that is not exactly an int (as numpy's are)."""


def make_bot(kind: str):
    calls = [0]

    def choose(board):
        calls[0] += 1
        column = board.legal_columns()[0]
        if kind == "int-like":
            return Column(column)
        if kind == "illegal" and calls[0] == 4:
            return board.columns
        return column
    return FunctionBot(choose)


def run(messages: list[bytes], kind: str, in_c: bool, monkeypatch) -> tuple[int, bytes, str]:
    """Plays `messages` (each one read() for the player) through serve() on
    sequenced-packet sockets; returns (status, output, stderr)."""
    judge_in, player_in = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    judge_out, player_out = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        for message in messages:
            judge_in.send(message)
        judge_in.shutdown(socket.SHUT_WR)
        errors = Errors()
        with monkeypatch.context() as patch:
            if not in_c:
                patch.setattr(driver, "REPLY_IN_C", False)
            status = serve(make_bot(kind), Descriptor(player_in.fileno()), Descriptor(player_out.fileno()), errors)
        player_out.shutdown(socket.SHUT_WR)
        output = b""
        while chunk := judge_out.recv(65536):
            output += chunk
        return status, output, errors.text
    finally:
        for end in (judge_in, player_in, judge_out, player_out):
            end.close()


ODD = ["", " 3", "+3", "3\r", "03", "99", "-1", "x", "ganaste", "azul rojo", "7 6 4 21", "el", "\xff"]


@given(st.lists(sizes, min_size=1, max_size=3), st.integers(0, 10**6), st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_moves_in_c_answer_as_the_python_path(monkeypatch, games, seed, data):
    lines = [line.encode() + b"\n" for line, _ in conversation(games, seed)]
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    for _ in range(data.draw(st.integers(0, 2))):
        position = rng.randrange(len(lines) + 1)
        lines.insert(position, (rng.choice(ODD) + "\n").encode())
    if data.draw(st.booleans()):
        lines = lines[:rng.randrange(len(lines) + 1)]  # end of input anywhere
    messages = []
    for line in lines:  # now and then two lines in one read
        if messages and rng.random() < 0.1:
            messages[-1] += line
        else:
            messages.append(line)
    kind = data.draw(st.sampled_from(["plain", "int-like", "illegal"]))
    assert run(messages, kind, True, monkeypatch) == run(messages, kind, False, monkeypatch)


def test_a_valid_match_is_answered_in_c(monkeypatch):
    # the C loop is taken: a match's columns never reach the Python path's reader
    seen = []
    original = driver._RawLines.readline

    def counting(self):
        line = original(self)
        seen.append(line)
        return line

    monkeypatch.setattr(driver._RawLines, "readline", counting)
    lines = [line for line, _ in conversation([(7, 6, 4, 21, True), (7, 6, 4, 21, False)], 3)]
    status, output, errors = run([line.encode() + b"\n" for line in lines], "plain", True, monkeypatch)
    assert status == 0 and errors == "" and output.endswith(b"listo\n")
    assert all(not line.strip().isdigit() for line in seen)  # colours, sizes, vos/el, results, salir only
