"""The course's web service: pages for students and the teacher, and the JSON API.

Starlette on uvicorn (the serve extra). Students sign in with their token
(a signed session cookie, HttpOnly, SameSite=Lax) or send it as a bearer
token to the API; every POST form carries the session's CSRF token; a body
above its bound is refused from its Content-Length or, without one, as
soon as it grows past it; uploads and sign-in attempts are rate-limited.
"""
from __future__ import annotations

import csv
import hmac
import io
import os
import secrets
import shlex
import shutil
import tempfile
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from clinea.arena.league.standings import Standings, wdl
from clinea.arena.view import Page, render
from clinea.judge import seat_settings
from clinea.judge.process_seat import STARTUP_GRACE
from clinea.judge.referee import Clock
from clinea.judge.results import ResultLog
from clinea.judge.sandbox import SeatLimits
from clinea.judge.seat_settings import SeatSettings
from clinea.serve.course import Course
from clinea.serve.league import ANCHORS, BASELINES, CourseLeague
from clinea.serve.store import FINAL, Game, Person, Store, Version
from clinea.serve.uploads import MAX_UPLOAD_BYTES, UploadRefused, store_upload

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: a form or an API call other than an upload is small
FORM_LIMIT = 64 * 1024
#: an upload's body: the file, plus the multipart framing and the other fields
UPLOAD_LIMIT = MAX_UPLOAD_BYTES + FORM_LIMIT
UPLOAD_PATHS = ("/api/bots", "/student/upload")
#: (attempts, seconds): uploads per person, failed sign-ins per client address
UPLOAD_RATE = (10, 60.0)
SIGN_IN_RATE = (20, 60.0)
REPLAY_SOLVE_TIME = 0.02
TEACHER_GAMES = 100  # the latest games listed on the teacher's page (/games: a thousand)
REPLAYS_KEPT = 256  # pages of games, a few dozen KiB each
SESSION_DAYS = 14
#: the course's own pages run no script and load nothing but themselves; their forms post
#: to the server only, and no other site may frame them (clickjacking)
PAGE_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; "
               "base-uri 'none'")
#: seconds between reloads of a student's page while an upload is being checked
CHECKING_REFRESH = 3
RESULTS_LIMIT = 4 * 1024 * 1024  # a one-game file is a few KiB


class BodyLimit:
    """413 for a request body above its path's bound, before it is read."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = UPLOAD_LIMIT if scope["path"] in UPLOAD_PATHS else FORM_LIMIT
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await too_large(limit)(scope, receive, send)
            return
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                raise BodyTooLarge
            return message

        try:
            await self.app(scope, bounded, send)
        except BodyTooLarge:
            await too_large(limit)(scope, receive, send)


class BodyTooLarge(Exception):
    pass


def too_large(limit: int) -> Response:
    return JSONResponse({"error": f"the request is larger than the limit of {limit} bytes"}, 413)


class RateLimit:
    """At most `count` events a key in any `seconds`."""

    def __init__(self, count: int, seconds: float):
        self.count, self.seconds = count, seconds
        self.events: dict[Any, deque[float]] = {}
        self.lock = threading.Lock()

    def full(self, key: Any) -> bool:
        """Whether `key` has had its `count` events in the last `seconds`."""
        now = time.monotonic()
        with self.lock:
            events = self.events.get(key)
            while events and events[0] <= now - self.seconds:
                events.popleft()
            if events is not None and not events:
                del self.events[key]  # a key that has waited long enough costs no memory
            return events is not None and len(events) >= self.count

    def note(self, key: Any) -> None:
        with self.lock:
            self.events.setdefault(key, deque()).append(time.monotonic())


@dataclass
class Service:
    course: Course
    league: CourseLeague
    templates: Environment
    uploads: RateLimit
    sign_ins: RateLimit
    replays: dict[int, str] = field(default_factory=dict)  # the latest pages, oldest first
    replays_lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def store(self) -> Store:
        return self.course.store


class Refusal(Exception):
    """An answer other than success: the status and one line."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def service(request: Request) -> Service:
    found: Service = request.app.state.service
    return found


# ------------------------------------------------------------ who asks

