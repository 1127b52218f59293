"""A stand-in OpenAI-compatible chat-completions server on 127.0.0.1, standard library only.

It answers both URL shapes the engine uses::

    POST /v1/chat/completions                                              (OpenAI, vLLM, ...)
    POST /openai/deployments/{deployment}/chat/completions?api-version=... (Azure OpenAI)
    POST /v1/completions                      (raw text prompts: the body has `prompt`, not `messages`)

Every request is recorded so tests can assert exactly what was sent. What comes back is decided
by a pluggable reply function (request body in, :class:`Reply` out); :func:`judge_reply`
answers the seed's judge prompts (:func:`noisy_judge_reply` with a known noise, for consistency
checks), :func:`chat_reply` answers generation requests, and a
:class:`FaultPlan` injects malformed answers and HTTP errors. A requests-per-minute limit and
a fixed latency model a real endpoint's behaviour under load.

Usage::

    with StandInChatServer(judge_reply(), faults=FaultPlan(first_n=2)) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="x")
        ...
        assert server.stats.faults == 2

As a process (prints ``READY http://127.0.0.1:PORT/v1`` once it accepts connections)::

    python -m tests.support.chat_server --port 0 --latency 0.5 --rpm 600
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import hashlib
import itertools
import json
import math
import re
import signal
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal, get_args
from urllib.parse import urlsplit

__all__ = [
    "FAULT_KINDS",
    "FaultKind",
    "FaultPlan",
    "JudgePrompt",
    "RecordedRequest",
    "Reply",
    "ReplyFn",
    "ServerStats",
    "StandInChatServer",
    "chat_reply",
    "default_score",
    "fault_reply",
    "judge_answer",
    "judge_key",
    "judge_reply",
    "message_text",
    "noisy_judge_reply",
    "parse_judge_prompt",
    "request_key",
    "user_text",
]

# --------------------------------------------------------------------------------------------
# Replies
# --------------------------------------------------------------------------------------------


@dataclass
class Reply:
    """What the server sends back for one request.

    With ``status`` 200 the ``content`` is wrapped in a standard ``chat.completion`` object.
    With any other status an OpenAI-style error object is sent, whose message is ``content``
    when given. ``raw_body`` replaces the body entirely (to send something that is not JSON).
    """

    content: str | None = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    raw_body: bytes | None = None
    delay_s: float = 0.0
    finish_reason: str = "stop"


ReplyFn = Callable[[dict[str, Any]], Reply]


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server received it; ``body`` is the parsed JSON (None if invalid)."""

    method: str
    path: str
    query: str
    headers: dict[str, str]  # keys lower-cased
    body: Any
    time: float
    deployment: str | None = None  # Azure deployment name taken from the URL

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The ``messages`` list of the body, or an empty list."""
        body = self.body if isinstance(self.body, dict) else {}
        return list(body.get("messages") or [])


def message_text(message: dict[str, Any]) -> str:
    """The text of one chat message, whether its content is a string or a list of parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


def user_text(body: dict[str, Any]) -> str:
    """The text of the last ``user`` message in a chat-completions request body."""
    for message in reversed(body.get("messages") or []):
        if message.get("role") == "user":
            return message_text(message)
    return ""


def _prompt_tokens(body: dict[str, Any]) -> int:
    """The prompt tokens of a chat (or raw completion) request, as the stand-in counts them."""
    raw = body.get("prompt")
    return sum(_tokens(message_text(m)) for m in body.get("messages") or []) + _tokens(raw if isinstance(raw, str) else "")


def _tokens(text: str) -> int:
    """A deterministic, cheap token count: about four characters per token."""
    return len(text) // 4


# --------------------------------------------------------------------------------------------
# The judge protocol (seed 000): extracting what a judge prompt carries, answering it
# --------------------------------------------------------------------------------------------

_CRITERIA_OPEN = "** Criteria **\n```"
_QUERY_OPEN = "** Query **\n```"
_QUERY_CLOSE = "```\n\n** Response **\n```"
_RESPONSE_CLOSE = "```\n\nProvide your evaluation"


@dataclass(frozen=True)
class JudgePrompt:
    """The parts of a judge scoring prompt: the criterion (parsed and as sent), query, response."""

    criterion: dict[str, Any]
    criterion_text: str
    query: str
    response: str


