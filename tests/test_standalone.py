"""The repository stands alone and bots run from anywhere: the sdist builds,
installs and plays in a fresh virtualenv; players reached through links,
bots written by `clinea new-bot` and the README's snippet run under the
judge with nothing activated; bot files and plug-in packages are players."""
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest
from judge_helpers import C_LINEA, REPO, bot, records, run_judge
from plugin_site import write_plugin_site

import clinea

BIN = Path(sys.executable).parent
PLAYERS = Path(REPO) / "players"


def bare_env(**extra) -> dict:
    """The environment of a course judge started from a plain shell: no
    virtualenv active, no clinea on PYTHONPATH."""
    env = {key: value for key, value in os.environ.items() if key not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if Path(p) != BIN)
    env.update(extra)
    return env


def judged(tmp_path, blue: list[str], red: list[str], games: int = 4, env=None, cwd=None) -> list[dict]:
    """Plays `games` games between two programs; returns their records,
    after checking that nobody forfeited."""
    results = tmp_path / f"games{len(list(tmp_path.glob('games*.jsonl')))}.jsonl"  # a new run, a new file
    done = run_judge(["--blue_player", *blue, "--red_player", *red, "--iterations", str(games),
                      "--results", str(results)], timeout=120, env=env, cwd=cwd)
    assert done.returncode == 0, done.stdout + done.stderr
    games_played = records(results)
    assert len(games_played) == games
    assert all(game["reason"] in ("connect", "draw") for game in games_played), games_played
    return games_played


