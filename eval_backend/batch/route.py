"""Where batch requests go and how large one input file may be, per provider."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from eval_backend.settings import JudgeSettings

MB = 1_000_000


@dataclass(frozen=True)
class BatchRoute:
    """One provider's batch shape: the `url` of every input line (also the batch's `endpoint`) and
    the most requests and bytes one input file may hold."""

    name: str
    url: str
    max_requests: int
    max_bytes: int


# OpenAI: a file of at most 50,000 requests and 200 MB, every line POSTed to /v1/chat/completions.
OPENAI = BatchRoute("openai", "/v1/chat/completions", 50_000, 200 * MB)
# Azure OpenAI global batch: 100,000 requests and 200 MB a file, the deployment named as each line's model.
AZURE = BatchRoute("azure", "/chat/completions", 100_000, 200 * MB)


def batch_route(settings: JudgeSettings) -> BatchRoute:
    """The route of the configured judge, with the settings' lower limits (never above the provider's)."""
    route = AZURE if settings.uses_azure else OPENAI
    return dataclasses.replace(
        route,
        max_requests=min(route.max_requests, settings.batch_max_requests or route.max_requests),
        max_bytes=min(route.max_bytes, int(settings.batch_max_mb * MB)),
    )