def bearer(request: Request) -> Person:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    person = service(request).course.store.person(token.strip()) if scheme.lower() == "bearer" else None
    if person is None:
        raise Refusal(401, "a valid token is needed: Authorization: Bearer TOKEN")
    return person


def session_person(request: Request) -> Person | None:
    person_id = request.session.get("person")
    return None if not isinstance(person_id, int) else service(request).course.store.person_by_id(person_id)


def csrf_token(request: Request) -> str:
    token = request.session.get("csrf")
    if not isinstance(token, str):
        token = request.session["csrf"] = secrets.token_urlsafe(32)
    return token


def check_csrf(request: Request, form: FormData) -> None:
    sent, kept = form.get("csrf"), request.session.get("csrf")
    if not isinstance(sent, str) or not isinstance(kept, str) or not hmac.compare_digest(sent, kept):
        raise Refusal(403, "the form's CSRF token is missing or stale: reload the page and try again")


def page(request: Request, template: str, title: str, status: int = 200, **values: Any) -> HTMLResponse:
    text = service(request).templates.get_template(template).render(
        title=title, person=session_person(request), csrf=csrf_token(request), **values)
    return HTMLResponse(text, status, headers={"content-security-policy": PAGE_POLICY})


def signed_in(request: Request, teacher: bool = False) -> Person:
    person = session_person(request)
    if person is None:
        raise Refusal(401, "sign in first")
    if teacher and not person.teacher:
        raise Refusal(403, "only the teacher may do that")
    return person


def teacher(request: Request) -> Person:
    """The teacher, signed in on the pages or by a bearer token (a script
    downloading the CSV files)."""
    if "authorization" not in request.headers:
        return signed_in(request, teacher=True)
    person = bearer(request)
    if not person.teacher:
        raise Refusal(403, "only the teacher may do that")
    return person


# ------------------------------------------------------------ what it shows

def display(store: Store) -> dict[str, str]:
    """Player name in the records -> the name shown (the student's, and the version)."""
    names = {name: name for name in BASELINES}
    names.update({version.player: f"{version.name} v{version.number}" for version in store.versions()})
    return names


def rows(service_: Service, table: Standings) -> list[dict[str, Any]]:
    versions = {version.player: version for version in service_.store.versions()}
    out = []
    for row in table.rows:
        version = versions.get(row.name)
        rating = row.rating
        out.append({
            "id": version.id if version else None, "player": row.name,
            "name": version.name if version else row.name, "version": version.number if version else "baseline",
            "rating": None if rating is None else round(rating.elo, 1),
            "interval": None if rating is None else [round(rating.low, 1), round(rating.high, 1)],
            "games": row.tally.games, "wins": row.tally.wins, "draws": row.tally.draws, "losses": row.tally.losses,
            "wdl": wdl(row.tally) or "-",
            "cross": [wdl(table.cross.get((row.name, other.name))) or ("x" if other is row else "-")
                      for other in table.rows]})
    return out


def shown_table(service_: Service, table: Standings) -> dict[str, Any]:
    shown = rows(service_, table)
    for row in shown:
        row["rating"] = "unrated" if row["rating"] is None else f"{row['rating']:+.0f}"
        row["interval"] = "" if row["interval"] is None else f"[{row['interval'][0]:+.0f}, {row['interval'][1]:+.0f}]"
    return {"games": table.games, "note": table.note, "rows": shown}


def own_seat(person: Person, game: Game, store: Store) -> str | None:
    """The player name of the person's seat in the game, if one is theirs."""
    for name in game.record.players:
        if name.startswith("v") and name[1:].isdigit():
            version = store.version(int(name[1:]))
            if version is not None and version.student == person.id:
                return name
    return None


def game_json(game: Game, names: dict[str, str]) -> dict[str, Any]:
    record = game.record
    return {"id": game.id, "game_id": game.game_id, "round": game.round,
            "blue": names.get(record.players[record.colours.index("azul")], ""),
            "red": names.get(record.players[record.colours.index("rojo")], ""),
            "first": names.get(record.players[0]), "second": names.get(record.players[1]),
            "winner": None if record.winner is None else names.get(record.winner), "reason": record.reason,
            "replay": f"/games/{game.id}/replay"}