def _between(text: str, opening: str, closing: str, *, last_close: bool = False) -> str | None:
    """Text after the first ``opening`` up to the next (or the last) ``closing``."""
    start = text.find(opening)
    if start < 0:
        return None
    start += len(opening)
    end = text.rfind(closing) if last_close else text.find(closing, start)
    return text[start:end] if end >= start else None


def parse_judge_prompt(text: str) -> JudgePrompt | None:
    """Split a judge prompt built from the seed's template; None if ``text`` is not one.

    The response is taken up to the *last* closing fence so that responses containing
    markdown code blocks still come out whole.
    """
    criterion_text = _between(text, _CRITERIA_OPEN, "```")
    query = _between(text, _QUERY_OPEN, _QUERY_CLOSE)
    response = _between(text, _QUERY_CLOSE, _RESPONSE_CLOSE, last_close=True)
    if criterion_text is None or query is None or response is None:
        return None
    try:
        criterion = json.loads(criterion_text)
    except json.JSONDecodeError:
        return None
    if not isinstance(criterion, dict):
        return None
    return JudgePrompt(criterion, criterion_text, query, response)


def default_score(criterion: dict[str, Any], response: str) -> int:
    """A deterministic score in 1..10 from the criterion's name and the response text."""
    digest = hashlib.sha256(f"{criterion.get('name', '')}\x00{response}".encode()).digest()
    return 1 + digest[0] % 10


def judge_answer(score: Any, reason: str | None = "Stand-in judgment.") -> str:
    """The judge's answer in the seed's output format: a fenced ``json`` object.

    ``score`` is serialised as given, so faults can send strings, floats or booleans;
    ``reason=None`` leaves the field out.
    """
    payload: dict[str, Any] = {"score": score}
    if reason is not None:
        payload["reason"] = reason
    return "```json\n" + json.dumps(payload, ensure_ascii=False, indent=4) + "\n```"


def judge_reply(score_fn: Callable[[dict[str, Any], str], int] = default_score) -> ReplyFn:
    """A reply function that scores judge prompts with ``score_fn(criterion, response)``.

    Requests whose last user message is not a judge prompt get HTTP 400, so a test that sends
    the wrong prompt fails loudly instead of receiving a plausible score.
    """

    def reply(body: dict[str, Any]) -> Reply:
        prompt = parse_judge_prompt(user_text(body))
        if prompt is None:
            return Reply(content="stand-in judge: not a judge prompt", status=400)
        score = score_fn(prompt.criterion, prompt.response)
        name = str(prompt.criterion.get("name", "the criterion"))
        return Reply(content=judge_answer(score, f"Scored {score} against {name}."))

    return reply


def noisy_judge_reply(
    score_fn: Callable[[dict[str, Any], str], int] = default_score,
    *,
    noise: float,
    seed: int = 0,
    noisy_models: Collection[str] | None = None,
) -> ReplyFn:
    """A judge of known noise: each call moves ``score_fn``'s score by ±1 with probability ``noise``.

    The n-th call of one prompt (by :func:`request_key`) draws from ``seed``, the key and n, so
    two judgments of the same criterion are independent draws whatever order calls arrive in.
    Scores stay in 1..10 (a move past either end is clamped: keep true scores in 2..9 for
    exactly the stated noise). With ``noisy_models``, requests naming another ``model`` get
    ``score_fn``'s score unchanged, so one server stands in for a noisy and a clean judge.
    """
    calls: collections.Counter[str] = collections.Counter()
    lock = threading.Lock()
    clean = judge_reply(score_fn)

    def reply(body: dict[str, Any]) -> Reply:
        prompt = parse_judge_prompt(user_text(body))
        if prompt is None or (noisy_models is not None and body.get("model") not in noisy_models):
            return clean(body)
        key = request_key(body)
        with lock:
            calls[key] += 1
            nth = calls[key]
        move = 0
        if _unit_interval(seed, key, nth) < noise:
            move = 1 if _unit_interval(seed, key, nth, "sign") < 0.5 else -1
        score = min(10, max(1, score_fn(prompt.criterion, prompt.response) + move))
        return Reply(content=judge_answer(score, f"Scored {score} (noisy stand-in)."))

    return reply


