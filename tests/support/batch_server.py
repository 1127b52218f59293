"""A stand-in Batch API server (OpenAI and Azure OpenAI routes) on 127.0.0.1, standard library only.

    POST /v1/files                   multipart upload, purpose "batch"        (Azure: /openai/files?api-version=…)
    GET  /v1/files/{id}/content      an input, output or error file           (Azure: /openai/files/{id}/content)
    POST /v1/batches                 {input_file_id, endpoint, completion_window: "24h"}
    GET  /v1/batches[?after=…]       the batches, newest first                 (Azure: /openai/batches)
    GET  /v1/batches/{id}            the batch; each poll moves it one status on
    POST /v1/chat/completions        a live call, answered as a batch line would be

A batch goes validating -> in_progress -> finalizing -> its outcome. Its input is checked as the
real service checks it (JSONL, unique custom_ids, POST to the route's url: `/v1/chat/completions`
for OpenAI, `/chat/completions` for Azure, at most `max_requests` lines and `max_bytes`), and a
refused input makes the batch `failed`. Each line is answered by a `StandInChatServer`'s reply
function and fault plan (never started: only its answers are used), so a batch answer is the very
body a live call would get. Outcomes are taken in order from `outcomes` (then "completed"):

* ``completed``: every line answered (a fault answering HTTP 4xx/5xx goes to the error file);
* ``expired`` / ``cancelled``: the first half of the lines answered, the rest in the error file
  with the code ``batch_expired`` / ``batch_cancelled``;
* ``failed``: the batch fails as a whole (``errors.data``), no line answered.

``hold()`` keeps every batch in progress until ``release()``, for kill-during-polling tests.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
import time
from dataclasses import dataclass, field
from email.parser import BytesParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Sequence
from urllib.parse import parse_qs, urlsplit

from tests.support.chat_server import FaultPlan, ReplyFn, StandInChatServer

OPENAI_URL, AZURE_URL = "/v1/chat/completions", "/chat/completions"
_STEPS = ("validating", "in_progress", "finalizing")


@dataclass
class _Batch:
    id: str
    input_file_id: str
    endpoint: str
    azure: bool
    outcome: str
    created_at: int
    step: int = 0
    status: str = "validating"
    output_file_id: str | None = None
    error_file_id: str | None = None
    errors: list[dict[str, Any]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=lambda: {"total": 0, "completed": 0, "failed": 0})

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "object": "batch", "endpoint": self.endpoint, "input_file_id": self.input_file_id,
            "completion_window": "24h", "status": self.status, "created_at": self.created_at,
            "output_file_id": self.output_file_id, "error_file_id": self.error_file_id,
            "errors": {"object": "list", "data": self.errors} if self.errors else None,
            "request_counts": self.counts,
        }


class StandInBatchServer:
    """The Batch API's files and batches endpoints, for the OpenAI route or the Azure one (`azure=True`)."""

    def __init__(
        self,
        reply: ReplyFn | None = None,
        *,
        faults: FaultPlan | None = None,
        outcomes: Sequence[str] = (),
        azure: bool = False,
        max_requests: int = 50_000,
        max_bytes: int = 200_000_000,
        api_key: str = "sk-test-not-a-secret",
    ) -> None:
        self.chat = StandInChatServer(reply, faults=faults)
        self.azure = azure
        self.outcomes = list(outcomes)
        self.max_requests, self.max_bytes, self.api_key = max_requests, max_bytes, api_key
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, _Batch] = {}
        self.created: list[str] = []  # batch ids in creation order
        self.uploads: list[str] = []  # input file ids in upload order
        self.lines: list[dict[str, Any]] = []  # every input line answered, in order
        self.live_calls: list[dict[str, Any]] = []  # bodies of live chat completions
        self.polls = 0
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._released = threading.Event()
        self._released.set()
        self._httpd: ThreadingHTTPServer | None = None

    # -- lifecycle and what tests read --------------------------------------------------------

    def __enter__(self) -> StandInBatchServer:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        server.daemon_threads = True
        server.app = self  # type: ignore[attr-defined]
        self._httpd = server
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._httpd is not None
        self._httpd.shutdown()
        self._httpd.server_close()

    @property
    def base_url(self) -> str:
        """`OPENAI_BASE_URL` for the OpenAI route."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"  # type: ignore[union-attr]

    @property
    def azure_endpoint(self) -> str:
        """`AZURE_OPENAI_ENDPOINT` for the Azure route."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"  # type: ignore[union-attr]

    def hold(self) -> None:
        """Keep every batch in progress (polls see no change) until `release()`."""
        self._released.clear()

    def release(self) -> None:
        self._released.set()

    def input_lines(self, file_id: str) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.files[file_id].splitlines()]

    # -- routing ----------------------------------------------------------------------------

    def handle(self, method: str, target: str, headers: Any, raw: bytes) -> tuple[int, Any]:
        parts = urlsplit(target)
        prefix = "/openai" if self.azure else "/v1"
        if not parts.path.startswith(prefix + "/"):
            return 404, _error(f"no route {parts.path} (this stand-in serves the {'Azure' if self.azure else 'OpenAI'} route)")
        if self.azure and not parse_qs(parts.query).get("api-version"):
            return 400, _error("missing api-version")
        key = headers.get("api-key") if self.azure else (headers.get("Authorization") or "").removeprefix("Bearer ")
        if key != self.api_key:
            return 401, _error("bad key")
        path = parts.path[len(prefix):]
        with self._lock:
            return self._route(method, path, parse_qs(parts.query), headers, raw)

    def _route(self, method: str, path: str, query: dict, headers: Any, raw: bytes) -> tuple[int, Any]:
        if method == "POST" and re.fullmatch(r"(/deployments/[^/]+)?/chat/completions", path):
            return self._live(json.loads(raw))
        if method == "POST" and path == "/files":
            return self._upload(headers, raw)
        if match := re.fullmatch(r"/files/([^/]+)/content", path):
            data = self.files.get(match.group(1))
            return (200, data) if data is not None else (404, _error("no such file"))
        if method == "POST" and path == "/batches":
            return self._create(json.loads(raw))
        if method == "GET" and path == "/batches":
            listed = [batch.as_json() for batch in reversed([self.batches[i] for i in self.created])]
            return 200, {"object": "list", "data": listed, "has_more": False,
                         "first_id": listed[0]["id"] if listed else None, "last_id": listed[-1]["id"] if listed else None}
        if method == "GET" and (match := re.fullmatch(r"/batches/([^/]+)", path)):
            batch = self.batches.get(match.group(1))
            return (200, self._poll(batch).as_json()) if batch else (404, _error("no such batch"))
        return 404, _error(f"no route {method} {path}")

    def _live(self, body: dict[str, Any]) -> tuple[int, Any]:
        """A live call to the same endpoint (a follow-up sent live), answered as a batch line is."""
        self.live_calls.append(body)
        reply = self.chat._reply_for(body)
        return reply.status, json.loads(self.chat._body_of(reply, body, body.get("model")))

    def _upload(self, headers: Any, raw: bytes) -> tuple[int, Any]:
        head = f"Content-Type: {headers.get('Content-Type')}\r\n\r\n".encode()
        message = BytesParser().parsebytes(head + raw)
        fields = {part.get_param("name", header="content-disposition"): part for part in message.get_payload()}
        if fields["purpose"].get_payload(decode=True) != b"batch":
            return 400, _error("purpose must be batch")
        file_id = self._store(fields["file"].get_payload(decode=True))
        self.uploads.append(file_id)
        return 200, {"id": file_id, "object": "file", "bytes": len(self.files[file_id]), "created_at": int(time.time()),
                     "filename": fields["file"].get_filename(), "purpose": "batch", "status": "processed"}

    def _create(self, body: dict[str, Any]) -> tuple[int, Any]:
        if body.get("completion_window") != "24h" or body.get("input_file_id") not in self.files:
            return 400, _error("need completion_window 24h and an uploaded input_file_id")
        batch = _Batch(f"batch_{next(self._ids)}", body["input_file_id"], body.get("endpoint", ""), self.azure,
                       self.outcomes.pop(0) if self.outcomes else "completed", int(time.time()))
        self.batches[batch.id] = batch
        self.created.append(batch.id)
        return 200, batch.as_json()

    # -- a batch's life ---------------------------------------------------------------------

    def _poll(self, batch: _Batch) -> _Batch:
        self.polls += 1
        if batch.status in _STEPS and (batch.status != "in_progress" or self._released.is_set()):
            batch.step += 1
            if batch.step < len(_STEPS):
                batch.status = _STEPS[batch.step]
                if batch.status == "in_progress":
                    self._validate(batch)
            else:
                self._finish(batch)
        return batch

    def _validate(self, batch: _Batch) -> None:
        url = AZURE_URL if self.azure else OPENAI_URL
        data = self.files[batch.input_file_id]
        lines = [json.loads(line) for line in data.splitlines()]
        ids = [line.get("custom_id") for line in lines]
        problems = [
            (batch.endpoint != url, f"endpoint must be {url}"),
            (len(lines) > self.max_requests, f"{len(lines)} requests, more than {self.max_requests}"),
            (len(data) > self.max_bytes, f"{len(data)} bytes, more than {self.max_bytes}"),
            (len(set(ids)) != len(ids), "duplicate custom_id"),
            (any(line.get("method") != "POST" or line.get("url") != url for line in lines), f"every line must POST to {url}"),
        ]
        batch.errors = [{"code": "invalid_request", "message": why, "line": None} for bad, why in problems if bad]
        if batch.errors or batch.outcome == "failed":
            batch.errors = batch.errors or [{"code": "token_limit_exceeded", "message": "stand-in: the batch failed"}]
            batch.status = "failed"
        batch.counts["total"] = len(lines)

    def _finish(self, batch: _Batch) -> None:
        lines = self.input_lines(batch.input_file_id)
        answered = len(lines) if batch.outcome == "completed" else len(lines) // 2
        output, errors = [], []
        for line in lines[:answered]:
            record = self._answer(line)
            (output if record["response"]["status_code"] == 200 else errors).append(record)
        code = {"expired": "batch_expired", "cancelled": "batch_cancelled"}.get(batch.outcome)
        for line in lines[answered:]:
            errors.append({"id": f"req_{next(self._ids)}", "custom_id": line["custom_id"], "response": None,
                           "error": {"code": code, "message": f"stand-in: the batch {batch.outcome}"}})
        batch.output_file_id = self._store(_jsonl(output)) if output else None
        batch.error_file_id = self._store(_jsonl(errors)) if errors else None
        batch.counts.update(completed=len(output), failed=len(errors) if batch.outcome == "completed" else 0)
        batch.status = batch.outcome

    def _answer(self, line: dict[str, Any]) -> dict[str, Any]:
        body = line["body"]
        self.lines.append(line)
        reply = self.chat._reply_for(body)
        answer = json.loads(self.chat._body_of(reply, body, body.get("model") if self.azure else None))
        return {"id": f"req_{next(self._ids)}", "custom_id": line["custom_id"],
                "response": {"status_code": reply.status, "request_id": f"r{next(self._ids)}", "body": answer},
                "error": None}

    def _store(self, data: bytes) -> str:
        file_id = f"file-{next(self._ids)}"
        self.files[file_id] = data
        return file_id


def _jsonl(records: list[dict[str, Any]]) -> bytes:
    return b"".join(json.dumps(record, ensure_ascii=False).encode() + b"\n" for record in records)


def _error(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "stand_in_error"}}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""

    def do_GET(self) -> None:
        self._reply(*self.server.app.handle("GET", self.path, self.headers, b""))  # type: ignore[attr-defined]

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._reply(*self.server.app.handle("POST", self.path, self.headers, raw))  # type: ignore[attr-defined]

    def _reply(self, status: int, payload: Any) -> None:
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream" if isinstance(payload, bytes) else "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main(argv: Sequence[str] | None = None) -> int:
    """Serve until SIGTERM; prints ``READY <base_url>`` (the Azure endpoint with ``--azure``) once listening."""
    import argparse
    import signal

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--azure", action="store_true", help="serve the Azure OpenAI route instead of OpenAI's")
    parser.add_argument("--api-key", default="sk-test-not-a-secret")
    args = parser.parse_args(argv)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with StandInBatchServer(azure=args.azure, api_key=args.api_key) as server:
        print(f"READY {server.azure_endpoint if args.azure else server.base_url}", flush=True)
        stop.wait()
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