def bot_games(request: Request, person: Person) -> list[Game]:
    store = service(request).store
    bot = request.query_params.get("bot")
    if bot is None:
        if not person.teacher:
            raise Refusal(400, "give ?bot=ID")
        return store.games("ORDER BY id DESC LIMIT 1000")
    if not bot.isdigit() or store.version(int(bot)) is None:
        raise Refusal(404, f"no bot {bot!r}")
    player = f"v{int(bot)}"
    return store.games("WHERE first = ? OR second = ? ORDER BY id DESC", player, player)


def the_game(request: Request) -> Game:
    game_id = request.path_params["game"]
    found = service(request).store.games("WHERE id = ?", game_id)
    if not found:
        raise Refusal(404, f"no game {game_id}")
    return found[0]


# ------------------------------------------------------------ uploads

def accept_upload(service_: Service, person: Person, data: bytes, filename: str, entry: str | None) -> Version:
    """Stores an upload as the person's next version, to be checked by its smoke game."""
    if person.teacher:
        raise Refusal(403, "the teacher has no bot: sign in as a student to upload")
    if service_.course.closed:
        raise Refusal(403, "submissions are closed")
    if service_.uploads.full(person.id):
        raise Refusal(429, f"too many uploads: at most {UPLOAD_RATE[0]} a minute")
    service_.uploads.note(person.id)
    store = service_.store
    with store.transaction() as db:
        number = db.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE student = ?",
                            (person.id,)).fetchone()[0]
        version_id = db.execute("INSERT INTO versions (student, number, entry, uploaded) VALUES (?, ?, '', ?)",
                                (person.id, number, time.time())).lastrowid
        assert version_id is not None  # an INSERT's row
        dest = service_.course.version_folder(version_id)
        # a folder left by a server killed mid-upload, whose row was never committed
        shutil.rmtree(dest, ignore_errors=True)
        dest.mkdir(parents=True)
        try:
            path = store_upload(data, filename, dest, entry or None)
        except UploadRefused as refused:
            shutil.rmtree(dest, ignore_errors=True)
            raise Refusal(400, str(refused)) from None
        db.execute("UPDATE versions SET entry = ? WHERE id = ?", (str(path), version_id))
    version = store.version(version_id)
    assert version is not None
    return version


async def read_upload(request: Request) -> tuple[FormData, bytes, str, str | None]:
    form = await request.form(max_files=1, max_fields=8)
    upload = form.get("file")
    if not isinstance(upload, UploadFile):
        raise Refusal(400, "no file: send the bot as the multipart field `file`")
    data = await upload.read(UPLOAD_LIMIT + 1)
    entry = form.get("entry")
    return form, data, upload.filename or "", entry if isinstance(entry, str) and entry.strip() else None


# ------------------------------------------------------------ pages
# A handler that reads no body is a plain function: Starlette runs it in its
# thread pool, so fitting the standings or reading the store never holds up
# the event loop.

def sign_in_page(request: Request) -> Response:
    person = session_person(request)
    if person is not None:
        return RedirectResponse("/teacher" if person.teacher else "/student", 303)
    return page(request, "sign_in.html", "Sign in")


async def sign_in(request: Request) -> Response:
    form = await request.form()
    check_csrf(request, form)
    client = request.client.host if request.client else ""
    # only failed attempts count: a class behind one address signs in at once
    if service(request).sign_ins.full(client):
        raise Refusal(429, f"too many failed sign-ins from {client}: at most {SIGN_IN_RATE[0]} a minute")
    token = form.get("token")
    person = service(request).store.person(token.strip()) if isinstance(token, str) else None
    if person is None:
        service(request).sign_ins.note(client)
        return page(request, "sign_in.html", "Sign in", 401, error="unknown token: check the one you were given")
    request.session.clear()
    request.session["person"] = person.id  # a new session: a fixed one from before sign-in is not kept
    request.session["csrf"] = secrets.token_urlsafe(32)
    return RedirectResponse("/teacher" if person.teacher else "/student", 303)


async def sign_out(request: Request) -> Response:
    check_csrf(request, await request.form())
    request.session.clear()
    return RedirectResponse("/", 303)


