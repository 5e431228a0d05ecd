"""Every fenced example of README.md and docs/*.md runs as a reader would
run it: each document's `sh` and `python` blocks in order, in a scratch
folder of their own that sees the repository's players/, judge/, tests/,
benchmarks/ and docs/, with the clinea command on PATH. A block fails on a
non-zero exit or a traceback.

A block that is not an example says so by its language tag (`text` for an
output sample or a transcript, `toml` for a configuration snippet); an
untagged block fails, so nothing is skipped by accident. A long example is
made smaller, never skipped, by markers in the comment lines just above it,
each a substitution that must apply:

    <!-- example-test: --iterations 100 => --iterations 2 -->

$REPO names the checkout inside a substituted command (`make -C "$REPO" run`).
"""
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
RUNNERS = {"sh": ["bash", "-e", "-o", "pipefail", "-c"], "python": [sys.executable, "-c"]}
DESCRIPTIVE = {"text", "toml", "json", "csv"}
SHARED_FOLDERS = ("players", "judge", "tests", "benchmarks", "docs")
MARKER = re.compile(r"<!-- example-test: (.+?) => (.*?) -->")
FENCE = re.compile(r"^```(\S*)\s*$")
BLOCK_TIMEOUT = 120


@dataclass
class Block:
    language: str
    line: int
    code: str


def blocks(document: Path) -> list[Block]:
    """The fenced blocks of a document, each with its markers applied."""
    found: list[Block] = []
    lines = document.read_text().splitlines()
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        start = index
        index += 1
        while not lines[index].startswith("```"):
            index += 1
        code = "\n".join(lines[start + 1:index]) + "\n"
        above = start - 1
        while above >= 0 and MARKER.fullmatch(lines[above].strip()):
            old, new = MARKER.fullmatch(lines[above].strip()).groups()
            assert old in code, f"{document.name}:{above + 1}: the marker's {old!r} is not in the block below it"
            code = code.replace(old, new)
            above -= 1
        found.append(Block(opening.group(1), start + 1, code))
        index += 1
    return found


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(REPO)))
def test_every_example_of_the_document_runs(document, tmp_path):
    for folder in SHARED_FOLDERS:
        (tmp_path / folder).symlink_to(REPO / folder)
    environment = dict(os.environ, REPO=str(REPO),
                       PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    for block in blocks(document):
        where = f"{document.name}:{block.line}"
        if block.language in DESCRIPTIVE:
            continue
        assert block.language in RUNNERS, (
            f"{where}: tag the block `sh` or `python` (an example) or `text` (a sample), not {block.language!r}")
        run = subprocess.run([*RUNNERS[block.language], block.code], cwd=tmp_path, env=environment,
                             stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=BLOCK_TIMEOUT)
        shown = f"{where} exited {run.returncode}\n{block.code}\nstdout:\n{run.stdout[-3000:]}\nstderr:\n{run.stderr[-3000:]}"
        assert run.returncode == 0, shown
        assert "Traceback" not in run.stdout + run.stderr, shown


def test_markers_and_tags_are_read():
    """The reader itself, on a document written here: a marker applies to
    the block below it, an untagged block is kept as untagged."""
    sample = Path(__file__).with_name("data") / "docs_example_sample.md"
    found = blocks(sample)
    assert [(block.language, block.code) for block in found] == [
        ("sh", "clinea match --games 3\n"),
        ("text", "a sample\n"),
        ("", "untagged\n"),
    ]
