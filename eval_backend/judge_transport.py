"""The judge's HTTP transport: one pre-encoded chat-completions POST on a lean aiohttp session.

The SDK's request path (typed options copied per call, the httpx and httpcore layers, a pool
that probes every idle connection on each request) cost ~2 ms of CPU a call, which caps a
2-core worker near 150 calls/s. This transport posts the bytes we encode to the URL, query
and headers the SDK client would use (Azure's `api-key` and `api-version`, or a bearer key),
and raises the SDK's own exception types, so retries, error kinds and messages read the same.
"""

from __future__ import annotations

import asyncio
from typing import Any, Coroutine, TypeVar
from urllib.parse import urlencode

import aiohttp
import httpx
import openai
import orjson
import yarl
from aiohttp.helpers import get_env_proxy_for_url
from multidict import CIMultiDict

from eval_backend.jsonl import to_json

try:  # libuv's event loop: ~10 % less CPU a judge call than asyncio's own; not on Windows
    import uvloop
except ImportError:  # pragma: no cover - where uvloop is not installed
    uvloop = None

T = TypeVar("T")


def run_event_loop(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)`, on uvloop where it is installed."""
    with asyncio.Runner(loop_factory=uvloop.new_event_loop if uvloop else None) as runner:
        return runner.run(main)


def encode_body(body: dict[str, Any]) -> bytes:
    """The JSON bytes of a request body, non-ASCII text as raw UTF-8 (an Indic prompt escaped
    as `\\uXXXX` would be twice the bytes). orjson encodes a 30 KB prompt ~30x faster than the
    standard library; it refuses a lone surrogate, which `to_json` writes as its escape.

    orjson's bytes keep the buffer it grew while encoding (4 bytes a character, rounded up to a
    power of two: 1 MB for a 90 KB body), and a body lives as long as its call: 100 calls in
    flight held ~56 MB of such buffers. A copy of the exact size (~1 µs) is what the call keeps;
    orjson's buffer is freed at once."""
    try:
        return bytes(memoryview(orjson.dumps(body)))
    except orjson.JSONEncodeError:
        return to_json(body).encode("utf-8")


class JudgeTransport:
    """POSTs request bodies to one chat-completions path of the endpoint `client` is built for."""

    def __init__(self, client: openai.AsyncOpenAI, path: str, timeout_s: float) -> None:
        self._client = client  # its exception types for error statuses; closed with us
        query = {name: value for name, value in client.default_query.items() if isinstance(value, str)}
        url = str(client.base_url).rstrip("/") + path + (f"?{urlencode(query)}" if query else "")
        self.url = yarl.URL(url, encoded=True)  # `path` is already quoted (an Azure deployment may hold a `/`)
        # The SDK's headers but its X-Stainless telemetry: each header costs CPU on every call.
        headers = {**client.default_headers, **client.auth_headers, "Content-Type": "application/json"}
        self._headers = CIMultiDict(
            (name, value) for name, value in headers.items()
            if isinstance(value, str) and not name.lower().startswith("x-stainless")  # an unset one is Omit
        )
        if self.url.user is not None:
            # Credentials in the base URL go as basic auth, as httpx sends them, and never stay in the URL
            # (aiohttp refuses them beside an Authorization header; a logged URL would show them).
            self._headers["Authorization"] = aiohttp.BasicAuth(self.url.user, self.url.password or "").encode()
            self.url = self.url.with_user(None)
        # Per connect and per read, as the SDK's own timeout; the caller bounds a call overall.
        self._timeout = aiohttp.ClientTimeout(total=None, connect=timeout_s, sock_read=timeout_s)
        self._session: aiohttp.ClientSession | None = None
        # HTTP(S)_PROXY and NO_PROXY are honoured as the SDK does, looked up once: aiohttp's own
        # `trust_env` looks them (and ~/.netrc) up in a worker thread on every request.
        try:
            self._proxy, self._proxy_auth = get_env_proxy_for_url(self.url)
        except LookupError:  # no proxy for this URL
            self._proxy, self._proxy_auth = None, None

    async def post(self, content: bytes) -> bytes:
        """The body of a 2xx answer. Raises the SDK's APIStatusError subclass for an error status,
        APITimeoutError for a connect or read timeout, APIConnectionError for any other fault."""
        try:
            async with self._open().post(
                self.url, data=content, headers=self._headers, proxy=self._proxy, proxy_auth=self._proxy_auth
            ) as response:
                body = await response.read()
                status, headers = response.status, response.headers
        except aiohttp.ServerTimeoutError as exc:  # a connect or a read timed out
            raise openai.APITimeoutError(self._request()) from exc
        except aiohttp.ClientError as exc:  # refused, reset, unresolvable, a malformed answer
            raise openai.APIConnectionError(request=self._request()) from exc
        if status >= 300:
            raise self._status_error(status, headers, body)
        return body

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
        await self._client.close()

    def _open(self) -> aiohttp.ClientSession:
        """The session, made on first use: it belongs to the event loop the calls run on."""
        if self._session is None or self._session.closed:
            # No connection cap of its own: the judge client's adaptive limiter bounds the calls in flight.
            connector = aiohttp.TCPConnector(limit=0)
            self._session = aiohttp.ClientSession(connector=connector, timeout=self._timeout)
        return self._session

    def _request(self) -> httpx.Request:
        return httpx.Request("POST", str(self.url))

    def _status_error(self, status: int, headers: Any, body: bytes) -> openai.APIStatusError:
        """The SDK's exception for an error answer (RateLimitError for a 429, …), built by the SDK
        itself from the answer, so its message, `body` and `response.headers` are the usual ones."""
        kept = [(name, value) for name, value in headers.items()
                if name.lower() not in ("content-encoding", "content-length", "transfer-encoding")]  # body is decoded
        response = httpx.Response(status, headers=kept, content=body, request=self._request())
        return self._client._make_status_error_from_response(response)  # noqa: SLF001 - the SDK's own mapping
