"""Every player through every bridge: each registered player (the built-in
ones, and a plug-in package's, found through its entry point), a bot file
defining a Bot subclass, a bot file defining `choose`, and a protocol
program, each plays a game through each way clinea offers of running a
player, on two board sizes, from both seats.

A new registered player is covered by registering it (add options to
fast_options.py if its defaults are slow); a new bridge by one function in
BRIDGES; another kind of player by one entry in PLAYERS.
"""
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyspiel
import pytest
from fast_options import FAST_OPTIONS, FROM_THE_START
from judge_helpers import records
from kaggle_environments import evaluate, make
from plugin_site import PLUGIN_PLAYER, write_plugin_site
from protocol_referee import GameSpec, play_match
from reference_rules import ReferenceGame

from clinea.bridges.kaggle import as_agent
from clinea.bridges.make_bot import make_bot
from clinea.bridges.openspiel import as_spiel_bot, load_game
from clinea.core import Board, Rules
from clinea.players import registry

REPO = Path(__file__).resolve().parents[1]
BOTS = REPO / "tests" / "bots"
CLINEA = str(Path(sys.executable).parent / "clinea")
# Kaggle and OpenSpiel have no token limit: boards whose tokens fill them
BOARDS = [Rules(7, 6, 4, 21), Rules(9, 8, 5, 36)]
# the plug-in package is installed (on sys.path and PYTHONPATH) only while
# this module's tests run, and while its players are listed for them
_SITE_ROOT = tempfile.TemporaryDirectory(prefix="clinea-bridges-")
PLUGIN_SITE = str(write_plugin_site(Path(_SITE_ROOT.name)))


@dataclass(frozen=True)
class Player:
    """One player under test. `words` name it as a user names it to
    make_bot, as_agent and as_spiel_bot; `command` runs it as a process
    under a referee; `judged` is what follows NAME= in `clinea judge --player`."""
    id: str
    words: tuple[str, ...]
    command: tuple[str, ...]
    judged: tuple[str, ...]


def registered(name: str) -> Player:
    words = (name, *FAST_OPTIONS.get(name, ()), *FROM_THE_START.get(name, ()))
    return Player(name, words, (CLINEA, "play", *words), words)


def bot_file(path: Path, *options: str) -> Player:
    words = (str(path), *options)
    return Player(path.name, words, (CLINEA, "play", *words), (CLINEA, "play", *words))


def program(path: Path, *arguments: str) -> Player:
    words = (str(path), *arguments)
    return Player(f"{path.name}(program)", words, words, words)


def registered_players() -> list[str]:
    sys.path.insert(0, PLUGIN_SITE)
    try:
        return sorted(registry.players())
    finally:
        sys.path.remove(PLUGIN_SITE)


PLAYERS = [registered(name) for name in registered_players()] + [
    bot_file(BOTS / "class_bot.py", "--lean", "2"),
    bot_file(REPO / "players" / "example_bot.py"),
    program(BOTS / "first_legal.py"),
]


@pytest.fixture(scope="module", autouse=True)
def plugin_installed():
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(PLUGIN_SITE)
        patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [PLUGIN_SITE, os.environ.get("PYTHONPATH")])))
        yield


def test_the_plugin_is_among_the_players():
    """The matrix below runs every registered player: the plug-in's too."""
    assert PLUGIN_PLAYER in {player.id for player in PLAYERS}
    assert set(registry.BUILTIN) < {player.id for player in PLAYERS}


def close(bot) -> None:
    """Ends a protocol program's process (a ProgramBot); other bots have none."""
    if hasattr(bot, "close"):
        bot.close()


# ---- the bridges: each plays one game of `player` on `rules`, moving first
# when `seat` is 0, and fails on anything wrong

def through_clinea_play(player: Player, rules: Rules, seat: int, tmp_path: Path) -> None:
    """A real process under the protocol, every column checked by the reference rules."""
    report = play_match(list(player.command), [GameSpec(*rules, player_first=seat == 0)], seed=seat)
    assert report.exit_code == 0, report.stderr
    assert len(report.results) == 1


