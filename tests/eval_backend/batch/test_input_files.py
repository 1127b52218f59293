"""Batch input lines name the judgment they stand for, and files stay within the provider's limits."""

from __future__ import annotations

import json
from pathlib import Path


from eval_backend.batch.input_files import BatchRequest, request_line, write_input_files
from eval_backend.batch.route import AZURE, OPENAI, BatchRoute, batch_route
from eval_backend.settings import JudgeSettings


def test_a_line_is_the_body_posted_to_the_route_url_in_utf_8() -> None:
    line = request_line("c|1|0|x", OPENAI.url, {"model": "m", "messages": [{"role": "user", "content": "हिन्दी"}]})
    assert line.endswith(b"\n") and "हिन्दी".encode() in line  # not \u-escaped: half the bytes
    assert json.loads(line) == {"custom_id": "c|1|0|x", "method": "POST", "url": "/v1/chat/completions",
                                "body": {"model": "m", "messages": [{"role": "user", "content": "हिन्दी"}]}}


def requests(sizes: list[int]) -> list[BatchRequest]:
    return [BatchRequest(f"id{n}", f"sha{n}", b"x" * (size - 1) + b"\n") for n, size in enumerate(sizes)]


def test_files_are_cut_before_a_line_would_pass_either_limit(tmp_path: Path) -> None:
    route = BatchRoute("test", "/v1/chat/completions", max_requests=3, max_bytes=100)
    files = []
    for written in write_input_files(requests([40, 40, 40, 10, 10, 10, 10]), route, tmp_path):
        files.append([cid for cid, _ in written.requests])
        assert written.path.stat().st_size <= 100
    assert files == [["id0", "id1"], ["id2", "id3", "id4"], ["id5", "id6"]]


def test_the_route_follows_the_endpoint_and_never_exceeds_the_provider_limits() -> None:
    assert batch_route(JudgeSettings(api_key="k")).url == OPENAI.url == "/v1/chat/completions"
    azure = batch_route(JudgeSettings(azure_endpoint="https://x.openai.azure.com", azure_api_key="k"))
    assert azure.url == AZURE.url == "/chat/completions" and azure.max_requests == 100_000
    lowered = batch_route(JudgeSettings(api_key="k", batch_max_requests=10**9, batch_max_mb=50))
    assert lowered.max_requests == 50_000 and lowered.max_bytes == 50_000_000
