"""Fitting answers into an OpenAI-compatible server's context, as the local backends do.

A server that says how long its context is (vLLM reports `max_model_len` in `/v1/models`;
`--max-model-len` can lower it or stand in for it) and can count a prompt's tokens (vLLM's
`POST /tokenize`, at the server's root) lets each request ask for no more tokens than its
prompt leaves, and lets a prompt that does not fit at all be recorded as the model's failure
without a request. A server that cannot do both gets `max_tokens` as given.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import httpx
import openai

from eval_backend.benchmarks.prompting import Prompt

logger = logging.getLogger(__name__)

TOKENIZE_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class Budget:
    """What one item may ask for: `max_tokens`, or the `error` that its prompt does not fit."""

    max_tokens: int
    error: str | None = None


class ServedContext:
    """The context length of the served model and a way to count a prompt's tokens against it."""

    def __init__(self, length: int | None, tokenize_url: str | None, headers: dict[str, str]) -> None:
        self.length = length
        self._tokenize_url = tokenize_url if length else None
        self._headers = headers

    @classmethod
    async def discover(
        cls, client: openai.AsyncOpenAI, model: str, base_url: str, max_model_len: int | None, api_key: str
    ) -> ServedContext:
        """The served model's context (the smaller of the server's and `max_model_len`), if known."""
        lengths = [n for n in (await served_max_model_len(client, model), max_model_len) if n]
        length = min(lengths) if lengths else None
        if length is None:
            logger.warning("the endpoint does not report its context length: answers are not capped to fit")
        return cls(length, tokenize_url(base_url), {"Authorization": f"Bearer {api_key}"})

    async def budget(self, http: httpx.AsyncClient, model: str, prompt: Prompt, max_tokens: int) -> Budget:
        """`max_tokens` capped to the room the prompt leaves, or the error that it leaves none."""
        if self._tokenize_url is None:
            return Budget(max_tokens)
        count = await self._count(http, model, prompt)
        if count is None:
            return Budget(max_tokens)
        room = self.length - count  # type: ignore[operator]
        if room <= 0:
            return Budget(0, f"prompt of {count} tokens does not fit the context of {self.length}")
        return Budget(min(max_tokens, room))

    async def _count(self, http: httpx.AsyncClient, model: str, prompt: Prompt) -> int | None:
        body: dict[str, Any] = {"model": model}
        if prompt.is_chat:
            body.update(messages=prompt.chat_messages(), add_generation_prompt=True)
        else:
            body["prompt"] = str(prompt.text)
        try:
            response = await http.post(self._tokenize_url, json=body, headers=self._headers)  # type: ignore[arg-type]
            response.raise_for_status()
            count = response.json().get("count")
        except (httpx.HTTPError, ValueError, AttributeError) as exc:
            # Counting is an aid, not a requirement: without it the request goes as asked.
            logger.warning("cannot count prompt tokens at %s (%s): answers are not capped to fit",
                           self._tokenize_url, type(exc).__name__)
            self._tokenize_url = None
            return None
        return count if isinstance(count, int) and count >= 0 else None


async def served_max_model_len(client: openai.AsyncOpenAI, model: str) -> int | None:
    """`max_model_len` of `model` (or of the only model served) in `/v1/models`, if reported."""
    try:
        page = await client.models.list()
    except openai.APIError:
        return None
    entries = [entry.model_dump() for entry in page.data]
    chosen = [entry for entry in entries if entry.get("id") == model] or (entries if len(entries) == 1 else [])
    length = chosen[0].get("max_model_len") if chosen else None
    return length if isinstance(length, int) and length > 0 else None


def tokenize_url(base_url: str) -> str:
    """vLLM's tokenizer route, at the server's root beside `/v1`."""
    root = base_url.rstrip("/")
    root = root[: -len("/v1")] if root.endswith("/v1") else root
    return f"{root}/tokenize"