def student_page(request: Request, error: str = "", status: int = 200) -> Response:
    person = signed_in(request)
    if person.teacher:
        return RedirectResponse("/teacher", 303)
    svc = service(request)
    versions = svc.store.versions("WHERE v.student = ? ORDER BY v.number DESC", person.id)
    current = next((version for version in versions if version.verdict == "passed"), None)
    row = next((row for row in rows(svc, svc.league.standings()) if current and row["id"] == current.id), None)
    # the number first, as a reader (or a script reading the page) expects it: "191 (95 %: 130 to 252)"
    rating = None if row is None or row["rating"] is None else \
        f"{row['rating']:.0f} (95 %: {row['interval'][0]:.0f} to {row['interval'][1]:.0f})"
    checking = any(version.verdict == "checking" for version in versions)
    return page(request, "student.html", f"{person.name}'s bot", status, versions=versions, rating=rating,
                closed=svc.course.closed, error=error, refresh=f"{CHECKING_REFRESH}; url=/student" if checking else None)


def student(request: Request) -> Response:
    return student_page(request)


async def student_upload(request: Request) -> Response:
    person = signed_in(request)
    form, data, filename, entry = await read_upload(request)
    check_csrf(request, form)
    try:
        accept_upload(service(request), person, data, filename, entry)
    except Refusal as refusal:
        return student_page(request, str(refusal), refusal.status)
    return RedirectResponse("/student", 303)


def standings_page(request: Request) -> Response:
    signed_in(request)
    svc = service(request)
    return page(request, "standings.html", "Standings", table=shown_table(svc, svc.league.standings()))


def games_page(request: Request) -> Response:
    person = signed_in(request)
    return page(request, "games.html", "Games", games=game_rows(service(request).store, person,
                                                               bot_games(request, person)))


def game_rows(store: Store, person: Person, games: list[Game]) -> list[dict[str, Any]]:
    """The games as the table shows them, with the person's own seat, if any."""
    names = display(store)
    return [game_json(game, names) | {"own": own_seat(person, game, store)} for game in games]


async def replay_page(request: Request) -> Response:
    signed_in(request)
    game = the_game(request)
    svc = service(request)
    with svc.replays_lock:
        text = svc.replays.get(game.id)
    if text is None:
        # the solver values every position (a second or so): off the event loop, once a game
        text = await run_in_threadpool(replay_html, game, display(svc.store))
        with svc.replays_lock:
            svc.replays[game.id] = text
            while len(svc.replays) > REPLAYS_KEPT:
                svc.replays.pop(next(iter(svc.replays)))
    return HTMLResponse(text)


def replay_html(game: Game, names: dict[str, str]) -> str:
    """The arena's replay page of one game, every move valued by the solver."""
    label = f"game-{game.id}.jsonl"
    replay = Page(REPLAY_SOLVE_TIME)
    replay.add(label, game.record)
    data = replay.data(label, {"argv": ["clinea", "serve", game.round]})
    data["names"] = [names.get(name, name) for name in data["names"]]
    return render(data, title=f"clinea course: game {game.id}")


def own_game(request: Request) -> tuple[Game, str, Person]:
    person = signed_in(request)
    game = the_game(request)
    own = own_seat(person, game, service(request).store)
    if own is None and not person.teacher:
        raise Refusal(403, "only the seats of your own bot are shown to you")
    return game, own or game.record.players[0], person


def stderr_page(request: Request) -> Response:
    game, own, person = own_game(request)
    seats = [own] if not person.teacher else list(game.record.players)
    text = "".join(f"# {name}\n{game.stderr[game.record.players.index(name)]}" for name in seats)
    return PlainTextResponse(text)


