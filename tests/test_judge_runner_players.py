"""Players joining and leaving a running schedule (the judge's Runner, as
`clinea league` drives it), with real player processes."""
import threading
import time

from judge_helpers import bot

from clinea.core import Rules
from clinea.judge.referee import Clock
from clinea.judge.tournament import Player, Runner, pairing_game

SIZE = Rules(7, 6, 4, 21)


def runner(*players):
    # a clock that never runs out within the test: only the removal can end a hung game
    return Runner(list(players), SIZE, lambda: Clock(per_move=600.0), concurrency=1)


def run_in_thread(run, specs):
    played, skipped = [], []
    thread = threading.Thread(target=run, args=(specs, played.append, skipped.append), daemon=True)
    thread.start()
    return thread, played, skipped


def test_removing_a_player_ends_its_game_in_flight_and_skips_its_next_ones():
    table = runner(Player("hang", bot("hang.py")), Player("rand", bot("random_bot.py")))
    games = [pairing_game("hang", "rand", 0), pairing_game("hang", "rand", 1)]
    thread, played, skipped = run_in_thread(table.run, iter(games))
    deadline = time.monotonic() + 60
    while not any(seats.get("hang") and seats["hang"].process for seats in table.live_seats):
        assert time.monotonic() < deadline, "hang.py never started"
        time.sleep(0.05)
    time.sleep(0.5)  # hang.py answers its first move, then never again
    assert thread.is_alive() and not played
    table.remove_player("hang")
    thread.join(timeout=60)  # without the removal: ten minutes of a 600 s clock
    assert not thread.is_alive()
    assert [(game.id, game.end, game.forfeit) for game in played] == [("hang|rand|0", "crash", "hang")]
    assert [spec.id for spec in skipped] == ["hang|rand|1"]


def test_a_player_added_while_the_run_goes_on_plays_its_games():
    table = runner(Player("a", bot("random_bot.py", "1")), Player("b", bot("random_bot.py", "2")))

    def schedule():
        yield pairing_game("a", "b", 0)
        table.add_player(Player("c", bot("random_bot.py", "3")))
        yield pairing_game("a", "c", 0)
        yield pairing_game("b", "c", 0)

    thread, played, skipped = run_in_thread(table.run, schedule())
    thread.join(timeout=60)
    assert not thread.is_alive() and not skipped
    assert [game.id for game in played] == ["a|b|0", "a|c|0", "b|c|0"]
    assert all(game.forfeit is None for game in played)
