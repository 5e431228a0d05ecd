"""The replay page of `clinea view` in a real headless browser: Debian's
chromium driven by Selenium through the system's chromedriver (make test
installs both; Selenium's own downloads do not work offline). The page is
loaded from file://, stepped through with the keys, and its board, values
and first blunder checked against the core and the solver; no request may
leave it, and a screenshot must show a drawn page."""
import io
import subprocess
import sys

import pytest
from headless_chromium import headless_chromium, network_events
from PIL import Image
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait
from view_games import write_results

from clinea.arena.analysis import analyse, finishing_ply
from clinea.core import Board, Rules
from clinea.core.solver import Solver

# every position of 6x4 solves in milliseconds (7x6's early ones take up to
# 0.3 s past the book): the page's values are exact even on a loaded machine
SIZE = Rules(6, 4, 4, 12)


@pytest.fixture(scope="module")
def browser():
    with headless_chromium() as driver:
        yield driver


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """A results file of random games and a forfeit, and its page."""
    folder = tmp_path_factory.mktemp("page")
    results = folder / "run.jsonl"
    records = write_results(results, SIZE, 8, seed=3, forfeit=True)
    done = subprocess.run([sys.executable, "-m", "clinea", "view", str(results), "--quiet", "--solve-time", "10"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return folder / "run.html", records


def load(browser, path, fragment=""):
    browser.get(path.as_uri() + fragment)
    WebDriverWait(browser, 20).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
    browser.get_log("browser")  # what loading said is read below, per test
    return browser.find_element(By.TAG_NAME, "body")


def shown_ply(browser) -> int:
    return int(browser.find_element(By.TAG_NAME, "body").get_attribute("data-ply"))


def board_cells(browser) -> dict:
    """{(col, row): player or None, ...} as the page shows them."""
    return shown_position(browser)[0]


def shown_position(browser) -> tuple[dict, list, str, str]:
    """The board's cells, the cells marked as the last move, the status
    line and the value it prints, read in one call."""
    cells, status, value = browser.execute_script(
        "const value = document.querySelector('#status .value');"
        "return [[...document.querySelectorAll('#board .cell')].map(c => [+c.dataset.col, +c.dataset.row, "
        "c.dataset.player, c.classList.contains('last'), !!c.querySelector('.disc')]),"
        "document.getElementById('status').textContent, value ? value.textContent : ''];")
    shown, last = {}, []
    for col, row, player, is_last, disc in cells:
        assert disc == (player != "")
        shown[col, row] = None if player == "" else int(player)
        if is_last:
            last.append((col, row))
    return shown, last, status, value


def open_game(browser, index):
    browser.find_element(By.CSS_SELECTOR, f'#games tr[data-index="{index}"]').click()
    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-game") == str(index)


def value_text(score, stones, max_moves, mover_to_move):
    """What the page must print for a position's exact value, for the
    player `mover_to_move` tells (True: the side to move)."""
    ply = finishing_ply(score, stones, max_moves)
    if ply is None:
        return "draw"
    winner = (ply - 1) % 2
    player = stones % 2 if mover_to_move else 1 - stones % 2
    left = (ply - stones + 1) // 2 if ply > stones else 0
    if left == 0:
        return "won" if winner == player else "lost"
    return ("win" if winner == player else "loss") + f" in {left}"


def test_stepping_with_the_keys_shows_each_position_and_its_exact_value(browser, page):
    path, records = page
    body = load(browser, path)
    index = max(range(len(records) - 1), key=lambda i: len(records[i]["moves"]))
    open_game(browser, index)
    moves = records[index]["moves"]
    solver = Solver()
    board = Board(*SIZE)
    assert shown_ply(browser) == 0 and all(v is None for v in board_cells(browser).values())
    for ply in range(1, len(moves) + 1):
        body.send_keys(Keys.ARROW_RIGHT)
        assert shown_ply(browser) == ply
        board.play(moves[ply - 1])
        shown, last, status, value = shown_position(browser)
        assert shown == {(col, row): (board.cell(col, row) - 1 if board.cell(col, row) else None)
                         for col in range(SIZE.columns) for row in range(SIZE.rows)}
        assert last == [(moves[ply - 1], board.height(moves[ply - 1]) - 1)]
        # the value after the move, for its mover, as the solver has it
        assert f"played column {moves[ply - 1]} (ply {ply})" in status
        assert value == value_text(solver.solve(board), ply, board.max_moves, mover_to_move=False)
    body.send_keys(Keys.ARROW_RIGHT)  # past the end: stays
    assert shown_ply(browser) == len(moves)
    body.send_keys(Keys.HOME)
    assert shown_ply(browser) == 0
    body.send_keys(Keys.END)
    assert shown_ply(browser) == len(moves)
    body.send_keys(Keys.ARROW_LEFT)
    assert shown_ply(browser) == len(moves) - 1


def winning_line(moves, c):
    """The cells in line with the last stone, c or more of them: every
    maximal run of the winner's stones on the board, scanned plainly, that
    holds the last stone."""
    board = Board.from_moves(moves, *SIZE)
    last = (moves[-1], board.height(moves[-1]) - 1)
    me = board.cell(*last)
    mine = lambda x, y: 0 <= x < SIZE.columns and 0 <= y < SIZE.rows and board.cell(x, y) == me
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for x in range(SIZE.columns):
            for y in range(SIZE.rows):
                if mine(x, y) and not mine(x - dx, y - dy):  # a run starts here
                    run = []
                    while mine(x + len(run) * dx, y + len(run) * dy):
                        run.append((x + len(run) * dx, y + len(run) * dy))
                    if len(run) >= c and last in run:
                        return sorted(run)
    return None


def test_the_first_blunder_is_the_solvers_and_the_winning_line_is_highlighted(browser, page):
    path, records = page
    body = load(browser, path)
    solver = Solver()
    checked = faster_seen = 0
    for index, record in enumerate(records[:-1]):
        expected = analyse(SIZE, record["moves"], solver, time_limit=0)
        blunders = [mark for mark in expected.marks if mark.lost]
        open_game(browser, index)
        rows = browser.find_elements(By.CSS_SELECTOR, "#moves tr.blunder")
        assert [int(row.get_attribute("data-ply")) for row in rows] == [mark.ply for mark in blunders]
        faster = browser.find_elements(By.CSS_SELECTOR, "#moves tr.faster")
        assert [int(row.get_attribute("data-ply")) for row in faster] == [
            mark.ply for mark in expected.marks if mark.lost_faster]
        assert all("lost faster" in row.text for row in faster)
        faster_seen += len(faster)
        button = browser.find_element(By.ID, "to-blunder")
        if blunders:
            first = blunders[0]
            body.send_keys("b")
            assert shown_ply(browser) == first.ply
            note = browser.find_element(By.ID, "status-note").text
            assert note == f"first blunder: threw away a {first.lost}"
            highlighted = browser.find_element(By.CSS_SELECTOR, "#moves tr.blunder.current")
            assert highlighted.get_attribute("data-ply") == str(first.ply)
            assert "first blunder" in highlighted.text
            assert browser.find_elements(By.CSS_SELECTOR, f'#chart .first-blunder[data-ply="{first.ply}"]')
            checked += 1
        else:
            assert not button.is_enabled()
        body.send_keys(Keys.END)
        shown = browser.find_element(By.ID, "board").get_attribute("data-winning")
        if record["reason"] == "connect":
            cells = sorted(tuple(map(int, cell.split(":"))) for cell in shown.split())
            assert cells == winning_line(record["moves"], SIZE.c)
            assert len(browser.find_elements(By.CSS_SELECTOR, "#board .cell.win")) == len(cells) >= SIZE.c
        else:
            assert shown == ""
    assert checked >= 3 and faster_seen >= 1  # random players throw results away and lose faster


def test_a_forfeit_is_shown_with_its_reason(browser, page):
    path, records = page
    body = load(browser, path)
    open_game(browser, len(records) - 1)
    body.send_keys(Keys.END)
    banner = browser.find_element(By.ID, "banner")
    assert "forfeit" in banner.get_attribute("class")
    assert banner.text == f"\u26a0 c forfeits: {records[-1]['reason']}"
    assert "column 6 out of range 0..5" in banner.text


def test_filters_by_player_and_result(browser, page):
    path, records = page
    load(browser, path)
    visible = lambda: [int(row.get_attribute("data-index"))
                       for row in browser.find_elements(By.CSS_SELECTOR, "#games tbody tr:not(.hidden)")]
    assert visible() == list(range(len(records)))
    Select(browser.find_element(By.ID, "filter-player")).select_by_visible_text("c")
    assert visible() == [len(records) - 1]
    Select(browser.find_element(By.ID, "filter-player")).select_by_visible_text("a")
    Select(browser.find_element(By.ID, "filter-result")).select_by_value("won")
    assert visible() == [i for i, r in enumerate(records) if r["winner"] == "a"]
    Select(browser.find_element(By.ID, "filter-result")).select_by_value("forfeit")
    assert visible() == [i for i, r in enumerate(records) if r["forfeit"] is not None]
    Select(browser.find_element(By.ID, "filter-player")).select_by_index(0)
    Select(browser.find_element(By.ID, "filter-result")).select_by_value("connect")
    assert visible() == [i for i, r in enumerate(records) if r["reason"] == "connect"]


def test_no_request_leaves_the_page(browser, page):
    path, _ = page
    network_events(browser)  # only this load's events below
    load(browser, path)
    requested = [event["params"]["request"]["url"] for event in network_events(browser)
                 if event["method"] == "Network.requestWillBeSent"]
    assert requested == [path.as_uri()]
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    assert not browser.get_log("browser")  # nothing refused or failed while the page ran
    # and the policy refuses what the page might be made to fetch
    refused = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        let refusals = 0;
        document.addEventListener('securitypolicyviolation', () => refusals++);
        const image = new Image();
        image.src = 'http://127.0.0.1:9/probe.png';
        document.body.append(image);
        fetch('http://127.0.0.1:9/probe').catch(() => null).finally(() => setTimeout(() => done(refusals), 200));
    """)
    assert refused == 2
    events = network_events(browser)
    probes = {event["params"]["requestId"] for event in events if event["method"] == "Network.requestWillBeSent"}
    blocked = {event["params"]["requestId"] for event in events if event["method"] == "Network.loadingFailed"
               and event["params"].get("blockedReason") == "csp"}
    assert probes and probes == blocked


def drawn(png: bytes) -> tuple[int, float]:
    """Distinct colours of a screenshot, and the share of its pixels that
    are not its most common colour (the background)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 20)
    background = max(colours)[0]
    return len(colours), 1 - background / (image.width * image.height)


def test_a_screenshot_shows_a_drawn_page_and_a_blank_one_fails(browser, page, tmp_path):
    path, _ = page
    (tmp_path / "blank.html").write_text("<!DOCTYPE html><title>blank</title>")
    browser.get((tmp_path / "blank.html").as_uri())
    colours, share = drawn(browser.get_screenshot_as_png())
    assert colours < 5 and share < 0.01  # the check below would fail on it
    load(browser, path, "#game=0&ply=12")
    png = browser.get_screenshot_as_png()
    (tmp_path / "page.png").write_bytes(png)
    colours, share = drawn(png)
    assert colours > 200 and share > 0.3, (colours, share)
    # the board itself is drawn: discs of both colours in it
    board = Image.open(io.BytesIO(browser.find_element(By.ID, "board").screenshot_as_png)).convert("RGB")
    pixels = list(board.get_flattened_data() if hasattr(board, 'get_flattened_data') else board.getdata())
    near = lambda rgb, ref: sum(abs(a - b) for a, b in zip(rgb, ref)) < 40
    assert sum(near(p, (0x00, 0x72, 0xb2)) for p in pixels) > 500
    assert sum(near(p, (0xd5, 0x5e, 0x00)) for p in pixels) > 500


def test_a_20x20_board_is_drawn_with_every_column_numbered_from_0(browser, tmp_path):
    results = tmp_path / "big.jsonl"
    records = write_results(results, Rules(20, 20, 5, 200), 2, seed=7)
    done = subprocess.run([sys.executable, "-m", "clinea", "view", str(results), "--quiet", "--solve-time", "0.05"],
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    body = load(browser, tmp_path / "big.html")
    body.send_keys(Keys.END)
    labels = [label.text for label in browser.find_elements(By.CSS_SELECTOR, "#board .labels div")]
    assert labels == [str(col) for col in range(20)]
    cell = browser.find_element(By.CSS_SELECTOR, '#board .cell[data-col="0"][data-row="0"]')
    assert cell.size["width"] >= 24  # legible
    shown = board_cells(browser)
    final = Board.from_moves(records[0]["moves"], 20, 20, 5, 200)
    assert sum(v is not None for v in shown.values()) == len(records[0]["moves"])
    assert all(shown[col, row] == (final.cell(col, row) - 1 if final.cell(col, row) else None)
               for col in range(20) for row in range(20))
    if records[0]["reason"] == "connect":  # the line of 5 (or more) through the last stone
        line = browser.find_element(By.ID, "board").get_attribute("data-winning").split()
        last = records[0]["moves"][-1]
        assert len(line) >= 5 and f"{last}:{final.height(last) - 1}" in line
