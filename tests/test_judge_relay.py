"""The relay (clinea.core.relay), which plays a game's moves between two
player programs in C, against the judge's plain Python path: scripted
players, honest or not, over real pipes, give the same result, the same
times count and the same transcripts whether the moves are relayed or
asked one by one."""
import io
import os
import threading
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinea import protocol
from clinea.core import Board
from clinea.core.relay import ASKED, OVER, UNASKED, Channel, relay
from clinea.core.wire import ColumnLines
from clinea.judge.player_process import MAX_LINE, PlayerProcess
from clinea.judge.process_seat import ProcessSeat
from clinea.judge.referee import Clock, referee


class _Running:
    def poll(self):
        return None

    def wait(self, timeout=None):
        return None


class PipePlayer(PlayerProcess):
    """A player "process" that is a thread at the other end of two pipes."""

    def __init__(self, script):
        stdin_read, stdin_write = os.pipe()
        stdout_read, stdout_write = os.pipe()
        self.stdin = stdin_write
        self.read_from(stdout_read)
        self.judge_ends = (stdin_write, stdout_read)
        self.proc, self.pid, self.on_idle, self.on_stderr, self.stderr_tail = _Running(), -1, None, None, []
        self.stderr_logged = self.stderr_cut = 0
        self.thread = threading.Thread(target=play_script, args=(stdin_read, stdout_write, script), daemon=True)
        self.thread.start()

    def exit_status(self, wait):
        return None

    def last_words(self, wait=0.5):
        return []

    def kill(self):
        pass


def play_script(stdin: int, stdout: int, script: list) -> None:
    """Plays one game as a player: entry k of `script` says what it writes
    at its k-th turn: an int i names the i-th legal column (modulo their
    number), bytes are written as they are, None closes stdout."""
    reader = os.fdopen(stdin, "rb", buffering=0)
    lines = iter(reader.readline, b"")
    turn = 0
    try:
        protocol.parse_colours(next(lines).decode())
        board = Board(*protocol.parse_sizes(next(lines).decode()))
        my_turn, opening = protocol.parse_first(next(lines).decode())
        board.play_moves(opening)
        while True:
            if my_turn:
                entry = script[turn % len(script)]
                turn += 1
                if entry is None:
                    os.close(stdout)
                    stdout = None
                    return
                if isinstance(entry, int):
                    legal = board.legal_columns()
                    column = legal[entry % len(legal)]
                    board.play(column)
                    entry = f"{column}\n".encode()
                else:
                    try:
                        board.play(protocol.parse_answer(entry.split(b"\n")[0].decode().rstrip("\r")))
                    except (protocol.ProtocolError, ValueError):
                        pass
                os.write(stdout, entry)
            message = protocol.parse_move_or_result(next(lines).decode().rstrip("\n"))
            if isinstance(message, str):
                return
            board.play(message)
            my_turn = True
    except (StopIteration, OSError, ValueError, protocol.ProtocolError):
        return
    finally:
        if stdout is not None:
            os.close(stdout)


class PlainSeat(ProcessSeat):
    """The judge without the relay: every move through ask()."""

    def relay_moves(self, *args):
        return None


def play(seat_class, scripts, opening=(), size=(7, 6, 4, 21)):
    seats, players = [], []
    for k, script in enumerate(scripts):
        seat = seat_class(f"p{k}", ["pipe"], io.StringIO())
        seat.process = player = PipePlayer(script)
        seats.append(seat)
        players.append(player)
    result = referee(seats, Board(*size), list(opening), Clock(per_move=5.0))
    transcripts = []
    for seat, player in zip(seats, players):
        seat.flush_log()
        transcripts.append(seat.log.getvalue())
        for fd in player.judge_ends:
            os.close(fd)
        player.thread.join(5)
        assert not player.thread.is_alive()
    return result, transcripts


# (an answer without its newline would be a timeout: a test of the clock, not of the relay)
ODD = [b"+3\n", b" 3\n", b"3\r\n", b"03\n", b"9\n", b"-1\n", b"x\n", b"\n", b"2\n5\n", b"\xff\n",
       b"7" * 5000 + b"\n", None]
SCRIPTS = st.lists(st.one_of(st.integers(0, 6), st.sampled_from(ODD)), min_size=1, max_size=30)