def chat_reply(
    fn: Callable[[list[dict[str, Any]]], str] | None = None,
    *,
    honour_max_tokens: bool = True,
) -> ReplyFn:
    """A reply function for generation: ``fn(messages)`` returns the assistant's text.

    With ``honour_max_tokens`` the text is cut to ``max_completion_tokens`` / ``max_tokens``
    (four characters a token) and ``finish_reason`` becomes ``"length"``, as a real server does.
    The default ``fn`` answers with a short text quoting the start of the last user message.
    """
    make_text = fn or (lambda messages: f"Stand-in answer to: {_last_user(messages)[:80]}")

    def reply(body: dict[str, Any]) -> Reply:
        text = make_text(list(body.get("messages") or []))
        limit = body.get("max_completion_tokens") or body.get("max_tokens")
        if honour_max_tokens and isinstance(limit, int) and _tokens(text) > limit:
            return Reply(content=text[: limit * 4], finish_reason="length")
        return Reply(content=text)

    return reply


def _last_user(messages: Sequence[dict[str, Any]]) -> str:
    """The last user message's text in a messages list."""
    return user_text({"messages": messages})


# --------------------------------------------------------------------------------------------
# Fault injection
# --------------------------------------------------------------------------------------------

FaultKind = Literal[
    "non_json",
    "score_11",
    "score_string",
    "score_float",
    "score_bool",
    "missing_reason",
    "http_429",
    "http_500",
    "truncated",
]
FAULT_KINDS: tuple[str, ...] = get_args(FaultKind)


def fault_reply(kind: FaultKind, *, retry_after: str = "1") -> Reply:
    """The reply that stands for one fault ``kind`` (see :data:`FAULT_KINDS`)."""
    if kind == "http_429":
        headers = {"Retry-After": retry_after}
        return Reply(content="stand-in: rate limit (injected)", status=429, headers=headers)
    if kind == "http_500":
        return Reply(content="stand-in: internal error (injected)", status=500)
    if kind == "truncated":
        # A reasoning model that spends its whole budget thinking returns empty content.
        return Reply(content="", finish_reason="length")
    contents = {
        "non_json": "I think it is good",
        "score_11": judge_answer(11),
        "score_string": judge_answer("7"),
        "score_float": judge_answer(7.5),
        "score_bool": judge_answer(True),
        "missing_reason": judge_answer(7, reason=None),
    }
    if kind not in contents:
        raise ValueError(f"unknown fault kind {kind!r}; expected one of {FAULT_KINDS}")
    return Reply(content=contents[kind])


def _check_kinds(kinds: Iterable[str]) -> None:
    """Reject unknown fault kinds when the plan is made, not when a request arrives."""
    unknown = sorted(set(kinds) - set(FAULT_KINDS))
    if unknown:
        raise ValueError(f"unknown fault kinds {unknown}; expected some of {FAULT_KINDS}")


def judge_key(criterion_name: str, query: str) -> str:
    """The fault-plan key of a judge call: criterion name plus a digest of the item's query."""
    return f"{criterion_name}|{hashlib.sha1(query.encode()).hexdigest()[:16]}"


def request_key(body: dict[str, Any]) -> str:
    """Identify "the same call" across retries.

    Judge prompts get :func:`judge_key`; anything else a digest of its messages.
    """
    prompt = parse_judge_prompt(user_text(body))
    if prompt is not None:
        return judge_key(str(prompt.criterion.get("name", "")), prompt.query)
    messages = json.dumps(body.get("messages"), sort_keys=True, ensure_ascii=False)
    return f"chat|{hashlib.sha1(messages.encode()).hexdigest()[:16]}"


