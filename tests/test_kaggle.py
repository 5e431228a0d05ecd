"""Kaggle ConnectX, both ways, in Kaggle's own environment: clinea players
as agents (names with options, Bots, functions, protocol programs) and
Kaggle agents as clinea players under the judge."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kaggle_environments import evaluate, make

from clinea.bridges.kaggle import as_agent, board_from_observation, kaggle_board
from clinea.bridges.kaggle_player import KaggleAgentBot
from clinea.core import Board
from clinea.core.solver import Solver
from clinea.players.bot import Bot

REPO = Path(__file__).resolve().parents[1]
STANDARD = {"rows": 6, "columns": 7, "inarow": 4}
SMALL = {"rows": 4, "columns": 5, "inarow": 3}  # solved in a blink: strong plays it perfectly


def game_value(configuration: dict) -> int:
    """The empty board's exact value for the first player: 1, 0 or -1."""
    return Solver().solve(Board(configuration["columns"], configuration["rows"], configuration["inarow"]), weak=True)


def final(steps):
    """Statuses and rewards of the last step of a ConnectX run."""
    return [s["status"] for s in steps[-1]], [s["reward"] for s in steps[-1]]


@pytest.mark.parametrize("configuration", [STANDARD, SMALL])
def test_a_perfect_player_never_scores_below_the_games_value(configuration):
    """strong is exact on these boards (the opening book on 7x6, a full
    solve on 5x4), so against Kaggle's negamax it gets at least the game's
    value from either seat, and the game ends properly."""
    env = make("connectx", configuration=configuration)
    value = game_value(configuration)
    for seat in (0, 1):
        agents = ["negamax", "negamax"]
        agents[seat] = as_agent("strong --time-per-move 0.2")
        statuses, rewards = final(env.run(agents))
        assert statuses == ["DONE", "DONE"]
        assert rewards[seat] >= (value if seat == 0 else -value)


def test_a_protocol_program_plays_through_an_agent():
    env = make("connectx", configuration=SMALL)
    value = game_value(SMALL)
    program = as_agent([str(REPO / "players" / "strong"), "--time-per-move", "0.2"])
    try:
        for seat in (1, 0):  # the same process, game after game, from either seat
            agents = ["negamax", "negamax"]
            agents[seat] = program
            statuses, rewards = final(env.run(agents))
            assert statuses == ["DONE", "DONE"]
            assert rewards[seat] >= (value if seat == 0 else -value)
    finally:
        program.bot.close()


class CountingBot(Bot):
    """Plays the centremost legal column; counts games and checks the
    history it is given is the game's."""
    name = "counting"

    def __init__(self):
        self.games = 0
        self.start = None

    def new_game(self, board, me):
        self.games += 1
        self.start = board.moves_played

    def choose(self, board):
        assert board.moves_played - self.start <= 2 * (board.columns * board.rows)
        legal = board.legal_columns()
        return min(legal, key=lambda col: abs(2 * col - board.columns + 1))


def test_evaluate_runs_many_episodes_with_one_bot_and_a_function():
    bot = CountingBot()
    configuration = {"rows": 5, "columns": 9, "inarow": 5}
    rewards = evaluate("connectx", [as_agent(bot), "random"], configuration=configuration, num_episodes=3)
    assert len(rewards) == 3 and all(sorted(r) in ([-1, 1], [0, 0]) for r in rewards)
    assert bot.games == 3  # a new game noticed at every episode

    def leftmost(board):
        return board.legal_columns()[0]

    rewards = evaluate("connectx", ["random", as_agent(leftmost)], configuration=configuration, num_episodes=2)
    assert all(None not in r for r in rewards)


@st.composite
def positions(draw):
    columns = draw(st.integers(1, 9))
    rows = draw(st.integers(1, 8))
    c = draw(st.integers(2, 6))
    board = Board(columns, rows, c)
    for choice in draw(st.lists(st.integers(0, 100), max_size=columns * rows)):
        if board.is_over():
            break
        legal = board.legal_columns()
        column = legal[choice % len(legal)]
        if board.is_winning_move(column) or board.moves_played + 1 == board.max_moves:
            break  # keep the game open: agents are asked only then
        board.play(column)
    return board


