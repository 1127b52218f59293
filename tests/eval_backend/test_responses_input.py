"""A responses file is read strictly and within its size limit, each refusal naming the file, line and field."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from eval_backend.responses_input import MAX_RESPONSE_LINE_BYTES, ResponsesInputError, read_responses_file

KNOWN = {("Hindi", 0), ("Tamil", 1)}
HINDI_REPLY = "भारत की राजधानी नई दिल्ली है। " * 20


def test_responses_in_any_script_up_to_the_limit_are_read(tmp_path: Path) -> None:
    path = tmp_path / "responses.jsonl"
    head = json.dumps({"config": "Tamil", "index": 1, "response": ""}, ensure_ascii=False)
    longest = "த" * ((MAX_RESPONSE_LINE_BYTES - len(head.encode())) // 3)  # 3 bytes a letter in UTF-8
    lines = [json.dumps({"config": "Hindi", "index": 0, "response": HINDI_REPLY}, ensure_ascii=False),
             json.dumps({"config": "Tamil", "index": 1, "response": longest}, ensure_ascii=False)]
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    assert len(lines[1].encode()) > MAX_RESPONSE_LINE_BYTES - 3
    records = read_responses_file(path, KNOWN)
    assert [(record.config, record.response) for record in records] == [("Hindi", HINDI_REPLY), ("Tamil", longest)]


def test_a_line_with_a_duplicate_key_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "responses.jsonl"
    path.write_text('{"config": "Hindi", "index": 0, "response": "ok"}\n'
                    '{"config": "Hindi", "config": "Tamil", "index": 1, "response": "ok"}\n', encoding="utf-8")
    with pytest.raises(ResponsesInputError, match=r"responses.jsonl:2: \$: duplicate key 'config'"):
        read_responses_file(path, KNOWN)


def test_a_line_past_the_limit_is_refused_naming_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "responses.jsonl"
    reply = "ਸ" * (MAX_RESPONSE_LINE_BYTES // 3 + 1)
    path.write_text(json.dumps({"config": "Hindi", "index": 0, "response": reply}, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    with pytest.raises(ResponsesInputError, match=rf"responses.jsonl:1: the line is longer than "
                                                  rf"{MAX_RESPONSE_LINE_BYTES:,} bytes"):
        read_responses_file(path, KNOWN)


def test_a_line_of_a_gigabyte_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "responses.jsonl"
    with path.open("wb") as handle:  # sparse: the gigabyte costs no disk
        handle.write(b'{"config": "Hindi", "index": 0, "response": "ok"}\n{"config": "Tamil", "index": 1, "response": "')
        handle.truncate(1024 ** 3)
    tracemalloc.start()
    try:
        with pytest.raises(ResponsesInputError, match=r"responses.jsonl:2: the line is longer than"):
            read_responses_file(path, KNOWN)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 * MAX_RESPONSE_LINE_BYTES