def _unit_interval(*parts: object) -> float:
    """A deterministic number in [0, 1) from ``parts``; independent of thread scheduling."""
    digest = hashlib.sha256("\x00".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


class FaultPlan:
    """Decides, per request, whether to send a fault instead of the normal reply.

    Three rules, checked in this order:

    * ``script(key, *kinds)``: the next calls with that key get these faults, one each
      (e.g. the first two calls for one criterion of one item are ``non_json``).
    * ``first_n``: the first N calls overall get ``first_n_kind``.
    * ``first_attempt_fraction``: that fraction of keys get a fault on their first call (the
      first time the key is seen), drawn from ``fraction_kinds``. The draw hashes ``seed`` and
      the key, so the same calls fail whatever the order in which concurrent requests arrive.

    A key is ``key_fn(body)``, by default :func:`request_key`. ``retry_after`` is the
    ``Retry-After`` header of injected 429s. Thread-safe.
    """

    def __init__(
        self,
        *,
        first_n: int = 0,
        first_n_kind: FaultKind = "http_500",
        first_attempt_fraction: float = 0.0,
        fraction_kinds: Sequence[FaultKind] = ("non_json",),
        seed: int = 0,
        retry_after: str = "1",
        key_fn: Callable[[dict[str, Any]], str] = request_key,
    ) -> None:
        _check_kinds([first_n_kind, *fraction_kinds])
        self.first_n = first_n
        self.first_n_kind = first_n_kind
        self.first_attempt_fraction = first_attempt_fraction
        self.fraction_kinds = tuple(fraction_kinds)
        self.seed = seed
        self.retry_after = retry_after
        self.key_fn = key_fn
        self._lock = threading.Lock()
        self._scripts: dict[str, collections.deque[FaultKind]] = {}
        self._seen: collections.Counter[str] = collections.Counter()
        self._calls = 0
        self.sent: collections.Counter[str] = collections.Counter()  # faults sent, by kind
        self.log: list[tuple[str, FaultKind]] = []  # (key, kind) of every fault, in order

    def script(self, key: str, *kinds: FaultKind) -> FaultPlan:
        """Queue ``kinds`` for the next calls whose key is ``key``; returns self for chaining."""
        _check_kinds(kinds)
        with self._lock:
            self._scripts.setdefault(key, collections.deque()).extend(kinds)
        return self

    @property
    def total(self) -> int:
        """How many faults have been sent."""
        with self._lock:
            return sum(self.sent.values())

    def decide(self, body: dict[str, Any]) -> FaultKind | None:
        """The fault to send for this request, or None for the normal reply; records it."""
        key = self.key_fn(body)
        with self._lock:
            self._calls += 1
            self._seen[key] += 1
            kind = self._choose(key, first_attempt=self._seen[key] == 1)
            if kind is not None:
                self.sent[kind] += 1
                self.log.append((key, kind))
            return kind

    def _choose(self, key: str, *, first_attempt: bool) -> FaultKind | None:
        """Apply the three rules; the caller holds the lock."""
        queued = self._scripts.get(key)
        if queued:
            return queued.popleft()
        if self._calls <= self.first_n:
            return self.first_n_kind
        eligible = first_attempt and bool(self.fraction_kinds)
        if eligible and _unit_interval(self.seed, key) < self.first_attempt_fraction:
            pick = _unit_interval(self.seed, key, "kind")
            return self.fraction_kinds[int(pick * len(self.fraction_kinds))]
        return None


# --------------------------------------------------------------------------------------------
# Rate limiting
# --------------------------------------------------------------------------------------------


class _SlidingWindowLimiter:
    """At most ``limit`` accepted requests in any ``window_s`` seconds (rejections don't count)."""

    def __init__(self, limit: int, window_s: float) -> None:
        self.limit = limit
        self.window_s = window_s
        self._accepted: collections.deque[float] = collections.deque()
        self._lock = threading.Lock()

    def admit(self) -> float | None:
        """None if the request may go ahead, else the seconds until a slot frees up."""
        now = time.monotonic()
        with self._lock:
            while self._accepted and self._accepted[0] <= now - self.window_s:
                self._accepted.popleft()
            if len(self._accepted) < self.limit:
                self._accepted.append(now)
                return None
            return self._accepted[0] + self.window_s - now


# --------------------------------------------------------------------------------------------
# The HTTP server
# --------------------------------------------------------------------------------------------

_AZURE_PATH = re.compile(r"^/openai/deployments/(?P<deployment>[^/]+)/chat/completions$")
_OPENAI_PATHS = frozenset({"/v1/chat/completions", "/chat/completions", "/v1/completions", "/completions"})


@dataclass(frozen=True)
class ServerStats:
    """Counters at one moment.

    ``requests`` received, ``http_429`` sent for any cause, ``faults`` injected, and requests
    ``rate_limited`` by the requests-per-minute limit.
    """

    requests: int
    http_429: int
    faults: int
    rate_limited: int


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # throughput benchmarks open many connections at once
    app: StandInChatServer


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the openai/httpx clients expect
    disable_nagle_algorithm = True  # headers and body are separate writes; avoid 40 ms stalls
    server: _HTTPServer

    def log_message(self, format: str, *args: Any) -> None:
        """Silence per-request logging: it costs time and floods test output."""

    def setup(self) -> None:
        super().setup()
        self.server.app._track(self.connection, add=True)

    def finish(self) -> None:
        self.server.app._track(self.connection, add=False)
        super().finish()

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        status, headers, body, delay_s = self.server.app._handle("POST", self.path, self.headers, raw)
        if delay_s > 0:
            time.sleep(delay_s)
        self._send(status, headers, body)

    def do_GET(self) -> None:
        status, headers, body, _ = self.server.app._handle("GET", self.path, self.headers, b"")
        self._send(status, headers, body)

    def _send(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.send_response(status)
        headers = {"Content-Type": "application/json", **headers}
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def _error_body(status: int, message: str | None) -> bytes:
    """An OpenAI-style error object."""
    error = {"message": message or f"stand-in: HTTP {status}", "type": "stand_in_error"}
    error["code"] = str(status)
    return json.dumps({"error": error}).encode()


class StandInChatServer:
    """An OpenAI/Azure-compatible chat-completions server on 127.0.0.1 in a background thread.

    ``reply`` answers each admitted request (default :func:`judge_reply`). ``faults`` may
    replace the answer with an injected fault. ``latency_s`` delays every chat answer. ``rpm``
    limits accepted requests per minute, answering 429 with a ``Retry-After`` header beyond
    it; the limit is enforced over sliding windows of ``rate_window_s`` seconds (default a
    minute) as ``rpm * rate_window_s / 60`` requests per window, so a short window lets tests
    and benchmarks reach steady state sooner. ``record=False`` skips recording requests, for
    long benchmarks. ``max_model_len`` makes it a vLLM server with that context: ``/v1/models``
    reports it, ``POST /tokenize`` counts a chat's prompt tokens (four characters a token), and a
    request whose prompt and ``max_tokens`` exceed it is refused with vLLM's 400. Use as a
    context manager, or call :meth:`start` and :meth:`stop`.
    """

    def __init__(
        self,
        reply: ReplyFn | None = None,
        *,
        faults: FaultPlan | None = None,
        latency_s: float = 0.0,
        rpm: int | None = None,
        rate_window_s: float = 60.0,
        port: int = 0,
        record: bool = True,
        max_model_len: int | None = None,
    ) -> None:
        self.reply = reply or judge_reply()
        self.max_model_len = max_model_len
        self.faults = faults
        self.latency_s = latency_s
        self.record = record
        self._limiter = None
        if rpm:
            per_window = max(1, round(rpm * rate_window_s / 60))
            self._limiter = _SlidingWindowLimiter(per_window, rate_window_s)
        self._requested_port = port
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []
        self._counts: collections.Counter[str] = collections.Counter()
        self._ids = itertools.count(1)
        self._connections: set[socket.socket] = set()
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> StandInChatServer:
        """Bind an ephemeral (or the requested) port and serve in a daemon thread."""
        self._httpd = _HTTPServer(("127.0.0.1", self._requested_port), _Handler)
        self._httpd.app = self
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop accepting, and cut open keep-alive connections so clients see the server go."""
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.server_close()
        with self._lock:
            connections = list(self._connections)
        for connection in connections:
            with contextlib.suppress(OSError):  # the client may have closed it already
                connection.shutdown(socket.SHUT_RDWR)
        self._httpd = None

    def __enter__(self) -> StandInChatServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- what tests read --------------------------------------------------------------------

    @property
    def port(self) -> int:
        """The bound TCP port."""
        if self._httpd is None:
            raise RuntimeError("server is not running")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``, for ``openai.OpenAI(base_url=...)``."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def azure_endpoint(self) -> str:
        """``http://127.0.0.1:PORT``, for ``openai.AzureOpenAI(azure_endpoint=...)``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def requests(self) -> list[RecordedRequest]:
        """A copy of the recorded chat-completions requests, in arrival order."""
        with self._lock:
            return list(self._requests)

    @property
    def stats(self) -> ServerStats:
        """A snapshot of the counters."""
        with self._lock:
            counts = dict(self._counts)
        return ServerStats(
            requests=counts.get("requests", 0),
            http_429=counts.get("http_429", 0),
            faults=counts.get("faults", 0),
            rate_limited=counts.get("rate_limited", 0),
        )

    def clear(self) -> None:
        """Forget recorded requests and reset the counters (the fault plan keeps its state)."""
        with self._lock:
            self._requests.clear()
            self._counts.clear()

    # -- request handling (called from handler threads) -------------------------------------

    def _track(self, connection: socket.socket, *, add: bool) -> None:
        with self._lock:
            if add:
                self._connections.add(connection)
            else:
                self._connections.discard(connection)

    def _count(self, *names: str) -> None:
        with self._lock:
            self._counts.update(names)

    def _handle(
        self, method: str, target: str, headers: Message | Mapping[str, str], raw: bytes
    ) -> tuple[int, dict[str, str], bytes, float]:
        """Route one request; returns status, extra headers, body, and how long to wait before sending them."""
        parts = urlsplit(target)
        if method == "GET" and parts.path in ("/v1/models", "/models"):
            return 200, {}, self._models_body(self.max_model_len), 0.0
        if method == "POST" and parts.path == "/tokenize" and self.max_model_len:
            count = _prompt_tokens(_parse_json(raw) or {})
            return 200, {}, json.dumps({"count": count, "max_model_len": self.max_model_len}).encode(), 0.0
        azure = _AZURE_PATH.match(parts.path)
        if method != "POST" or not (azure or parts.path in _OPENAI_PATHS):
            return 404, {}, _error_body(404, f"stand-in: no route for {method} {parts.path}"), 0.0
        body = _parse_json(raw)
        deployment = azure.group("deployment") if azure else None
        self._record(method, parts.path, parts.query, headers, body, deployment)
        if not isinstance(body, dict):
            return 400, {}, _error_body(400, "stand-in: request body is not a JSON object"), 0.0
        too_long = self._context_exceeded(body)
        if too_long:
            return 400, {}, _error_body(400, too_long), 0.0
        return self._answer(body, deployment)

    def _context_exceeded(self, body: dict[str, Any]) -> str | None:
        """vLLM's refusal of a request that does not fit the context, or None."""
        requested = body.get("max_completion_tokens") or body.get("max_tokens") or 0
        prompt = _prompt_tokens(body)
        if not self.max_model_len or prompt + requested <= self.max_model_len:
            return None
        return (
            f"This model's maximum context length is {self.max_model_len} tokens. However, you requested "
            f"{prompt + requested} tokens ({prompt} in the messages, {requested} in the completion)."
        )

    def _record(
        self,
        method: str,
        path: str,
        query: str,
        headers: Message,
        body: Any,
        deployment: str | None,
    ) -> None:
        self._count("requests")
        if not self.record:
            return
        header_map = {name.lower(): value for name, value in headers.items()}
        entry = RecordedRequest(method, path, query, header_map, body, time.time(), deployment)
        with self._lock:
            self._requests.append(entry)

    def _answer(
        self, body: dict[str, Any], deployment: str | None
    ) -> tuple[int, dict[str, str], bytes, float]:
        """Rate limit, then a fault or the reply function's answer, to be sent after the latency."""
        if self._limiter is not None:
            wait_s = self._limiter.admit()
            if wait_s is not None:
                self._count("rate_limited", "http_429")
                retry = {"Retry-After": str(max(1, math.ceil(wait_s)))}
                return 429, retry, _error_body(429, "stand-in: requests per minute exceeded"), 0.0
        reply = self._reply_for(body)
        if reply.status == 429:
            self._count("http_429")
        return reply.status, dict(reply.headers), self._body_of(reply, body, deployment), self.latency_s + reply.delay_s

    def _reply_for(self, body: dict[str, Any]) -> Reply:
        """The fault plan's fault, else the reply function's answer (500 if it raises)."""
        kind = self.faults.decide(body) if self.faults is not None else None
        if kind is not None:
            self._count("faults")
            return fault_reply(kind, retry_after=self.faults.retry_after)  # type: ignore[union-attr]
        try:
            return self.reply(body)
        except Exception:  # a broken reply function must show up in the test, not hang it
            message = f"stand-in reply function failed:\n{traceback.format_exc()}"
            return Reply(content=message, status=500)

    def _body_of(self, reply: Reply, body: dict[str, Any], deployment: str | None) -> bytes:
        """The bytes to send for ``reply``."""
        if reply.raw_body is not None:
            return reply.raw_body
        if reply.status != 200:
            return _error_body(reply.status, reply.content)
        return json.dumps(self._completion(reply, body, deployment), ensure_ascii=False).encode()

    def _completion(
        self, reply: Reply, body: dict[str, Any], deployment: str | None
    ) -> dict[str, Any]:
        """A standard ``chat.completion`` object around the reply's content (a ``text_completion``
        for a raw ``prompt`` sent to ``/v1/completions``)."""
        content = reply.content
        prompt_tokens = _prompt_tokens(body)
        completion_tokens = _tokens(content or "")
        if "prompt" in body:
            return {
                "id": f"cmpl-standin-{next(self._ids)}",
                "object": "text_completion",
                "created": int(time.time()),
                "model": body.get("model") or "stand-in",
                "choices": [{"index": 0, "text": content or "", "finish_reason": reply.finish_reason, "logprobs": None}],
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                },
            }
        return {
            "id": f"chatcmpl-standin-{next(self._ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model") or deployment or "stand-in",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": reply.finish_reason,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }

    @staticmethod
    def _models_body(max_model_len: int | None) -> bytes:
        model: dict[str, Any] = {"id": "stand-in", "object": "model", "created": 0, "owned_by": "tests"}
        if max_model_len:
            model["max_model_len"] = max_model_len
        return json.dumps({"object": "list", "data": [model]}).encode()


def _parse_json(raw: bytes) -> Any:
    """The parsed body, or None when it is not valid JSON."""
    try:
        return json.loads(raw) if raw else None
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None


# --------------------------------------------------------------------------------------------
# Running as a process
# --------------------------------------------------------------------------------------------


def _qa_judge_reply() -> ReplyFn:
    from tests.support.qa_judge import qa_judge_reply  # it builds on this module: imported when asked for

    return qa_judge_reply()


async def serve_on_event_loop(app: StandInChatServer, port: int, stop: asyncio.Event) -> None:
    """Serve `app`'s routes on this event loop (aiohttp) until `stop` is set. Prints ``READY <base_url>``
    once listening and, when stopped, ``SERVED <requests> <first request> <last answer>`` (Unix times).

    One thread for every connection: no 64 handler threads taking turns at the GIL, each waking
    from its latency to wait for the others (on a busy machine, tens of milliseconds a call that
    a throughput bench would count against the client).
    """
    from aiohttp import web

    served: list[float] = []  # when the first request came and the last answer went (time.time())

    async def handle(request: web.BaseRequest) -> web.Response:
        served[:1] = served[:1] or [time.time()]
        raw = await request.read()
        status, headers, body, delay_s = app._handle(request.method, request.path_qs, request.headers, raw)
        if delay_s > 0:
            await asyncio.sleep(delay_s)
        served[1:] = [time.time()]
        return web.Response(status=status, headers={"Content-Type": "application/json", **headers}, body=body)

    runner = web.ServerRunner(web.Server(handle), handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port, backlog=1024)
    await site.start()
    bound = site._server.sockets[0].getsockname()[1]  # noqa: SLF001 - port 0 picks one: read it back
    print(f"READY http://127.0.0.1:{bound}/v1", flush=True)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
        if len(served) == 2:  # for a bench: the span in which the calls were answered
            print(f"SERVED {app.stats.requests} {served[0]:.6f} {served[1]:.6f}", flush=True)


def _serve_until_sigterm(app: StandInChatServer, port: int) -> None:
    async def serve() -> None:
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await serve_on_event_loop(app, port, stop)

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve())


