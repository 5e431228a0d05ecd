"""`clinea serve` as its users use it: a real server on loopback, its API and
pages over HTTP, its league playing real sandboxed games, and a SIGKILL."""
from __future__ import annotations

import ast
import csv
import http.client
import http.cookiejar
import io
import os
import re
import sqlite3
import stat
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clinea.judge.sandbox import bubblewrap_problem
from clinea.serve import course as serve_course

pytest.importorskip("starlette")

from judge_helpers import wait_until  # noqa: E402
from serve_helpers import (  # noqa: E402
    Course,
    api,
    free_port,
    init_course,
    multipart,
    running_server,
    start_server,
    stop_server,
    upload,
)

GOOD_BOT = b"""import random

def choose(board):
    return random.choice(board.legal_columns())
"""
# says why on stderr, then plays a column that does not exist
BAD_BOT = b"""import sys

def choose(board):
    print("my bot is lost", file=sys.stderr, flush=True)
    return 99
"""
# seconds to wait for a verdict or a rating before failing: twice the promise, for a loaded
# machine (how long it really takes is benchmarks/serve_rating.py's figure, not a test's)
RATED_WITHIN = 120.0


class Browser:
    """A session as a browser keeps it: the cookie, the pages' CSRF tokens."""

    def __init__(self, course: Course):
        self.course = course
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def request(self, path: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, str]:
        request = urllib.request.Request(self.course.url + path, data=data, headers=headers or {})
        try:
            with self.opener.open(request, timeout=60) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def csrf(self, path: str = "/") -> str:
        _, text = self.request(path)
        found = re.search(r'name="csrf" value="([^"]+)"', text)
        assert found, text[:500]
        return found.group(1)

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str]:
        return self.request(path, urllib.parse.urlencode(fields).encode())

    def sign_in(self, token: str) -> str:
        status, text = self.post("/sign-in", {"token": token, "csrf": self.csrf()})
        assert status == 200, text[:500]
        return text


def rated(course: Course, bot: int) -> dict | None:
    _, standings = api(course, "GET", "/api/standings", course.teacher_token)
    return next((row for row in standings["bots"] if row["id"] == bot and row["rating"] is not None), None)


def verdict(course: Course, token: str, bot: int) -> dict | None:
    status, answer = api(course, "GET", f"/api/bots/{bot}", token)
    assert status == 200, answer
    return answer if answer["verdict"] != "checking" else None


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory):
    with running_server(tmp_path_factory.mktemp("serve") / "course", ["alice", "bob", "Chloé Ünal"],
                        time_per_move=0.2) as started:
        yield started


@pytest.fixture(scope="module")
def alice_bot(course: Course) -> int:
    """Alice's bot, uploaded through the API, checked and rated."""
    status, answer = upload(course, course.tokens["alice"], "alice.py", GOOD_BOT)
    assert status == 201, answer
    assert answer["verdict"] == "checking" and answer["name"] == "alice" and answer["version"] == 1
    bot = answer["id"]
    # one wait for both: the smoke game and the rating games count in the 60 s
    wait_until(lambda: rated(course, bot), RATED_WITHIN, "alice's bot rated")
    assert verdict(course, course.tokens["alice"], bot)["verdict"] == "passed"
    return bot


def test_an_upload_is_checked_rated_and_its_games_replayable(course: Course, alice_bot: int):
    row = rated(course, alice_bot)
    assert row["name"] == "alice" and row["version"] == 1 and row["games"] >= 1
    low, high = row["interval"]
    assert low < row["rating"] < high
    status, games = api(course, "GET", f"/api/games?bot={alice_bot}", course.tokens["alice"])
    assert status == 200 and games["games"]
    game = games["games"][0]
    assert "alice v1" in (game["blue"], game["red"]) and game["replay"] == f"/games/{game['id']}/replay"
    browser = Browser(course)
    browser.sign_in(course.tokens["bob"])  # anyone signed in sees any replay
    status, page = browser.request(game["replay"])
    assert status == 200 and "alice v1" in page and "Content-Security-Policy" in page
    status, table = browser.request("/standings")
    assert status == 200 and 'id="standings"' in table and 'id="crosstable"' in table and "alice" in table
    shown = re.search(r'id="rating">(-?\d+) \(95 %: (-?\d+) to (-?\d+)\)<', Browser(course).sign_in(course.tokens["alice"]))
    assert shown and int(shown[2]) <= int(shown[1]) <= int(shown[3])  # alice's own page: her rating, number first


