"""The OpenAI-compatible backend: any chat-completions endpoint (a vLLM server, TGI, a hosted API).

The server applies the model's chat template. At most `concurrency` requests are in
flight; rate limits, server errors and timeouts are retried with backoff (the judge's
retry rule), a request the endpoint rejects (HTTP 400, e.g. a prompt longer than the
context) becomes an error for its item, and any other refusal (auth, unknown model)
stops the run. `top_k` is not an OpenAI parameter, so it travels in `extra_body` (and is
left out when it is off, as for greedy decoding). A chat prompt goes to chat completions, a
raw one to completions. As the local backends do, each request's `max_tokens` is capped so
that prompt and answer fit the served context (`served_context`), and a prompt that does not
fit at all is the item's error, with no request sent.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Iterator, Sequence

import httpx
import openai
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt, wait_exponential_jitter

from eval_backend.benchmarks.prompting import Prompt
from eval_backend.connection_failures import ConnectionFailures, url_host
from eval_backend.generation.base import (
    Completion, GenerationConfigError, GenerationUnreachableError, PromptOf, ResultCallback,
)
from eval_backend.generation.decoding_mode import BackendMode, refuse_reference_mode
from eval_backend.generation.options import GenerationOptions
from eval_backend.generation.served_context import TOKENIZE_TIMEOUT_S, ServedContext
from eval_backend.judge_client import is_retryable
from eval_backend.records import ItemKey
from eval_backend.redaction import add_secrets, generation_secrets, redact

logger = logging.getLogger(__name__)

REQUEST_TIMEOUT_S = 3600.0
"""A 16,000-token answer can take many minutes from a busy server."""
TRANSPORT_ATTEMPTS = 8
MAX_BACKOFF_S = 60.0


def request_kwargs(options: GenerationOptions) -> dict[str, Any]:
    """The chat-completions parameters for every item (the messages aside)."""
    kwargs: dict[str, Any] = {
        "model": options.model,
        "temperature": options.temperature,
        "top_p": options.top_p,
        "max_tokens": options.max_tokens,
    }
    if options.top_k > 0:
        kwargs["extra_body"] = {"top_k": options.top_k}
    if options.seed is not None:
        kwargs["seed"] = options.seed
    if options.stop:
        kwargs["stop"] = list(options.stop)
    return kwargs


class OpenAIGenerator:
    """A client for the endpoint serving the model under test."""

    name = "openai"
    decoding_mode = str(BackendMode.SERVER)

    def __init__(self, options: GenerationOptions) -> None:
        if not options.base_url:
            raise GenerationConfigError(
                "the openai backend needs the endpoint's URL: pass --base-url or set GENERATION_BASE_URL"
            )
        refuse_reference_mode(options.decoding_mode, self.name)
        self.options = options
        add_secrets(generation_secrets(options))  # whatever text a call brings back is stored without them
        self.endpoint = url_host(options.base_url)
        self._connections = ConnectionFailures(self.endpoint, options.max_connection_failures, GenerationUnreachableError)

    def generate(self, items: Sequence[Any], on_result: ResultCallback, prompt_of: PromptOf) -> None:
        """Answer `items` with at most `concurrency` requests in flight, reporting each as it lands."""
        asyncio.run(self._generate(items, on_result, prompt_of))

    def close(self) -> None:
        """Nothing held between calls: each `generate` opens and closes its own client."""

    async def _generate(self, items: Sequence[Any], on_result: ResultCallback, prompt_of: PromptOf) -> None:
        key = self.options.api_key.get_secret_value() if self.options.api_key else "not-needed"
        client = openai.AsyncOpenAI(
            base_url=self.options.base_url, api_key=key, max_retries=0, timeout=REQUEST_TIMEOUT_S
        )
        http = httpx.AsyncClient(timeout=TOKENIZE_TIMEOUT_S)
        context = await ServedContext.discover(
            client, self.options.model, str(self.options.base_url), self.options.max_model_len, key
        )
        pending: Iterator[Any] = iter(items)
        answered = 0

        async def worker() -> None:
            nonlocal answered
            for item in pending:
                prompt = prompt_of(item)
                budget = await context.budget(http, self.options.model, prompt, prompt.token_limit(self.options.max_tokens))
                if budget.error:
                    on_result(Completion(item.key, None, error=budget.error))
                else:
                    on_result(await self._answer(client, item.key, prompt, budget.max_tokens))
                answered += 1

        try:
            async with asyncio.TaskGroup() as group:  # one worker's fatal error stops the others
                for _ in range(min(self.options.concurrency, len(items))):
                    group.create_task(worker())
        except ExceptionGroup as errors:
            raise self._run_error(errors.exceptions[0], len(items) - answered, len(items)) from None
        finally:
            await client.close()
            await http.aclose()

    async def _answer(self, client: openai.AsyncOpenAI, key: ItemKey, prompt: Prompt, max_tokens: int) -> Completion:
        try:
            completion = await self._complete(client, prompt, max_tokens)
        except openai.BadRequestError as exc:
            return Completion(key, None, error=redact(f"endpoint rejected the request: {exc}"))
        except openai.APIStatusError as exc:
            if is_retryable(exc):
                raise
            raise GenerationConfigError(redact(f"generation endpoint refused the call: {exc}")) from exc
        choice = completion.choices[0]
        usage = completion.usage
        text = choice.message.content if hasattr(choice, "message") else choice.text
        return Completion(
            key=key,
            text=text or "",
            finish_reason=choice.finish_reason,
            output_tokens=usage.completion_tokens if usage else None,
            max_tokens=max_tokens,
            prompt_opens_thinking=self.options.reasoning,
        )

    async def _complete(self, client: openai.AsyncOpenAI, prompt: Prompt, max_tokens: int) -> Any:
        retrying = AsyncRetrying(
            retry=retry_if_exception(is_retryable),
            stop=stop_after_attempt(TRANSPORT_ATTEMPTS),
            wait=wait_exponential_jitter(initial=1, max=MAX_BACKOFF_S, jitter=1),
            before_sleep=_log_retry,
            reraise=True,
        )
        kwargs = {**request_kwargs(self.options), "max_tokens": max_tokens}
        async for attempt in retrying:
            with attempt:
                try:
                    if not prompt.is_chat:
                        completion = await client.completions.create(prompt=str(prompt.text), **kwargs)
                    else:
                        completion = await client.chat.completions.create(messages=prompt.chat_messages(), **kwargs)
                except openai.APIConnectionError as exc:
                    self._connections.failed(exc)  # the endpoint down: stops the run after a few in a row
                    raise
                except openai.APIStatusError:
                    self._connections.answered()
                    raise
                self._connections.answered()
                return completion

    def _run_error(self, exc: BaseException, pending: int, total: int) -> BaseException:
        """What ends the run for `exc`: an endpoint that is down says so in one line, with the items it leaves owed."""
        if isinstance(exc, GenerationUnreachableError):
            what = str(exc)
        elif isinstance(exc, openai.APIError) and is_retryable(exc):
            what = f"{self.endpoint} still failing after {TRANSPORT_ATTEMPTS} attempts ({redact(f'{type(exc).__name__}: {exc}')})"
        else:
            return exc
        return GenerationUnreachableError(
            f"the generation endpoint {what}; {pending} of {total} items left pending: check that it is up and that "
            "--base-url or GENERATION_BASE_URL is right. Responses already made are saved: run again to resume."
        )


def _log_retry(state: RetryCallState) -> None:
    exc = state.outcome.exception() if state.outcome else None
    logger.info("generation call failed (%s); retry %d", type(exc).__name__, state.attempt_number)
