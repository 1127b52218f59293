"""The LLM judge over HTTP: Azure OpenAI or any OpenAI-compatible endpoint.

One `JudgeClient` per run owns the SDK client, the adaptive concurrency bound and the
retry policy. Invalid answers are asked again (the seed's 3 attempts); transport
faults (429, 5xx, timeouts) are retried with backoff apart from those attempts.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
import openai
from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter
from tenacity import RetryCallState

from eval_backend.concurrency import AdaptiveLimiter
from eval_backend.records import INVALID_ANSWER, REJECTED, TRANSPORT_ERROR, Usage
from eval_backend.settings import JudgeSettings
from eval_backend.verdict import Verdict, VerdictError, parse_verdict

logger = logging.getLogger(__name__)

_JSON_HEADERS: dict[str, Any] = {"headers": {"Content-Type": "application/json"}}


class JudgeConfigError(RuntimeError):
    """The judge cannot be used at all (no endpoint, bad key, unknown model): stop the run."""


@dataclass(frozen=True)
class JudgeOutcome:
    """What one judgment came to: a verdict, or the error that ended it, with its costs."""

    verdict: Verdict | None
    attempts: int
    usage: Usage
    raw_text: str | None = None
    error: str | None = None
    error_kind: str | None = None


def build_openai_client(settings: JudgeSettings) -> openai.AsyncOpenAI:
    """The async SDK client for the configured endpoint; the SDK's own retries are off."""
    common: dict[str, Any] = {"max_retries": 0, "timeout": settings.timeout_s}
    if settings.uses_azure:
        if settings.azure_api_key is None:
            raise JudgeConfigError("AZURE_OPENAI_ENDPOINT is set but AZURE_OPENAI_API_KEY is not")
        return openai.AsyncAzureOpenAI(
            azure_endpoint=settings.azure_endpoint,
            api_key=settings.azure_api_key.get_secret_value(),
            api_version=settings.api_version,
            **common,
        )
    if settings.api_key is None and settings.base_url is None:
        raise JudgeConfigError(
            "no judge endpoint: set AZURE_OPENAI_ENDPOINT and AZURE_OPENAI_API_KEY, "
            "or OPENAI_API_KEY (with OPENAI_BASE_URL for another OpenAI-compatible server)"
        )
    # A local OpenAI-compatible server usually needs no key; the SDK insists on one.
    key = settings.api_key.get_secret_value() if settings.api_key else "not-needed"
    return openai.AsyncOpenAI(base_url=settings.base_url, api_key=key, **common)


def is_retryable(exc: BaseException) -> bool:
    """Retry rate limits (but not an exhausted quota), server errors, timeouts and lost connections."""
    if isinstance(exc, openai.RateLimitError):
        return not _is_quota_exhausted(exc)
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code >= 500 or exc.status_code in (408, 409)
    return isinstance(exc, (openai.APITimeoutError, openai.APIConnectionError))


def retry_after_seconds(exc: BaseException | None) -> float | None:
    """The wait an HTTP error asks for in `retry-after-ms` or `retry-after` (seconds), if any."""
    response = getattr(exc, "response", None)
    if response is None:
        return None
    headers = response.headers
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is not None:
            try:
                return max(0.0, float(value) * scale)
            except ValueError:
                continue  # an HTTP date: fall back to our own backoff
    return None