def same(result_a, result_b):
    a, b = result_a[0], result_b[0]
    assert (a.winner, a.end, a.moves, a.forfeit, a.detail, len(a.times)) == \
        (b.winner, b.end, b.moves, b.forfeit, b.detail, len(b.times))
    assert result_a[1] == result_b[1]


@given(SCRIPTS, SCRIPTS, st.lists(st.integers(0, 6), max_size=4))
@settings(max_examples=100, deadline=None)
def test_relayed_games_end_as_asked_ones(first, second, opening_choices):
    board = Board(7, 6, 4, 21)
    for choice in opening_choices:  # an opening that leaves the game open
        legal = board.legal_columns()
        board.play(legal[choice % len(legal)])
    opening = board.moves()
    same(play(ProcessSeat, [first, second], opening), play(PlainSeat, [first, second], opening))


def test_honest_players_play_a_whole_game_in_one_relay():
    calls = []

    class Counting(ProcessSeat):
        def relay_moves(self, *args):
            outcome = super().relay_moves(*args)
            calls.append(outcome)
            return outcome

    (result, transcripts) = play(Counting, [[0, 3, 5, 1], [2, 6, 4]])
    assert len(calls) == 1 and calls[0][0] == len(result.moves) and len(result.times) == len(result.moves)
    same((result, transcripts), play(PlainSeat, [[0, 3, 5, 1], [2, 6, 4]]))


def test_the_spin_choice_counts_after_each_relay_leaving_out_both_players(monkeypatch):
    from clinea.judge import process_seat
    from clinea.judge.spin import SpinChoice

    seen = []
    choice = SpinChoice(cpus=2, count=lambda players: seen.append(tuple(players)) or 5)
    monkeypatch.setattr(process_seat, "spin_choice", choice)
    result = play(ProcessSeat, [[0, 3, 5, 1], [2, 6, 4]])[0]
    assert result.moves and len(seen) == 1 and len(seen[0]) == 2  # one relay: the whole game, both players
    assert choice.spin == 0.0  # five others on two cores


def test_relay_stops_where_the_referee_must_judge():
    # the relay itself: a non-canonical line is left in the buffer, unread output stops before the write
    lines = ColumnLines(protocol.COLUMN_LINES)
    ends = [os.pipe() for _ in range(4)]  # judge->p0, p0->judge, judge->p1, p1->judge
    first, second = Channel(ends[0][1], ends[1][0], MAX_LINE), Channel(ends[2][1], ends[3][0], MAX_LINE)
    board = Board(7, 6, 4, 21)
    times, cpu, waited = (array("d", bytes(8 * 42)) for _ in range(3))
    limits, startup = array("d", (5.0, 5.0)), array("d", (0.0, 0.0))
    os.write(ends[1][1], b"3\n")
    told = []

    def second_player():  # answers what it is told with a line the relay leaves to the protocol's parser
        told.append(os.read(ends[2][0], 100))
        os.write(ends[3][1], b"+4\n")

    answering = threading.Thread(target=second_player)
    answering.start()
    played, status, elapsed = relay(board, first, second, lines, -1, limits, startup, 0.0, 0.2, times, cpu, waited)
    answering.join()
    assert (played, status) == (1, ASKED) and board.moves() == [3] and told == [b"3\n"]
    assert second.unread() == b"+4\n" and elapsed >= 0
    assert first.take_exchanges() == [-4] and second.take_exchanges() == [4]
    second.take_line()
    board.play(4)
    os.write(ends[1][1], b"1\n")  # written before player 0 is told 4: extra output
    played, status, _ = relay(board, first, second, lines, 4, limits, startup, 0.0, 0.2, times, cpu, waited)
    assert (played, status) == (0, UNASKED) and first.buffered == 0 and first.take_exchanges() == []
    assert first.readable(0.0, 0.0, 0.0)  # nothing was taken or told: the referee's check_quiet judges it
    for pair in ends:
        for fd in pair:
            os.close(fd)


def test_relay_refuses_a_column_table_it_cannot_read():
    with pytest.raises(ValueError):
        ColumnLines([b"1"])
    with pytest.raises(ValueError):
        ColumnLines([b"0", b"x"])
    assert OVER != ASKED != UNASKED