def through_clinea_judge(player: Player, rules: Rules, seat: int, tmp_path: Path) -> None:
    """A judged game: its record replays legally and says who won as the tally does."""
    results = tmp_path / "games.jsonl"
    seats = [f"tested={shlex.join(player.judged)}", "opponent=random --seed 5"]
    done = subprocess.run([CLINEA, "judge", *(f"--player={word}" for word in seats[::1 - 2 * seat]),
                           "--iterations", "1", "--seed", "1", "--results", str(results),
                           "--columns", str(rules.columns), "--rows", str(rules.rows),
                           "--c", str(rules.c), "--p", str(rules.p)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    [game] = records(results)
    assert game["forfeit"] is None and game["reason"] in ("connect", "draw"), game
    assert game["players"][seat] == "tested"
    reference = ReferenceGame(*rules)
    for column in game["moves"]:
        reference.play(column)
    assert reference.over()
    expected = None if reference.winner is None else game["players"][reference.winner]
    assert game["winner"] == expected and (game["reason"] == "draw") == (expected is None)
    won, lost, drawn = (game["winner"] == "tested", game["winner"] == "opponent", game["winner"] is None)
    assert re.search(rf"^tested: \+{won:d} -{lost:d} ={drawn:d}", done.stdout, flags=re.M), done.stdout


def through_make_bot(player: Player, rules: Rules, seat: int, tmp_path: Path) -> None:
    """In process against a random opponent, every column checked by the reference rules."""
    bot = make_bot(list(player.words))
    rng = random.Random(seat)
    board, reference = Board(*rules), ReferenceGame(*rules)
    try:
        bot.new_game(board.copy(), seat)
        while not reference.over():
            column = bot.choose(board.copy()) if reference.moves % 2 == seat else rng.choice(reference.legal())
            assert column in reference.legal(), f"column {column!r} on {board.to_string()!r}"
            board.play(column)
            reference.play(column)
    finally:
        bot.stop_pondering()
        close(bot)


def connectx(rules: Rules) -> dict:
    return {"columns": rules.columns, "rows": rules.rows, "inarow": rules.c}


def through_kaggle_run(player: Player, rules: Rules, seat: int, tmp_path: Path) -> None:
    """One episode of Kaggle's own ConnectX, which rejects an illegal column or an agent's error."""
    agent = as_agent(list(player.words))
    agents = ["random", "random"]
    agents[seat] = agent
    try:
        steps = make("connectx", configuration=connectx(rules), debug=True).run(agents)
    finally:
        close(agent.bot)
    last = steps[-1]
    assert [state["status"] for state in last] == ["DONE", "DONE"], last
    assert sorted(state["reward"] for state in last) in ([-1, 1], [0, 0])
    assert (seat + 1) in last[0]["observation"]["board"]  # its stones are there


def through_kaggle_evaluate(player: Player, rules: Rules, seat: int, tmp_path: Path) -> None:
    """Kaggle's evaluate, which scores an erring agent None."""
    agent = as_agent(list(player.words))
    agents = ["random", "random"]
    agents[seat] = agent
    try:
        [rewards] = evaluate("connectx", agents, configuration=connectx(rules), num_episodes=1, debug=True)
    finally:
        close(agent.bot)
    assert sorted(rewards) in ([-1, 1], [0, 0]), rewards


def through_openspiel(player: Player, rules: Rules, seat: int, tmp_path: Path) -> None:
    """OpenSpiel's evaluate_bots, whose connect_four refuses an illegal action."""
    game = load_game(*rules[:3])
    bot = as_spiel_bot(list(player.words))
    bots = [pyspiel.make_uniform_random_bot(side, 7) for side in (0, 1)]
    bots[seat] = bot
    try:
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)
    finally:
        close(bot.bot)
    assert sorted(returns) in ([-1, 1], [0, 0]), returns
    assert bot.follower.after is not None and bot.follower.after.moves_played >= 1 + seat  # it moved


BRIDGES: dict[str, Callable[[Player, Rules, int, Path], None]] = {
    "clinea-play": through_clinea_play,
    "clinea-judge": through_clinea_judge,
    "make_bot": through_make_bot,
    "kaggle-run": through_kaggle_run,
    "kaggle-evaluate": through_kaggle_evaluate,
    "openspiel": through_openspiel,
}


@pytest.mark.parametrize("board", range(len(BOARDS)), ids=[f"{r.columns}x{r.rows}c{r.c}" for r in BOARDS])
@pytest.mark.parametrize("bridge", list(BRIDGES))
@pytest.mark.parametrize("player", PLAYERS, ids=[player.id for player in PLAYERS])
def test_every_player_plays_through_every_bridge(player, bridge, board, tmp_path):
    # first to move on one board, second on the other
    BRIDGES[bridge](player, BOARDS[board], board % 2, tmp_path)


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_a_player_without_a_verbose_option_is_made_in_process(name):
    """--verbose exists only for players that report; building one of the
    others in process (the Kaggle and OpenSpiel bridges do) must not read it."""
    bot = make_bot(name)
    assert bot.verbose is False
    board = Board(7, 6, 4, 21)
    bot.new_game(board.copy(), 0)
    assert bot.choose(board.copy()) in board.legal_columns()
