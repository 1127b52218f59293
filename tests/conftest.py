"""Test-wide isolation: no network, no real credentials, caches in a temp folder."""

from __future__ import annotations

import os
import tempfile

# Set before any test module imports `datasets` or `huggingface_hub`, which read these once.
_CACHE = tempfile.mkdtemp(prefix="wb-test-cache-")
os.environ.update(
    HF_HOME=_CACHE,
    HF_DATASETS_CACHE=os.path.join(_CACHE, "datasets"),
    HF_HUB_OFFLINE="1",
    HF_DATASETS_OFFLINE="1",
    HF_HUB_DISABLE_TELEMETRY="1",
    GRADIO_ANALYTICS_ENABLED="False",
    TOKENIZERS_PARALLELISM="false",
)
for _name in (
    "OPENAI_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_KEY",
    "JUDGE_MODEL", "HF_TOKEN", "DATA_DIR", "WB_DATASET", "QUEUE_URL", "QUEUE_PATH",
):
    os.environ.pop(_name, None)


import pytest  # noqa: E402  (after the environment above is set)


@pytest.fixture(scope="session")
def postgres_server():  # type: ignore[no-untyped-def]
    """One real PostgreSQL server for the whole session (tests/support/postgres.py), started on first use."""
    from tests.support.postgres import running_server

    yield from running_server()