def test_a_failing_upload_shows_its_reason_and_stderr_to_its_owner_only(course: Course, alice_bot: int):
    status, answer = upload(course, course.tokens["bob"], "bob.py", BAD_BOT)
    assert status == 201, answer
    checked = wait_until(lambda: verdict(course, course.tokens["bob"], answer["id"]), RATED_WITHIN, "bob's verdict")
    assert checked["verdict"] == "failed" and "my bot is lost" in checked["stderr"]
    assert "99" in checked["reason"]
    assert api(course, "GET", f"/api/bots/{answer['id']}", course.tokens["alice"])[0] == 403
    assert api(course, "GET", f"/api/bots/{answer['id']}", course.teacher_token)[0] == 200
    browser = Browser(course)
    page = browser.sign_in(course.tokens["bob"])
    assert re.search(r'class="verdict">failed', page) and "my bot is lost" in page
    # alice's seat's stderr is alice's
    _, games = api(course, "GET", f"/api/games?bot={alice_bot}", course.tokens["alice"])
    assert browser.request(f"/games/{games['games'][0]['id']}/stderr")[0] == 403


def test_the_api_wants_a_valid_token(course: Course):
    assert api(course, "GET", "/api/standings", None)[0] == 401
    assert api(course, "GET", "/api/standings", "not-a-token")[0] == 401
    assert upload(course, "not-a-token", "x.py", GOOD_BOT)[0] == 401


def test_forms_without_their_csrf_token_are_refused(course: Course):
    browser = Browser(course)
    assert browser.post("/sign-in", {"token": course.tokens["alice"]})[0] == 403
    assert browser.post("/sign-in", {"token": course.tokens["alice"], "csrf": "forged"})[0] == 403
    browser.sign_in(course.tokens["alice"])
    body, headers = multipart({}, "alice.py", GOOD_BOT)
    assert browser.request("/student/upload", body, headers)[0] == 403
    body, headers = multipart({"csrf": browser.csrf("/student")}, "alice2.py", GOOD_BOT)
    status, page = browser.request("/student/upload", body, headers)
    assert status == 200 and "version 2" in page


def test_a_re_upload_replaces_the_bot_and_keeps_the_old_ones_games(course: Course, alice_bot: int):
    status, answer = upload(course, course.tokens["alice"], "alice3.py", GOOD_BOT)
    assert status == 201 and answer["version"] > 1
    wait_until(lambda: rated(course, answer["id"]), RATED_WITHIN, "alice's new version rated")
    _, standings = api(course, "GET", "/api/standings", course.tokens["bob"])
    assert [(row["id"], row["version"]) for row in standings["bots"] if row["name"] == "alice"] == [
        (answer["id"], answer["version"])]  # one line a student: the latest version
    _, games = api(course, "GET", f"/api/games?bot={alice_bot}", course.tokens["alice"])
    assert games["games"] and all("alice v1" in (game["blue"], game["red"]) for game in games["games"])


def announced(course: Course, path: str, length: int, headers: dict[str, str]) -> int:
    """The status of a POST whose headers announce `length` bytes that are never sent."""
    connection = http.client.HTTPConnection(course.url.removeprefix("http://"), timeout=60)
    connection.putrequest("POST", path)
    for name, value in {**headers, "Content-Length": str(length)}.items():
        connection.putheader(name, value)
    connection.endheaders()
    status = connection.getresponse().status
    connection.close()
    return status


