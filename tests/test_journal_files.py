"""clinea.bounded's journal files: the whole lines of a file a kill cut short, and a
durable append after them (property-based: any lines, any torn tail)."""
import io

from hypothesis import given
from hypothesis import strategies as st

from clinea.bounded import WholeLines, append_durably, bounded_lines

LINE = st.binary(max_size=40).map(lambda data: data.replace(b"\n", b"") + b"\n")
TORN = st.binary(max_size=40).map(lambda data: data.replace(b"\n", b""))


@given(st.lists(LINE, max_size=8), TORN, st.binary(max_size=20).map(lambda data: data.replace(b"\n", b"") + b"\n"))
def test_a_torn_tail_is_never_read_and_is_cut_before_the_next_line(tmp_path_factory, whole, torn, after):
    path = str(tmp_path_factory.mktemp("journal") / "lines.jsonl")
    with open(path, "wb") as out:
        out.write(b"".join(whole) + torn)
    with open(path, "rb") as source:
        lines = WholeLines(bounded_lines(source, path, 1000))
        assert list(lines) == list(enumerate(whole, start=1))
    lines.cut_torn(path)
    append_durably(path, after)
    with open(path, "rb") as source:
        assert source.read() == b"".join(whole) + after


def test_lines_stop_at_the_first_without_its_newline():
    lines = WholeLines(bounded_lines(io.BytesIO(b"a\nb"), "x", 10))
    assert list(lines) == [(1, b"a\n")] and lines.size == 2 and lines.torn


def test_a_reading_stopped_early_cuts_nothing(tmp_path):
    path = tmp_path / "lines.jsonl"
    path.write_bytes(b"a\nb\ntorn")
    with open(path, "rb") as source:
        lines = WholeLines(bounded_lines(source, str(path), 10))
        next(iter(lines))
    lines.cut_torn(str(path))
    assert path.read_bytes() == b"a\nb\ntorn"
