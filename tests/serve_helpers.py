"""A real `clinea serve` on loopback, for the tests that use it as its users do."""
from __future__ import annotations

import csv
import io
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

STARTUP_TIMEOUT = 60.0  # a loaded machine starts Python and the league slowly


@dataclass
class Course:
    url: str
    tokens: dict[str, str]
    teacher_token: str
    folder: Path
    process: subprocess.Popen[bytes]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def init_course(folder: Path, students: list[str], **init_options: Any) -> tuple[dict[str, str], str]:
    """`clinea serve init`: (the students' tokens by name, the teacher's)."""
    roster = folder.parent / f"{folder.name}-students.csv"
    roster.write_text("name,email\n" + "".join(f"{name},{name}@example.org\n" for name in students))
    options = [word for key, value in init_options.items() for word in (f"--{key.replace('_', '-')}", str(value))]
    done = subprocess.run([sys.executable, "-m", "clinea", "serve", "init", str(folder), "--students", str(roster),
                           *options], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    tokens = {row["name"]: row["token"] for row in csv.DictReader(io.StringIO((folder / "tokens.csv").read_text()))}
    return tokens, done.stdout.strip()


def start_server(folder: Path, port: int, *options: str) -> subprocess.Popen[bytes]:
    """`clinea serve run` in a process group of its own, answering once this returns."""
    with open(folder / "server.log", "ab") as log:  # the child keeps its own copy of the descriptor
        process = subprocess.Popen([sys.executable, "-m", "clinea", "serve", "run", str(folder), "--port", str(port),
                                    *options], stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited with {process.returncode}: "
                                 + (folder / "server.log").read_text()[-2000:])
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5):
                return process
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    stop_server(process)
    raise AssertionError(f"the server did not answer within {STARTUP_TIMEOUT:g} s")


def stop_server(process: subprocess.Popen[bytes], sig: int = signal.SIGKILL) -> None:
    """Kills the server's process group (its seats with it)."""
    try:
        os.killpg(process.pid, sig)
    except ProcessLookupError:
        pass
    process.wait(timeout=30)


@contextmanager
def running_server(folder: Path, students: list[str], **init_options: Any) -> Iterator[Course]:
    """`clinea serve init` then `clinea serve run` as a real process on a free loopback
    port; waits until it answers; kills its process group at the end."""
    tokens, teacher = init_course(folder, students, **init_options)
    port = free_port()
    process = start_server(folder, port)
    course = Course(f"http://127.0.0.1:{port}", tokens, teacher, folder, process)
    try:
        yield course
    finally:
        stop_server(course.process)


def api(course: Course, method: str, path: str, token: str | None, body: bytes | None = None,
        headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """(status, the parsed JSON answer, or the text when it is none) of one request."""
    request = urllib.request.Request(course.url + path, data=body, method=method, headers=dict(headers or {}))
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            status, raw = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode("utf-8", "replace")


def multipart(fields: dict[str, str], filename: str, data: bytes) -> tuple[bytes, dict[str, str]]:
    """A multipart/form-data body with `fields` and the file as `file`."""
    boundary = "clinea-test-boundary-7f3a"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
             for name, value in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
                 "Content-Type: application/octet-stream\r\n\r\n".encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), {"Content-Type": f"multipart/form-data; boundary={boundary}"}


def upload(course: Course, token: str, filename: str, data: bytes, entry: str | None = None) -> tuple[int, Any]:
    body, headers = multipart({"entry": entry} if entry else {}, filename, data)
    return api(course, "POST", "/api/bots", token, body, headers)


