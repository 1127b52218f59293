"""Run folders as real boards hold them: 100-character model ids, and answers in several scripts.

The dataset's prompts are in Devanagari, Tamil and Bengali (`hub_dataset.py`); one model answers
in Shahmukhi (right to left), one with markdown and HTML that must show as text, not run.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.run_folders import EvaluatedData, ModelProfile, build_evaluated_data

__all__ = ["LONG_IDS", "MARKUP_ANSWER", "SHAHMUKHI_ANSWER", "build_readable_data"]

ID_CHARS = 100
SHAHMUKHI_ANSWER = "ملتان ہک پراݨا شہر ہے۔ ایندے انب مٹھے ہن۔ "
MARKUP_ANSWER = "**Bold claim** <img src=x onerror=alert(1)> <script>alert(2)</script> "


def long_id(org: str, stem: str) -> str:
    """A valid Hub id of exactly ID_CHARS characters (`org/stem-instruct-xxxx…`)."""
    return f"{org}/{stem}-instruct-".ljust(ID_CHARS, "x")


LONG_IDS = (
    long_id("indic-nlp-collective", "sarvam-hindi-tamil-bengali-longform-writer-v2"),
    long_id("another-very-long-organisation-name", "llama-3.1-8b-indic-finetune"),
)


def build_readable_data(root: Path) -> EvaluatedData:
    """Three complete runs: two 100-character ids (one answering in Shahmukhi, one in markup) and a short one."""
    profiles = (
        ModelProfile(LONG_IDS[0], 9, extra_text=SHAHMUKHI_ANSWER),
        ModelProfile(LONG_IDS[1], 7, extra_text=MARKUP_ANSWER),
        ModelProfile("acme/short-1b", 5),
    )
    return build_evaluated_data(root, profiles)
