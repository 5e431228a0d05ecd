"""The results file survives a judge killed in the middle of a write, and a
file that is not a results file is refused with the reason, never misread
or silently shortened."""
import json
import os
import time

import pytest

from clinea.judge.record import End, GameRecord
from clinea.judge.results import SYNC_INTERVAL, ResultLog, ResultsError, read_header, read_records

HEADER = json.dumps({"type": "run", "argv": ["--iterations", "3"]})


def game(id, winner="a"):
    return GameRecord(id, 7, 6, 4, 21, ("a", "b"), ("azul", "rojo"), (), (3, 3, 4), (0.1, 0.2, 0.3),
                      winner, End.CONNECT if winner else End.DRAW, "", None)


def line(record):
    return json.dumps(record.to_json(), separators=(",", ":"))


def test_a_half_written_last_line_is_cut_and_the_rest_kept(tmp_path):
    path = tmp_path / "r.jsonl"
    lines = [HEADER, line(game("0", None)), line(game("1"))]
    path.write_text("\n".join(lines) + "\n" + '{"id": "2", "win')
    seen = []
    log = ResultLog(str(path), seen.append)
    assert log.header["argv"] == ["--iterations", "3"]
    assert log.done == {"0", "1"} and seen == [game("0", None), game("1")]
    log.append(game("2", "b"))
    log.close()
    assert path.read_text() == "\n".join(lines + [line(game("2", "b"))]) + "\n"
    assert [r.id for r in read_records(str(path))] == ["0", "1", "2"]
    assert read_header(str(path))["type"] == "run"
    assert read_header(str(tmp_path / "none.jsonl")) is None


def test_records_reach_the_file_at_once_and_the_disk_within_the_sync_interval(tmp_path, monkeypatch):
    path = tmp_path / "r.jsonl"
    synced = []  # the file's size at each fsync: what a power loss would keep
    real_fsync = os.fsync

    def fsync(fd):
        synced.append(os.fstat(fd).st_size)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    log = ResultLog(str(path))
    log.write_header({"argv": []})
    assert synced == [path.stat().st_size]  # the first write after a quiet spell is synced at once
    for k in range(50):
        log.append(game(str(k)))
        # another process sees every finished game at once: all that a killed judge leaves
        assert [r.id for r in read_records(str(path))] == [str(i) for i in range(k + 1)]
    assert len(synced) < 10, "an fsync per game"
    size = path.stat().st_size
    deadline = time.monotonic() + 10 * SYNC_INTERVAL
    while synced[-1] < size and time.monotonic() < deadline:
        time.sleep(0.05)
    assert synced[-1] == size, "the last games were not synced without a further write"
    log.append(game("last"))
    log.close()
    assert synced[-1] == path.stat().st_size


@pytest.mark.parametrize("bad,message", [
    ("{not json", "line 3 is not a game record"),
    ('{"id": "x"}', "line 3 is not a game record (a game record without columns"),
    ("[1, 2]", "line 3 is not a game record (a game record is a JSON object, not list)"),
    (line(game("9")).replace('"winner":"a"', '"winner":"zz"'), "'winner' is 'zz', not one of the players"),
])
def test_a_corrupt_line_in_the_middle_is_refused_with_its_number_and_nothing_is_cut(tmp_path, bad, message):
    path = tmp_path / "r.jsonl"
    text = "\n".join([HEADER, line(game("0")), bad, line(game("1"))]) + "\n"
    path.write_text(text)
    with pytest.raises(ResultsError, match="line 3") as error:
        ResultLog(str(path))
    assert message in str(error.value)
    assert path.read_text() == text


@pytest.mark.parametrize("first", ['{"type": "game"}', "[]", "garbage", '{"type": "run", "argv": [1]}'])
def test_a_corrupt_header_is_refused(tmp_path, first):
    path = tmp_path / "r.jsonl"
    path.write_text(first + "\n")
    with pytest.raises(ResultsError, match="line 1"):
        read_header(str(path))
    with pytest.raises(ResultsError, match="line 1"):
        ResultLog(str(path))


def test_a_directory_or_a_missing_directory_is_refused(tmp_path):
    with pytest.raises(ResultsError, match="is a directory"):
        ResultLog(str(tmp_path))
    with pytest.raises(ResultsError, match="no such directory"):
        ResultLog(str(tmp_path / "missing" / "r.jsonl"))


def sealed_file(tmp_path, games=3):
    path = tmp_path / "sealed.jsonl"
    log = ResultLog(str(path))
    log.write_header({"argv": ["--iterations", str(games)]})
    for i in range(games):
        log.append(game(str(i)))
    log.close()
    return path


def test_records_the_judge_did_not_write_are_refused_and_named(tmp_path, capsys):
    path = sealed_file(tmp_path)
    lines = path.read_bytes().splitlines(keepends=True)
    # a hand edit of a sealed record (the winner swapped), and a record appended by someone else
    lines[2] = lines[2].replace(b'"winner":"a"', b'"winner":"b"')
    lines.append((line(game("9")) + "\n").encode())
    path.write_bytes(b"".join(lines))
    seen = []
    log = ResultLog(str(path), seen.append)
    log.close()
    assert [record.id for record in seen] == ["0", "2"] and log.done == {"0", "2"}
    assert "2 record(s) the judge did not write" in capsys.readouterr().err and log.refused == [3, 5]


def test_a_sealed_file_without_its_key_or_with_a_changed_header_is_refused(tmp_path):
    path = sealed_file(tmp_path)
    key = tmp_path / "sealed.jsonl.key"
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    text = path.read_text()
    path.write_text(text.replace('"--iterations","3"', '"--iterations","30"', 1))
    with pytest.raises(ResultsError, match="run header was not written by the judge"):
        ResultLog(str(path))
    path.write_text(text)
    key.unlink()
    with pytest.raises(ResultsError, match="its key .* cannot be read"):
        ResultLog(str(path))
