"""The provider's files and batches endpoints, through the SDK, with the live judge's retry policy."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Awaitable, Callable, TypeVar

import openai
from openai.types import Batch
from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter

from eval_backend.batch.route import BatchRoute, batch_route
from eval_backend.judge_client import JudgeConfigError, build_openai_client, endpoint_host, is_retryable
from eval_backend.redaction import redact
from eval_backend.settings import JudgeSettings

logger = logging.getLogger(__name__)

T = TypeVar("T")

TERMINAL = frozenset({"completed", "failed", "expired", "cancelled"})
"""Batch statuses after which nothing changes (validating, in_progress, finalizing, cancelling come first)."""


class BatchAPI:
    """Upload input files, create and find batches, poll them and download their results."""

    def __init__(self, settings: JudgeSettings, client: openai.AsyncOpenAI | None = None) -> None:
        self.settings = settings
        self.route: BatchRoute = batch_route(settings)
        self.endpoint = endpoint_host(settings)
        self._client = client or build_openai_client(settings)

    async def upload(self, path: Path) -> str:
        """Upload an input file with purpose `batch`, streamed from disk; returns its file id."""
        async def send() -> Any:
            with path.open("rb") as handle:
                return await self._client.files.create(file=(path.name, handle, "application/jsonl"), purpose="batch")
        return (await self._call("upload a batch input file", send)).id

    async def create(self, file_id: str) -> str:
        """Create the batch that runs `file_id`; returns its id."""
        batch = await self._call("create a batch", lambda: self._client.batches.create(
            input_file_id=file_id, endpoint=self.route.url, completion_window="24h",  # type: ignore[arg-type]
        ))
        return batch.id

    async def find(self, file_id: str) -> str | None:
        """The batch already running `file_id`, if one was created before the process could record it."""
        async def search() -> str | None:
            async for batch in self._client.batches.list(limit=100):
                if batch.input_file_id == file_id:
                    return batch.id
            return None
        return await self._call("list batches", search)

    async def retrieve(self, batch_id: str) -> Batch:
        return await self._call("poll a batch", lambda: self._client.batches.retrieve(batch_id))

    async def download(self, file_id: str, path: Path) -> None:
        """Stream a result file to `path` (an output file of a full run is tens of MB)."""
        async def fetch() -> None:
            async with self._client.files.with_streaming_response.content(file_id) as response:
                await response.stream_to_file(path)
        await self._call("download batch results", fetch)

    async def close(self) -> None:
        await self._client.close()

    async def _call(self, what: str, call: Callable[[], Awaitable[T]]) -> T:
        """`call` with rate limits, server errors and lost connections retried with backoff; any
        other refusal (auth, an unknown deployment, a route without batch support) stops the run."""
        retrying = AsyncRetrying(
            retry=retry_if_exception(is_retryable),
            stop=stop_after_attempt(self.settings.transport_retries + 1),
            wait=wait_exponential_jitter(initial=1, max=self.settings.max_backoff_s, jitter=1),
            reraise=True,
        )
        try:
            async for attempt in retrying:
                with attempt:
                    return await call()
        except (openai.APIStatusError, openai.APIConnectionError) as exc:
            retried = " after retries" if is_retryable(exc) else ""
            raise JudgeConfigError(redact(
                f"judge endpoint {self.endpoint} failed to {what}{retried}: {exc}. Batches already "
                "submitted are recorded in the run folder: run again to resume polling them."
            )) from exc
        raise AssertionError("unreachable")  # pragma: no cover - AsyncRetrying returns or raises
