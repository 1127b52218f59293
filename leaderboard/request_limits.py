"""`BodyLimit`: a request body past MAX_BODY_BYTES is refused (413) before Gradio reads or parses any of it.

Every event the page sends carries its inputs' values: texts of at most 512 characters and lists of at most 32 of
them (`leaderboard.endpoint_inputs`), a few KB in all. A body of megabytes is never a page's: without a bound, a 20
MB run id was parsed, looked up, written to the log and sent back. File uploads (Gradio's `/upload`, bounded by its
own `max_file_size`) pass through.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 128 * 1024
"""The largest request body accepted: the board's biggest event, every list full, is under a quarter of it."""
UNBOUNDED_SUFFIXES = ("/upload",)
"""Paths whose bodies are files, bounded by Gradio's own upload limit."""


class BodyLimit:
    """ASGI middleware: reads a request's body up to `max_bytes` and hands it on, or answers 413 past it."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS") or scope["path"].endswith(
                UNBOUNDED_SUFFIXES):
            await self.app(scope, receive, send)
            return
        declared = next((value for name, value in scope.get("headers", []) if name.lower() == b"content-length"), b"")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send)
            return
        messages, size = [], 0
        while True:
            message = await receive()
            messages.append(message)
            size += len(message.get("body", b""))
            if size > self.max_bytes:
                await self._refuse(send)
                return
            if message["type"] != "http.request" or not message.get("more_body"):
                break

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"error": f"the request body is over {self.max_bytes:,} bytes, the most this server "
                                    "accepts"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
