"""Append-only JSONL survives interrupted writes: a torn last line is cut, never kept."""

import json
from pathlib import Path

import pytest

from eval_backend.jsonl import JsonlAppender, JsonlCorruptError, read_jsonl, repair_torn_tail


def test_each_appended_line_is_readable_before_close(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    appender = JsonlAppender(path)
    appender.append({"a": 1, "text": "हिन्दी"})
    assert [obj for _, obj in read_jsonl(path)] == [{"a": 1, "text": "हिन्दी"}]
    appender.close()


def test_a_torn_last_line_is_removed_and_appending_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text(json.dumps({"a": 1}) + "\n" + '{"a": 2, "te', encoding="utf-8")
    assert [obj for _, obj in read_jsonl(path)] == [{"a": 1}]
    with JsonlAppender(path) as appender:
        appender.append({"a": 3})
    assert [obj for _, obj in read_jsonl(path)] == [{"a": 1}, {"a": 3}]


def test_a_complete_last_line_missing_its_newline_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text('{"a": 1}', encoding="utf-8")
    assert repair_torn_tail(path) is False
    assert path.read_text() == '{"a": 1}\n'


def test_a_corrupt_line_in_the_middle_is_an_error_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text('{"a": 1}\nnot json\n{"a": 3}\n', encoding="utf-8")
    with pytest.raises(JsonlCorruptError, match=r"j.jsonl:2"):
        list(read_jsonl(path))
