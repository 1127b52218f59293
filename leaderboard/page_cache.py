"""`PageCache`: the page and its static files, built and compressed once, served to everyone.

A first visit asks for the page and ~90 files (scripts, styles, fonts). Gradio builds the page
anew for every visitor (a deep copy of the whole config, the template, the API description),
and compresses every script and style again for every request; with a crowd arriving
together that, not the board, is what the server spends its time on. This ASGI middleware
keeps each answer and its compressed forms (brotli and gzip, made once) and serves later
visitors from memory:

- the page (`/`) per first-view generation (`leaderboard.first_view`), address, and the
  headers Gradio builds its links from; a new render of the first view starts a new page;
- the static files (`/assets/…`, `/static/…`, `/theme.css`), which do not change while the
  server runs. Files under `/assets/` have a content hash in their name (Gradio's build), so
  browsers are told to keep them (`immutable`): a returning visitor fetches none of them again.

A response that is not a 200, or that sets a cookie or is already encoded, is never kept.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

import brotli

from leaderboard.first_view import FirstView
from leaderboard.results import LruCache

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

ANSWERS_KEPT = 512
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
    def of(cls, headers: list[tuple[bytes, bytes]], body: bytes, compressible: bool, immutable: bool) -> _Answer:
        dropped = (*_DROPPED, b"cache-control") if immutable else _DROPPED
        kept = [(name, value) for name, value in headers if name.lower() not in dropped]
        if immutable:
            kept.append(KEEP_FOR_A_YEAR)
        bodies = {"identity": body}
        if compressible:
            bodies["br"] = brotli.compress(body, quality=5)
            bodies["gzip"] = gzip.compress(body, compresslevel=6)
        return cls(kept, bodies)

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


class PageCache:
    """ASGI middleware serving the page and its static files from memory."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], first_view: FirstView,
                 kept: int = ANSWERS_KEPT) -> None:
        self.app = app
        self.first_view = first_view
        self.answers: LruCache[_Answer] = LruCache(kept)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = self._key(scope)
        if key is None:
            await self.app(scope, receive, send)
            return
        answer = self.answers.get(key)
        if answer is None:
            await self._answer_and_keep(scope, receive, send, key)
            return
        headers, body = answer.message(_accepted(scope))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})

    def _key(self, scope: Scope) -> tuple | None:
        """What the answer to this request depends on; None when it must not be served from memory."""
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            return None
        path, query = scope["path"], scope.get("query_string", b"")
        if path in PAGE_PATHS:
            generation = self.first_view.generation
            if generation == 0:  # the first view is not rendered yet: the page would be empty
                return None
            headers = tuple(sorted((name, value) for name, value in scope.get("headers", [])
                                   if name.lower() in _KEY_HEADERS))
            return "page", generation, scope.get("scheme"), scope.get("root_path", ""), path, query, headers
        if path in STATIC_PATHS or path.startswith(STATIC_PREFIXES):
            return "static", path, query
        return None

    async def _answer_and_keep(self, scope: Scope, receive: Receive, send: Send, key: tuple) -> None:
        """Let Gradio answer, passing its response on unchanged, and keep it when it may be shared."""
        start: Message = {}
        chunks: list[bytes] = []

        async def keep(message: Message) -> None:
            if message["type"] == "http.response.start":
                # A copy: the compression middleware outside adds its encoding to this very list.
                start.update(message, headers=list(message.get("headers", [])))
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
            await send(message)

        await self.app(scope, receive, keep)
        headers = list(start.get("headers", []))
        names = {name.lower() for name, _ in headers}
        if start.get("status") == 200 and scope["method"] == "GET" and not names & {b"set-cookie", b"content-encoding"}:
            path = scope["path"]
            compressible = key[0] == "page" or path.lower().endswith(COMPRESSIBLE)
            self.answers.put(key, _Answer.of(headers, b"".join(chunks), compressible, path.startswith(HASHED_PREFIX)))


def _accepted(scope: Scope) -> set[str]:
    """The encodings a request's Accept-Encoding names (quality values are not weighed)."""
    accepted = b",".join(value for name, value in scope.get("headers", []) if name.lower() == b"accept-encoding")
    return {part.split(b";")[0].strip().decode("latin-1") for part in accepted.lower().split(b",") if part.strip()}