class JudgeClient:
    """Sends judge calls with a bounded, adaptive number in flight and the retry policy."""

    def __init__(self, settings: JudgeSettings, client: openai.AsyncOpenAI | None = None) -> None:
        self.settings = settings
        self.model = settings.model
        self._client = client or build_openai_client(settings)
        self.limiter = AdaptiveLimiter(settings.concurrency)
        self.transport_retries = 0
        self._backoff = wait_exponential_jitter(initial=1, max=settings.max_backoff_s, jitter=1)
        # Azure routes by deployment in the path (under the client's `…/openai` base URL).
        self._path = (
            f"/deployments/{quote(self.model, safe='')}/chat/completions" if settings.uses_azure else "/chat/completions"
        )

    async def judge(self, messages: list[dict[str, str]]) -> JudgeOutcome:
        """One judgment: up to `invalid_answer_attempts` answers until one is a valid verdict.

        Raises JudgeConfigError when the endpoint refuses us outright (auth, unknown model, quota).
        """
        usage, raw_text, error = Usage(), None, "no attempt made"
        attempts = self.settings.invalid_answer_attempts
        for attempt in range(1, attempts + 1):
            try:
                completion = await self._complete(messages)
            except openai.BadRequestError as exc:
                return JudgeOutcome(None, attempt, usage, raw_text, f"judge refused the request: {exc}", REJECTED)
            except (openai.APIStatusError, openai.APIConnectionError, openai.APITimeoutError) as exc:
                if not is_retryable(exc):
                    raise JudgeConfigError(f"judge endpoint refused the call: {exc}") from exc
                return JudgeOutcome(None, attempt, usage, raw_text, f"judge unreachable: {exc}", TRANSPORT_ERROR)
            usage = usage + Usage.from_api(completion.usage)
            raw_text = completion.text
            try:
                return JudgeOutcome(parse_verdict(raw_text), attempt, usage, raw_text)
            except VerdictError as exc:
                error = f"invalid judge answer on attempt {attempt}: {exc}"
                logger.debug(error)
        return JudgeOutcome(None, attempts, usage, raw_text, f"{error} (gave up after {attempts} attempts)", INVALID_ANSWER)

    async def close(self) -> None:
        await self._client.close()

    async def _complete(self, messages: list[dict[str, str]]) -> _Answer:
        retrying = AsyncRetrying(
            retry=retry_if_exception(is_retryable),
            stop=stop_after_attempt(self.settings.transport_retries + 1),
            wait=self._wait,
            before_sleep=self._count_retry,
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                return await self._send_once(messages)

    async def _send_once(self, messages: list[dict[str, str]]) -> _Answer:
        body = {
            "model": self.model,
            "messages": messages,
            "max_completion_tokens": self.settings.max_completion_tokens,
        }
        # The SDK's raw `post` (same auth, errors and connection pool) with a body we encode:
        # `chat.completions.create` walks and deep-copies every 30 KB prompt through its typed
        # transform (~3 ms of CPU a call), and its ASCII-escaped JSON sends an Indic prompt as
        # twice the bytes of UTF-8.
        content = json.dumps(body, ensure_ascii=False).encode("utf-8")
        async with self.limiter.slot() as generation:
            try:
                response = await self._client.post(
                    self._path, content=content, options=_JSON_HEADERS, cast_to=httpx.Response
                )
            except openai.RateLimitError:
                self.limiter.throttled(generation)
                raise
        self.limiter.succeeded()
        return _Answer.from_response(response)

    def _wait(self, state: RetryCallState) -> float:
        asked = retry_after_seconds(state.outcome.exception() if state.outcome else None)
        if asked is not None:
            return min(asked, self.settings.max_backoff_s)
        return self._backoff(state)

    def _count_retry(self, state: RetryCallState) -> None:
        self.transport_retries += 1
        exc = state.outcome.exception() if state.outcome else None
        logger.info("judge call failed (%s); retry %d", type(exc).__name__, state.attempt_number)


@dataclass(frozen=True)
class _Answer:
    """The judge's text and the call's token usage, read from a chat-completion body."""

    text: str | None
    usage: dict[str, Any] | None

    @classmethod
    def from_response(cls, response: httpx.Response) -> _Answer:
        """A body that is not a chat completion becomes the answer text, to be refused as a verdict."""
        try:
            data = response.json()
        except ValueError:
            return cls(response.text, None)
        if not isinstance(data, dict):
            return cls(response.text, None)
        choices = data.get("choices")
        first = choices[0] if isinstance(choices, list) and choices else None
        message = first.get("message") if isinstance(first, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        usage = data.get("usage")
        return cls(content if isinstance(content, str) else None, usage if isinstance(usage, dict) else None)


def _is_quota_exhausted(exc: openai.RateLimitError) -> bool:
    body = exc.body if isinstance(exc.body, dict) else {}
    code = body.get("code") or (body.get("error") or {}).get("code") if body else None
    return code == "insufficient_quota"
