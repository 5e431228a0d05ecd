"""The search signature (`clinea signature`): pinned, so that a change of any
search's tree fails here, and a refactor that claims to change nothing
proves it. A deliberate change of the searches updates EXPECTED (and says
why in its commit)."""
import dataclasses
import subprocess
import sys

import pytest

from clinea.solving import signature as sig

#: the one place the signature lives; `make signature` prints it
EXPECTED = 125598088935667

# the standard files' scores of the 7x6 positions (tests/data/pons)
STANDARD_SCORES = {"6146": 18, "243335424257": 12, "32164625": 11, "52753311433677442422121": 8,
                   "5554224333234511764415115": 4}


@pytest.fixture(scope="module")
def parts() -> list[sig.Part]:
    return sig.parts()


def test_the_signature_is_the_pinned_one(parts):
    lines = "\n".join(part.line() for part in parts)
    assert sig.signature(parts) == EXPECTED, f"the searches' trees changed:\n{lines}"


def test_a_second_run_searches_the_same_trees(parts):
    assert sig.parts() == parts


@pytest.mark.parametrize("field", ["nodes", "answers"])
def test_one_part_changed_changes_the_number(parts, field):
    for index, part in enumerate(parts):
        changed = part.nodes + 1 if field == "nodes" else part.answers + (None,)
        altered = parts[:index] + [dataclasses.replace(part, **{field: changed})] + parts[index + 1:]
        assert sig.signature(altered) != sig.signature(parts), part.name


def test_every_search_and_solver_path_contributes_nodes(parts):
    assert all(part.nodes > 0 for part in parts), [part.line() for part in parts]
    assert all(position.board().is_bitboard for position in sig.SMALL)
    assert all(position.board().is_wide for position in sig.WIDE)
    assert all(192 < position.columns * (position.rows + 1) <= 256 for position in sig.FOUR_WORDS)
    assert all(position.columns * (position.rows + 1) > 256 for position in sig.CELLS)


def test_the_solver_parts_answer_the_standard_files_scores(parts):
    expected = list(STANDARD_SCORES.values())
    for name in ("solver 7x6 book", "solver 7x6 no book"):
        part = next(part for part in parts if part.name == name)
        assert list(part.answers[0::4]) == expected, name   # solve() of each position, in order
        assert [value for _, value in part.answers[2::4]] == expected, name  # play_value's score
    assert [position.moves for position in sig.STANDARD] == [
        tuple(int(d) - 1 for d in digits) for digits in STANDARD_SCORES]


def test_the_command_prints_the_number_last_and_the_parts_with_verbose():
    done = subprocess.run([sys.executable, "-m", "clinea", "signature", "--verbose"],
                          capture_output=True, text=True, timeout=120, check=True)
    lines = done.stdout.splitlines()
    assert lines[-1] == str(EXPECTED)
    assert len(lines) == len(sig.PARTS) + 2
    assert lines[-2].startswith("total: ")
