"""The bounded reads every file the product reads goes through: the lines
come out as they are within the bounds, and nothing is read past a bound."""
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clinea.bounded import TooLarge, bounded_lines, json_value, read_bounded, size_text


class Counting(io.BytesIO):
    """A stream that remembers how far it was read."""

    def __init__(self, data: bytes):
        super().__init__(data)
        self.furthest = 0

    def readline(self, size=-1):
        line = super().readline(size)
        self.furthest = max(self.furthest, self.tell())
        return line

    def read(self, size=-1):
        data = super().read(size)
        self.furthest = max(self.furthest, self.tell())
        return data


class Endless(io.RawIOBase):
    """/dev/zero: as many bytes as asked for, never a newline."""

    def readable(self):
        return True

    def readinto(self, buffer):
        buffer[:] = bytes(len(buffer))
        return len(buffer)


@given(st.lists(st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"")), max_size=20),
       st.booleans(), st.integers(1, 40), st.one_of(st.none(), st.integers(0, 400)))
def test_lines_within_the_bounds_come_out_whole_and_nothing_is_read_past_a_bound(words, ended, line_limit, total_limit):
    data = b"\n".join(words) + (b"\n" if ended and words else b"")
    expected = io.BytesIO(data).readlines()
    source = Counting(data)
    got = []
    try:
        for line in bounded_lines(source, "f", line_limit, total_limit):
            got.append(line)
    except TooLarge as error:
        over = next(i for i, line in enumerate(expected) if len(line) > line_limit
                    or (total_limit is not None and sum(map(len, expected[:i + 1])) > total_limit))
        assert got == expected[:over]
        assert source.furthest <= sum(map(len, expected[:over])) + line_limit + 1
        assert str(error).startswith("f: ")
    else:
        assert got == expected
        assert all(len(line) <= line_limit for line in expected)
        assert total_limit is None or len(data) <= total_limit


def test_an_endless_line_is_refused_naming_the_file_the_line_and_the_bound():
    with pytest.raises(TooLarge, match=r"^/dev/zero: line 1 is longer than 4 MiB"):
        next(bounded_lines(io.BufferedReader(Endless()), "/dev/zero", 4 << 20))
    with pytest.raises(TooLarge, match=r"^/dev/zero: larger than 1 KiB"):
        read_bounded(io.BufferedReader(Endless()), "/dev/zero", 1024)


def test_sizes_in_words():
    assert [size_text(n) for n in (100, 1024, 3 << 20, 4 << 30, 1500)] == \
        ["100 bytes", "1 KiB", "3 MiB", "4 GiB", "1500 bytes"]


def test_json_nested_too_deep_is_a_value_error_not_a_recursion_error():
    with pytest.raises(ValueError, match="nested deeper than can be read"):
        json_value("[" * 100_000 + "]" * 100_000)
    assert json_value('{"a": [[1]]}') == {"a": [[1]]}