def test_a_body_above_the_limit_is_refused_before_it_is_read(course: Course):
    """The answer comes from the headers alone: the body is never sent."""
    upload_headers = {"Authorization": f"Bearer {course.tokens['alice']}",
                      "Content-Type": "multipart/form-data; boundary=x"}
    assert announced(course, "/api/bots", 3 << 20, upload_headers) == 413
    assert announced(course, "/sign-in", 1 << 20, {"Content-Type": "application/x-www-form-urlencoded"}) == 413


# reads what it should not, says what it found, then plays
SNOOPING_BOT = b"""import os, random, sys

here = os.path.dirname(os.path.abspath(__file__))
course = os.path.dirname(os.path.dirname(here))


def look(path):
    try:
        if os.path.isdir(path):
            return sorted(os.listdir(path))
        with open(path, "rb") as file:
            return file.read(64)
    except OSError as error:
        return type(error).__name__


bots = os.path.join(course, "bots")
found = {name: look(os.path.join(course, name)) for name in ("tokens.csv", "teacher-token", "state")}
found.update({name: look(os.path.join(bots, name)) for name in os.listdir(bots) if os.path.join(bots, name) != here})
print("FOUND", repr(found), file=sys.stderr, flush=True)


def choose(board):
    return random.choice(board.legal_columns())
"""


def test_a_seat_sees_no_token_no_store_and_no_other_bot(course: Course, alice_bot: int):
    if bubblewrap_problem() is not None:
        pytest.skip(f"no sandbox here: {bubblewrap_problem()}")
    token = course.tokens["Chloé Ünal"]
    status, answer = upload(course, token, "snoop.py", SNOOPING_BOT)
    assert status == 201, answer
    checked = wait_until(lambda: verdict(course, token, answer["id"]), RATED_WITHIN, "the snooping bot's verdict")
    found = ast.literal_eval(checked["stderr"].split("FOUND ", 1)[1].strip())
    # the token files unreadable or empty, the store's folder empty
    assert found.pop("tokens.csv") in (b"", "PermissionError") and found.pop("teacher-token") in (b"", "PermissionError")
    assert found.pop("state") == []
    others = {folder.name for folder in (course.folder / "bots").iterdir()} - {f"v{answer['id']}"}
    # alice's bot and bob's failed one at least: each folder there, and empty
    assert set(found) == others and len(others) >= 2 and all(seen == [] for seen in found.values())


def test_uploads_are_rate_limited_per_student(course: Course):
    """Ten uploads a minute, refused ones included (they cost the checks all the same)."""
    bob, alice = course.tokens["bob"], course.tokens["alice"]
    statuses = [upload(course, bob, "../x.py", GOOD_BOT)[0] for _ in range(12)]
    refused = statuses.index(429)
    # ten in all: bob's upload of the failing bot's test, when it ran, was one of them
    assert refused in (9, 10) and statuses == [400] * refused + [429] * (12 - refused)
    assert upload(course, alice, "../x.py", GOOD_BOT)[0] == 400  # another student's own count


def test_a_body_without_a_length_is_cut_at_the_limit(course: Course):
    connection = http.client.HTTPConnection(course.url.removeprefix("http://"), timeout=60)
    body, headers = multipart({}, "big.py", b"#" * (3 << 20))
    connection.request("POST", "/api/bots", body=iter([body[i:i + 65536] for i in range(0, len(body), 65536)]),
                       headers={**headers, "Authorization": f"Bearer {course.tokens['alice']}"},
                       encode_chunked=True)
    answer = connection.getresponse()
    assert answer.status == 413 and b"limit" in answer.read()


