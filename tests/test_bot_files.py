"""A .py file handed to make_bot is a bot to load (it defines `choose` or
a Bot subclass) or, when executable and defining neither, a program
speaking the protocol, which make_bot runs as a process: loading one would
run its protocol loop inside the caller."""
import sys

import pytest

from clinea.bridges.make_bot import make_bot
from clinea.bridges.program_bot import ProgramBot
from clinea.players.registry import declares_bot

BOTS = {
    "def choose(board):\n    return 0\n": True,
    "from mybots import choose\n": True,
    "from mybots import best as choose\n": True,
    "import choose\n": True,
    "choose = lambda board: 0\n": True,
    "choose: object = print\n": True,
    "from clinea.players import Bot\nclass Mine(Bot):\n    pass\n": True,
    "import clinea.players\nclass Mine(clinea.players.Bot):\n    pass\n": True,
    "from clinea.players.strong_player import StrongBot\nclass Mine(StrongBot):\n    pass\n": True,
    "def choose(:\n": True,  # a broken bot file: loading it says what is wrong
    # programs: they play at import, or define nothing a bot file needs
    "from protocol import run\nrun(lambda game: 0)\n": False,
    "class Game:\n    pass\n\ndef main():\n    pass\n\nmain()\n": False,
    "def helper():\n    choose = 1\n": False,
    "": False,
}


@pytest.mark.parametrize("source,is_bot", BOTS.items(), ids=range(len(BOTS)))
def test_a_bot_is_told_from_a_program_without_running_it(tmp_path, source, is_bot):
    path = tmp_path / "file.py"
    path.write_text(source)
    assert declares_bot(str(path)) is is_bot


def test_an_executable_python_program_is_run_as_one(tmp_path):
    program = tmp_path / "reader.py"
    program.write_text(f"#!{sys.executable}\nimport sys\nsys.stdin.read()\n")
    program.chmod(0o755)
    bot = make_bot(str(program))
    try:
        assert isinstance(bot, ProgramBot) and bot.command == [str(program)]
    finally:
        bot.close()


def test_a_source_too_long_for_a_bot_is_refused(tmp_path, monkeypatch):
    from clinea.players import registry

    monkeypatch.setattr(registry, "MAX_SOURCE_BYTES", 10)
    path = tmp_path / "big.py"
    path.write_text("x = 1\n" * 5)
    with pytest.raises(ValueError, match="big.py"):
        declares_bot(str(path))
