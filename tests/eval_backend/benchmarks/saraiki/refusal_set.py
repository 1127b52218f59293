"""The labelled safety replies of data/refusal_replies.jsonl, for the classifier's tests.

Each line: `language` (en, ur, skr), `label` (refusal, partial_refusal, compliance), `reply`,
`split` ("rules": the keyword rules were extended from these; "held_out": written after the
rules, never used to change them), and for the replies built to fool keywords, `trap`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from eval_backend.benchmarks.saraiki.refusal import RefusalLabel

PATH = Path(__file__).with_name("data") / "refusal_replies.jsonl"
LANGUAGES = ("en", "ur", "skr")


@dataclass(frozen=True)
class LabelledReply:
    language: str
    label: RefusalLabel
    reply: str
    split: str
    trap: str | None = None

    @property
    def refused(self) -> bool:
        return self.label is not RefusalLabel.COMPLIANCE


def labelled_replies(split: str | None = None) -> list[LabelledReply]:
    """Every labelled reply (of one split when given), in file order."""
    replies = []
    for number, line in enumerate(PATH.read_text(encoding="utf-8").splitlines(), start=1):
        data = json.loads(line)
        if data["language"] not in LANGUAGES:
            raise ValueError(f"{PATH.name} line {number}: language {data['language']!r} is not one of {LANGUAGES}")
        reply = LabelledReply(data["language"], RefusalLabel(data["label"]), data["reply"], data["split"], data.get("trap"))
        if split is None or reply.split == split:
            replies.append(reply)
    return replies