def test_failed_sign_ins_are_rate_limited_per_address(tmp_path: Path):
    with running_server(tmp_path / "course", ["eve"]) as course:
        browser = Browser(course)
        for _ in range(20):
            assert browser.post("/sign-in", {"token": "guess", "csrf": browser.csrf()})[0] == 401
        status, page = browser.post("/sign-in", {"token": course.tokens["eve"], "csrf": browser.csrf()})
        assert status == 429 and "too many failed sign-ins" in page
        assert api(course, "GET", "/api/standings", course.tokens["eve"])[0] == 200  # the address is kept off the pages only


def test_serve_run_without_its_extra_says_what_to_install(tmp_path: Path):
    init_course(tmp_path / "course", ["ann"])
    hide = "import sys; sys.modules['starlette'] = None; from clinea.main import main; sys.exit(main())"
    done = subprocess.run([sys.executable, "-c", hide, "serve", "run", str(tmp_path / "course")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr == "clinea serve run: clinea serve needs the serve extra: " \
        "pip install 'clinea[serve]'\n"


def test_serve_run_without_a_sandbox_plays_nothing_and_says_why(tmp_path: Path):
    """No bubblewrap (here: none on the PATH), no games: a student's bot never runs unconfined."""
    init_course(tmp_path / "course", ["ann"])
    done = subprocess.run([sys.executable, "-m", "clinea", "serve", "run", str(tmp_path / "course")],
                          capture_output=True, text=True, timeout=60, env={**os.environ, "PATH": str(tmp_path)})
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "sandboxed seats" in done.stderr and "bwrap is not installed" in done.stderr


def test_init_keeps_the_tokens_private_and_refuses_a_bad_roster(tmp_path: Path):
    tokens, teacher = init_course(tmp_path / "course", ["ann", "ben"])
    assert set(tokens) == {"ann", "ben"} and len(set(tokens.values()) | {teacher}) == 3
    for name in ("tokens.csv", "teacher-token"):
        assert stat.S_IMODE((tmp_path / "course" / name).stat().st_mode) == 0o600
    stored = sqlite3.connect(tmp_path / "course" / "state" / "course.db").execute(
        "SELECT name, token_hash, extra FROM students").fetchall()
    assert not any(token in str(stored) for token in [*tokens.values(), teacher])  # hashes only
    assert "ann@example.org" in next(row[2] for row in stored if row[0] == "ann")  # the roster's other columns
    for roster, said in ((b"email\nx@y\n", "no `name` column"), (b"name\nann\nann\n", "comes twice"),
                         (b"name\n", "no student"), (b"\xff\xfe\x00", "--students")):
        path = tmp_path / "roster.csv"
        path.write_bytes(roster)
        done = subprocess.run([sys.executable, "-m", "clinea", "serve", "init", str(tmp_path / "new"),
                               "--students", str(path)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and said in done.stderr and len(done.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "new").exists()


def league_games(folder: Path) -> dict[str, str]:
    with sqlite3.connect(folder / "state" / "course.db") as db:
        return dict(db.execute("SELECT game_id, record FROM games"))


def test_a_server_killed_mid_league_loses_and_repeats_nothing(tmp_path: Path):
    folder = tmp_path / "course"
    tokens, teacher = init_course(folder, ["dora"], time_per_move=0.2)
    port = free_port()
    course = Course(f"http://127.0.0.1:{port}", tokens, teacher, folder, start_server(folder, port))
    try:
        status, first = upload(course, tokens["dora"], "dora.py", GOOD_BOT)
        assert status == 201
        wait_until(lambda: games_of(folder, first["id"]) >= 2, RATED_WITHIN, "dora's first games")
        status, second = upload(course, tokens["dora"], "dora2.py", GOOD_BOT)
        assert status == 201  # acknowledged: it must survive the kill, its check in flight or not
    finally:
        stop_server(course.process)  # SIGKILL, games in flight
    before = league_games(folder)
    course.process = start_server(folder, port)
    try:
        assert api(course, "GET", f"/api/bots/{first['id']}", tokens["dora"])[1]["verdict"] == "passed"
        wait_until(lambda: rated(course, second["id"]), RATED_WITHIN, "dora's second version rated after the kill")
        # the standings count the stored games, no more, no fewer (read between two counts, as games go on)
        stored_before = games_of(folder, second["id"])
        shown = rated(course, second["id"])["games"]
        assert stored_before <= shown <= games_of(folder, second["id"])
    finally:
        stop_server(course.process)
    after = league_games(folder)
    assert {game_id: after[game_id] for game_id in before} == before  # every game kept, none played again
    assert sorted(game_id for game_id in after if game_id.startswith("smoke|")) == [
        f"smoke|v{first['id']}", f"smoke|v{second['id']}"]  # each upload checked once
    with sqlite3.connect(folder / "state" / "course.db") as db:
        assert db.execute("SELECT COUNT(*) FROM versions").fetchone() == (2,)


def games_of(folder: Path, bot: int) -> int:
    """The stored league games of a version."""
    return sum(f"v{bot}" in game_id.split("|") and not game_id.startswith("smoke|")
               for game_id in league_games(folder))


def zipped(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


def test_a_zip_with_its_entry_point_plays_and_a_hostile_one_is_refused(course: Course):
    token = course.tokens["Chloé Ünal"]
    helper = b"import random\n\ndef pick(board):\n    return random.choice(board.legal_columns())\n"
    bot = b"from helper import pick\n\ndef choose(board):\n    return pick(board)\n"
    status, answer = upload(course, token, "chloe.zip", zipped({"src/helper.py": helper, "src/play.py": bot}),
                            entry="src/play.py")
    assert status == 201, answer
    checked = wait_until(lambda: verdict(course, token, answer["id"]), RATED_WITHIN, "the zip's verdict")
    assert checked["verdict"] == "passed", checked
    status, refused = upload(course, token, "evil.zip", zipped({"../../escape.py": bot}))
    assert status == 400 and "escape.py" in refused["error"] and "\n" not in refused["error"]
    assert not (course.folder.parent / "escape.py").exists()
    status, refused = upload(course, token, "../up.py", GOOD_BOT)
    assert status == 400 and refused["error"]


def test_the_teacher_closes_runs_the_final_and_downloads_grades(course: Course, alice_bot: int):
    browser = Browser(course)
    page = browser.sign_in(course.teacher_token)
    assert 'id="close"' in page and "alice" in page
    assert 'id="bots"' in page and 'id="games"' in page and 'class="replay"' in page  # every bot, the games
    assert Browser(course).request("/teacher/grades.csv")[0] == 401
    student = Browser(course)
    student.sign_in(course.tokens["alice"])
    assert student.request("/teacher/grades.csv")[0] == 403
    assert api(course, "GET", "/teacher/grades.csv", course.tokens["alice"])[0] == 403
    assert browser.post("/teacher/close", {"csrf": browser.csrf("/teacher")})[0] == 200
    assert upload(course, course.tokens["alice"], "late.py", GOOD_BOT)[0] == 403
    assert browser.post("/teacher/final", {"csrf": browser.csrf("/teacher"), "games": "2"})[0] == 200

    def final_done() -> bool:
        _, page = browser.request("/teacher")
        found = re.search(r'id="final-progress">(\d+) of (\d+)', page)
        return bool(found) and found.group(1) == found.group(2)

    wait_until(final_done, 90, "the final round robin")
    status, text = browser.request("/teacher/grades.csv")
    assert status == 200
    grades = {row["name"]: float(row["grade"]) for row in csv.DictReader(io.StringIO(text))}
    assert set(grades) == {"alice", "bob", "Chloé Ünal"}
    assert grades["bob"] == 0.0  # no bot that passed its check
    assert api(course, "GET", "/teacher/grades.csv", course.teacher_token) == (200, text)  # a script's download
    status, text = browser.request("/teacher/standings.csv")
    final = {row["name"]: row for row in csv.DictReader(io.StringIO(text))}
    # the final seats every student's bot that passed (alice's, Chloé's when the zip test ran) and the baselines
    players = set(final) - {"random", "greedy"}
    assert status == 200 and {"random", "greedy", "alice"} <= set(final) and "bob" not in players
    assert all(int(row["games"]) == 2 * (len(final) - 1) for row in final.values())  # 2 against each other
    # the rule --help states, from the final's standings: random 0, the best student 10
    elo = {name: float(row["rating"]) for name, row in final.items()}
    best = max(elo[name] for name in players)
    for name in players:
        expected = 10 * min(1, max(0, (elo[name] - elo["random"]) / (best - elo["random"]))) if best > elo["random"] else 0
        assert grades[name] == pytest.approx(expected, abs=0.051)


def test_the_league_plays_on_ray_with_ray(ray_address, tmp_path: Path):
    """--ray ADDRESS: the games are the judge's Ray backend's, the rest the same."""
    folder = tmp_path / "course"
    tokens, teacher = init_course(folder, ["rui"], time_per_move=0.2)
    port = free_port()
    course = Course(f"http://127.0.0.1:{port}", tokens, teacher, folder,
                    start_server(folder, port, "--ray", ray_address, "--concurrency", "2"))
    try:
        status, answer = upload(course, tokens["rui"], "rui.py", GOOD_BOT)
        assert status == 201
        wait_until(lambda: rated(course, answer["id"]), 2 * RATED_WITHIN, "rui's bot rated on Ray")
    finally:
        stop_server(course.process)
    assert "not played" not in (folder / "server.log").read_text()  # no game failed on Ray on the way


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(st.characters(exclude_categories=("C", "Z")), min_size=1, max_size=20)
                .map(lambda name: name + ", \"quoted\"" if len(name) % 3 == 0 else name),
                min_size=1, max_size=8, unique=True))
def test_any_roster_gets_one_working_token_a_student(tmp_path: Path, names: list[str]):
    """Commas, quotes and any script in a name: tokens.csv names each student as the roster did,
    and each token signs in as its student and no other."""
    folder = tmp_path / f"course-{len(list(tmp_path.iterdir()))}"
    roster = folder.with_suffix(".csv")
    with open(roster, "w", newline="", encoding="utf-8") as file:
        csv.writer(file).writerows([["email", "name"], *(["x@example.org", name] for name in names)])
    teacher = serve_course.init_course(folder, roster, serve_course.CourseSettings())
    with open(folder / "tokens.csv", newline="", encoding="utf-8") as file:
        tokens = [(row["name"], row["token"]) for row in csv.DictReader(file)]
    assert [name for name, _ in tokens] == names
    store = serve_course.Course(folder).store
    assert [store.person(token).name for _, token in tokens] == names
    assert store.person(teacher).teacher and store.person(teacher + "x") is None


def test_port_zero_says_where_it_serves_and_a_port_in_use_is_one_line(tmp_path: Path):
    folder = tmp_path / "course"
    init_course(folder, ["ada"])
    command = [sys.executable, "-m", "clinea", "serve", "run", str(folder)]
    process = subprocess.Popen([*command, "--port", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    try:
        assert process.stderr is not None
        said = [process.stderr.readline() for _ in range(2)]
        found = re.search(r" at (http://127\.0\.0\.1:(\d+)/)$", said[1].rstrip("\n"))
        assert found, said
        with urllib.request.urlopen(found[1], timeout=30) as page:
            assert page.status == 200
        taken = subprocess.run([*command, "--port", found[2]], capture_output=True, text=True, timeout=60)
        assert taken.returncode == 2
        assert taken.stderr.splitlines() == [f"clinea serve run: cannot listen on 127.0.0.1:{found[2]}: "
                                             "Address already in use"]
    finally:
        stop_server(process)
