"""The protocol driver in process: valid conversations, and every kind of
malformed or out-of-turn line (property-based)."""
import io
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from reference_rules import ReferenceGame

from clinea.players import FunctionBot, serve


def first_legal(board):
    return board.legal_columns()[0]


def conversation(games, seed):
    """Judge lines of a valid match against a bot that plays the first legal
    column, as (line, expected) pairs: `expected` names what the player waits
    for there, with the columns it would accept as the opponent's move."""
    rng = random.Random(seed)
    lines = []
    for columns, rows, c, p, player_first in games:
        lines += [("azul rojo", ("colours",)), (f"{columns} {rows} {c} {p}", ("sizes",)),
                  ("vos" if player_first else "el", ("first",))]
        game = ReferenceGame(columns, rows, c, p)
        me = 0 if player_first else 1
        acceptable = set()  # columns the player would take as the opponent's move now
        while not game.over():
            if game.moves % 2 == me:
                game.play(game.legal()[0])
                acceptable = set()
            else:
                acceptable = set(game.legal())
                column = rng.choice(game.legal())
                game.play(column)
                if not game.over():
                    lines.append((str(column), ("column", acceptable)))
        # the game-ending move is never sent: the player's board is one move behind
        word = "empataron" if game.winner is None else ("ganaste" if game.winner == me else "perdiste")
        lines.append((word, ("column", acceptable)))
    lines.append(("salir", ("colours",)))
    return lines


def run_driver(lines):
    out, err = io.StringIO(), io.StringIO()
    status = serve(FunctionBot(first_legal), io.StringIO("".join(line + "\n" for line in lines)), out, err)
    return status, out.getvalue(), err.getvalue()


sizes = st.tuples(st.integers(1, 9), st.integers(1, 9)).flatmap(
    lambda cr: st.tuples(st.just(cr[0]), st.just(cr[1]), st.integers(1, max(cr) + 1),
                         st.integers(1, cr[0] * cr[1]), st.booleans()))


@given(st.lists(sizes, min_size=1, max_size=4), st.integers(0, 10**6))
def test_valid_matches_end_with_listo_and_status_0(games, seed):
    status, out, err = run_driver([line for line, _ in conversation(games, seed)])
    assert status == 0 and err == ""
    assert out.splitlines()[-1] == "listo"
    assert all(line.isdigit() for line in out.splitlines()[:-1])


@given(st.lists(sizes, min_size=1, max_size=3), st.integers(0, 10**6), st.data())
def test_end_of_input_anywhere_exits_quietly(games, seed, data):
    lines = [line for line, _ in conversation(games, seed)]
    cut = data.draw(st.integers(0, len(lines)))
    status, out, err = run_driver(lines[:cut])
    assert status == 0 and err == ""


RESULT_WORDS = ("ganaste", "perdiste", "empataron", "empataste")
NOT_A_NUMBER = st.text(max_size=12).filter(
    lambda t: not (t.strip().isascii() and t.strip().lstrip("-").isdigit())
    and t.strip() not in RESULT_WORDS and "\n" not in t and "\r" not in t)


def garbage_for(expected):
    """Lines that are wrong where the player waits for `expected`."""
    kind = expected[0]
    if kind == "colours":
        return st.one_of(NOT_A_NUMBER.filter(lambda t: sorted(t.split()) != ["azul", "rojo"]
                                             and t.strip() != "salir"),
                         st.sampled_from(["azul azul", "rojo", "azul rojo verde", "3"]))
    if kind == "sizes":
        return st.one_of(NOT_A_NUMBER, st.sampled_from(["7 6 4", "7 6 4 21 1", "0 6 4 21", "7 6 0 21",
                                                          "7 -6 4 21", "7 6 4 x", "7.0 6 4 21", "200 6 4 21"]))
    if kind == "first":
        return st.sampled_from(["", "yo", "vos vos", "3", "VOS", "salir", "ganaste", "vos x", "el 3 -1",
                                "vos 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"])
    acceptable = expected[1]
    return st.one_of(st.integers(-3, 12).filter(lambda col: col not in acceptable).map(str),
                     st.sampled_from(["salir", "azul rojo", "gane", "", "3 4", "vos", "+-1", "1_0", "1.0",
                                      "9" * 5001, "-" + "0" * 19 + "1"]),
                     NOT_A_NUMBER)


