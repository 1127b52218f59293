"""The LLM judge over HTTP: Azure OpenAI or any OpenAI-compatible endpoint.

One `JudgeClient` per run owns the SDK client, the adaptive concurrency bound and the
retry policy. Invalid answers are asked again (the seed's 3 attempts); transport
faults (429, 5xx, timeouts) are retried with backoff apart from those attempts.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from dataclasses import dataclass, replace
from typing import Any, Callable, Generic, TypeVar
from urllib.parse import quote

import httpx
import openai

from eval_backend.concurrency import AdaptiveLimiter
from eval_backend.connection_failures import ConnectionFailures, url_host
from eval_backend.judge_transport import JudgeTransport, encode_body
from eval_backend.records import INVALID_ANSWER, REJECTED, TRANSPORT_ERROR, Usage, sha256_text
from eval_backend.redaction import add_secrets, judge_secrets, redact
from eval_backend.settings import JudgeSettings
from eval_backend.verdict import VerdictError

logger = logging.getLogger(__name__)

V = TypeVar("V")

RESUME_HINT = " Judgments already made are saved: run again to resume."
"""What a run's judge phase can promise when the judge stops (a caller that saves nothing drops it)."""


class JudgeConfigError(RuntimeError):
    """The judge cannot be used at all (no endpoint, bad key, unknown model): stop the run."""


class JudgeUnreachableError(JudgeConfigError):
    """Connections to the judge failed many times in a row with no answer between: stop, do not retry for hours."""


class JudgeDeadlineError(openai.APITimeoutError):
    """A call had no complete answer within its overall deadline (a per-read timeout alone lets a
    server that trickles a byte at a time hold a call forever); retried like any timeout."""

    def __init__(self, request: httpx.Request, seconds: float) -> None:
        openai.APIConnectionError.__init__(
            self, message=f"no complete answer within {seconds:g}s (JUDGE_TIMEOUT_S)", request=request
        )


