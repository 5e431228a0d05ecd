"""The in-process referee against the plain rules reference: every game it
reports is replayed move by move in ReferenceGame, and every forfeit is
checked against what the offending bot actually answered."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from reference_rules import ReferenceGame

from clinea.judge.referee import Clock, play_bots
from clinea.players.bot import Bot, FunctionBot


class Sloppy(Bot):
    """Mostly legal random moves, sometimes an out-of-range column, a full
    column, a non-int or an exception, so that every branch of the checks runs.
    Records every answer so the test can check the referee's verdict."""

    def __init__(self, seed: int, sloppiness: float):
        self.rng = random.Random(seed)
        self.sloppiness = sloppiness
        self.answers = []
        self.me = None

    def new_game(self, board, me):
        self.me = me

    def choose(self, board):
        rng = self.rng
        if rng.random() >= self.sloppiness:
            answer = rng.choice(board.legal_columns())
        else:
            full = [col for col in range(board.columns) if board.height(col) == board.rows]
            kind = rng.choice(["range", "full", "type", "raise"])
            if kind == "full" and full:
                answer = rng.choice(full)
            elif kind == "type":
                answer = rng.choice(["3", 2.0, None, True])
            elif kind == "raise":
                self.answers.append("raise")
                raise RuntimeError("boom")
            else:
                answer = rng.choice([-1, board.columns, board.columns + 5])
        self.answers.append(answer)
        return answer


@settings(max_examples=150)
@given(columns=st.integers(1, 9), rows=st.integers(1, 8), c=st.integers(1, 5),
       p=st.integers(1, 40), seed=st.integers(0, 2**32), sloppiness=st.sampled_from([0.0, 0.02, 0.2]),
       opening_len=st.integers(0, 4))
def test_play_bots_agrees_with_reference_rules(columns, rows, c, p, seed, sloppiness, opening_len):
    rng = random.Random(seed)
    reference = ReferenceGame(columns, rows, c, p)
    opening = []
    for _ in range(opening_len):
        if reference.over():
            break
        col = rng.choice(reference.legal())
        opening.append(col)
        reference.play(col)
    if reference.over():
        return  # an opening that ends the game is not an opening
    bots = [Sloppy(seed, sloppiness), Sloppy(seed + 1, sloppiness)]
    result = play_bots(bots[0], bots[1], columns, rows, c, p, opening)

    assert [bot.me for bot in bots] == [0, 1]
    assert result.moves[:len(opening)] == opening
    for col in result.moves[len(opening):]:
        assert col in reference.legal()
        reference.play(col)
    assert len(result.times) == len(result.moves) - len(opening)
    assert all(t >= 0 for t in result.times)
    if result.forfeit is None:
        assert reference.over()
        assert result.winner == reference.winner
        assert result.reason == ("draw" if reference.draw() else "connect")
    else:
        assert not reference.over()
        offender = result.forfeit
        assert offender == len(result.moves) % 2
        assert result.winner == 1 - offender
        last = bots[offender].answers[-1]
        if last == "raise":
            assert result.reason == "crash: RuntimeError: boom"
        elif type(last) is not int:
            assert result.reason.startswith("garbage: ")
        elif not 0 <= last < columns:
            assert result.reason == f"illegal move: column {last} out of range 0..{columns - 1}"
        else:
            assert last not in reference.legal()
            assert result.reason == f"illegal move: column {last} is full"


def test_a_bot_sees_copies_and_the_opening():
    seen = []

    def spoiler(board):
        seen.append(board.moves())
        col = board.legal_columns()[0]
        board.play(col)  # scribbling on the board must not change the game
        return col

    result = play_bots(FunctionBot(spoiler), FunctionBot(spoiler), 3, 3, 3, 9, opening=[1, 1])
    assert seen[0] == [1, 1]
    for earlier, later in zip(seen, seen[1:]):
        assert later[:len(earlier)] == earlier and len(later) == len(earlier) + 1
    reference = ReferenceGame(3, 3, 3, 9)
    for col in result.moves:
        reference.play(col)
    assert result.winner == reference.winner


def test_a_slow_bot_loses_on_time_when_a_clock_is_given():
    import time

    def slow(board):
        time.sleep(0.05)
        return board.legal_columns()[0]

    quick = FunctionBot(lambda board: board.legal_columns()[-1])
    result = play_bots(quick, FunctionBot(slow), 7, 6, 4, 21, clock=Clock(per_move=0.01, grace=0.0))
    assert (result.winner, result.forfeit, result.end) == (0, 1, "timeout")
    assert result.moves == [6]


def test_a_game_clock_with_increment_runs_out_for_a_bot_slower_than_the_increment():
    import time

    def bot(delay):
        def choose(board):
            time.sleep(delay)
            return board.legal_columns()[0]
        return FunctionBot(choose)

    quick = FunctionBot(lambda board: board.legal_columns()[-1])
    # 0.1 s on the clock, +0.05 s a move, 0.08 s spent a move: a flag falls within a few moves
    clock = Clock(game=0.1, increment=0.05, grace=0.0)
    result = play_bots(quick, bot(0.08), 7, 6, 9, 21, clock=clock)
    assert (result.winner, result.forfeit, result.end) == (0, 1, "timeout")
    assert 2 <= len(result.moves) <= 12
    # the same clock without running out: thinking less than the increment
    result = play_bots(quick, bot(0.0), 3, 3, 3, 9, clock=Clock(game=0.1, increment=0.05))
    assert result.forfeit is None