def results_file(request: Request) -> Response:
    """The game as a one-game results file for `clinea replay`, run in the
    folder holding the upload's files: the header names the student's seat
    by its entry point there, the baselines as registered players."""
    game, own, _ = own_game(request)
    svc = service(request)
    commands: dict[str, list[str] | None] = {}
    for name in game.record.players:
        version = svc.store.version(int(name[1:])) if name.startswith("v") and name[1:].isdigit() else None
        if version is not None:
            entry = os.path.relpath(version.entry, svc.course.version_folder(version.id))
            commands[name] = ["python3", "-m", "clinea.players", entry] if entry.endswith(".py") else ["./" + entry]
        else:
            commands[name] = ["clinea", "play", *shlex.split(BASELINES.get(name, "random"))]
    settings = SeatSettings(".", commands, svc.course.settings.time_per_move, None, 0.0, Clock().grace,
                            STARTUP_GRACE, "auto", SeatLimits())
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "game.jsonl")
        log = ResultLog(path)
        log.write_header({"argv": ["clinea", "serve", game.round], seat_settings.KEY: settings.to_json()})
        log.append(game.record)
        log.close()
        with open(path, "rb") as file:
            body = file.read(RESULTS_LIMIT)
    return Response(body, media_type="application/x-ndjson",
                    headers={"content-disposition": f'attachment; filename="game-{game.id}.jsonl"'})


# ------------------------------------------------------------ teacher

def teacher_page(request: Request) -> Response:
    person = signed_in(request, teacher=True)
    svc = service(request)
    final = svc.store.setting("final")
    table = svc.league.standings(final=final is not None)
    with svc.league.lock:
        total = len(svc.league.final_schedule())
    return page(request, "teacher.html", "Teacher", table=shown_table(svc, table), closed=svc.course.closed,
                versions=svc.store.versions("ORDER BY v.id DESC"), final=final, final_total=total,
                final_done=len(svc.store.game_ids(FINAL)),
                games=game_rows(svc.store, person, svc.store.games(f"ORDER BY id DESC LIMIT {TEACHER_GAMES}")))


async def close_submissions(request: Request) -> Response:
    signed_in(request, teacher=True)
    check_csrf(request, await request.form())
    service(request).store.set_setting("closed", True)
    return RedirectResponse("/teacher", 303)


async def start_final(request: Request) -> Response:
    signed_in(request, teacher=True)
    form = await request.form()
    check_csrf(request, form)
    games = form.get("games", "")
    if not isinstance(games, str) or not games.isdigit() or not 2 <= int(games) <= 1000 or int(games) % 2:
        raise Refusal(400, f"games {games!r}: an even number of games a pair, 2..1000")
    svc = service(request)
    if not svc.course.closed:
        raise Refusal(409, "close the submissions first: the final plays the bots as they are then")
    if svc.store.setting("final") is not None:
        raise Refusal(409, "the final round robin is under way already")
    players = list(BASELINES) + [version.player for version in svc.store.current_versions()]
    svc.store.set_setting("final", {"players": players, "games": int(games)})
    return RedirectResponse("/teacher", 303)


def teacher_table(svc: Service) -> list[dict[str, Any]]:
    final = svc.store.setting("final") is not None
    return rows(svc, svc.league.standings(final=final))


def csv_response(header: list[str], lines: list[list[Any]], name: str) -> Response:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(lines)
    return Response(out.getvalue(), media_type="text/csv",
                    headers={"content-disposition": f'attachment; filename="{name}"'})


def standings_csv(request: Request) -> Response:
    teacher(request)
    table = teacher_table(service(request))
    return csv_response(
        ["rank", "name", "version", "rating", "low", "high", "games", "wins", "draws", "losses"],
        [[rank, row["name"], row["version"], row["rating"], *(row["interval"] or ["", ""]), row["games"],
          row["wins"], row["draws"], row["losses"]] for rank, row in enumerate(table, 1)],
        "standings.csv")


def grades(table: list[dict[str, Any]], students: list[str], grade_max: float) -> dict[str, float]:
    """The grading rule: linear in the Elo between the random baseline's
    (grade 0) and the best student's (grade_max), clipped to 0..grade_max,
    to one decimal; a student without a rated bot gets 0."""
    random_elo = ANCHORS["random"]
    rated = {row["name"]: row["rating"] for row in table if row["version"] != "baseline" and row["rating"] is not None}
    best = max(rated.values(), default=random_elo)
    span = best - random_elo
    return {name: round(grade_max * min(1.0, max(0.0, (rated[name] - random_elo) / span)), 1)
            if name in rated and span > 0 else 0.0 for name in students}


def grades_csv(request: Request) -> Response:
    teacher(request)
    svc = service(request)
    table = teacher_table(svc)
    by_name = {row["name"]: row for row in table if row["version"] != "baseline"}
    students = [person.name for person in svc.store.students()]
    given = grades(table, students, svc.course.settings.grade_max)
    return csv_response(["name", "version", "rating", "grade"],
                        [[name, by_name.get(name, {}).get("version", ""), by_name.get(name, {}).get("rating", ""),
                          given[name]] for name in students], "grades.csv")


