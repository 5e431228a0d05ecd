"""The game log survives a judge killed in the middle of a write."""
import json

from clinea.judge.results import ResultLog, read_records


def test_a_half_written_last_line_is_cut_and_the_rest_kept(tmp_path):
    path = tmp_path / "r.jsonl"
    lines = [json.dumps({"type": "run", "argv": ["--iterations", "3"]}),
             json.dumps({"id": "0", "winner": None}), json.dumps({"id": "1", "winner": "a"})]
    path.write_text("\n".join(lines) + "\n" + '{"id": "2", "win')
    log = ResultLog(str(path))
    assert log.header["argv"] == ["--iterations", "3"]
    assert log.done() == {"0", "1"}
    log.append({"id": "2", "winner": "b"})
    log.close()
    assert path.read_text() == "\n".join(lines) + "\n" + '{"id":"2","winner":"b"}\n'
    assert [r["id"] for r in read_records(str(path))] == ["0", "1", "2"]
    assert ResultLog.peek_header(str(path))["type"] == "run"
    assert ResultLog.peek_header(str(tmp_path / "none.jsonl")) is None