def test_a_player_reached_through_a_chain_of_links_runs_with_the_repository_venv(tmp_path):
    (tmp_path / "bin").mkdir()
    link = tmp_path / "bin" / "mybot"
    link.symlink_to(PLAYERS / "strong")
    judge_link = tmp_path / "bin" / "c_linea"
    judge_link.symlink_to(C_LINEA)
    # a results file per run: the judge refuses to append another run's games to one
    results = tmp_path / f"games-{len(list(tmp_path.glob('games-*.jsonl')))}.jsonl"
    done = subprocess.run([str(judge_link), "--blue_player", f"{link} --time-per-move 0.05",
                           "--red_player", str(PLAYERS / "random"), "--iterations", "2", "--first", "azul",
                           "--results", str(results)],
                          capture_output=True, text=True, timeout=120, env=bare_env(), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # strong, moving first against random, wins: it really is strong behind the link
    assert [game["winner"] for game in records(results)] == ["azul", "azul"]


def test_launch_needs_a_player_name():
    done = subprocess.run([str(PLAYERS / "launch")], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "usage" in done.stderr


def test_new_bot_writes_an_executable_bot_that_runs_anywhere(tmp_path):
    path = tmp_path / "elsewhere" / "mybot.py"
    path.parent.mkdir()
    done = subprocess.run([str(BIN / "clinea"), "new-bot", str(path)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert path.read_text().splitlines()[0] == f"#!{sys.executable}"
    assert os.access(path, os.X_OK)
    # run from another folder, with nothing activated, as the course judge would
    judged(tmp_path, [str(path)], [str(PLAYERS / "random")], env=bare_env(), cwd=tmp_path)
    again = subprocess.run([str(BIN / "clinea"), "new-bot", str(path)], capture_output=True, text=True, timeout=30)
    assert again.returncode == 2 and "exists" in again.stderr


def readme_bot_snippet() -> str:
    """The README's bot example: the python block of "Write your own bot"."""
    readme = (Path(REPO) / "README.md").read_text()
    section = readme.split("## Write and run a bot", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert blocks, "the README's bot section has no python example"
    return blocks[0]


def test_the_readme_bot_snippet_works_as_written(tmp_path):
    path = tmp_path / "mybot.py"
    path.write_text(readme_bot_snippet())
    path.chmod(0o755)
    # as written: a file run by the Python that has clinea, under the judge
    judged(tmp_path, [sys.executable, str(path)], [str(PLAYERS / "random")], cwd=tmp_path)
    # and as a bot file given to clinea play
    judged(tmp_path, [str(BIN / "clinea"), "play", str(path)], [str(PLAYERS / "random")], cwd=tmp_path)


FILE_BOTS = {
    "only_choose.py": """
        def choose(board):
            return board.legal_columns()[-1]
        """,
    "a_bot_class.py": """
        from clinea.players import Bot

        class Rightmost(Bot):
            name = "rightmost"

            def choose(self, board):
                return board.legal_columns()[-1]
        """,
}


@pytest.mark.parametrize("name", sorted(FILE_BOTS))
def test_clinea_play_runs_a_bot_file(tmp_path, name):
    path = tmp_path / name
    path.write_text(textwrap.dedent(FILE_BOTS[name]))
    # a bot that always plays the rightmost legal column, moving first on 4x4 c=4:
    # its first four moves fill column 3 bottom-up, whatever the opponent does
    # a results file per run: the judge refuses to append another run's games to one
    results = tmp_path / f"games-{len(list(tmp_path.glob('games-*.jsonl')))}.jsonl"
    done = run_judge(["--blue_player", str(BIN / "clinea"), "play", str(path), "--red_player", *bot("random_bot.py"),
                      "--columns", "4", "--rows", "4", "--c", "4", "--first", "azul", "--iterations", "2",
                      "--results", str(results)], timeout=60)
    assert done.returncode == 0, done.stderr
    for game in records(results):
        assert game["reason"] in ("connect", "draw")
        assert game["moves"][0] == 3


def test_clinea_play_refuses_a_file_without_a_bot(tmp_path):
    path = tmp_path / "nothing.py"
    path.write_text("x = 1\n")
    done = subprocess.run([str(BIN / "clinea"), "play", str(path)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "neither a Bot subclass nor a choose" in done.stderr


def test_clinea_play_names_an_unknown_player():
    done = subprocess.run([str(BIN / "clinea"), "play", "nosuchplayer"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "'nosuchplayer'" in done.stderr and "strong" in done.stderr


def test_a_package_registers_a_player_through_entry_points(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(write_plugin_site(tmp_path))}
    listed = subprocess.run([str(BIN / "clinea"), "play", "--list"], capture_output=True, text=True,
                            timeout=30, env=env)
    assert listed.returncode == 0 and re.search(r"^plugbot\s+plugbots:Leftmost$", listed.stdout, flags=re.M)
    assert re.search(r"^strong\s", listed.stdout, flags=re.M)
    # named in the judge as a registered player, beside a built-in one
    # a results file per run: the judge refuses to append another run's games to one
    results = tmp_path / f"games-{len(list(tmp_path.glob('games-*.jsonl')))}.jsonl"
    done = run_judge(["--player", "plugbot", "--player", "random", "--iterations", "2",
                      "--results", str(results)], timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    games = records(results)
    assert len(games) == 2
    for game in games:
        plugbot_moves = game["moves"][game["players"].index("plugbot")::2]
        assert plugbot_moves[0] == 0


def test_every_built_in_player_has_its_command():
    from clinea.players.registry import BUILTIN

    for name in BUILTIN:
        done = subprocess.run([str(BIN / f"clinea-{name}"), "--help"], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0 and "usage" in done.stdout, name


def test_version_is_the_installed_one():
    done = subprocess.run([str(BIN / "clinea"), "--version"], capture_output=True, text=True, timeout=30)
    assert done.stdout.strip() == f"clinea {clinea.__version__}"
    assert importlib.metadata.version("clinea") == clinea.__version__


def test_nothing_outside_ci_refers_to_files_beside_the_repository():
    """The project's shared folder exists only beside development checkouts;
    users clone the repository alone. (The path is assembled here so that
    this test does not find itself.)"""
    needle = "/".join(["..", "shared"])
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, timeout=30)
    assert tracked.returncode == 0
    offenders = []
    for name in tracked.stdout.splitlines():
        path = Path(REPO) / name
        if name.startswith(".ci/") or not path.is_file() or "tests/data/" in name:
            continue
        if needle in path.read_text(errors="replace"):
            offenders.append(name)
    assert offenders == []


@pytest.mark.slow
def test_the_sdist_builds_installs_in_a_fresh_venv_and_plays(tmp_path):
    """What a user of the published package gets: the sdist alone builds (in
    pip's isolated environment), installs, and its players play a game."""
    dist = tmp_path / "dist"
    built = subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", str(dist), REPO],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    assert "warning" not in built.stdout.lower() + built.stderr.lower()
    (sdist,) = dist.glob("clinea-*.tar.gz")
    listing = subprocess.run(["tar", "tzf", str(sdist)], capture_output=True, text=True, timeout=60).stdout
    for needed in ("core/board.pyx", "core/board.pxd", "players/launch", "judge/c_linea", "LICENSE",
                   "README.md", "docs/PROTOCOL.md", "tests/data/pons/Test_L1_R1", "tests/conftest.py",
                   "arena/view_page.html", "core/board.pyi", "core/solver.pyi", "clinea/py.typed"):
        assert f"/{needed}\n" in listing, needed
    # build outputs stay out: the C Cython writes, objects and libraries (judge/seat_exec.c is a source)
    assert not re.search(r"core/\S+\.c\n|\.(so|o)\n", listing)
    assert "/judge/seat_exec.c\n" in listing

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    installed = subprocess.run([str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q", str(sdist)],
                               capture_output=True, text=True, timeout=1200, cwd=tmp_path)
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    # far from the working tree, the installed package is what runs
    where = subprocess.run([str(python), "-c", "import clinea.core.board as b; print(b.__file__)"],
                           capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert str(env_dir) in where.stdout, where.stdout + where.stderr
    # with GCC, pip's isolated build too compiles the solver from its profile
    # (setup.py's profile-guided step; a failed step only warns, out of sight)
    built_by = subprocess.run([str(python), "-c", "from clinea.core.solver import BUILD_COMPILER, BUILD_PROFILE_GUIDED; "
                               "print(BUILD_COMPILER.split()[0], BUILD_PROFILE_GUIDED)"],
                              capture_output=True, text=True, timeout=60, cwd=tmp_path)
    compiler, guided = built_by.stdout.split()
    assert compiler != "GCC" or guided == "True", built_by.stdout + built_by.stderr
    results = tmp_path / "game.jsonl"
    game = subprocess.run([str(env_dir / "bin" / "clinea"), "judge",
                           "--blue_player", f"{env_dir / 'bin' / 'clinea-strong'} --time-per-move 0.05",
                           "--red_player", str(env_dir / "bin" / "clinea"), "play", "random",
                           "--iterations", "1", "--results", str(results)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert game.returncode == 0, game.stdout + game.stderr
    (record,) = records(results)
    assert record["reason"] in ("connect", "draw") and len(record["moves"]) >= 7
    # typed for users: a type checker run on a user's script sees the compiled
    # core through the installed stubs, and catches a misuse
    script = tmp_path / "uses_clinea.py"
    script.write_text("from clinea import Board\nfrom clinea.core.solver import Solver\n\n"
                      "board: Board = Board(7, 6)\nboard.play(3)\nscore: int | None = Solver().solve(board)\n"
                      "board.play('three')\n")
    checked = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-executable",
                              str(python), str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    findings = [line for line in checked.stdout.splitlines() if ": error:" in line]
    assert len(findings) == 1 and ":7: error:" in findings[0] and '"play" of "Board"' in findings[0], checked.stdout
    # the replay page's template is package data: the installed clinea finds it
    page = subprocess.run([str(env_dir / "bin" / "clinea"), "view", str(results), "--quiet"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert page.returncode == 0, page.stderr
    assert f'"m":{json.dumps(record["moves"], separators=(",", ":"))}' in (tmp_path / "game.html").read_text()


def test_clinea_play_refuses_a_bot_file_over_the_bound_naming_it(tmp_path):
    path = tmp_path / "huge.py"
    path.write_text(textwrap.dedent(FILE_BOTS["only_choose.py"]) + "#" * (5 << 20) + "\n")
    done = subprocess.run([str(BIN / "clinea"), "play", str(path)], input="salir\n", capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip() == f"clinea play {path}: {path}: larger than 4 MiB, the most allowed here"