def main(argv: Sequence[str] | None = None) -> int:
    """Serve until SIGTERM or Ctrl-C; prints ``READY <base_url>`` once listening."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per answer")
    parser.add_argument("--rpm", type=int, default=None, help="requests per minute limit")
    parser.add_argument(
        "--rate-window",
        type=float,
        default=60.0,
        help="enforce --rpm over sliding windows of this many seconds (steady state sooner)",
    )
    parser.add_argument("--reply", choices=("judge", "chat", "qa-judge"), default="judge")
    parser.add_argument("--no-record", action="store_true", help="keep no request bodies (long benchmarks)")
    parser.add_argument("--event-loop", action="store_true",
                        help="serve on one asyncio event loop instead of a thread per connection (throughput benches)")
    args = parser.parse_args(argv)

    reply = {"judge": judge_reply, "chat": chat_reply, "qa-judge": _qa_judge_reply}[args.reply]()
    server = StandInChatServer(
        reply,
        latency_s=args.latency,
        rpm=args.rpm,
        rate_window_s=args.rate_window,
        port=args.port,
        record=not args.no_record,
    )
    if args.event_loop:
        _serve_until_sigterm(server, args.port)
        return 0
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with server, contextlib.suppress(KeyboardInterrupt):
        print(f"READY {server.base_url}", flush=True)
        stop.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