@given(st.lists(sizes, min_size=1, max_size=2), st.integers(0, 10**6), st.data())
@settings(max_examples=300)
def test_malformed_line_anywhere_exits_2_with_one_stderr_line(games, seed, data):
    script = conversation(games, seed)
    where = data.draw(st.integers(0, len(script) - 1))
    bad = data.draw(garbage_for(script[where][1]))
    lines = [line for line, _ in script[:where]] + [bad] + [line for line, _ in script[where + 1:]]
    status, out, err = run_driver(lines)
    assert status == 2, (lines, out, err)
    assert err.count("\n") == 1 and err.startswith("player: protocol error: got ")
    assert all(line.isdigit() for line in out.splitlines())
LINES = st.one_of(st.text(max_size=30).map(lambda t: t.replace("\n", " ").replace("\r", " ")),
                  st.integers(-10**30, 10**30).map(str), st.just("7" * 5001), st.just("x" * 100_000),
                  st.sampled_from(["azul rojo", "rojo azul", "7 6 4 21", "vos", "el", "ganaste", "salir", "+3"]))


@given(st.lists(LINES, max_size=12))
@settings(max_examples=300)
def test_any_input_ends_in_status_0_or_2_with_at_most_one_short_stderr_line(lines):
    """Whatever arrives, the player never raises, never hangs, and
    complains in one line of bounded length."""
    status, out, err = run_driver(lines)
    assert status in (0, 2), (lines, err)
    assert err.count("\n") == (status == 2) and len(err) < 700
    assert all(line.isdigit() or line == "listo" for line in out.splitlines())


def test_transcript_records_both_directions():
    lines = [line for line, _ in conversation([(4, 4, 3, 8, True)], 1)]
    transcript = io.StringIO()
    serve(FunctionBot(first_legal), io.StringIO("".join(l + "\n" for l in lines)), io.StringIO(),
          io.StringIO(), transcript=transcript)
    assert "> azul rojo\n" in transcript.getvalue() and "< listo\n" in transcript.getvalue()


def test_a_bot_choosing_an_illegal_column_is_reported_not_sent():
    out, err = io.StringIO(), io.StringIO()
    status = serve(FunctionBot(lambda board: 99), io.StringIO("azul rojo\n7 6 4 21\nvos\n"), out, err)
    assert status == 1 and out.getvalue() == "" and "99" in err.getvalue()


@given(st.integers(1, 9), st.integers(1, 9), st.lists(st.integers(0, 10**6), max_size=12), st.booleans())
def test_opening_extension_starts_from_the_position(columns, rows, picks, my_turn):
    """`vos|el PLY...` (our judge's --openings): the bot sees the opening played."""
    game = ReferenceGame(columns, rows, 4, columns * rows)
    opening = []
    for pick in picks:
        if game.over() or len(game.legal()) == 0:
            break
        col = game.legal()[pick % len(game.legal())]
        game.play(col)
        if game.over():
            game = None
            break
        opening.append(col)
    if game is None:
        return
    seen = []

    class Recorder(FunctionBot):
        def new_game(self, board, me):
            seen.append((board.moves(), me))

    out, err = io.StringIO(), io.StringIO()
    line = " ".join(["vos" if my_turn else "el", *map(str, opening)])
    status = serve(Recorder(first_legal), io.StringIO(f"azul rojo\n{columns} {rows} 4 {columns * rows}\n{line}\n"),
                   out, err)
    assert status == 0 and err.getvalue() == ""
    side = len(opening) % 2
    assert seen == [(opening, side if my_turn else 1 - side)]
    assert (out.getvalue() != "") == my_turn