def bot_code(request: Request) -> Response:
    signed_in(request, teacher=True)
    version = service(request).store.version(int(request.path_params["bot"]))
    if version is None:
        raise Refusal(404, "no such bot")
    folder = service(request).course.version_folder(version.id)
    listing = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            with open(path, "rb") as file:
                text = file.read(256 * 1024).decode("utf-8", "replace")
            listing.append(f"==> {path.relative_to(folder)} <==\n{text}\n")
    return PlainTextResponse("".join(listing))


# ------------------------------------------------------------ API

async def api_upload(request: Request) -> Response:
    person = bearer(request)
    _, data, filename, entry = await read_upload(request)
    version = accept_upload(service(request), person, data, filename, entry)
    return JSONResponse({"id": version.id, "name": version.name, "version": version.number,
                         "verdict": version.verdict}, 201)


def api_bot(request: Request) -> Response:
    person = bearer(request)
    version = service(request).store.version(int(request.path_params["bot"]))
    if version is None:
        raise Refusal(404, "no such bot")
    if version.student != person.id and not person.teacher:
        raise Refusal(403, "another student's bot: its verdict and stderr are theirs")
    return JSONResponse({"id": version.id, "name": version.name, "version": version.number,
                         "verdict": version.verdict, "reason": version.reason, "stderr": version.stderr})


def api_standings(request: Request) -> Response:
    bearer(request)
    svc = service(request)
    return JSONResponse({"bots": [{key: row[key] for key in ("id", "name", "version", "rating", "interval", "games")}
                                  for row in rows(svc, svc.league.standings())]})


def api_games(request: Request) -> Response:
    person = bearer(request)
    names = display(service(request).store)
    return JSONResponse({"games": [game_json(game, names) for game in bot_games(request, person)]})


def refusal_response(request: Request, refusal: Exception) -> Response:
    assert isinstance(refusal, Refusal)
    if request.url.path.startswith("/api/") or refusal.status == 413:
        return JSONResponse({"error": str(refusal)}, refusal.status)
    if refusal.status == 401:
        return page(request, "sign_in.html", "Sign in", 401, error=str(refusal))
    return page(request, "sign_in.html" if session_person(request) is None else "base.html", "Refused",
                refusal.status, error=str(refusal))


def build_app(course: Course, league: CourseLeague) -> Any:
    templates = Environment(loader=PackageLoader("clinea.serve", "templates"),
                            autoescape=select_autoescape(["html"]))
    routes = [
        Route("/", sign_in_page), Route("/sign-in", sign_in, methods=["POST"]),
        Route("/sign-out", sign_out, methods=["POST"]),
        Route("/student", student), Route("/student/upload", student_upload, methods=["POST"]),
        Route("/standings", standings_page), Route("/games", games_page),
        Route("/games/{game:int}/replay", replay_page), Route("/games/{game:int}/stderr", stderr_page),
        Route("/games/{game:int}/results.jsonl", results_file),
        Route("/teacher", teacher_page), Route("/teacher/close", close_submissions, methods=["POST"]),
        Route("/teacher/final", start_final, methods=["POST"]),
        Route("/teacher/standings.csv", standings_csv), Route("/teacher/grades.csv", grades_csv),
        Route("/teacher/bots/{bot:int}", bot_code),
        Route("/api/bots", api_upload, methods=["POST"]), Route("/api/bots/{bot:int}", api_bot),
        Route("/api/standings", api_standings), Route("/api/games", api_games),
    ]
    middleware = [Middleware(BodyLimit),
                  Middleware(SessionMiddleware, secret_key=course.secret(), session_cookie="clinea_session",
                             max_age=SESSION_DAYS * 86400, same_site="lax", https_only=False)]
    app = Starlette(routes=routes, middleware=middleware, exception_handlers={Refusal: refusal_response})
    app.state.service = Service(course, league, templates, RateLimit(*UPLOAD_RATE), RateLimit(*SIGN_IN_RATE))
    return app