def position_fingerprint(board: Board) -> int:
    """A column that depends on every stone, the side to move and c: any
    slip in a conversion changes it."""
    legal = board.legal_columns()
    weight = sum((index + 1) * cell for index, cell in enumerate(kaggle_board(board)))
    return legal[(weight + 7 * board.side_to_move + board.c) % len(legal)]


@given(positions())
@settings(max_examples=200)
def test_board_to_kaggle_and_back_is_the_same_position(board):
    observation = {"board": kaggle_board(board), "mark": board.side_to_move + 1}
    configuration = {"rows": board.rows, "columns": board.columns, "inarow": board.c}
    assert board_from_observation(observation, configuration).grid() == board.grid()
    # and a bot behind an agent behind a Kaggle-agent bot sees what it would see directly
    round_trip = KaggleAgentBot(as_agent(position_fingerprint))
    assert round_trip.choose(board.copy()) == position_fingerprint(board)


def test_a_wrong_mark_is_refused():
    with pytest.raises(ValueError, match="mark 1 is not the side to move"):
        board_from_observation({"board": [0, 0, 1, 0], "mark": 1}, {"rows": 2, "columns": 2, "inarow": 2})


def test_unknown_players_are_refused_with_the_choices():
    with pytest.raises(ValueError, match="neither a registered player .*strong"):
        as_agent("no-such-player")
    with pytest.raises(ValueError, match="--time-per-move.*out of range|time-per-move=-1"):
        as_agent("strong --time-per-move -1")


def judge(tmp_path, *players, size=("5", "4", "3", "10"), games=2):
    results = tmp_path / "r.jsonl"
    argv = [sys.executable, "-m", "clinea", "judge", *players, "--iterations", str(games), "--results", str(results),
            "--columns", size[0], "--rows", size[1], "--c", size[2], "--p", size[3], "--quiet"]
    finished = subprocess.run(argv, capture_output=True, text=True, timeout=240, cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr
    return [json.loads(line) for line in results.read_text().splitlines()[1:]]


def test_kaggles_negamax_under_the_judge_against_strong_on_7x6(tmp_path):
    records = judge(tmp_path, "--player", "negamax=kaggle negamax", "--player", "strong --time-per-move 0.2",
                    size=("7", "6", "4", "21"), games=2)
    assert [r["forfeit"] for r in records] == [None, None]
    # strong is perfect on 7x6 from the first move: it wins the game it opens
    assert any(r["players"][0] == "strong" and r["winner"] == "strong" for r in records)


def test_a_kaggle_agent_file_plays_as_written_under_the_judge(tmp_path):
    """The test agent plays the leftmost column whose top cell is free in
    Kaggle's layout: every one of its moves in the records is that column."""
    agent = REPO / "tests" / "bots" / "kaggle_agent.py"
    records = judge(tmp_path, "--player", f"file=kaggle {agent}", "--player", "random", size=("6", "5", "4", "15"))
    for record in records:
        assert record["forfeit"] is None
        board = Board(record["columns"], record["rows"], record["c"], record["p"])
        for move in record["moves"]:
            if record["players"][board.side_to_move] == "file":
                assert move == board.legal_columns()[0]
            board.play(move)


def test_the_kaggle_player_names_a_bad_agent_in_one_line():
    result = subprocess.run([str(REPO / "players" / "kaggle"), "nothing"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1].endswith("agent 'nothing' is neither one of Kaggle's (negamax, random) "
                                                   "nor a .py file")


def test_without_the_extra_kaggles_agents_say_how_to_install_it(tmp_path):
    """Kaggle's own agents need kaggle-environments (hidden from this
    interpreter here); a file agent does not."""
    code = ("import sys; sys.modules['kaggle_environments'] = None\n"
            "from clinea.players.registry import main\n"
            "sys.exit(main(['kaggle', sys.argv[1]]))")
    missing = subprocess.run([sys.executable, "-c", code, "negamax"], capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2
    assert missing.stderr.splitlines()[-1].endswith("pip install 'clinea[kaggle]'")
    agent = str(REPO / "tests" / "bots" / "kaggle_agent.py")
    plays = subprocess.run([sys.executable, "-c", code, agent], input="azul rojo\n5 4 3 10\nvos\n",
                           capture_output=True, text=True, timeout=60)
    assert plays.returncode == 0 and plays.stdout == "0\n"
