"""`PageCache`: the page and its static files, built and compressed once, served to everyone.

Gradio builds the page anew for every visitor (a deep copy of the whole config) and compresses every script and
style again for every request: with a crowd arriving together, that is what the server spent its time on. This
ASGI middleware keeps each answer with its brotli and gzip forms (made once, in a worker thread) and serves:

- the page (`/`) per first-view generation, address, and the headers Gradio builds its links from. Not per
  query string: the page does not depend on it (its links are read in the browser), and keying on it would let
  every `?x=<n>` cost a page build and a page of memory;
- the static files (`/assets/…`, `/static/…`, `/theme.css`), whatever their query string. Files under
  `/assets/` have a content hash in their name, so browsers are told to keep them (`immutable`).

Visitors asking at once for an answer not kept yet share one build. An answer that is not a 200, sets a cookie,
is already encoded or is over MAX_ANSWER_BYTES is passed through, not kept.
"""

from __future__ import annotations

import asyncio
import gzip
from dataclasses import dataclass, field

import anyio.to_thread
import brotli
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from leaderboard.first_view import FirstView
from leaderboard.results import LruCache

PAGE_CACHE_BYTES = 64 * 1024 * 1024
"""64 MiB: every file of Gradio's frontend a page can ask for, with its compressed forms (~35 MB), and some
tens of pages (~0.84 MB each with theirs)."""
MAX_ANSWER_BYTES = PAGE_CACHE_BYTES // 4
"""The largest answer kept: a larger one would push out many others."""
PAGE_PATHS = frozenset({"/"})
STATIC_PREFIXES = ("/assets/", "/static/")
STATIC_PATHS = frozenset({"/theme.css"})
COMPRESSIBLE = (".js", ".css", ".json", ".html", ".svg", ".txt", ".map")
_KEY_HEADERS = (b"host", b"x-forwarded-host", b"x-forwarded-proto", b"x-gradio-server")
"""Headers from which Gradio derives the page's root URL (`route_utils.get_request_origin`), with the scheme:
two pages differ only through these. Per-visitor headers (`X-Forwarded-For` behind a proxy) must stay out,
or every visitor would have a page of their own."""
_DROPPED = (b"content-length", b"content-encoding", b"vary")
HASHED_PREFIX = "/assets/"
KEEP_FOR_A_YEAR = (b"cache-control", b"public, max-age=31536000, immutable")


@dataclass(frozen=True)
class _Answer:
    """One kept response: its headers, and its body as sent to each kind of browser."""

    headers: list[tuple[bytes, bytes]]
    bodies: dict[str, bytes] = field(default_factory=dict)

    @classmethod
    def of(cls, headers: list[tuple[bytes, bytes]], chunks: list[bytes], compressible: bool,
           immutable: bool) -> _Answer:
        """The answer to keep for a response; compresses, so it runs in a worker thread."""
        dropped = (*_DROPPED, b"cache-control") if immutable else _DROPPED
        kept = [(name, value) for name, value in headers if name.lower() not in dropped]
        if immutable:
            kept.append(KEEP_FOR_A_YEAR)
        body = b"".join(chunks)
        return cls(kept, {"identity": body, **(compressed_forms(body) if compressible else {})})

    @property
    def size(self) -> int:
        """The bytes this answer holds: its bodies and headers."""
        return sum(map(len, self.bodies.values())) + sum(len(name) + len(value) for name, value in self.headers)

    def message(self, accepted: set[str]) -> tuple[list[tuple[bytes, bytes]], bytes]:
        """The headers and body for a browser accepting these encodings (brotli, else gzip, else none)."""
        encoding = next((name for name in ("br", "gzip") if name in accepted and name in self.bodies), "identity")
        body = self.bodies[encoding]
        headers = [*self.headers, (b"content-length", str(len(body)).encode())]
        if len(self.bodies) > 1:
            headers.append((b"vary", b"accept-encoding"))
        if encoding != "identity":
            headers.append((b"content-encoding", encoding.encode()))
        return headers, body


def compressed_forms(body: bytes) -> dict[str, bytes]:
    """`body` compressed for browsers that accept brotli and for those that accept gzip."""
    return {"br": brotli.compress(body, quality=5), "gzip": gzip.compress(body, compresslevel=6)}


