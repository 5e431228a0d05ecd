"""The judge's reading of a player's answer, fuzzed: whatever bytes a
player writes, the judge takes a column or forfeits the player with a
short reason; it never raises anything else and never waits past its
deadline. The judge and the players read numbers alike (one protocol module)."""
import os
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinea import protocol
from clinea.core import Board
from clinea.judge.player_process import PlayerProcess, Silent
from clinea.judge.process_seat import ProcessSeat
from clinea.judge.referee import FORFEITS, Forfeit


class _StillRunning:
    def poll(self):
        return None

    def wait(self, timeout=None):
        return None


def seat_reading(data: bytes) -> ProcessSeat:
    """A seat whose player has written `data` and then holds its stdout
    open, silent: the real reader over a real pipe, without a program."""
    read_end, write_end = os.pipe()
    process = PlayerProcess.__new__(PlayerProcess)
    process.proc, process.on_idle = _StillRunning(), None
    process.read_from(read_end)
    process.stderr_tail = []
    process.drain = threading.Thread(target=lambda: None)
    process.drain.start()

    def writer():
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(write_end, view):]
        except OSError:  # the reader gave up and closed its end
            pass

    threading.Thread(target=writer, daemon=True).start()
    seat = ProcessSeat("fuzz", ["fuzz"])
    seat.process = process
    seat.pipes = (read_end, write_end)
    return seat


ANSWERS = st.one_of(st.binary(max_size=64), st.text(max_size=20).map(lambda t: (t + "\n").encode()),
                    st.integers(-10**40, 10**40).map(lambda n: f"{n}\n".encode()),
                    st.sampled_from([b"9" * 5001 + b"\n", b"7" * 10_000, b"+3\n", b" 3 \r\n", b"\xff\n"]))


@given(ANSWERS)
@settings(max_examples=200, deadline=None)
def test_any_answer_is_a_column_or_a_forfeit_with_a_short_reason(data):
    seat = seat_reading(data)
    board = Board(7, 6, 4, 21)
    start = time.monotonic()
    try:
        answer = seat.ask(board, None, 0.05)
    except Forfeit as forfeit:
        assert forfeit.kind in FORFEITS and len(str(forfeit)) < 400
        answer = None
    finally:
        for fd in seat.pipes:
            os.close(fd)
    assert time.monotonic() - start < 1.0
    if answer is not None:
        # a column the players' side reads the same way
        line = data.split(b"\n", 1)[0].decode("utf-8", "replace").rstrip("\r")
        assert isinstance(answer, int) and protocol.parse_move_or_result(line) == answer


@given(st.text(max_size=30))
def test_judge_and_players_accept_the_same_numbers(text):
    try:
        judged = protocol.parse_answer(text)
    except protocol.ProtocolError:
        judged = None
    try:
        heard = protocol.parse_move_or_result(text)
    except protocol.ProtocolError:
        heard = None
    if judged is not None or isinstance(heard, int):
        assert judged == heard


def test_the_reader_spins_only_for_players_that_answer_fast_and_keeps_the_deadline():
    # a reply already waiting counts as fast; one that takes a few
    # milliseconds turns the spinning off; a silent player still times out
    read_end, write_end = os.pipe()
    seat = seat_reading(b"")
    process = seat.process
    process.read_from(read_end)
    os.write(write_end, b"3\n")
    assert process.read_line(1.0) == "3" and process.answers_fast
    threading.Timer(0.02, os.write, (write_end, b"4\n")).start()
    assert process.read_line(1.0) == "4" and not process.answers_fast
    started = time.monotonic()
    with pytest.raises(Silent):
        process.read_line(0.05)
    assert time.monotonic() - started < 1.0
    os.write(write_end, b"5\n")
    assert process.read_line(1.0) == "5" and process.answers_fast
    os.close(write_end)