@dataclass(frozen=True)
class JudgeOutcome(Generic[V]):
    """What one judgment came to: a verdict, or the error that ended it, with its costs."""

    verdict: V | None
    attempts: int
    usage: Usage
    raw_text: str | None = None
    error: str | None = None
    error_kind: str | None = None
    prompt_sha256: str | None = None  # of the last message's text, when a call sent it (see `ChatAnswer`)


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

    def __init__(
        self, settings: JudgeSettings, client: openai.AsyncOpenAI | None = None, *, temperature: float | None = None
    ) -> None:
        self.settings = settings
        add_secrets(judge_secrets(settings))  # whatever text a call brings back is stored without them
        # Sent while the judge accepts it (WritingBench's protocol sends none); once the judge
        # refuses it, calls go without and the refusal is kept here for the summary to record.
        self.temperature = temperature
        self.temperature_refused: str | None = None
        self.temperature_refusals = 0  # calls refused for it: the first, and those in flight then
        self.model = settings.model
        self.limiter = AdaptiveLimiter(settings.concurrency)
        self.transport_retries = 0
        self.endpoint = endpoint_host(settings)
        self._connections = ConnectionFailures(self.endpoint, settings.max_connection_failures, _judge_unreachable)
        # Azure routes by deployment in the path (under the client's `…/openai` base URL).
        path = (
            f"/deployments/{quote(self.model, safe='')}/chat/completions" if settings.uses_azure else "/chat/completions"
        )
        self._transport = JudgeTransport(client or build_openai_client(settings), path, settings.timeout_s)

    async def judge(
        self, messages: list[dict[str, str]], parse: Callable[[str | None], V], *, attempts_used: int = 0
    ) -> JudgeOutcome[V]:
        """One judgment: up to `invalid_answer_attempts` answers until `parse` accepts one.

        `parse` turns the judge's text into a verdict or raises VerdictError: the judge scorer's
        own parser (`JudgeScorer.parse`). `attempts_used` counts answers already refused elsewhere (in a
        batch), so the attempts left are the rest of the same bound. Raises JudgeConfigError
        when the endpoint refuses us outright (auth, unknown model, quota).
        """
        usage, raw_text, error, prompt_sha = Usage(), None, "no attempt made", None
        attempts = self.settings.invalid_answer_attempts
        for attempt in range(attempts_used + 1, attempts + 1):
            try:
                completion = await self._complete_at_temperature(messages)
            except openai.BadRequestError as exc:
                error = redact(f"judge refused the request: {exc}")
                return JudgeOutcome(None, attempt, usage, raw_text, error, REJECTED, prompt_sha)
            except (openai.APIStatusError, openai.APIConnectionError, openai.APITimeoutError) as exc:
                if not is_retryable(exc):
                    raise JudgeConfigError(redact(f"judge endpoint {self.endpoint} refused the call: {exc}")) from exc
                error = redact(f"judge {self.endpoint} unreachable: {exc}")
                return JudgeOutcome(None, attempt, usage, raw_text, error, TRANSPORT_ERROR, prompt_sha)
            usage = usage + Usage.from_api(completion.usage)
            raw_text, prompt_sha = completion.text, completion.prompt_sha256
            try:
                return JudgeOutcome(parse(raw_text), attempt, usage, raw_text, prompt_sha256=prompt_sha)
            except VerdictError as exc:
                error = f"invalid judge answer on attempt {attempt}: {exc}"
                logger.debug(error)
        return JudgeOutcome(None, attempts, usage, raw_text, f"{error} (gave up after {attempts} attempts)", INVALID_ANSWER,
                            prompt_sha)

    async def close(self) -> None:
        await self._transport.close()

    @property
    def sent_temperature(self) -> float | None:
        """The temperature a verdict was judged at: this client's, None once the judge refused it (or none is sent)."""
        return None if self.temperature_refused else self.temperature

    async def _complete_at_temperature(self, messages: list[dict[str, str]]) -> ChatAnswer:
        """`_complete`; a call the judge refuses for its temperature is sent again without one.

        The first refusal is learned for the client's lifetime: no call sent after it carries
        a temperature, so only the calls already in flight are refused too (each counted).
        """
        try:
            return await self._complete(messages)
        except _TemperatureRefused as refused:
            self.temperature_refusals += 1
            if self.temperature_refused is None:
                self.temperature_refused = str(refused.error)
                logger.warning("the judge refuses temperature %s; judging at its default: %s",
                               self.temperature, refused.error)
            return await self._complete(messages)

    def _sampling(self) -> dict[str, float]:
        return {} if self.temperature is None or self.temperature_refused else {"temperature": self.temperature}

    async def _complete(self, messages: list[dict[str, str]]) -> ChatAnswer:
        """`_send_once`, sent again after a transport fault (`is_retryable`), at most `transport_retries` times.

        A plain loop, not tenacity's AsyncRetrying: building its retry state for every call cost
        about a tenth of a judge call's CPU, paid by every call for the few that are retried.
        """
        retries = 0
        while True:
            try:
                return await self._send_once(messages)
            except Exception as exc:  # is_retryable decides; anything else goes up as it is
                if retries >= self.settings.transport_retries or not is_retryable(exc):
                    raise
                retries += 1
                self.transport_retries += 1
                logger.info("judge call failed (%s); retry %d", type(exc).__name__, retries)
                await asyncio.sleep(self._wait_s(exc, retries))

    def request_body(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        """The chat-completion body of one judge call: sent live, or as one line of a batch file."""
        return {
            "model": self.model,
            "messages": messages,
            "max_completion_tokens": self.settings.max_completion_tokens,
            **self._sampling(),
        }

    async def _send_once(self, messages: list[dict[str, str]]) -> ChatAnswer:
        # Not `chat.completions.create`: it walks and deep-copies every 30 KB prompt through its
        # typed transform (~3 ms of CPU a call) and sends an Indic prompt ASCII-escaped, twice the
        # bytes of UTF-8. The transport posts the bytes encoded here.
        async with self.limiter.slot() as generation:
            # Encoded once the slot is ours: a temperature refused while this call waited is not sent.
            carries_temperature = bool(self._sampling())
            content, prompt_sha256 = self._encode(messages)
            try:
                response = await self._post_within_deadline(content)
            except openai.RateLimitError:
                self.limiter.throttled(generation)
                raise
            except openai.BadRequestError as exc:
                if carries_temperature and _refuses_temperature(exc):
                    raise _TemperatureRefused(exc) from exc
                raise
        self.limiter.succeeded()
        return replace(ChatAnswer.from_bytes(response), prompt_sha256=prompt_sha256)

    def _encode(self, messages: list[dict[str, str]]) -> tuple[bytes, str | None]:
        """The request body, and the SHA-256 of the last message's text (which the judgment records).

        orjson leaves a non-ASCII text it encodes holding a UTF-8 copy of itself (CPython's cache,
        ~45 KB for a prompt) for as long as the text lives, and the caller holds the prompt for the
        whole call: 100 calls in flight held ~5 MB of such copies. So a throwaway copy of the text is
        encoded, and hashed from the UTF-8 the encoder cached on it, with no second transcoding.
        """
        last = messages[-1] if messages else {}
        text = last.get("content")
        if not isinstance(text, str):
            return encode_body(self.request_body(messages)), None
        text = "".join((text, ""))  # a new string: `str(text)`, `text[:]` and `text + ""` return `text` itself
        content = encode_body(self.request_body([*messages[:-1], {**last, "content": text}]))
        return content, sha256_text(text)

    async def _post_within_deadline(self, content: bytes) -> bytes:
        """One HTTP call, ended after `timeout_s` in all; counts connection failures in a row."""
        deadline = self.settings.timeout_s
        try:
            async with asyncio.timeout(deadline):
                response = await self._transport.post(content)
        except TimeoutError:
            raise JudgeDeadlineError(httpx.Request("POST", str(self._transport.url)), deadline) from None
        except openai.APIConnectionError as exc:
            self._connections.failed(exc)
            raise
        except openai.APIStatusError:
            self._connections.answered()
            raise
        self._connections.answered()
        return response

    def _wait_s(self, exc: BaseException, retry: int) -> float:
        """Before `retry` (1 for the first): the wait the answer asks for, else 1 s doubling each
        time plus up to 1 s of jitter (tenacity's `wait_exponential_jitter`); at most `max_backoff_s`."""
        asked = retry_after_seconds(exc)
        if asked is None:
            asked = 2 ** (retry - 1) + random.uniform(0, 1)
        return min(asked, self.settings.max_backoff_s)


class JudgeClients:
    """The judge clients of one phase, one per temperature its judges are sent at, built on first use.

    Each keeps its own record of a refused temperature, and its own concurrency bound, which
    learns across the phase's configs.
    """

    def __init__(self, settings: JudgeSettings) -> None:
        self.settings = settings
        self._clients: dict[float | None, JudgeClient] = {}

    def at(self, temperature: float | None) -> JudgeClient:
        """The client that sends at `temperature` (None: without one)."""
        if temperature not in self._clients:
            self._clients[temperature] = JudgeClient(self.settings, temperature=temperature)
        return self._clients[temperature]

    @property
    def throttles(self) -> int:
        return sum(client.limiter.throttles for client in self._clients.values())

    @property
    def transport_retries(self) -> int:
        return sum(client.transport_retries for client in self._clients.values())

    async def close(self) -> None:
        for client in self._clients.values():
            await client.close()


@dataclass(frozen=True)
class ChatAnswer:
    """The judge's text and the call's token usage, read from a chat-completion body."""

    text: str | None
    usage: dict[str, Any] | None
    prompt_sha256: str | None = None  # of the prompt this client sent for it (the last message's text)

    @classmethod
    def from_bytes(cls, raw: bytes) -> ChatAnswer:
        """A body that is not a chat completion becomes the answer text, to be refused as a verdict."""
        text = raw.decode("utf-8", errors="replace")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):  # not JSON, or JSON no parser should follow (nesting thousands deep)
            return cls(text, None)
        return cls.from_body(data, text)

    @classmethod
    def from_body(cls, data: Any, text: str) -> ChatAnswer:
        """The answer in a parsed chat-completion body (a live reply, or a batch output line's);
        anything else becomes `text`, to be refused as a verdict."""
        if not isinstance(data, dict):
            return cls(text, None)
        choices = data.get("choices")
        first = choices[0] if isinstance(choices, list) and choices else None
        message = first.get("message") if isinstance(first, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        usage = data.get("usage")
        return cls(content if isinstance(content, str) else None, usage if isinstance(usage, dict) else None)


def endpoint_host(settings: JudgeSettings) -> str:
    """The judge endpoint as `host[:port]`, for messages: never a path, a query or credentials."""
    return url_host(settings.azure_endpoint if settings.uses_azure else settings.base_url or "https://api.openai.com")


def _judge_unreachable(what: str) -> JudgeUnreachableError:
    return JudgeUnreachableError(
        f"the judge endpoint {what}; check that it is up and that OPENAI_BASE_URL or AZURE_OPENAI_ENDPOINT is right."
        f"{RESUME_HINT}"
    )


class _TemperatureRefused(Exception):
    """A call that carried a temperature was refused for it (never retried as a transport fault)."""

    def __init__(self, error: openai.BadRequestError) -> None:
        super().__init__(str(error))
        self.error = error


def _refuses_temperature(exc: openai.BadRequestError) -> bool:
    """Whether a 400 is about the temperature (reasoning models accept only their default)."""
    body = exc.body if isinstance(exc.body, dict) else {}
    return body.get("param") == "temperature" or "temperature" in str(body.get("message") or exc.message)


def _is_quota_exhausted(exc: openai.RateLimitError) -> bool:
    body = exc.body if isinstance(exc.body, dict) else {}
    code = body.get("code") or (body.get("error") or {}).get("code") if body else None
    return code == "insufficient_quota"