class PageCache:
    """ASGI middleware serving the page and its static files from memory (`answers`: where they are kept)."""

    def __init__(self, app: ASGIApp, first_view: FirstView, answers: LruCache[_Answer] | None = None) -> None:
        self.app = app
        self.first_view = first_view
        self.answers: LruCache[_Answer] = LruCache(PAGE_CACHE_BYTES, MAX_ANSWER_BYTES) if answers is None else answers
        self._building: dict[tuple, asyncio.Future[_Answer | None]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = self._key(scope)
        answer = self.answers.get(key) if key is not None else None
        if answer is None and key is not None and scope["method"] == "GET":
            answer = await self._shared_build(scope, receive, send, key)
            if answer is None:  # answered already, as Gradio did
                return
        if answer is None:
            await self.app(scope, receive, send)
            return
        headers, body = answer.message(_accepted(scope))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})

    def _key(self, scope: Scope) -> tuple | None:
        """What the answer to this request depends on; None when it must not be served from memory."""
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            return None
        path = scope["path"]
        if path in PAGE_PATHS:
            generation = self.first_view.generation
            if generation == 0:  # the first view is not rendered yet: the page would be empty
                return None
            headers = tuple(sorted((name, value) for name, value in scope.get("headers", [])
                                   if name.lower() in _KEY_HEADERS))
            return "page", generation, scope.get("scheme"), scope.get("root_path", ""), path, headers
        if path in STATIC_PATHS or path.startswith(STATIC_PREFIXES):
            return "static", path
        return None

    async def _shared_build(self, scope: Scope, receive: Receive, send: Send, key: tuple) -> _Answer | None:
        """The answer for `key`, built by this request or by the one already building it; None when it could not
        be kept and this request was answered as Gradio answers it."""
        pending = self._building.get(key)
        if pending is not None:
            answer = await asyncio.shield(pending)
            if answer is None:
                await self.app(scope, receive, send)
            return answer
        self._building[key] = future = asyncio.get_running_loop().create_future()
        answer = None
        try:
            answer = await self._build(scope, receive, send, key)
        finally:  # even when this visitor went away: the others waiting ask Gradio themselves
            del self._building[key]
            future.set_result(answer)
        return answer

    async def _build(self, scope: Scope, receive: Receive, send: Send, key: tuple) -> _Answer | None:
        """Gradio's answer, kept when it may be shared; else passed on to this request as it came (None)."""
        response = _RecordedResponse(send, self.answers.max_entry)
        await self.app(scope, receive, response.record)
        headers = list(response.start.get("headers", []))
        names = {name.lower() for name, _ in headers}
        if response.passed_on or response.start.get("status") != 200 or names & {b"set-cookie", b"content-encoding"}:
            await response.pass_on()
            return None
        path = scope["path"]
        compressible = key[0] == "page" or path.lower().endswith(COMPRESSIBLE)
        answer = await anyio.to_thread.run_sync(_Answer.of, headers, response.chunks, compressible,
                                                path.startswith(HASHED_PREFIX))
        if not self.answers.put(key, answer, answer.size + len(repr(key))):
            await response.pass_on()
            return None
        return answer


class _RecordedResponse:
    """Gradio's response messages, held back to be kept; passed on as they come once past `limit` bytes."""

    def __init__(self, send: Send, limit: int) -> None:
        self.send = send
        self.limit = limit
        self.messages: list[Message] = []
        self.passed_on = False
        self._bytes = 0

    @property
    def start(self) -> Message:
        """The response's start message (status and headers); empty while none came."""
        return next((message for message in self.messages if message["type"] == "http.response.start"), {})

    @property
    def chunks(self) -> list[bytes]:
        return [message.get("body", b"") for message in self.messages if message["type"] == "http.response.body"]

    async def record(self, message: Message) -> None:
        """Hold `message` back; past the limit, or for a kind of message not kept, pass everything on."""
        if self.passed_on:
            await self.send(message)
            return
        # A copy: the compression middleware outside adds its encoding to this very list.
        self.messages.append({**message, "headers": list(message["headers"])} if "headers" in message else message)
        self._bytes += len(message.get("body", b""))
        if self._bytes > self.limit or message["type"] not in ("http.response.start", "http.response.body"):
            await self.pass_on()

    async def pass_on(self) -> None:
        """Send what was held back, as it came (once)."""
        if not self.passed_on:
            self.passed_on = True
            for message in self.messages:
                await self.send(message)


def _accepted(scope: Scope) -> set[str]:
    """The encodings a request's Accept-Encoding names (quality values are not weighed)."""
    accepted = b",".join(value for name, value in scope.get("headers", []) if name.lower() == b"accept-encoding")
    return {part.split(b";")[0].strip().decode("latin-1") for part in accepted.lower().split(b",") if part.strip()}
