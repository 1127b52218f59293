"""The one way the engine reaches the Hugging Face Hub: an HfApi built from the Hub settings."""

from __future__ import annotations

from huggingface_hub import HfApi

from eval_backend.settings import HubSettings


def hub_api(settings: HubSettings) -> HfApi:
    """An HfApi for the configured endpoint and token (never the machine's saved login)."""
    token = settings.hf_token.get_secret_value() if settings.hf_token else False
    return HfApi(endpoint=settings.hf_endpoint, token=token)
