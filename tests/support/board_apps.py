"""What the shared board server (`board_app` in tests/leaderboard/conftest.py) holds besides the evaluated runs."""

from __future__ import annotations

from eval_backend.benchmarks.chat_mode import ChatMode

QUEUED = (("org/base-model", "saraiki", ChatMode.RAW), ("org/chat-model", "indic_qa", ChatMode.CHAT))
"""The requests waiting in its queue: (model, benchmark, prompt mode)."""
QUEUED_REVISION = "0123456789abcdef0123456789abcdef01234567"
QUEUED_BY = "views-tester"
READ_ONLY_USER = "browser-tester"
"""Who the app says is submitting (LOCAL_USER): nothing a test submits there is queued, each is refused."""
