"""QA runs whose answers' length tells right from wrong: the style-controlled view has a length effect to find.

The verbose model (a 100-character id, Devanagari in it) answers at length, and right, only the
questions of even length; otherwise briefly and wrongly. The terse model answers every question right
in a few words; the hedging one never right. Every run is evaluated by the real engine against the
stand-in servers (`qa_runs.build_qa_runs`), which report token counts for every answer.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.qa_runs import QaData, QaProfile, build_qa_runs

VERBOSE_ID = "verbose-lab/" + "ल" * 20 + "-" + "x" * 67
TERSE_ID = "terse-lab/exact-7b"
HEDGING_ID = "hedging-lab/unsure-1b"
PADDING = " यह उत्तर विस्तार से समझाया गया है, हर पहलू के साथ।" * 12


def _verbose(question: str, golden: str) -> str:
    return f"The answer is {golden}.{PADDING}" if len(question) % 2 == 0 else "Unsure."


STYLE_PROFILES = (
    QaProfile(VERBOSE_ID, _verbose),
    QaProfile(TERSE_ID, lambda question, golden: f"{golden}."),
    QaProfile(HEDGING_ID, lambda question, golden: f"It is not {golden}, I think."),
)


def build_qa_style_runs(root: Path) -> QaData:
    """The three runs above under `root` (the dataset beside them)."""
    assert len(VERBOSE_ID) == 100
    return build_qa_runs(root, STYLE_PROFILES)
